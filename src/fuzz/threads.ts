/**
 * Detection on several threads. A fuzz run against a local target is CPU-bound in the kit (generating, judging)
 * long before the target is, so the run's cases are cut into contiguous ranges, one per thread, each drawn from
 * the same seed at its own fast-check path (./detect.ts): the cases, and so the failures a seed finds, are those
 * of one thread. The main thread merges what the threads found and shrinks it as before (./requests.ts).
 *
 * Threads are started once per process and kept for later runs (both formats of a run, or the benchmark's rounds):
 * a thread's start (loading the kit and compiling its schemas) costs about as much as a thousand cases. They are
 * unref'd, so a finished run never waits for them.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { RequestContext } from '../../generators/context';
import { redactText } from '../redact';
import type { ControlOptions } from '../client/control';
import type { TargetOptions } from '../client/target';
import type { Format, RequestObject } from '../wire/types';
import { emptyDetection, mergeDetection, type Detection } from './detect';
import type { Oracle } from './oracles';

/** One thread's share of a run: everything it needs to rebuild the run's target, pool and arbitrary, as plain data. */
export interface ShardJob {
  readonly type: 'detect';
  readonly job: number;
  readonly target: TargetOptions;
  /** The test-control API, when the ledger oracle may use it. */
  readonly control?: ControlOptions;
  readonly pans: readonly string[];
  readonly context: RequestContext;
  readonly made: readonly (readonly [string, RequestObject])[];
  readonly alias: string;
  readonly format: Format;
  /** Operation rows by id (all the context can fill when absent). */
  readonly rows?: readonly string[];
  readonly seed: number;
  readonly start: number;
  readonly count: number;
  readonly concurrency: number;
  readonly remainingMs: number;
  readonly maxFailingCases: number;
}

export type ToThread = ShardJob | { readonly type: 'stop'; readonly job: number; readonly reason: string };
export type FromThread =
  | { readonly type: 'progress'; readonly job: number; readonly done: number; readonly failing: number }
  | { readonly type: 'done'; readonly job: number; readonly detection: Detection }
  | { readonly type: 'error'; readonly job: number; readonly message: string };

/** Everything of a run the threads share; `threads` ranges are cut from `start` .. `start + count`. */
export type RunJob = Omit<ShardJob, 'type' | 'job' | 'start' | 'count' | 'concurrency'> & {
  /** The first case index of the run (a `--shard`'s range); 0 when absent. */
  readonly start?: number;
  readonly count: number;
  readonly concurrency: number;
  readonly threads: number;
  readonly oracles: readonly Oracle[];
  readonly onProgress?: (done: number, failing: number) => void;
};

const ENTRY = path.join(__dirname, `worker${path.extname(__filename)}`);
const BOOT = path.join(__dirname, 'worker-boot.js');

const pool: Worker[] = [];
let jobs = 0;

function threadsFor(n: number): Worker[] {
  while (pool.length < n) {
    const w = new Worker(BOOT, { workerData: { entry: ENTRY } });
    w.unref();
    // A thread that dies is dropped from the pool; the run it served reports the error.
    w.once('exit', () => {
      const i = pool.indexOf(w);
      if (i >= 0) pool.splice(i, 1);
    });
    pool.push(w);
  }
  return pool.slice(0, n);
}

/** Cuts `count` cases into `n` contiguous ranges from `start`, the first ones one case longer. */
export function ranges(start: number, count: number, n: number): { start: number; count: number }[] {
  const out: { start: number; count: number }[] = [];
  let at = start;
  for (let i = 0; i < n; i++) {
    const size = Math.floor(count / n) + (i < count % n ? 1 : 0);
    if (size > 0) out.push({ start: at, count: size });
    at += size;
  }
  return out;
}

/** Runs a run's detection on `threads` threads and merges what they found. */
export async function detectOnThreads(run: RunJob): Promise<Detection> {
  const shares = ranges(run.start ?? 0, run.count, run.threads);
  const workers = threadsFor(shares.length);
  const merged = emptyDetection(run.oracles);
  const done = new Array<number>(shares.length).fill(0);
  const failing = new Array<number>(shares.length).fill(0);
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  const ids = shares.map(() => ++jobs);
  let stopSent = false;
  const { threads: _t, oracles: _o, onProgress, start: _s, count: _c, concurrency, ...shared } = run;

  const results = await Promise.all(
    shares.map(
      (share, k) =>
        new Promise<Detection>((resolve) => {
          const w = workers[k];
          const job = ids[k];
          const finish = (d: Detection): void => {
            w.off('message', onMessage);
            w.off('error', onError);
            w.off('exit', onExit);
            resolve(d);
          };
          const failed = (why: string): void => {
            const d = emptyDetection(run.oracles);
            // A kit bug must not pass for a clean run (the same words as an internal error in one thread).
            d.stoppedEarly = redactText(`internal error in fuzz thread ${k + 1}: ${why}`);
            finish(d);
          };
          const onMessage = (m: FromThread): void => {
            if (m.job !== job) return;
            if (m.type === 'progress') {
              done[k] = m.done;
              failing[k] = m.failing;
              onProgress?.(sum(done), sum(failing));
              if (!stopSent && sum(failing) >= run.maxFailingCases) {
                // The failure limit holds for the run, not per thread.
                stopSent = true;
                const reason = `${sum(failing)} cases failed (the limit of --max-failures)`;
                for (let i = 0; i < workers.length; i++) workers[i].postMessage({ type: 'stop', job: ids[i], reason } satisfies ToThread);
              }
            } else if (m.type === 'done') finish(m.detection);
            else failed(m.message);
          };
          const onError = (e: Error): void => failed(e.message);
          const onExit = (code: number): void => failed(`the thread exited (${code})`);
          w.on('message', onMessage);
          w.once('error', onError);
          w.once('exit', onExit);
          // --concurrency is the run's: shared out, the first threads taking one more where it does not divide.
          const n = shares.length;
          const perThread = Math.max(1, Math.floor(concurrency / n) + (k < concurrency % n ? 1 : 0));
          w.postMessage({ ...shared, type: 'detect', job, start: share.start, count: share.count, concurrency: perThread } satisfies ToThread);
        }),
    ),
  );
  for (const d of results) mergeDetection(merged, d);
  onProgress?.(merged.sent, merged.failing);
  return merged;
}
