/**
 * The parent's side of the load generator (bench/load.ts, a process of its own): start it once, ask it for runs,
 * and reduce its runs to medians.
 */
import { forkBench, type BenchChild } from './child';
import type { LoadRep, LoadSpec, Scenario } from './load';
import { median } from './table';

export interface LoadSettings {
  readonly reps: number;
  readonly durationSec: number;
  readonly warmupSec: number;
  readonly connections: number;
  readonly maxRequests: number;
}

/** A load generator process (bench/load.ts), kept for several runs. */
export class LoadGenerator {
  private readonly child: BenchChild = forkBench('load.ts', [], 'load generator');

  /** Its process id, for a row that reads the load generator's own CPU time (/proc). */
  get pid(): number | undefined {
    return this.child.proc.pid;
  }

  /** Runs `reps` measured runs (after `warmupSec` of dropped warm-up) and returns one result per run. */
  async run(url: string, headers: Readonly<Record<string, string>>, scenario: Scenario, s: LoadSettings, checkOk = true): Promise<LoadRep[]> {
    const spec: LoadSpec = { type: 'run', url, headers, scenario, connections: s.connections, warmupSec: s.warmupSec, durationSec: s.durationSec, maxRequests: s.maxRequests, reps: s.reps, checkOk };
    this.child.send(spec);
    // Bounded: every run is bounded by its duration and count, and the whole exchange by this.
    const m = await this.child.next((s.warmupSec + s.reps * s.durationSec) * 1000 + 60_000);
    if (m.type !== 'result') throw new Error('load generator: unexpected message');
    return m.data as LoadRep[];
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}

export interface Summary {
  readonly rate: number;
  readonly p50: number;
  readonly p99: number;
  readonly bad: number;
  readonly runs: number;
}

export function summarize(reps: readonly LoadRep[]): Summary {
  return {
    rate: median(reps.map((r) => r.rate)),
    p50: median(reps.map((r) => r.p50)),
    p99: median(reps.map((r) => r.p99)),
    bad: reps.reduce((a, r) => a + r.bad, 0),
    runs: reps.length,
  };
}
