/**
 * Soak figures (issue 19): resident memory of `cardspec serve` (and of `serve --contract`, the contract gate) under
 * a steady AUTH load, read at set numbers of requests, and of `cardspec fuzz --property requests` against the built-in target over a long run, with the growth
 * per 100k requests (or cases) after the first reading (the warm-up: the kit loaded, the ledger's window filling).
 * A flat line is the goal: the gateway's ledger, the fuzzer and the contract gate keep nothing per request beyond
 * their bounds (docs/gateway.md "What the ledger keeps", docs/fuzz.md, docs/contract.md).
 *
 * `quick` (the default of `npm run bench`): serve at 100k, 500k and 1M requests, fuzz at 100k and 200k cases (by
 * 100k, its ledger's window of 10,000 transactions and as many kept have filled).
 * `full` (`--soak full`, half an hour; never run by CI): serve at 100k, 1M and 5M requests, fuzz at 100k, 1M and 2M cases.
 * The fuzz runs twice: as a user runs it, and under a heap limit (`NODE_OPTIONS=--max-old-space-size=256`): its live
 * heap is flat, but V8 lets the heap it reserves grow when collection falls behind (a busy machine), so resident
 * memory swings by hundreds of MiB without a trend; the limit is the ceiling a user can set, and the row shows the
 * run still passes under it.
 * Memory is read after a full garbage collection, so the heap figure is what is live.
 */
import { forkBench, type BenchChild } from './child';
import { LoadGenerator, type LoadSettings } from './loadgen';
import type { LoadRep } from './load';
import { buildPayloads } from './payloads';
import type { MemorySample, SoakFuzzResult, SoakFuzzSpec } from './soak-fuzz';
import { mib, rate, type Row } from './table';

export type SoakMode = 'quick' | 'full';

const SERVE_POINTS: Record<SoakMode, readonly number[]> = { quick: [100_000, 500_000, 1_000_000], full: [100_000, 1_000_000, 5_000_000] };
/** Serve: memory is read every this many requests (the slope goes through every reading; the table shows the points). */
const SERVE_STEP: Record<SoakMode, number> = { quick: 100_000, full: 250_000 };
/** Fuzz: one run of the last number of cases; memory is read every tenth of it. */
const FUZZ_POINTS: Record<SoakMode, readonly number[]> = { quick: [100_000, 200_000], full: [100_000, 1_000_000, 2_000_000] };
/**
 * Growth per 100k after warm-up that still counts as flat: the allocator's and the collector's noise. The unbounded
 * ledger this replaces grew about 34 MiB per 100k requests (issue 19).
 */
export const FLAT_MIB_PER_100K = 4;
const SEED = 20260105;

interface ServeMemory {
  readonly rss: number;
  readonly heap: number;
  readonly records: number;
}

async function memoryOf(server: BenchChild): Promise<ServeMemory> {
  server.send({ type: 'memory' });
  const m = await server.next(60_000);
  if (m.type !== 'result') throw new Error('soak server: unexpected message');
  return m.data as ServeMemory;
}

const count = (n: number): string => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);

/**
 * Growth per 100k, in MiB: the least-squares slope through every reading from the first on (resident memory moves
 * up and down by tens of MiB as the allocator and the collector keep or return pages; a slope through all the
 * readings is not thrown by one of them the way two end points are).
 */
function growth(samples: readonly MemorySample[], key: 'rss' | 'heap'): number {
  const n = samples.length;
  if (n < 2) return NaN;
  const xs = samples.map((s) => s.done / 100_000);
  const ys = samples.map((s) => s[key] / 1024 / 1024);
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den > 0 ? num / den : NaN;
}

/** The readings at (or just past) each point. */
function at(samples: readonly MemorySample[], points: readonly number[]): MemorySample[] {
  return points.map((p) => samples.find((x) => x.done >= p)).filter((x): x is MemorySample => x !== undefined);
}

function rows(measure: string, unit: string, all: readonly MemorySample[], points: readonly number[], extra: string): Row[] {
  // The slope from the first point on (before it: the warm-up), through every reading.
  const from = all.filter((s) => s.done >= points[0]);
  const samples = at(all, points);
  const first = samples[0];
  const rss = growth(from, 'rss');
  const heap = growth(from, 'heap');
  const flat = Number.isFinite(rss) && rss <= FLAT_MIB_PER_100K;
  const series = (key: 'rss' | 'heap'): string => samples.map((s) => `${mib(s[key])} at ${count(s.done)}`).join(', ');
  return [
    {
      measure,
      subject: `resident memory, at ${samples.map((s) => count(s.done)).join(' / ')} ${unit}`,
      figure: `${series('rss')}${extra ? `; ${extra}` : ''}`,
      memory: mib(Math.max(...from.map((s) => s.rss))),
      ratio: `${rss >= 0 ? '+' : ''}${rss.toFixed(1)} MiB per 100k ${unit}`,
      target: `growth <= ${FLAT_MIB_PER_100K} MiB per 100k after ${count(first.done)}: ${flat ? 'met' : 'NOT met'}`,
      runs: '1',
    },
    {
      measure,
      subject: 'live heap (after a full collection)',
      figure: series('heap'),
      ratio: `${heap >= 0 ? '+' : ''}${heap.toFixed(1)} MiB per 100k ${unit}`,
      runs: '1',
    },
  ];
}

async function serveSoak(mode: SoakMode, s: LoadSettings, log: (line: string) => void, contract: boolean): Promise<Row[]> {
  const server = forkBench('soak-serve.ts', contract ? ['contract'] : [], 'soak server');
  const what = contract ? 'serve --contract' : 'serve';
  const gen = new LoadGenerator();
  try {
    const ready = await server.next(30_000);
    if (ready.type !== 'ready') throw new Error('soak server: unexpected message');
    // The AUTH of the throughput rows (the document's example), which the reference gateway authorises.
    const payloads = buildPayloads('unused');
    const samples: MemorySample[] = [];
    const reps: LoadRep[] = [];
    let done = 0;
    let records = 0;
    const points = SERVE_POINTS[mode];
    const last = points[points.length - 1];
    for (let point = SERVE_STEP[mode]; point <= last; point += SERVE_STEP[mode]) {
      const want = point - done;
      log(`soak: ${what}, ${want} AUTH requests (up to ${count(point)}) ...`);
      const [rep] = await gen.run(ready.url, payloads.headers, { kind: 'single', body: payloads.auth }, { ...s, reps: 1, warmupSec: 0, durationSec: 3600, maxRequests: want });
      reps.push(rep);
      done += rep.requests;
      const mem = await memoryOf(server);
      records = mem.records;
      samples.push({ done, rss: mem.rss, heap: mem.heap });
      log(`soak: ${what} at ${done}: ${mib(mem.rss)} resident, ${mib(mem.heap)} heap, ${mem.records} records held`);
    }
    const seconds = reps.reduce((a, r) => a + r.seconds, 0);
    const bad = reps.reduce((a, r) => a + r.bad, 0);
    const extra = `${rate(done / seconds, 'req')}, ${records.toLocaleString('en')} records held at the end${bad ? `, ${bad} bad answers` : ''}`;
    return rows(`Soak, ${what} (AUTH, ${s.connections} connections)`, 'requests', samples, points, extra);
  } finally {
    await gen.stop();
    await server.stop();
  }
}

/** The heap limit of the second fuzz row, in MiB: the fuzzer's live heap (about 150 MiB) with room to spare. */
export const FUZZ_HEAP_LIMIT_MIB = 256;

async function fuzzSoak(mode: SoakMode, log: (line: string) => void, heapLimitMib?: number): Promise<Row[]> {
  const points = FUZZ_POINTS[mode];
  const runs = points[points.length - 1];
  const limit = heapLimitMib !== undefined ? [`--max-old-space-size=${heapLimitMib}`] : [];
  const child = forkBench('soak-fuzz.ts', [], 'soak fuzzer', limit);
  const what = heapLimitMib !== undefined ? `fuzz, NODE_OPTIONS=${limit[0]}` : 'fuzz';
  try {
    log(`soak: ${what}, ${runs} cases against the built-in target ...`);
    child.send({ type: 'fuzz', runs, seed: SEED } satisfies SoakFuzzSpec);
    const m = await child.next(4 * 3600_000);
    if (m.type !== 'result') throw new Error('soak fuzzer: unexpected message');
    const r = m.data as SoakFuzzResult;
    for (const x of r.samples) log(`soak: ${what} at ${x.done}: ${mib(x.rss)} resident, ${mib(x.heap)} heap`);
    if (at(r.samples, points).length < 2) throw new Error(`the fuzz run read memory ${r.samples.length} time(s): too few`);
    const extra = `${rate(r.sent / (r.durationMs / 1000), 'case')}; ${r.verdict.replace(/^cardspec fuzz: /, '')}`;
    return rows(`Soak, ${what} (requests, JSON, built-in target)`, 'cases', r.samples, points, extra);
  } finally {
    await child.stop();
  }
}

export async function soakSection(mode: SoakMode, s: LoadSettings, log: (line: string) => void): Promise<Row[]> {
  const out: Row[] = [];
  const failed =
    (measure: string) =>
    (e: unknown): Row[] => [{ measure, subject: 'FAILED', figure: String((e as Error).message).slice(0, 160), runs: '0' }];
  out.push(...(await serveSoak(mode, s, log, false).catch(failed('Soak, serve'))));
  out.push(...(await serveSoak(mode, s, log, true).catch(failed('Soak, serve --contract'))));
  out.push(...(await fuzzSoak(mode, log).catch(failed('Soak, fuzz'))));
  out.push(...(await fuzzSoak(mode, log, FUZZ_HEAP_LIMIT_MIB).catch(failed('Soak, fuzz with a heap limit'))));
  return out;
}
