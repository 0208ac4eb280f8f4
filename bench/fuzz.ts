/**
 * Fuzz efficiency: generated, sent and fully checked cases per second of `cardspec fuzz` (request property, JSON,
 * the CLI's defaults: 8 requests in flight) against the reference gateway over loopback, beside the raw request rate
 * autocannon gets from the same gateway process with the same payloads (the bodies the fuzzer sent, recorded) and
 * as many connections as the fuzzer has requests in flight: the ceiling. Target: at least 0.5 (issue 10), raised to
 * 0.7 by issue 31.
 *
 * The fuzzer, the gateway and autocannon each run in a process of their own; fuzz runs and autocannon runs take
 * turns on the same gateway, the one that goes first alternating every round. The fuzzer's figure is its detection's alone
 * (`RequestFuzzOutcome.durationMs`: from the arbitrary, built once per process, to the last case judged; no report
 * is written inside it).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { forkBench, ROOT, type BenchChild } from './child';
import type { FuzzRep, FuzzSpec } from './fuzzer';
import { LoadGenerator, summarize, type LoadSettings } from './loadgen';
import type { LoadRep } from './load';
import { authorization } from './payloads';
import { median, ms, rate, ratio, verdict, type Row } from './table';

export const FUZZ_MIN_RATIO = 0.7;
/** `cardspec fuzz --concurrency` default (src/cli/fuzz.ts). */
export const FUZZ_CONCURRENCY = 8;
/** The seed of every measured fuzz run: the same cases each time. */
export const FUZZ_SEED = 20260105;
/** The first runs of a fresh fuzzer process are slow (loading, threads, JIT): they are dropped. */
const WARMUP_CASES = 2000;

async function fuzzOnce(child: BenchChild, spec: Omit<FuzzSpec, 'type'>): Promise<FuzzRep> {
  child.send({ type: 'run', ...spec } satisfies FuzzSpec);
  const m = await child.next(10 * 60_000);
  if (m.type !== 'result') throw new Error('fuzzer: unexpected message');
  return m.data as FuzzRep;
}

export async function fuzzSection(s: LoadSettings, log: (line: string) => void): Promise<Row[]> {
  if (!fs.existsSync(path.join(ROOT, 'src', 'fuzz', 'index.ts'))) {
    log('fuzz: src/fuzz is not there: n/a');
    return [
      { measure: 'Fuzz', subject: 'cardspec fuzz', figure: 'n/a (fuzz not built)', target: `>= ${FUZZ_MIN_RATIO} of autocannon: n/a`, runs: '0' },
      { measure: 'Fuzz', subject: 'autocannon, same payloads (ceiling)', figure: 'n/a (fuzz not built)', runs: '0' },
    ];
  }
  const gateway = forkBench('servers/gateway.ts', [], 'gateway server');
  const fuzzer = forkBench('fuzzer.ts', [], 'fuzzer');
  const gen = new LoadGenerator();
  try {
    const ready = await gateway.next(30_000);
    if (ready.type !== 'ready') throw new Error('gateway server: unexpected message');
    log('fuzz: warm-up runs ...');
    // The first run starts the fuzzer's threads and builds its arbitraries; the second's rate is a warm one.
    await fuzzOnce(fuzzer, { url: ready.url, runs: WARMUP_CASES, seed: FUZZ_SEED, concurrency: FUZZ_CONCURRENCY, record: 0 });
    const warm = await fuzzOnce(fuzzer, { url: ready.url, runs: WARMUP_CASES, seed: FUZZ_SEED, concurrency: FUZZ_CONCURRENCY, record: 0 });
    // Enough cases for a run of about one load run's length, so that both sides are measured over similar times.
    const runs = Math.max(3000, Math.min(40_000, Math.round((Number.isFinite(warm.rate) ? warm.rate : 1000) * s.durationSec)));
    log(`fuzz: recording the bodies of ${runs} cases (one thread, not measured) ...`);
    const recorded = await fuzzOnce(fuzzer, { url: ready.url, runs, seed: FUZZ_SEED, concurrency: FUZZ_CONCURRENCY, record: runs });
    const bodies = recorded.bodies;
    if (bodies.length === 0) throw new Error('the fuzzer sent no case');
    const fuzzReps: FuzzRep[] = [];
    const loadReps: LoadRep[] = [];
    const load: LoadSettings = { ...s, connections: FUZZ_CONCURRENCY };
    // The gateway's CPU per case and per request (bench/servers/cpu.ts): which side of a turn waits for which.
    const gatewayCpu = async (): Promise<number> => {
      gateway.send({ type: 'cpu' });
      const m = await gateway.next(10_000);
      if (m.type !== 'result' || typeof m.data !== 'number') throw new Error('gateway server: unexpected message');
      return m.data;
    };
    const gatewayPerCase: number[] = [];
    const gatewayPerRequest: number[] = [];
    const fuzzRun = async (round: number): Promise<void> => {
      log(`fuzz: round ${round + 1} of ${s.reps}: cardspec fuzz, ${runs} cases ...`);
      const before = await gatewayCpu();
      const rep = await fuzzOnce(fuzzer, { url: ready.url, runs, seed: FUZZ_SEED, concurrency: FUZZ_CONCURRENCY, record: 0 });
      if (rep.sent > 0) gatewayPerCase.push(((await gatewayCpu()) - before) / rep.sent);
      fuzzReps.push(rep);
    };
    const headers = { ...recorded.headers, authorization: authorization() };
    const scenario = { kind: 'cycle', bodies, path: recorded.path } as const;
    const loadRun = async (round: number): Promise<void> => {
      log(`fuzz: round ${round + 1} of ${s.reps}: autocannon, the same ${bodies.length} bodies ...`);
      const before = await gatewayCpu();
      const r = await gen.run(ready.url, headers, scenario, { ...load, warmupSec: 0, reps: 1 }, false);
      const requests = r.reduce((a, x) => a + x.requests, 0);
      if (requests > 0) gatewayPerRequest.push(((await gatewayCpu()) - before) / requests);
      loadReps.push(...r);
    };
    log('fuzz: warming autocannon up ...');
    await gen.run(ready.url, headers, scenario, { ...load, reps: 0 }, false);
    // The order alternates every round: each side runs as often first as second on a gateway whose state (its
    // ledger filling, its heap) and a machine whose load drift between the two.
    for (let round = 0; round < s.reps; round++) {
      if (round % 2 === 0) {
        await fuzzRun(round);
        await loadRun(round);
      } else {
        await loadRun(round);
        await fuzzRun(round);
      }
    }
    const fuzzRate = median(fuzzReps.map((r) => r.rate));
    const ceiling = summarize(loadReps);
    const failures = fuzzReps.reduce((a, r) => a + r.failures, 0);
    const problems = [...new Set(fuzzReps.flatMap((r) => r.problems))];
    const notes = [failures ? `${failures} failing case(s)` : '', problems.length ? `problems: ${problems.join('; ').slice(0, 120)}` : ''].filter(Boolean).join('; ');
    const value = fuzzRate / ceiling.rate;
    return [
      {
        measure: 'Fuzz (requests, JSON)',
        subject: `cardspec fuzz, ${FUZZ_CONCURRENCY} in flight, ${fuzzReps[0].threads} thread(s)`,
        figure: `${rate(fuzzRate, 'case')} (${runs} cases/run${notes ? `; ${notes}` : ''}); fuzzer CPU ${median(fuzzReps.map((r) => r.cpuPerCase)).toFixed(0)} µs/case (its event loop busy ${(median(fuzzReps.map((r) => r.busy)) * 100).toFixed(0)} %), gateway CPU ${median(gatewayPerCase).toFixed(0)} µs/case`,
        ratio: `${ratio(fuzzRate, ceiling.rate)} of autocannon`,
        target: `>= ${FUZZ_MIN_RATIO} of autocannon: ${verdict(value, FUZZ_MIN_RATIO)}`,
        runs: String(fuzzReps.length),
      },
      {
        measure: 'Fuzz (requests, JSON)',
        subject: `autocannon, same payloads, ${FUZZ_CONCURRENCY} connections (ceiling)`,
        figure: `${rate(ceiling.rate, 'req')}; gateway CPU ${median(gatewayPerRequest).toFixed(0)} µs/req` + (ceiling.bad ? ` (${ceiling.bad} transport errors or 5xx)` : ''),
        p50: ms(ceiling.p50),
        p99: ms(ceiling.p99),
        ratio: '1.00 (ceiling)',
        runs: String(ceiling.runs),
      },
    ];
  } finally {
    await gen.stop();
    await fuzzer.stop();
    await gateway.stop();
  }
}
