/**
 * The checking proxy's overhead (issue 27): AUTH through `cardspec proxy` in front of the reference gateway, against
 * the same gateway alone, in the same run: the gateway, the proxy and a load generator for each target each in a
 * process of its own, warmed up, then the runs in turns, the order rotated every round. Targets: p50 added at most
 * 1 ms; throughput at least 0.5 of the gateway's.
 *
 * The proxy forwards on one thread and checks on another (src/proxy/server.ts): the client's figures are those of
 * the forwarding, and the checks may fall behind by a bounded queue. So after each run through the proxy the
 * benchmark waits until every exchange of the run is checked, and shows the rate of checked exchanges (the run's
 * requests over the run's time plus that wait) in a row of its own: what the proxy sustains once its queue is full.
 *
 *   npm run bench -- --only proxy      (or node bench/run.js proxy [--reps N] [--duration S] [--connections N])
 *
 * Run with `--serve-proxy <upstream>` this file is the proxy's process (what the parent forks).
 */
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import { startProxy } from '../src/proxy';
import { failChild, forkBench, tell, type BenchChild } from './child';
import { LoadGenerator, summarize, type LoadSettings } from './loadgen';
import type { LoadRep } from './load';
import { buildPayloads, cachetokenFrom } from './payloads';
import { median, ms, rate, ratio, renderTable, verdict, type Row } from './table';

/** Issue 27: "p50 latency added at most 1 ms, throughput at least 0.5 of the gateway's". */
export const PROXY_MAX_ADDED_P50_MS = 1;
export const PROXY_MIN_RATIO = 0.5;

/**
 * CPU time in µs: the whole process, its main thread alone (where the proxy checks), and the forwarding thread
 * alone, with the kernel's part of it (its system calls: two reads and two writes per exchange). The rest is node's
 * own threads (the garbage collector's helpers, mostly for the checks' heap).
 */
interface Cpu {
  readonly total: number;
  readonly main: number;
  readonly forward: number;
  readonly forwardKernel: number;
}

/** A thread's CPU time in µs, from /proc (Linux), all of it or the kernel's part; NaN elsewhere. */
function threadCpu(tid: string | number, kernelOnly = false): number {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
    return ((kernelOnly ? 0 : Number(fields[11])) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

async function ready(child: BenchChild): Promise<string> {
  const m = await child.next(60_000);
  if (m.type !== 'ready') throw new Error(`${child.name}: not ready`);
  return m.url;
}

async function ask<T>(child: BenchChild, type: string, timeoutMs = 120_000): Promise<T> {
  child.send({ type });
  const m = await child.next(timeoutMs);
  if (m.type !== 'result') throw new Error(`${child.name}: unexpected answer to ${type}`);
  return m.data as T;
}

const requests = (reps: readonly LoadRep[]): number => reps.reduce((a, r) => a + r.requests, 0);
const seconds = (reps: readonly LoadRep[]): number => reps.reduce((a, r) => a + r.seconds, 0);

/** The proxy section's rows: the gateway alone, the same through the proxy, and the rate of checked exchanges. */
export async function proxySection(s: LoadSettings, log: (line: string) => void = () => undefined): Promise<Row[]> {
  const gateway = forkBench('servers/gateway.ts', [], 'reference gateway');
  let proxy: BenchChild | undefined;
  const loads = [new LoadGenerator(), new LoadGenerator()];
  try {
    const gwUrl = await ready(gateway);
    proxy = forkBench('proxy.ts', ['--serve-proxy', gwUrl], 'checking proxy');
    const px = proxy;
    const proxyUrl = await ready(px);
    const payloads = buildPayloads(await cachetokenFrom(gwUrl));
    const scenario = { kind: 'single', body: payloads.auth } as const;
    const targets = [
      { name: 'alone', url: gwUrl, load: loads[0] },
      { name: 'proxy', url: proxyUrl, load: loads[1] },
    ] as const;
    for (const t of targets) {
      log(`proxy: warming up (${t.name}) ...`);
      await t.load.run(t.url, payloads.headers, scenario, { ...s, reps: 0 });
    }
    await ask<number>(px, 'settle');
    const alone: LoadRep[] = [];
    const through: LoadRep[] = [];
    const checkedRates: number[] = [];
    const lags: number[] = [];
    const cpuTotal: number[] = [];
    const cpuChecks: number[] = [];
    const cpuForward: number[] = [];
    const cpuForwardKernel: number[] = [];
    // The gateway's CPU per request, alone and behind the proxy: on a machine the runs keep busy, the ratio of the
    // rates is about that of the CPU per request (the gateway's and the load generator's, plus the proxy's through it).
    const gwAlone: number[] = [];
    const gwThrough: number[] = [];
    for (let round = 0; round < s.reps; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      log(`proxy: round ${round + 1} of ${s.reps} (${order.map((t) => t.name).join(', ')}) ...`);
      for (const t of order) {
        const gwBefore = await ask<number>(gateway, 'cpu');
        if (t.name === 'alone') {
          const r = await t.load.run(t.url, payloads.headers, scenario, { ...s, warmupSec: 0, reps: 1 });
          alone.push(...r);
          if (requests(r) > 0) gwAlone.push(((await ask<number>(gateway, 'cpu')) - gwBefore) / requests(r));
          continue;
        }
        const before = await ask<Cpu>(px, 'cpu');
        const r = await t.load.run(t.url, payloads.headers, scenario, { ...s, warmupSec: 0, reps: 1 });
        const gwAfter = await ask<number>(gateway, 'cpu');
        // Every exchange of the run checked: how long the checks were behind when the run ended.
        const lagMs = await ask<number>(px, 'settle');
        const after = await ask<Cpu>(px, 'cpu');
        through.push(...r);
        const n = requests(r);
        if (n > 0) gwThrough.push((gwAfter - gwBefore) / n);
        lags.push(lagMs / 1000);
        checkedRates.push(n / (seconds(r) + lagMs / 1000));
        if (n > 0) {
          cpuTotal.push((after.total - before.total) / n);
          cpuChecks.push((after.main - before.main) / n);
          cpuForward.push((after.forward - before.forward) / n);
          cpuForwardKernel.push((after.forwardKernel - before.forwardKernel) / n);
        }
      }
    }
    const a = summarize(alone);
    const t = summarize(through);
    const checked = median(checkedRates);
    const added = t.p50 - a.p50;
    const measure = 'Proxy: AUTH';
    const bad = (x: { bad: number }): string => (x.bad ? ` (${x.bad} bad answers)` : '');
    const cpu = Number.isFinite(median(cpuTotal))
      ? `; proxy CPU ${median(cpuTotal).toFixed(0)} µs/req, of which checks ${median(cpuChecks).toFixed(0)}, forwarding ${median(cpuForward).toFixed(0)} (kernel ${median(cpuForwardKernel).toFixed(0)})`
      : '';
    const gwCpu = (xs: readonly number[]): string => (xs.length > 0 && Number.isFinite(median(xs)) ? `gateway CPU ${median(xs).toFixed(0)} µs/req` : '');
    return [
      {
        measure,
        subject: 'reference gateway alone',
        figure: [rate(a.rate, 'req'), gwCpu(gwAlone)].filter(Boolean).join('; ') + bad(a),
        p50: ms(a.p50),
        p99: ms(a.p99),
        ratio: '1.00',
        runs: String(a.runs),
      },
      {
        measure,
        subject: 'through cardspec proxy (what the client sees)',
        figure: rate(t.rate, 'req') + cpu + (gwCpu(gwThrough) ? `; ${gwCpu(gwThrough)}` : '') + bad(t),
        p50: ms(t.p50),
        p99: ms(t.p99),
        ratio: `${ratio(t.rate, a.rate)} of alone; p50 +${ms(Math.max(0, added)) || '0.00 ms'}`,
        target: `>= ${PROXY_MIN_RATIO} of alone: ${verdict(t.rate / a.rate, PROXY_MIN_RATIO)}; p50 added <= ${PROXY_MAX_ADDED_P50_MS} ms: ${Number.isFinite(added) ? (added <= PROXY_MAX_ADDED_P50_MS ? 'met' : 'NOT met') : 'n/a'}`,
        runs: String(t.runs),
      },
      {
        measure,
        subject: 'checked by cardspec proxy (both directions, every exchange)',
        figure: `${rate(checked, 'req')}; checks ${median(lags).toFixed(2)} s behind at the end of a run`,
        ratio: `${ratio(checked, a.rate)} of alone`,
        runs: String(checkedRates.length),
      },
    ];
  } finally {
    for (const l of loads) await l.stop();
    await proxy?.stop();
    await gateway.stop();
  }
}

/** The process's threads (Linux; none elsewhere). */
const threads = (): string[] => {
  try {
    return fs.readdirSync('/proc/self/task');
  } catch {
    return [];
  }
};

/** The proxy's process: the checking proxy in front of `upstream`, answering the parent's CPU and settle queries. */
async function serveProxy(upstream: string): Promise<void> {
  const before = new Set(threads());
  // As `cardspec proxy` starts it (src/cli/proxy.ts).
  const proxy = await startProxy({ upstream, checksNice: 10 });
  // The thread the proxy started is the forwarding thread (node's own threads all start with the process).
  const started = threads().filter((t) => !before.has(t));
  const forwardCpu = (kernelOnly = false): number => (started.length === 1 ? threadCpu(started[0], kernelOnly) : NaN);
  process.on('message', (m: unknown) => {
    const type = typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : undefined;
    if (type === 'cpu') {
      const { user, system } = process.cpuUsage();
      tell({ type: 'result', data: { total: user + system, main: threadCpu(process.pid), forward: forwardCpu(), forwardKernel: forwardCpu(true) } satisfies Cpu });
    } else if (type === 'settle') {
      const t0 = performance.now();
      void proxy.settled().then(() => tell({ type: 'result', data: performance.now() - t0 }));
    }
  });
  tell({ type: 'ready', url: proxy.url });
  const close = (): void => void proxy.close().then(() => process.exit(0));
  process.once('SIGTERM', close);
  process.once('disconnect', close);
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--serve-proxy') {
    await serveProxy(argv[1]).catch(failChild);
    return 0;
  }
  // `node bench/run.js proxy ...`: the section's name comes first.
  const args = argv[0] === 'proxy' ? argv.slice(1) : argv;
  const { values } = parseArgs({ args, strict: true, options: { reps: { type: 'string' }, duration: { type: 'string' }, connections: { type: 'string' }, warmup: { type: 'string' } } });
  const n = (v: string | undefined, d: number): number => (v === undefined ? d : Number(v));
  const settings = { reps: n(values.reps, 3), durationSec: n(values.duration, 3), warmupSec: n(values.warmup, 2), connections: n(values.connections, 10), maxRequests: 1_000_000 };
  const rows = await proxySection(settings, (line) => console.error(line));
  console.log(renderTable(rows));
  return 0;
}

if (require.main === module && process.argv[2] === '--serve-proxy') void main(process.argv.slice(2));
