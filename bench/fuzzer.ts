/**
 * The fuzzer under measurement, alone in its process: `runFuzz` (what `cardspec fuzz` runs once its options are
 * parsed) with the request property only, against a gateway in another process, with the CLI's defaults (one thread:
 * `--threads 1`). Every case is generated, sent and judged by every oracle (the ledger oracle asks the
 * gateway's test-control API too).
 *
 * To give autocannon the same payloads, this child records the bodies the fuzzer sends, on a run of one thread
 * (a seed gives the same cases on any number of threads): `Target.prototype.send` and `sendRaw` are wrapped here,
 * in this benchmark process only, and a body is kept when `sendRaw` is called directly (a fuzz case) rather than
 * through `send` (setting up the pool of parent transactions).
 */
import { performance } from 'node:perf_hooks';
import { planFor, runFuzz } from '../src/fuzz';
import { builtinConnection } from '../src/client/connection';
import { Target, type RawRequest } from '../src/client/target';
import { failChild, tell } from './child';

export interface FuzzSpec {
  readonly type: 'run';
  readonly url: string;
  readonly runs: number;
  readonly seed: number;
  readonly concurrency: number;
  /** Keep the bodies sent, at most this many: a run on one thread, for autocannon, not measured. */
  readonly record: number;
}

export interface FuzzRep {
  readonly sent: number;
  readonly durationMs: number;
  readonly rate: number;
  readonly failures: number;
  readonly problems: readonly string[];
  readonly bodies: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  readonly path: string;
  readonly threads: number;
  /** This process's CPU time (every thread) over the whole `runFuzz` call, per case sent: µs. */
  readonly cpuPerCase: number;
  /**
   * The share of the `runFuzz` call its event loop was busy (not waiting for I/O): near 1, the fuzzer's one thread
   * is what limits the rate; well below, it waits for the target's answers.
   */
  readonly busy: number;
}

let viaSend = 0;
let recording = 0;
const bodies: string[] = [];
const send = Target.prototype.send;
const sendRaw = Target.prototype.sendRaw;
Target.prototype.send = function (this: Target, ...args: Parameters<Target['send']>) {
  viaSend++;
  try {
    return send.apply(this, args);
  } finally {
    viaSend--;
  }
};
Target.prototype.sendRaw = function (this: Target, raw: RawRequest) {
  if (viaSend === 0 && bodies.length < recording) bodies.push(typeof raw.body === 'string' ? raw.body : raw.body.toString('utf8'));
  return sendRaw.call(this, raw);
};

async function handle(spec: FuzzSpec): Promise<void> {
  // The CLI's defaults (src/fuzz/plan.ts), for the request property in JSON, against the server under test.
  const plan = planFor({ ...builtinConnection(), target: spec.url }, { formats: ['json'], properties: ['requests'], runs: spec.runs, seed: spec.seed, concurrency: spec.concurrency, modelRuns: 1 });
  bodies.length = 0;
  recording = spec.record;
  const sink = { write: (): void => undefined };
  const cpu = process.cpuUsage();
  const loop = performance.eventLoopUtilization();
  const result = await runFuzz(plan, { out: sink, tty: false });
  const used = process.cpuUsage(cpu);
  const busy = performance.eventLoopUtilization(loop).utilization;
  recording = 0;
  const outcome = result.report.requests[0];
  const sent = outcome?.sent ?? 0;
  const durationMs = outcome?.durationMs ?? NaN;
  const rep: FuzzRep = {
    sent,
    durationMs,
    rate: sent / (durationMs / 1000),
    failures: outcome?.counterexamples.length ?? 0,
    problems: [...result.report.problems, ...(outcome?.stoppedEarly ? [outcome.stoppedEarly] : [])],
    bodies: [...bodies],
    // What the fuzzer's Target sends with each JSON body (src/client/target.ts), for autocannon to send alike.
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    path: plan.profile.paths.json,
    threads: outcome?.threads ?? plan.threads ?? 1,
    // The call's setup (the pool's few requests) is in it too: a few dozen of thousands of requests.
    cpuPerCase: sent > 0 ? (used.user + used.system) / sent : NaN,
    busy,
  };
  tell({ type: 'result', data: rep });
}

if (require.main === module) {
  let queue = Promise.resolve();
  process.on('message', (m: unknown) => {
    queue = queue.then(() => handle(m as FuzzSpec)).catch(failChild);
  });
  process.once('disconnect', () => process.exit(0));
}
