/**
 * The detection phase of the request fuzzer over one range of case indices: the cases of the range are drawn from
 * the seed's stream (./stream.ts), up to `concurrency` of them are in flight at once, paced by `--rate`, and every
 * applicable oracle judges each answer.
 *
 * A range is replayable by itself: case n of seed S is the value fast-check gives at path "n" (drawn from the
 * seed's n-th jump, whatever came before), so a range started at case a gives exactly the cases a .. a+k-1 of the
 * whole run. That is what lets threads share a run (./threads.ts) and still find, for a seed, the same cases as one
 * thread, and what lets `--path` replay a case through fast-check, which then shrinks it.
 */
import type fc from 'fast-check';
import { redactText } from '../redact';
import { DEFAULT_MAX_TRANSPORT_FAILURES } from '../stop';
import type { Target } from '../client/target';
import type { Format } from '../wire/types';
import type { FuzzCase } from './cases';
import type { ExpectContext } from './expect';
import { judge, type CaseRun, type Oracle, type OracleContext } from './oracles';
import { Slots, type Deadline, type RateLimiter } from './pace';
import { runCase } from './run-case';
import { CaseStream } from './stream';

/**
 * After this many cases in a row without an answer (refused, hung, reset), the target is taken to be gone and no more
 * cases start: `cardspec run`'s number (src/stop.ts). The cases that got no answer have failed `answered`
 * already; a run against a target that died stays bounded by this, not by `--max-time`.
 */
export const TARGET_GONE_AFTER = DEFAULT_MAX_TRANSPORT_FAILURES;

export interface OracleStats {
  checked: number;
  failed: number;
}

export type ExpectationCounts = Record<'valid' | 'invalid' | 'refused' | 'open', number>;

/** The first case (the lowest index) an oracle failed on. */
export interface FirstFailure {
  readonly index: number;
  readonly message: string;
  readonly run: CaseRun;
}

/** What a detection found: plain data, so that it can cross from a thread. */
export interface Detection {
  sent: number;
  /** Cases that failed an error oracle. */
  failing: number;
  readonly stats: Record<string, OracleStats>;
  readonly expectations: ExpectationCounts;
  readonly firsts: Record<string, FirstFailure>;
  stoppedEarly?: string;
  /** The target stopped answering (`TARGET_GONE_AFTER` requests in a row got no answer): shrinking would only wait. */
  targetGone?: boolean;
}

export interface DetectOptions {
  readonly target: Target;
  readonly format: Format;
  readonly alias: string;
  readonly arb: fc.Arbitrary<FuzzCase>;
  readonly ectx: ExpectContext;
  readonly oracles: readonly Oracle[];
  readonly oracleContext: OracleContext;
  readonly seed: number;
  /** The first case index of the range, and how many cases it holds. */
  readonly start: number;
  readonly count: number;
  readonly concurrency: number;
  readonly rate?: RateLimiter;
  readonly deadline: Deadline;
  /** Stop starting cases once this many failed an error oracle. */
  readonly maxFailingCases: number;
  /** Why to stop starting cases, when something outside the range says so (another thread hit the failure limit). */
  readonly stopped?: () => string | undefined;
  readonly onProgress?: (done: number, failing: number) => void;
}

export function emptyDetection(oracles: readonly Oracle[]): Detection {
  return {
    sent: 0,
    failing: 0,
    stats: Object.fromEntries(oracles.map((o) => [o.name, { checked: 0, failed: 0 }])),
    expectations: { valid: 0, invalid: 0, refused: 0, open: 0 },
    firsts: {},
  };
}

/**
 * Judges one answered case into `into`; true when an error oracle failed. Synchronous unless an oracle answers with
 * a promise (the ledger oracle asking the target): most cases then cost no turn of the event loop at all.
 */
export function evaluate(into: Detection, run: CaseRun, index: number, ctx: OracleContext, oracles: readonly Oracle[]): boolean | Promise<boolean> {
  into.expectations[run.expect.expectation.kind]++;
  let failedError = false;
  const record = (oracle: Oracle, failure: string | undefined): void => {
    const s = into.stats[oracle.name];
    s.checked++;
    if (failure === undefined) return;
    s.failed++;
    if (oracle.severity === 'error') failedError = true;
    const known = into.firsts[oracle.name];
    if (!known || (index >= 0 && index < known.index)) into.firsts[oracle.name] = { index, message: failure, run };
  };
  for (let i = 0; i < oracles.length; i++) {
    const oracle = oracles[i];
    if (!oracle.applies(run)) continue;
    const verdict = oracle.check(run, ctx);
    if (typeof verdict === 'object') {
      // From here on, one oracle at a time, in order, as judge() does.
      return (async () => {
        record(oracle, await verdict);
        for (const { oracle: o, failure } of await judge(run, ctx, oracles.slice(i + 1))) record(o, failure);
        return failedError;
      })();
    }
    record(oracle, verdict);
  }
  return failedError;
}

/** Adds a thread's detection into the run's. */
export function mergeDetection(into: Detection, part: Detection): void {
  into.sent += part.sent;
  into.failing += part.failing;
  for (const [name, s] of Object.entries(part.stats)) {
    const t = (into.stats[name] ??= { checked: 0, failed: 0 });
    t.checked += s.checked;
    t.failed += s.failed;
  }
  for (const k of Object.keys(into.expectations) as (keyof ExpectationCounts)[]) into.expectations[k] += part.expectations[k];
  for (const [name, f] of Object.entries(part.firsts)) {
    const known = into.firsts[name];
    if (!known || f.index < known.index) into.firsts[name] = f;
  }
  into.stoppedEarly ??= part.stoppedEarly;
  if (part.targetGone) into.targetGone = true;
}

/** Cases drawn at a time (./stream.ts). */
const DRAWN_AHEAD = 64;

/** Sends and judges the cases of one range. */
export async function detect(opts: DetectOptions): Promise<Detection> {
  const found = emptyDetection(opts.oracles);
  if (opts.count <= 0) return found;
  const slots = new Slots(opts.concurrency);
  const inflight = new Set<Promise<void>>();
  let done = 0;
  let noAnswerInARow = 0;
  // Why to start no more cases, if there is a reason; recorded once.
  const stop = (): boolean => {
    if (found.stoppedEarly) return true;
    const outside = opts.stopped?.();
    if (outside) found.stoppedEarly = outside;
    else if (opts.deadline.passed) found.stoppedEarly = 'the time limit was reached';
    else if (found.failing >= opts.maxFailingCases) found.stoppedEarly = `${found.failing} cases failed (the limit of --max-failures)`;
    return found.stoppedEarly !== undefined;
  };
  // Case n is the value fast-check gives at path "n" of the seed (./stream.ts): the same cases as its runner gave
  // here before, drawn without it.
  const cases = new CaseStream(opts.arb, opts.seed, opts.start, opts.start + opts.count, DRAWN_AHEAD);
  // Each case's promise settles once its judging is done, whatever happened: one promise for the answer, one for
  // the end (then, catch and finally made five).
  const judged = (run: CaseRun, i: number): void | Promise<void> => {
    found.sent++;
    if (run.exchange.transportFailure !== true) noAnswerInARow = 0;
    else if (++noAnswerInARow >= TARGET_GONE_AFTER && !found.targetGone) {
      found.targetGone = true;
      found.stoppedEarly ??= redactText(`the target stopped answering: ${noAnswerInARow} cases in a row got no answer; the last: ${run.exchange.error ?? 'no answer'}`);
    }
    const failed = evaluate(found, run, i, opts.oracleContext, opts.oracles);
    if (failed === true) found.failing++;
    else if (failed !== false)
      return failed.then((f) => {
        if (f) found.failing++;
      });
  };
  const internalError = (i: number, e: unknown): void => {
    // A kit bug must not pass for a clean run.
    found.stoppedEarly = redactText(`internal error at case ${i}: ${e instanceof Error ? e.message : String(e)}`);
  };
  const finished = (p: Promise<void>): void => {
    slots.release();
    inflight.delete(p);
    done++;
    opts.onProgress?.(done, found.failing);
  };
  for (let k = 0; k < opts.count; k++) {
    if (stop()) break;
    // Awaited only when there is something to wait for: an await of nothing still costs a turn of the microtasks.
    if (!slots.tryAcquire()) await slots.acquire();
    if (opts.rate) await opts.rate.take();
    // The wait for a slot or for the rate may have outlasted the time limit.
    if (stop()) {
      slots.release();
      break;
    }
    const i = cases.nextIndex;
    const c = cases.next();
    let p: Promise<void>;
    const settled = (): void => finished(p);
    let ran: Promise<CaseRun>;
    try {
      ran = runCase(c, opts, opts.ectx);
    } catch (e) {
      ran = Promise.reject(e);
    }
    p = ran
      .then(
        (run) => {
          let judging: void | Promise<void>;
          try {
            judging = judged(run, i);
          } catch (e) {
            return internalError(i, e);
          }
          if (judging) return judging.then(undefined, (e: unknown) => internalError(i, e));
        },
        (e: unknown) => internalError(i, e),
      )
      .then(settled);
    inflight.add(p);
  }
  await Promise.all([...inflight]);
  return found;
}
