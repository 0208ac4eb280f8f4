/**
 * The fuzzer under a long run, alone in its process: `runFuzz` (what `cardspec fuzz --property requests` runs) against
 * the built-in target, which lives in this same process as it does for a user. Resident memory is read at every
 * progress line (a tenth of the run), so one run of N cases gives the memory at N/10, 2N/10, ... N cases.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { planFor, runFuzz } from '../src/fuzz';
import { builtinConnection } from '../src/client/connection';
import { failChild, tell } from './child';

export interface SoakFuzzSpec {
  readonly type: 'fuzz';
  readonly runs: number;
  readonly seed: number;
}

export interface MemorySample {
  /** Cases judged, or requests answered. */
  readonly done: number;
  /** Resident set, bytes. */
  readonly rss: number;
  /** Live JavaScript heap, bytes (after a full collection where the process runs with --expose-gc). */
  readonly heap: number;
}

export interface SoakFuzzResult {
  readonly samples: readonly MemorySample[];
  readonly sent: number;
  readonly durationMs: number;
  readonly peakRss: number;
  readonly verdict: string;
}

// A full collection before each reading, so that the heap figure is what is live, not what waits to be collected.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function memory(done: number): MemorySample {
  gc();
  const m = process.memoryUsage();
  return { done, rss: m.rss, heap: m.heapUsed };
}

export async function handle(spec: SoakFuzzSpec): Promise<void> {
  // What `cardspec fuzz --property requests --format json --runs N --seed S --max-time 86400` runs.
  const plan = planFor(builtinConnection(), { formats: ['json'], properties: ['requests'], runs: spec.runs, seed: spec.seed, modelRuns: 1, maxTimeMs: 86_400_000 });
  const samples: MemorySample[] = [];
  const sink = {
    write: (text: string): void => {
      const m = /: ([0-9]+)\/[0-9]+/.exec(text);
      if (m) samples.push(memory(Number(m[1])));
      if (m && process.env.CARDSPEC_SOAK_SNAPSHOT && Number(m[1]) === spec.runs) v8.writeHeapSnapshot(process.env.CARDSPEC_SOAK_SNAPSHOT);
    },
  };
  const result = await runFuzz(plan, { out: sink, tty: false });
  const outcome = result.report.requests[0];
  const verdict = result.text.trim().split('\n').pop() ?? '';
  const data: SoakFuzzResult = { samples, sent: outcome?.sent ?? 0, durationMs: outcome?.durationMs ?? NaN, peakRss: process.resourceUsage().maxRSS * 1024, verdict };
  tell({ type: 'result', data });
}

if (require.main === module) {
  let queue = Promise.resolve();
  process.on('message', (m: unknown) => {
    queue = queue.then(() => handle(m as SoakFuzzSpec)).catch(failChild);
  });
  process.once('disconnect', () => process.exit(0));
}
