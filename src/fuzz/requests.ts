/**
 * The request fuzzer: fast-check generates cases (./cases.ts) from a seed, the target answers them, and the oracles
 * (./oracles.ts) judge each answer. It runs in two phases, so that it is both fast and replayable:
 *
 * 1. Detection (./detect.ts): fast-check draws case after case, up to `concurrency` of them in flight at once,
 *    paced by `--rate`; on several threads (./threads.ts) each draws its own range of the same seed. Case n of
 *    seed S is exactly the value fast-check replays with `{seed: S, path: "n"}`.
 * 2. Shrinking: for the first case each failing oracle caught, fast-check replays `path: "n"` against the target
 *    with a property that fails when that oracle does, and shrinks it one request at a time. The shrunk case's path
 *    (`n:a:b:...`) replays it directly: `cardspec fuzz --seed S --path n:a:b`.
 *
 * Every loop is bounded by a count (runs, failing cases, shrink steps) and by the deadline.
 */
import fc from 'fast-check';
import type { OperationRow } from '../../schemas/operations';
import { redact, redactText } from '../redact';
import type { Target } from '../client/target';
import type { Format } from '../wire/types';
import { PLAIN_XML } from '../../generators/xml';
import { caseArbitrary, envelopeOf, type FuzzCase } from './cases';
import type { ExpectContext } from './expect';
import { detect, emptyDetection, evaluate, type Detection, type OracleStats } from './detect';
import { ORACLES, ruleOfFailure, type CaseRun, type Oracle, type OracleContext, type Severity } from './oracles';
import type { Deadline, RateLimiter } from './pace';
import type { Pool } from './pool';
import { expectContextOf, runCase } from './run-case';
import { detectOnThreads } from './threads';

export type { OracleStats } from './detect';
export { expectContextOf, runCase } from './run-case';

export interface RequestFuzzOptions {
  /** The target, speaking `format`. */
  readonly target: Target;
  readonly format: Format;
  readonly pool: Pool;
  readonly alias: string;
  readonly oracleContext: OracleContext;
  readonly seed: number;
  /** The first case index (a `--shard`'s range of the seed; 0 when absent) and the number of cases from it. */
  readonly start?: number;
  readonly runs: number;
  readonly concurrency: number;
  /** Threads for detection (1: this one). More are used only without --rate and with the built-in oracles. */
  readonly threads?: number;
  readonly rate?: RateLimiter;
  readonly deadline: Deadline;
  /** Replay one case (`n` or `n:a:b...`) instead of a run. */
  readonly path?: string;
  /** Stop sending new cases once this many cases failed an error oracle. */
  readonly maxFailingCases: number;
  /** Requests one shrink may send. */
  readonly shrinkSteps: number;
  /** Failing oracles shrunk per run (the first of each, errors before warnings). */
  readonly maxShrunk: number;
  readonly oracles?: readonly Oracle[];
  readonly rows?: readonly OperationRow[];
  readonly onProgress?: (done: number, failing: number) => void;
}

/** A failure, shrunk where it could be, everything in it masked. */
export interface Counterexample {
  readonly property: string;
  readonly format: Format;
  readonly oracle: string;
  readonly rule: string;
  readonly severity: Severity;
  readonly seed: number;
  /** The fast-check path that replays this case. */
  readonly path: string;
  readonly message: string;
  /** What the case changed (mutation or envelope change), in words. */
  readonly what: string;
  /** The request envelope sent (JSON form), masked. */
  readonly request: unknown;
  /** The body as sent, masked (the XML block, or the JSON text). */
  readonly body: string;
  readonly url: string;
  readonly status?: number;
  /** The answer, masked and cut. */
  readonly answer: string;
  readonly shrinks: number;
  /** False when the case did not fail again when replayed (the target changed in between). */
  readonly reproduced: boolean;
}

export interface RequestFuzzOutcome {
  readonly property: 'requests';
  readonly format: Format;
  readonly seed: number;
  readonly sent: number;
  readonly stats: ReadonlyMap<string, OracleStats>;
  readonly expectations: Readonly<Record<'valid' | 'invalid' | 'refused' | 'open', number>>;
  readonly counterexamples: readonly Counterexample[];
  /** The run stopped early (deadline, or too many failing cases). */
  readonly stoppedEarly?: string;
  readonly durationMs: number;
  /** Threads the detection ran on. */
  readonly threads: number;
}

const MAX_ANSWER = 2000;

/** A short description of what a case changed. */
export function describeCase(c: FuzzCase): string {
  const parts = [`row ${c.row}`];
  if (c.mutation) parts.push(`${c.mutation.kind} of ${c.mutation.field} (${c.mutation.detail})`);
  else if (c.envelopeChange) parts.push(`envelope: ${c.envelopeChange.kind}`);
  else parts.push('valid request');
  if (c.xml && (c.xml.declaration !== PLAIN_XML.declaration || c.xml.leadingBlankLine !== PLAIN_XML.leadingBlankLine)) {
    parts.push(`XML ${c.xml.declaration ? 'with' : 'without'} declaration${c.xml.leadingBlankLine ? ', blank first line' : ''}`);
  }
  return parts.join(', ');
}

function counterexample(opts: RequestFuzzOptions, oracle: Oracle, path: string, message: string, run: CaseRun, shrinks: number, reproduced: boolean): Counterexample {
  const ex = run.exchange;
  const answer = ex.responseText || ex.error || '';
  return {
    property: 'requests',
    format: opts.format,
    oracle: oracle.name,
    rule: ruleOfFailure(oracle, run),
    severity: oracle.severity,
    seed: opts.seed,
    path,
    message: redactText(message),
    what: redactText(describeCase(run.case)),
    request: redact(envelopeOf(run.case, opts.alias)),
    body: ex.requestText,
    url: ex.url,
    status: ex.status,
    answer: redactText(answer.length > MAX_ANSWER ? `${answer.slice(0, MAX_ANSWER)}...` : answer),
    shrinks,
    reproduced,
  };
}

/** Runs the request fuzzer (or replays one path) against one target in one format. */
export async function fuzzRequests(opts: RequestFuzzOptions): Promise<RequestFuzzOutcome> {
  const started = performance.now();
  const oracles = opts.oracles ?? ORACLES;
  const ectx = expectContextOf(opts.pool.context, opts.pool.made, opts.alias);
  const arb = caseArbitrary({ context: opts.pool.context, alias: opts.alias, format: opts.format, rows: opts.rows });
  const outcome = (found: Detection, counterexamples: Counterexample[], threads = 1): RequestFuzzOutcome => ({
    property: 'requests',
    format: opts.format,
    seed: opts.seed,
    sent: found.sent,
    stats: new Map<string, OracleStats>(oracles.map((o) => [o.name, found.stats[o.name] ?? { checked: 0, failed: 0 }])),
    expectations: found.expectations,
    counterexamples,
    stoppedEarly: found.stoppedEarly,
    durationMs: performance.now() - started,
    threads,
  });

  if (opts.path !== undefined) {
    // Replay: the one case at `path`, every oracle, no shrinking.
    const path = opts.path;
    const found = emptyDetection(oracles);
    await fc.check(
      fc.asyncProperty(arb, async (c) => {
        await opts.rate?.take();
        const run = await runCase(c, opts, ectx);
        found.sent++;
        await evaluate(found, run, -1, opts.oracleContext, oracles);
        return true;
      }),
      { seed: opts.seed, path, numRuns: 1 },
    );
    const counterexamples = Object.entries(found.firsts).map(([name, f]) =>
      counterexample(
        opts,
        oracles.find((o) => o.name === name)!,
        path,
        f.message,
        f.run,
        0,
        true,
      ),
    );
    return outcome(found, counterexamples);
  }

  // Phase 1: detection, concurrent and paced; on threads where that is safe (one rate limiter and custom oracles
  // live in this thread only).
  const threads = opts.threads !== undefined && opts.threads > 1 && !opts.rate && !opts.oracles && opts.runs > 1 ? opts.threads : 1;
  const found =
    threads > 1
      ? await detectOnThreads({
          threads,
          oracles,
          target: opts.target.options,
          control: opts.oracleContext.control?.options,
          pans: opts.oracleContext.pans,
          context: opts.pool.context,
          made: [...opts.pool.made],
          alias: opts.alias,
          format: opts.format,
          rows: opts.rows?.map((r) => r.id),
          seed: opts.seed,
          start: opts.start,
          count: opts.runs,
          concurrency: opts.concurrency,
          remainingMs: opts.deadline.remainingMs,
          maxFailingCases: opts.maxFailingCases,
          onProgress: opts.onProgress,
        })
      : await detect({
          target: opts.target,
          format: opts.format,
          alias: opts.alias,
          arb,
          ectx,
          oracles,
          oracleContext: opts.oracleContext,
          seed: opts.seed,
          start: opts.start ?? 0,
          count: opts.runs,
          concurrency: opts.concurrency,
          rate: opts.rate,
          deadline: opts.deadline,
          maxFailingCases: opts.maxFailingCases,
          onProgress: opts.onProgress,
        });

  // Phase 2: shrink the first failure of each oracle, errors first.
  const counterexamples: Counterexample[] = [];
  const order = Object.entries(found.firsts).sort(([a], [b]) => rank(oracles, a) - rank(oracles, b));
  for (const [name, f] of order) {
    const oracle = oracles.find((o) => o.name === name)!;
    if (opts.shrinkSteps === 0 || counterexamples.length >= opts.maxShrunk || opts.deadline.passed || f.index < 0 || found.targetGone) {
      counterexamples.push(counterexample(opts, oracle, String(f.index), f.message, f.run, 0, true));
      continue;
    }
    counterexamples.push(await shrink(opts, arb, oracle, f.index, f, ectx));
  }
  return outcome(found, counterexamples, threads);
}

function rank(oracles: readonly Oracle[], name: string): number {
  const i = oracles.findIndex((o) => o.name === name);
  return (oracles[i]?.severity === 'error' ? 0 : 1000) + i;
}

async function shrink(opts: RequestFuzzOptions, arb: fc.Arbitrary<FuzzCase>, oracle: Oracle, index: number, found: { message: string; run: CaseRun }, ectx: ExpectContext): Promise<Counterexample> {
  let steps = 0;
  let last: { run: CaseRun; message: string } | undefined;
  const details = await fc.check(
    fc.asyncProperty(arb, async (c) => {
      if (steps >= opts.shrinkSteps || opts.deadline.passed) return true;
      steps++;
      await opts.rate?.take();
      const run = await runCase(c, opts, ectx);
      if (!oracle.applies(run)) return true;
      const message = await oracle.check(run, opts.oracleContext);
      if (message === undefined) return true;
      last = { run, message };
      return false;
    }),
    { seed: opts.seed, path: String(index), numRuns: 1 },
  );
  if (details.failed && last) {
    return counterexample(opts, oracle, details.counterexamplePath ?? String(index), last.message, last.run, details.numShrinks, true);
  }
  return counterexample(opts, oracle, String(index), found.message, found.run, 0, false);
}
