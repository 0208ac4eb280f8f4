/**
 * What one `cardspec fuzz` run does (the plan), and the defaults the command line starts from, in one place: the CLI
 * reads its options over `FUZZ_DEFAULTS`, and the bench and the tests build their plans with `planFor`, so that a
 * figure or a test measures what a user's run with those options does.
 */
import type { Connection } from '../client/connection';
import type { Profile } from '../client/profile';
import type { Format } from '../wire/types';
import type { Oracle } from './oracles';

export interface FuzzPlan {
  /** `builtin`, or a base URL. */
  readonly target: string;
  readonly profile: Profile;
  readonly formats: readonly Format[];
  readonly properties: readonly string[];
  /** Generated requests per format. */
  readonly runs: number;
  /** Command sequences per model and format. */
  readonly modelRuns: number;
  readonly maxCommands: number;
  readonly seed: number;
  /** Replay one case of one property and format. */
  readonly path?: string;
  /** Requests per second, at most. */
  readonly rate?: number;
  /** Time allowed for one answer. */
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Threads that generate, send and judge cases (./threads.ts); 1 when absent. */
  readonly threads?: number;
  /** Time allowed for the whole run. */
  readonly maxTimeMs: number;
  /** Stop sending once this many cases failed. */
  readonly maxFailures: number;
  /** Requests one shrink may send. */
  readonly shrinkSteps: number;
  readonly user: string;
  readonly password: string;
  readonly alias: string;
  readonly site: string;
  readonly allowLive: boolean;
  /**
   * `--shard i/n`: this run is shard `index` (1-based) of `count`. The request cases of the seed are cut into `count`
   * contiguous ranges (the same cut whatever the machine), and the models are dealt out one by one in their order,
   * so the shards together run exactly what one run would, each case once.
   */
  readonly shard?: { readonly index: number; readonly count: number };
  /** The options a replay command repeats (`--target`, `--profile`, `--site`). */
  readonly replayArgs: readonly string[];
  /** The oracles that judge the requests (`--checks`, src/fuzz/checks.ts); every built-in one when absent. */
  readonly oracles?: readonly Oracle[];
  /** The built-in target's ledger window; `BUILTIN_MAX_RECORDS` when absent (a test narrows it to see records go). */
  readonly builtinMaxRecords?: number;
}

/** `cardspec fuzz` with no option but the target: these numbers (the time limit in seconds). */
export const FUZZ_DEFAULTS = {
  runs: 1000,
  modelRuns: 20,
  maxCommands: 20,
  concurrency: 8,
  maxTimeSec: 600,
  maxFailures: 50,
  shrinkSteps: 300,
} as const;

/**
 * `--runs` at most: a campaign of millions of cases is what the fuzzer's memory bound is for (it keeps its first
 * failures and counts, the built-in target's ledger its window; docs/fuzz.md).
 */
export const MAX_RUNS = 100_000_000;

/**
 * The plan `cardspec fuzz` makes for a connection with the given options, the others at their defaults (one thread,
 * no rate limit, the profile's time allowed per answer, not a live site).
 */
export function planFor(conn: Connection, given: Pick<FuzzPlan, 'formats' | 'properties' | 'runs' | 'seed'> & Partial<FuzzPlan>): FuzzPlan {
  return {
    target: conn.target,
    profile: conn.profile,
    modelRuns: FUZZ_DEFAULTS.modelRuns,
    maxCommands: FUZZ_DEFAULTS.maxCommands,
    timeoutMs: conn.profile.limits.totalTimeoutMs,
    concurrency: FUZZ_DEFAULTS.concurrency,
    threads: 1,
    maxTimeMs: FUZZ_DEFAULTS.maxTimeSec * 1000,
    maxFailures: FUZZ_DEFAULTS.maxFailures,
    shrinkSteps: FUZZ_DEFAULTS.shrinkSteps,
    user: conn.user,
    password: conn.password,
    alias: conn.alias,
    site: conn.site,
    allowLive: false,
    replayArgs: ['--target', conn.target, ...(conn.profileSpec !== 'builtin' ? ['--profile', conn.profileSpec] : [])],
    ...given,
  };
}
