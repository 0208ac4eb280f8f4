/**
 * A fuzz thread (./threads.ts): rebuilds a run's target, pool and arbitrary from plain data, runs the detection of
 * its range (./detect.ts) and posts back what it found. Progress goes up every few cases; a `stop` from the main
 * thread (the run's failure limit reached in another range) ends the range early.
 */
import { parentPort } from 'node:worker_threads';
import { OPERATION } from '../../schemas/operations';
import { redactText } from '../redact';
import { ControlClient } from '../client/control';
import { Target } from '../client/target';
import { caseArbitrary } from './cases';
import { detect } from './detect';
import { ORACLES } from './oracles';
import { expectContextOf } from './run-case';
import { Deadline } from './pace';
import type { FromThread, ShardJob, ToThread } from './threads';

/** Progress is posted every this many cases: often enough for a bar, rarely enough to cost nothing. */
const PROGRESS_EVERY = 64;

const stops = new Map<number, string>();
const running = new Set<number>();

async function run(job: ShardJob): Promise<void> {
  const post = (m: FromThread): void => parentPort!.postMessage(m);
  const target = new Target(job.target);
  running.add(job.job);
  try {
    const rows = job.rows?.map((id) => OPERATION[id]).filter((r) => r !== undefined);
    const arb = caseArbitrary({ context: job.context, alias: job.alias, format: job.format, rows });
    const ectx = expectContextOf(job.context, new Map(job.made), job.alias);
    const control = job.control ? new ControlClient(job.control) : undefined;
    const detection = await detect({
      target,
      format: job.format,
      alias: job.alias,
      arb,
      ectx,
      oracles: ORACLES,
      oracleContext: { control, pans: job.pans },
      seed: job.seed,
      start: job.start,
      count: job.count,
      concurrency: job.concurrency,
      deadline: Deadline.after(job.remainingMs),
      maxFailingCases: job.maxFailingCases,
      stopped: () => stops.get(job.job),
      onProgress: (done, failing) => {
        if (done % PROGRESS_EVERY === 0) post({ type: 'progress', job: job.job, done, failing });
      },
    });
    post({ type: 'done', job: job.job, detection });
  } catch (e) {
    post({ type: 'error', job: job.job, message: redactText(e instanceof Error ? (e.stack ?? e.message) : String(e)) });
  } finally {
    target.close();
    running.delete(job.job);
    stops.delete(job.job);
  }
}

parentPort?.on('message', (m: ToThread) => {
  if (m.type === 'stop') {
    if (running.has(m.job)) stops.set(m.job, m.reason);
  } else void run(m);
});
