/**
 * The checking proxy's overhead (issue 27): AUTH through `cardspec proxy` in front of the reference gateway, against
 * the gateway alone, with the same payload and load generator (bench/load.ts), each server in a process of its own,
 * measured in turns. Targets: p50 added at most 1 ms; throughput at least 0.5 of the gateway's.
 *
 *   node bench/run.js proxy [--reps N] [--duration S] [--connections N]
 *
 * Run with `--serve-proxy <upstream>` this file is the proxy's process (what the parent forks).
 */
import { parseArgs } from 'node:util';
import { startProxy } from '../src/proxy';
import { failChild, forkBench, tell, type BenchChild } from './child';
import { LoadGenerator, summarize, type LoadSettings } from './loadgen';
import { buildPayloads, cachetokenFrom } from './payloads';
import { ms, rate, ratio, renderTable, verdict, type Row } from './table';

/** Issue 27: "p50 latency added at most 1 ms, throughput at least 0.5 of the gateway's". */
export const PROXY_MAX_ADDED_P50_MS = 1;
export const PROXY_MIN_RATIO = 0.5;

async function ready(child: BenchChild): Promise<string> {
  const m = await child.next(60_000);
  if (m.type !== 'ready') throw new Error(`${child.name}: not ready`);
  return m.url;
}

/** The proxy section's rows: the gateway alone, then through the proxy. */
export async function proxySection(s: LoadSettings): Promise<Row[]> {
  const gateway = forkBench('servers/gateway.ts', [], 'reference gateway');
  let proxy: BenchChild | undefined;
  const load = new LoadGenerator();
  try {
    const gwUrl = await ready(gateway);
    proxy = forkBench('proxy.ts', ['--serve-proxy', gwUrl], 'checking proxy');
    const proxyUrl = await ready(proxy);
    const payloads = buildPayloads(await cachetokenFrom(gwUrl));
    const scenario = { kind: 'single', body: payloads.auth } as const;
    // In turns, one rep each, so that a change of the machine's load falls on both alike.
    const alone = [];
    const through = [];
    for (let i = 0; i < s.reps; i++) {
      alone.push(...(await load.run(gwUrl, payloads.headers, scenario, { ...s, reps: 1 })));
      through.push(...(await load.run(proxyUrl, payloads.headers, scenario, { ...s, reps: 1 })));
    }
    const a = summarize(alone);
    const t = summarize(through);
    const added = t.p50 - a.p50;
    const where = `${s.connections} connections`;
    return [
      { measure: 'Proxy, AUTH', subject: 'reference gateway alone', figure: rate(a.rate, 'req'), p50: ms(a.p50), p99: ms(a.p99), runs: String(a.runs), where },
      {
        measure: 'Proxy, AUTH',
        subject: 'through cardspec proxy (both directions checked)',
        figure: rate(t.rate, 'req'),
        p50: ms(t.p50),
        p99: ms(t.p99),
        ratio: `${ratio(t.rate, a.rate)}; p50 +${ms(added)}`,
        target: `>= ${PROXY_MIN_RATIO} ${verdict(t.rate / a.rate, PROXY_MIN_RATIO)}; p50 +<= ${PROXY_MAX_ADDED_P50_MS} ms ${added <= PROXY_MAX_ADDED_P50_MS ? 'met' : 'NOT met'}`,
        runs: String(t.runs),
        where,
      },
    ];
  } finally {
    await load.stop();
    await proxy?.stop();
    await gateway.stop();
  }
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--serve-proxy') {
    try {
      const proxy = await startProxy({ upstream: argv[1] });
      tell({ type: 'ready', url: proxy.url });
      const close = (): void => void proxy.close().then(() => process.exit(0));
      process.once('SIGTERM', close);
      process.once('disconnect', close);
    } catch (e) {
      failChild(e);
    }
    return 0;
  }
  // `node bench/run.js proxy ...`: the section's name comes first.
  const args = argv[0] === 'proxy' ? argv.slice(1) : argv;
  const { values } = parseArgs({ args, strict: true, options: { reps: { type: 'string' }, duration: { type: 'string' }, connections: { type: 'string' }, warmup: { type: 'string' } } });
  const n = (v: string | undefined, d: number): number => (v === undefined ? d : Number(v));
  const rows = await proxySection({ reps: n(values.reps, 3), durationSec: n(values.duration, 3), warmupSec: n(values.warmup, 1), connections: n(values.connections, 10), maxRequests: 1_000_000 });
  console.log(renderTable(rows));
  return 0;
}

if (require.main === module && process.argv[2] === '--serve-proxy') void main(process.argv.slice(2));
