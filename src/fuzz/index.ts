/**
 * `cardspec fuzz` as a function: the request fuzzer (./requests.ts) and the stateful models (./models) against one
 * target, per format, with one deadline over everything. The CLI (src/cli/fuzz.ts) parses options into a plan and
 * prints the report; tests call `runFuzz` directly with a plan and an output to read.
 *
 * The built-in target is a fresh reference gateway per property and format, so that a replay (`--seed --path`)
 * meets the same target state as the run that found the failure.
 */
import { redactText, registerSecret } from '../redact';
import type { LedgerStats } from '../gateway/ledger';
import { controlClientFor, openTarget, reachTarget, type ReachedTarget } from '../client/connection';
import type { ControlClient } from '../client/control';
import type { Target } from '../client/target';
import type { Format } from '../wire/types';
import { fuzzModel, missingFor, MODELS, type ModelEnv, type ModelOutcome } from './models';
import type { OracleContext } from './oracles';
import { Deadline, RateLimiter } from './pace';
import { buildPool, profileCards } from './pool';
import type { FuzzPlan } from './plan';
import { Progress, type ProgressSink } from './progress';
import { renderReport, verdictOf, type Report } from './report';
import { ranges } from './threads';
import { fuzzRequests, type RequestFuzzOutcome } from './requests';
import { checkSafety } from './safety';

export const REQUESTS_PROPERTY = 'requests';
/**
 * The ledger window of the built-in target a fuzz run starts (`--target builtin`): its cases name only the pool's
 * transactions and their own parts, so ten thousand is plenty, and a run of millions of cases keeps a ledger of tens
 * of MiB (docs/gateway.md "What the ledger keeps").
 */
export const BUILTIN_MAX_RECORDS = 10_000;
export const PROPERTIES: readonly string[] = [REQUESTS_PROPERTY, ...MODELS.map((m) => m.name)];

export interface FuzzIO {
  readonly out: ProgressSink;
  /** Draw progress bars (a terminal) or print a line now and then. */
  readonly tty: boolean;
}

export interface FuzzResult {
  /** 0 PASSED, 1 FAILED, 3 INCOMPLETE (see `verdictOf`). */
  readonly exitCode: 0 | 1 | 3;
  readonly report: Report;
  readonly text: string;
  /** What the ledger of each built-in gateway the run started held when it closed (none against another target). */
  readonly builtinLedgers: readonly LedgerStats[];
}

function targetFor(plan: FuzzPlan, baseUrl: string, format: Format): Target {
  return openTarget(plan, baseUrl, format, { limits: { ...plan.profile.limits, totalTimeoutMs: plan.timeoutMs } });
}

function controlFor(plan: FuzzPlan, baseUrl: string): ControlClient | undefined {
  const caps = plan.profile.capabilities;
  if (!caps.clock && !caps.ledger && !caps.cachetokens) return undefined;
  return controlClientFor(plan, baseUrl, { limits: { ...plan.profile.limits, totalTimeoutMs: plan.timeoutMs } });
}

export async function runFuzz(plan: FuzzPlan, io: FuzzIO): Promise<FuzzResult> {
  const unsafe = checkSafety(plan.site, plan.allowLive);
  if (unsafe) throw new Error(unsafe);
  registerSecret(plan.password);
  const deadline = Deadline.after(plan.maxTimeMs);
  const rate = plan.rate !== undefined ? new RateLimiter(plan.rate) : undefined;
  const pans = profileCards(plan.profile).map((c) => c.pan);
  const runId = plan.seed.toString(36);
  const requests: RequestFuzzOutcome[] = [];
  const models: ModelOutcome[] = [];
  const problems: string[] = [];
  // This shard's range of the request cases, and its models (all of them without --shard).
  const shard = plan.shard;
  const range = shard && plan.path === undefined ? (ranges(0, plan.runs, shard.count)[shard.index - 1] ?? { start: 0, count: 0 }) : { start: 0, count: plan.runs };
  const modelsHere = MODELS.filter((_m, i) => !shard || plan.path !== undefined || i % shard.count === shard.index - 1);
  const builtinLedgers: LedgerStats[] = [];
  // Every property starts its own target (the built-in one with the fuzzer's ledger window) and closes it after.
  const reach = async (): Promise<ReachedTarget> => {
    const opened = await reachTarget(plan, { maxRecords: plan.builtinMaxRecords ?? BUILTIN_MAX_RECORDS });
    return {
      baseUrl: opened.baseUrl,
      close: async () => {
        if (opened.ledger) builtinLedgers.push(opened.ledger());
        await opened.close();
      },
    };
  };

  for (const format of plan.formats) {
    if (plan.properties.includes(REQUESTS_PROPERTY) && range.count > 0) {
      const opened = await reach();
      const target = targetFor(plan, opened.baseUrl, format);
      const setupTarget = targetFor(plan, opened.baseUrl, 'json');
      const control = controlFor(plan, opened.baseUrl);
      try {
        const pool = await buildPool({ target: setupTarget, control, profile: plan.profile, site: plan.site, runId: `${runId}${format}`, rate });
        problems.push(...pool.problems.map((p) => `${format.toUpperCase()}: ${p}`));
        const oracleContext: OracleContext = { control: plan.profile.capabilities.ledger ? control : undefined, pans };
        const total = plan.path !== undefined ? 1 : range.count;
        const progress = new Progress(io.out, io.tty, `requests ${format.toUpperCase()}`, total);
        const outcome = await fuzzRequests({
          target,
          format,
          pool,
          alias: plan.alias,
          oracleContext,
          seed: plan.seed,
          start: range.start,
          runs: range.count,
          concurrency: plan.concurrency,
          threads: plan.threads,
          rate,
          deadline,
          path: plan.path,
          maxFailingCases: plan.maxFailures,
          shrinkSteps: plan.shrinkSteps,
          maxShrunk: 6,
          ...(plan.oracles ? { oracles: plan.oracles } : {}),
          onProgress: (done, failing) => progress.update(done, failing),
        });
        progress.end();
        requests.push(outcome);
      } catch (e) {
        problems.push(redactText(`${format.toUpperCase()} requests: ${(e as Error).message}`));
      } finally {
        target.close();
        setupTarget.close();
        await opened.close();
      }
    }
    for (const spec of modelsHere) {
      if (!plan.properties.includes(spec.name)) continue;
      const missing = missingFor(spec, plan.profile);
      if (missing) {
        models.push({ property: spec.name, format, seed: plan.seed, runs: 0, commands: 0, problem: missing, durationMs: 0 });
        continue;
      }
      const opened = await reach();
      const target = targetFor(plan, opened.baseUrl, format);
      const control = controlFor(plan, opened.baseUrl);
      let orders = 0;
      const env: ModelEnv = {
        target,
        control,
        profile: plan.profile,
        site: plan.site,
        oracleContext: { control: plan.profile.capabilities.ledger ? control : undefined, pans },
        rate,
        nextOrder: () => `cardspec-fuzz-${runId}-${spec.name}-${++orders}`,
      };
      const progress = new Progress(io.out, io.tty, `${spec.name} ${format.toUpperCase()}`, plan.path !== undefined ? 1 : plan.modelRuns);
      try {
        const outcome = await fuzzModel(spec, {
          env,
          seed: plan.seed,
          runs: plan.modelRuns,
          maxCommands: plan.maxCommands,
          deadline,
          shrinkRuns: Math.max(1, Math.ceil(plan.shrinkSteps / 4)),
          path: plan.path,
          onProgress: (done) => progress.update(done),
        });
        models.push(outcome);
      } catch (e) {
        problems.push(redactText(`${format.toUpperCase()} ${spec.name}: ${(e as Error).message}`));
      } finally {
        progress.end();
        target.close();
        await opened.close();
      }
    }
  }

  const sizes: string[] = [];
  if (plan.properties.includes(REQUESTS_PROPERTY)) {
    sizes.push(shard && plan.path === undefined ? `requests ${range.start} to ${range.start + range.count - 1} of ${plan.runs} per format` : `${plan.runs} request(s) per format`);
  }
  if (plan.properties.some((p) => p !== REQUESTS_PROPERTY)) sizes.push(`${plan.modelRuns} run(s) per model`);
  const header = [
    `cardspec fuzz: ${plan.target === 'builtin' ? 'built-in gateway' : plan.target}, profile ${plan.profile.name}, site ${plan.site}${
      shard
        ? `, shard ${shard.index}/${shard.count} (models: ${
            modelsHere
              .filter((m) => plan.properties.includes(m.name))
              .map((m) => m.name)
              .join(', ') || 'none'
          })`
        : ''
    }`,
    `seed ${plan.seed}${plan.path !== undefined ? `, replaying path ${plan.path} of ${plan.properties.join(', ')}` : `, ${sizes.join(', ')}`}, ${plan.formats.map((f) => f.toUpperCase()).join(' + ')}`,
  ].join('\n');
  const report: Report = { header, requests, models, problems, base: { args: plan.replayArgs }, user: plan.user };
  const text = renderReport(report);
  const verdict = verdictOf(report).verdict;
  return { exitCode: verdict === 'FAILED' ? 1 : verdict === 'INCOMPLETE' ? 3 : 0, report, text, builtinLedgers };
}

export { checkSafety } from './safety';
export { FUZZ_DEFAULTS, planFor, type FuzzPlan } from './plan';
