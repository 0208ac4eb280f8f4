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
import type { Exchange, Target } from '../client/target';
import type { Format } from '../wire/types';
import type { FuzzCase } from './cases';
import type { ExpectContext } from './expect';
import { ASKING_ORACLES, judge, mayAsk, ORACLE, type CaseRun, type Oracle, type OracleContext } from './oracles';
import { Slots, type Deadline, type RateLimiter } from './pace';
import { prepareCase, runOf, type PreparedCase } from './run-case';
import { closedBeforeAnswer } from './send';
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

/**
 * Sends and judges the cases of one range.
 *
 * An answer is judged after the next request is on its way, not before: when an answer comes in, its slot goes at
 * once to the next case, whose request the client writes at the end of the turn (src/client/keepalive.ts), and the
 * answers of the turn are judged, and the next cases drawn and prepared (body, expectation), in the turn after,
 * while the target works on the requests just written. Judged first, the target waited for the fuzzer's judging and the fuzzer for the target's
 * answers: on a machine of two cores, each sat idle while the other worked. The cases and what each is judged
 * are the same either way, and so is where the failure limit stops a run (below).
 */
export async function detect(opts: DetectOptions): Promise<Detection> {
  const found = emptyDetection(opts.oracles);
  if (opts.count <= 0) return found;
  const slots = new Slots(opts.concurrency);
  // Cases sent and not yet answered.
  const inflight = new Set<Promise<void>>();
  // Answers not yet judged, and the judging of cases whose oracles answered with a promise.
  let toJudge: { run: CaseRun; i: number }[] = [];
  const judging = new Set<Promise<void>>();
  let judgeScheduled = false;
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
  // Each case is prepared (body, expectation) as it is drawn, mostly while the fuzzer waits for answers; a kit fault
  // in that is kept with the case and reported when the case's turn comes.
  const prepare = (c: FuzzCase): PreparedCase | { readonly fault: unknown } => {
    try {
      return prepareCase(c, opts, opts.ectx);
    } catch (fault) {
      return { fault };
    }
  };
  const cases = new CaseStream(opts.arb, opts.seed, opts.start, opts.start + opts.count, DRAWN_AHEAD, prepare);
  const internalError = (i: number, e: unknown): void => {
    // A kit bug must not pass for a clean run.
    found.stoppedEarly = redactText(`internal error at case ${i}: ${e instanceof Error ? e.message : String(e)}`);
  };
  const judgedOne = (): void => {
    done++;
    opts.onProgress?.(done, found.failing);
  };
  // Judges one run; a promise only when an oracle answered with one.
  const judgeRun = (run: CaseRun, i: number): void | Promise<void> => {
    let failed: boolean | Promise<boolean>;
    try {
      failed = evaluate(found, run, i, opts.oracleContext, opts.oracles);
    } catch (e) {
      internalError(i, e);
      return judgedOne();
    }
    if (failed === true) found.failing++;
    if (typeof failed === 'boolean') return judgedOne();
    return failed.then(
      (f) => {
        if (f) found.failing++;
        judgedOne();
      },
      (e: unknown) => {
        internalError(i, e);
        judgedOne();
      },
    );
  };
  const judgeAll = (): void => {
    judgeScheduled = false;
    const batch = toJudge;
    toJudge = [];
    for (let k = 0; k < batch.length; k++) {
      const p = judgeRun(batch[k].run, batch[k].i);
      // Not expected (a run that could ask the target is judged when it is answered), but kept to the end if so.
      if (p) {
        const held: Promise<void> = p.then(() => void judging.delete(held));
        judging.add(held);
      }
    }
    if (!found.stoppedEarly) cases.refill(opts.concurrency);
  };
  // Two hops: the first runs in the turn the answers came in, beside (and, registered earlier, before) the writes of
  // the requests started after them; the second in the next turn, once those are written.
  const judgeNextTurn = (): void => {
    setImmediate(judgeAll);
  };
  // Oracles of a user's module may ask anything: their runs are all judged as they are answered, as before.
  const askers = opts.oracles.filter((o) => ASKING_ORACLES.has(o.name) && ORACLE[o.name] === o);
  const builtIn = opts.oracles.every((o) => ORACLE[o.name] === o);
  const answered = (run: CaseRun, i: number): void | Promise<void> => {
    found.sent++;
    const ex = run.exchange;
    if (ex.transportFailure !== true) noAnswerInARow = 0;
    else if (++noAnswerInARow >= TARGET_GONE_AFTER && !found.targetGone) {
      found.targetGone = true;
      found.stoppedEarly ??= redactText(`the target stopped answering: ${noAnswerInARow} cases in a row got no answer; the last: ${ex.error ?? 'no answer'}`);
    }
    // A run an oracle may wait on holds its slot until judged, as every run did: how many cases are in flight when a
    // failure limit stops the run stays what it was.
    if (!builtIn || (askers.length > 0 && mayAsk(ex.envelope) && askers.some((o) => o.applies(run)))) return judgeRun(run, i);
    toJudge.push({ run, i });
    if (!judgeScheduled) {
      judgeScheduled = true;
      setImmediate(judgeNextTurn);
    }
  };
  for (let k = 0; k < opts.count; k++) {
    if (stop()) break;
    // Awaited only when there is something to wait for: an await of nothing still costs a turn of the microtasks.
    if (!slots.tryAcquire()) await slots.acquire();
    // Oracles that ask the target (the ledger one) hold no slot while they wait: as many of them as slots at most.
    while (judging.size >= opts.concurrency) await Promise.race(judging);
    if (opts.rate) await opts.rate.take();
    // Judged first, every case that holds no slot had been judged by now: where the answers still to judge could
    // reach the failure limit, they are judged now, so that the limit stops the run after the same cases (the
    // self-check's short runs stop at 3).
    if ((toJudge.length > 0 || judging.size > 0) && found.failing + toJudge.length + judging.size >= opts.maxFailingCases) {
      judgeAll();
      await Promise.all([...judging]);
    }
    // The wait for a slot or for the rate may have outlasted the time limit.
    if (stop()) {
      slots.release();
      break;
    }
    const i = cases.nextIndex;
    const c = cases.next();
    let p: Promise<void>;
    const settled = (): void => {
      slots.release();
      inflight.delete(p);
    };
    const failed = (e: unknown): void => {
      internalError(i, e);
      judgedOne();
      settled();
    };
    if ('fault' in c) {
      p = Promise.reject(c.fault).then(undefined, failed);
      inflight.add(p);
      continue;
    }
    // One step from the answer to its slot given back (`sendPrepared` and `sendRawWithRetry`, written out): each
    // step of a promise chain is a promise and a turn of the microtasks per case.
    const prepared = c;
    const raw = { body: prepared.body };
    const onExchange = (exchange: Exchange): void | Promise<void> => {
      let judging: void | Promise<void>;
      try {
        judging = answered(runOf(prepared, exchange), i);
      } catch (e) {
        return failed(e);
      }
      if (judging === undefined) return settled();
      return judging.then(settled);
    };
    let sent: Promise<Exchange>;
    try {
      sent = opts.target.sendRaw(raw);
    } catch (e) {
      sent = Promise.reject(e);
    }
    // The one retry of the keep-alive race (./send.ts).
    p = sent.then((first) => (closedBeforeAnswer(first) ? opts.target.sendRaw(raw).then(onExchange, failed) : onExchange(first)), failed);
    inflight.add(p);
  }
  await Promise.all([...inflight]);
  judgeAll();
  await Promise.all([...judging]);
  return found;
}
