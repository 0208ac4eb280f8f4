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
 * Two rows give the floor, what no checking proxy can avoid on this machine, each in turns with the gateway alone
 * under the same load: a byte pipe (each client connection piped to a connection of its own to the gateway, no HTTP
 * read, nothing checked) and the proxy's own forwarding (src/proxy/forward.ts) with nothing checked, in a process of
 * its own (a bench-only entry, `--serve-forward`: the command has no way to turn the checks off). With the two cores
 * busy throughout, the ratio of each row to the gateway alone says what a proxy that checks nothing reaches here,
 * and so how much CPU the checks may take for the target.
 *
 *   npm run bench -- --only proxy      (or node bench/run.js proxy [--reps N] [--duration S] [--connections N] [--no-floors] [--pin])
 *
 * Run with `--serve-proxy <upstream>` this file is the proxy's process (what the parent forks).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { parseArgs } from 'node:util';
import { startProxy } from '../src/proxy';
import { DEFAULT_MAX_BODY, DEFAULT_TIMEOUT_MS } from '../src/proxy/defaults';
import { startForwarder } from '../src/proxy/forward';
import { failChild, forkBench, tell, type BenchChild } from './child';
import { LoadGenerator, summarize, type LoadSettings } from './loadgen';
import type { LoadRep } from './load';
import { buildPayloads, cachetokenFrom } from './payloads';
import { median, ms, rate, ratio, renderTable, verdict, type Row } from './table';

/** Issue 27: "p50 latency added at most 1 ms, throughput at least 0.5 of the gateway's". */
export const PROXY_MAX_ADDED_P50_MS = 1;
export const PROXY_MIN_RATIO = 0.5;

/**
 * CPU time in µs: the whole process and the kernel's part of it (its system calls), its main thread alone (where
 * the proxy checks), and the forwarding thread alone, with the kernel's part of it (two reads and two writes per
 * exchange). The rest is node's own threads (the garbage collector's helpers, mostly for the checks' heap). A floor
 * process has no forwarding thread (NaN).
 */
interface Cpu {
  readonly total: number;
  readonly kernel: number;
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

/** A process's CPU time in µs so far (utime + stime of every thread), from /proc (Linux); NaN elsewhere. */
function processCpu(pid: number | undefined): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

/** The machine's idle CPU time in µs so far, all cores (/proc/stat: idle and iowait); NaN elsewhere. */
function machineIdle(): number {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/);
    return (Number(cpu[4]) + Number(cpu[5])) * 10_000;
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

/** What stands between the load generator and the gateway in a row: nothing, a floor, or the checking proxy. */
type Kind = 'alone' | 'pipe' | 'forward' | 'proxy';

/** The process of each kind in front of the gateway (`bench/proxy.ts <flag> <upstream>`). */
const SERVE: Record<Exclude<Kind, 'alone'>, { readonly flag: string; readonly name: string }> = {
  pipe: { flag: '--serve-pipe', name: 'byte pipe' },
  forward: { flag: '--serve-forward', name: "proxy's forwarding, nothing checked" },
  proxy: { flag: '--serve-proxy', name: 'checking proxy' },
};

/** One row's runs and the CPU per request of its parts. */
class Tally {
  readonly reps: LoadRep[] = [];
  readonly total: number[] = [];
  readonly kernel: number[] = [];
  readonly checks: number[] = [];
  readonly forward: number[] = [];
  readonly forwardKernel: number[] = [];
  /** The gateway's CPU per request in these runs, the load generator's, and the machine's idle time per request. */
  readonly gateway: number[] = [];
  readonly loadgen: number[] = [];
  readonly idle: number[] = [];
  readonly checkedRates: number[] = [];
  readonly lags: number[] = [];
}

const med = (xs: readonly number[]): string => (xs.length > 0 && Number.isFinite(median(xs)) ? median(xs).toFixed(0) : '');

export interface SectionOptions {
  /** The floor rows (default true); without them, the gateway alone and the proxy only, as before they were added. */
  readonly floors?: boolean;
  /**
   * Linux, `taskset`: the proxy's checking thread on the second core, everything else (the load generators, the
   * gateway, the floors, the proxy's forwarding thread) on the first: a machine where the checks have a core of their
   * own and the rest shares one, as the gateway alone has it. Meaningful on a machine with nothing else to run.
   */
  readonly pin?: boolean;
}

/** Pins every thread of a process to one core (`taskset`); throws where it cannot. */
function pinProcess(pid: number | undefined, core: number): void {
  if (pid === undefined) throw new Error('--pin: a process without an id');
  execFileSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
}

/**
 * The proxy section's rows: the gateway alone, the two floors (a byte pipe, the proxy's forwarding with nothing
 * checked), the same through the checking proxy, and the rate of checked exchanges.
 */
export async function proxySection(s: LoadSettings, log: (line: string) => void = () => undefined, opts: SectionOptions = {}): Promise<Row[]> {
  const floors = opts.floors ?? true;
  const gateway = forkBench('servers/gateway.ts', [], 'reference gateway');
  const kinds: readonly Kind[] = floors ? ['alone', 'pipe', 'forward', 'proxy'] : ['alone', 'proxy'];
  const children = new Map<Kind, BenchChild>();
  const loads = kinds.map(() => new LoadGenerator());
  try {
    const gwUrl = await ready(gateway);
    const targets: { readonly kind: Kind; readonly url: string; readonly load: LoadGenerator; readonly child?: BenchChild; readonly tally: Tally }[] = [];
    for (const [i, kind] of kinds.entries()) {
      if (kind === 'alone') {
        targets.push({ kind, url: gwUrl, load: loads[i], tally: new Tally() });
        continue;
      }
      const child = forkBench('proxy.ts', [SERVE[kind].flag, gwUrl], SERVE[kind].name);
      children.set(kind, child);
      targets.push({ kind, url: await ready(child), load: loads[i], child, tally: new Tally() });
    }
    if (opts.pin) {
      for (const pid of [gateway.proc.pid, ...loads.map((l) => l.pid), ...[...children].filter(([k]) => k !== 'proxy').map(([, c]) => c.proc.pid)]) pinProcess(pid, 0);
      await ask<boolean>(children.get('proxy')!, 'pin');
    }
    const payloads = buildPayloads(await cachetokenFrom(gwUrl));
    const scenario = { kind: 'single', body: payloads.auth } as const;
    for (const t of targets) {
      log(`proxy: warming up (${t.kind}) ...`);
      await t.load.run(t.url, payloads.headers, scenario, { ...s, reps: 0 });
    }
    const px = children.get('proxy')!;
    await ask<number>(px, 'settle');
    for (let round = 0; round < s.reps; round++) {
      // The order rotated every round, so that no row always follows the same one.
      const order = targets.map((_, i) => targets[(i + round) % targets.length]);
      log(`proxy: round ${round + 1} of ${s.reps} (${order.map((t) => t.kind).join(', ')}) ...`);
      for (const t of order) {
        const gwBefore = await ask<number>(gateway, 'cpu');
        const before = t.child ? await ask<Cpu>(t.child, 'cpu') : undefined;
        const lgBefore = processCpu(t.load.pid);
        const idleBefore = machineIdle();
        const r = await t.load.run(t.url, payloads.headers, scenario, { ...s, warmupSec: 0, reps: 1 });
        const idleAfter = machineIdle();
        const lgAfter = processCpu(t.load.pid);
        const gwAfter = await ask<number>(gateway, 'cpu');
        // Every exchange of the run checked: how long the checks were behind when the run ended.
        const lagMs = t.kind === 'proxy' ? await ask<number>(px, 'settle') : 0;
        const after = t.child ? await ask<Cpu>(t.child, 'cpu') : undefined;
        const n = requests(r);
        t.tally.reps.push(...r);
        if (n === 0) continue;
        t.tally.gateway.push((gwAfter - gwBefore) / n);
        t.tally.loadgen.push((lgAfter - lgBefore) / n);
        t.tally.idle.push((idleAfter - idleBefore) / n);
        t.tally.lags.push(lagMs / 1000);
        t.tally.checkedRates.push(n / (seconds(r) + lagMs / 1000));
        if (before && after) {
          t.tally.total.push((after.total - before.total) / n);
          t.tally.kernel.push((after.kernel - before.kernel) / n);
          t.tally.checks.push((after.main - before.main) / n);
          t.tally.forward.push((after.forward - before.forward) / n);
          t.tally.forwardKernel.push((after.forwardKernel - before.forwardKernel) / n);
        }
      }
    }
    const tallyOf = (k: Kind): Tally => targets.find((t) => t.kind === k)!.tally;
    const a = summarize(tallyOf('alone').reps);
    const measure = 'Proxy: AUTH';
    const bad = (x: { bad: number }): string => (x.bad ? ` (${x.bad} bad answers)` : '');
    // What else a request cost: the gateway's CPU, the load generator's, and the machine's idle time (both cores:
    // near 0 when the runs keep the cores busy, so that the rate follows the sum of the CPU per request).
    const gwCpu = (t: Tally): string => (med(t.gateway) ? `gateway CPU ${med(t.gateway)} µs/req` + (med(t.loadgen) ? `, load generator ${med(t.loadgen)}, idle ${med(t.idle)}` : '') : '');
    const rows: Row[] = [
      {
        measure,
        subject: 'reference gateway alone',
        figure: [rate(a.rate, 'req'), gwCpu(tallyOf('alone'))].filter(Boolean).join('; ') + bad(a),
        p50: ms(a.p50),
        p99: ms(a.p99),
        ratio: '1.00',
        runs: String(a.runs),
      },
    ];
    const floorRow = (k: 'pipe' | 'forward', subject: string): Row => {
      const t = tallyOf(k);
      const x = summarize(t.reps);
      const cpu = med(t.total) ? `${SERVE[k].name} CPU ${med(t.total)} µs/req (kernel ${med(t.kernel)})` : '';
      return {
        measure,
        subject,
        figure: [rate(x.rate, 'req'), cpu, gwCpu(t)].filter(Boolean).join('; ') + bad(x),
        p50: ms(x.p50),
        p99: ms(x.p99),
        ratio: `${ratio(x.rate, a.rate)} of alone; p50 +${ms(Math.max(0, x.p50 - a.p50)) || '0.00 ms'}`,
        runs: String(x.runs),
      };
    };
    if (floors) {
      rows.push(floorRow('pipe', 'floor: a byte pipe (no HTTP read, nothing checked)'));
      rows.push(floorRow('forward', "floor: the proxy's forwarding, nothing checked (bench only)"));
    }
    const p = tallyOf('proxy');
    const t = summarize(p.reps);
    const added = t.p50 - a.p50;
    const cpu = med(p.total) ? `; proxy CPU ${med(p.total)} µs/req, of which checks ${med(p.checks)}, forwarding ${med(p.forward)} (kernel ${med(p.forwardKernel)})` : '';
    rows.push(
      {
        measure,
        subject: 'through cardspec proxy (what the client sees)',
        figure: rate(t.rate, 'req') + cpu + (gwCpu(p) ? `; ${gwCpu(p)}` : '') + bad(t),
        p50: ms(t.p50),
        p99: ms(t.p99),
        ratio: `${ratio(t.rate, a.rate)} of alone; p50 +${ms(Math.max(0, added)) || '0.00 ms'}`,
        target: `>= ${PROXY_MIN_RATIO} of alone: ${verdict(t.rate / a.rate, PROXY_MIN_RATIO)}; p50 added <= ${PROXY_MAX_ADDED_P50_MS} ms: ${Number.isFinite(added) ? (added <= PROXY_MAX_ADDED_P50_MS ? 'met' : 'NOT met') : 'n/a'}`,
        runs: String(t.runs),
      },
      {
        measure,
        subject: 'checked by cardspec proxy (both directions, every exchange)',
        figure: `${rate(median(p.checkedRates), 'req')}; checks ${median(p.lags).toFixed(2)} s behind at the end of a run`,
        ratio: `${ratio(median(p.checkedRates), a.rate)} of alone`,
        runs: String(p.checkedRates.length),
      },
    );
    return rows;
  } finally {
    for (const l of loads) await l.stop();
    for (const c of children.values()) await c.stop();
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

/** Answers the parent's CPU and settle queries for a process in front of the gateway. */
function answerQueries(forwardCpu: (kernelOnly?: boolean) => number, settled: () => Promise<void>): void {
  process.on('message', (m: unknown) => {
    const type = typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : undefined;
    if (type === 'cpu') {
      const { user, system } = process.cpuUsage();
      tell({ type: 'result', data: { total: user + system, kernel: system, main: threadCpu(process.pid), forward: forwardCpu(), forwardKernel: forwardCpu(true) } satisfies Cpu });
    } else if (type === 'settle') {
      const t0 = performance.now();
      void settled().then(() => tell({ type: 'result', data: performance.now() - t0 }));
    }
  });
}

function serveUntilEnd(url: string, close: () => Promise<void>): void {
  tell({ type: 'ready', url });
  const end = (): void => void close().then(() => process.exit(0));
  process.once('SIGTERM', end);
  process.once('disconnect', end);
}

/** The proxy's process: the checking proxy in front of `upstream`, answering the parent's CPU and settle queries. */
async function serveProxy(upstream: string): Promise<void> {
  const before = new Set(threads());
  // As `cardspec proxy` starts it (src/cli/proxy.ts).
  const proxy = await startProxy({ upstream, checksNice: 10 });
  // The thread the proxy started is the forwarding thread (node's own threads all start with the process).
  const started = threads().filter((t) => !before.has(t));
  answerQueries(
    (kernelOnly = false) => (started.length === 1 ? threadCpu(started[0], kernelOnly) : NaN),
    () => proxy.settled(),
  );
  // `--pin`: the checks (this thread) on the second core, the forwarding thread on the first.
  process.on('message', (m: unknown) => {
    if (typeof m !== 'object' || m === null || (m as { type?: unknown }).type !== 'pin') return;
    try {
      if (started.length !== 1) throw new Error('the forwarding thread was not found');
      // The main thread alone: node's helper threads pinned with it spin waiting for one another on one core (the
      // process's CPU beside its two threads went from about 9 to about 70 µs per request); left free, they run
      // where there is room, as on a machine with cores to spare.
      execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
      execFileSync('taskset', ['-cp', '0', started[0]], { stdio: 'ignore' });
      tell({ type: 'result', data: true });
    } catch (e) {
      tell({ type: 'error', message: `--pin: ${(e as Error).message}` });
    }
  });
  serveUntilEnd(proxy.url, () => proxy.close());
}

/**
 * The first floor: each client connection piped, byte for byte, to a connection of its own to the upstream (Nagle
 * off both ways, as the proxy's). No HTTP is read and nothing is checked: what any proxy on this machine pays for
 * the two more loopback hops of each exchange, and node's stream layer beneath them.
 */
async function servePipe(upstream: string): Promise<void> {
  const u = new URL(upstream);
  const sockets = new Set<net.Socket>();
  const server = net.createServer({ noDelay: true }, (client) => {
    const up = net.connect({ host: u.hostname, port: Number(u.port || 80) });
    up.setNoDelay(true);
    for (const s of [client, up]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        up.destroy();
      });
    }
    client.pipe(up);
    up.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  answerQueries(
    () => NaN,
    () => Promise.resolve(),
  );
  serveUntilEnd(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, () => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

/**
 * The second floor: the proxy's own forwarding (src/proxy/forward.ts), as its forwarding thread runs it, on this
 * process's main thread, every finished exchange dropped: no hand-off to another thread, nothing checked.
 */
async function serveForward(upstream: string): Promise<void> {
  const forwarder = await startForwarder({ upstream, basePath: '', timeoutMs: DEFAULT_TIMEOUT_MS, maxBodyBytes: DEFAULT_MAX_BODY, tls: {} }, () => undefined);
  answerQueries(
    () => NaN,
    () => Promise.resolve(),
  );
  serveUntilEnd(`http://127.0.0.1:${forwarder.port}`, () => forwarder.close());
}

export async function main(argv: string[]): Promise<number> {
  const serve = { '--serve-proxy': serveProxy, '--serve-pipe': servePipe, '--serve-forward': serveForward }[argv[0] ?? ''];
  if (serve) {
    await serve(argv[1]).catch(failChild);
    return 0;
  }
  // `node bench/run.js proxy ...`: the section's name comes first.
  const args = argv[0] === 'proxy' ? argv.slice(1) : argv;
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      reps: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      'no-floors': { type: 'boolean' },
      pin: { type: 'boolean' },
    },
  });
  const n = (v: string | undefined, d: number): number => (v === undefined ? d : Number(v));
  const settings = { reps: n(values.reps, 3), durationSec: n(values.duration, 3), warmupSec: n(values.warmup, 2), connections: n(values.connections, 10), maxRequests: 1_000_000 };
  const rows = await proxySection(settings, (line) => console.error(line), { floors: !values['no-floors'], pin: values.pin });
  console.log(renderTable(rows));
  return 0;
}

if (require.main === module && process.argv[2]?.startsWith('--serve-')) void main(process.argv.slice(2));
