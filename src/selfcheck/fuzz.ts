/**
 * The short fuzz run of the self-check: `cardspec fuzz` (src/fuzz) against one variant, with a fixed seed so that
 * two runs of the self-check send the same cases, few requests, one sequence per model and no shrinking (the
 * self-check needs only whether, and under which rule, the fuzzer complained). Its failures are kept by the rule
 * each oracle or model names, to score what fuzzing alone catches.
 */
import { redactText } from '../redact';
import { builtinConnection } from '../client/connection';
import type { Format } from '../wire/types';
import type { FuzzOutcome } from './types';

export interface ShortFuzz {
  /** Generated requests per format. */
  readonly runs: number;
  /** Command sequences per stateful model and format. */
  readonly modelRuns: number;
  readonly seed: number;
}

/** The self-check's default: a few seconds per variant on the project's 2-core machine. */
export const SHORT_FUZZ: ShortFuzz = { runs: 80, modelRuns: 1, seed: 20260105 };

export async function runShortFuzz(baseUrl: string, formats: readonly Format[], opts: ShortFuzz = SHORT_FUZZ): Promise<FuzzOutcome> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  let fuzz: typeof import('../fuzz');
  try {
    fuzz = await import('../fuzz');
  } catch (e) {
    return { ran: false, failures: [], problems: [redactText(`the fuzzer could not be loaded: ${(e as Error).message.split('\n')[0]}`)], durationMs: elapsed() };
  }
  // The built-in profile's connection, read the way `fuzz` reads it (src/client/connection.ts).
  const { profile, user, password, alias, site } = builtinConnection();
  try {
    const result = await fuzz.runFuzz(
      {
        target: baseUrl,
        profile,
        formats,
        properties: [...fuzz.PROPERTIES],
        runs: opts.runs,
        modelRuns: opts.modelRuns,
        maxCommands: 12,
        seed: opts.seed,
        timeoutMs: 5000,
        concurrency: 4,
        maxTimeMs: 60_000,
        maxFailures: 3,
        shrinkSteps: 0,
        user,
        password,
        alias,
        site,
        allowLive: false,
        replayArgs: ['--target', baseUrl],
      },
      { out: { write: () => undefined }, tty: false },
    );
    const { report } = result;
    const failures = [
      ...report.requests.flatMap((o) => o.counterexamples.filter((c) => c.severity === 'error').map((c) => ({ rule: c.rule, what: redactText(`${c.oracle} [${c.format}]: ${c.message}`) }))),
      ...report.models.flatMap((m) => (m.counterexample ? [{ rule: m.counterexample.rule, what: redactText(`model ${m.property} [${m.format}]: ${m.counterexample.message}`) }] : [])),
    ];
    const problems = [...report.problems, ...report.models.flatMap((m) => (m.problem ? [`${m.property}: ${m.problem}`] : []))].map((p) => redactText(p));
    return { ran: true, failures, problems, durationMs: elapsed() };
  } catch (e) {
    return { ran: false, failures: [], problems: [redactText(`the fuzz run failed: ${(e as Error).message.split('\n')[0]}`)], durationMs: elapsed() };
  }
}
