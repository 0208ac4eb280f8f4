/**
 * Start-up (issue 28): how long `cardspec --help`, a command's `--help` and a run's start-up take, from the package
 * as a user installs it (`npm pack`, whose `prepack` compiles the modules and the rule catalogue, installed into an
 * empty project as scripts/check-package.sh does) and from the sources through ts-node (a clone), beside a bare
 * `node -e 0` (the floor no command can go under). Without the registry (offline), the package's files are copied
 * and built in a temporary folder instead, and the rows say so. A run's start-up is measured twice: from spawn to
 * exit of a run with a tag no scenario carries (cucumber loads the steps and features, the gateway starts and
 * stops, the reports are written: what each CI shard pays besides its scenarios), and from spawn to the first
 * request a run sends to a target (its preflight, against a loopback server of the benchmark's that answers 503).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from './child';
import { NO_SCENARIO_TAG } from './suite';
import { median, ratio, seconds, type Row } from './table';

/** What `npm pack` ships (package.json "files") and what the build needs: the copy made when the registry is out of reach. */
const PACKAGE_FILES = ['bin', 'src', 'steps', 'features', 'schemas', 'generators', 'nock.js', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js'];

interface Kit {
  /** bin/cardspec.js of the kit. */
  readonly bin: string;
  /** The folder commands are run in. */
  readonly cwd: string;
  /** How it was made: "packed and installed" or "a built copy". */
  readonly how: string;
  readonly dispose: () => void;
}

/** The package as a user gets it: packed (prepack compiles it), installed into an empty project. */
function packedKit(): Kit {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-bench-packed-'));
  try {
    const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 600_000 })
      .trim()
      .split('\n')
      .at(-1)!;
    const project = path.join(dir, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), '{ "name": "cardspec-bench-startup", "version": "1.0.0", "private": true }\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=dev', path.join(dir, tarball)], { cwd: project, stdio: 'ignore', timeout: 600_000 });
    return { bin: path.join(project, 'node_modules', 'cardspec', 'bin', 'cardspec.js'), cwd: project, how: 'packed and installed', dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** A copy of the package with its modules compiled beside their sources; the clone's node_modules linked. */
function builtCopy(): Kit {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-bench-compiled-'));
  for (const f of PACKAGE_FILES) fs.cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, [path.join(dir, 'scripts', 'build.js')], { cwd: dir, stdio: 'ignore' });
  return { bin: path.join(dir, 'bin', 'cardspec.js'), cwd: dir, how: 'a built copy (npm pack or install failed)', dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Seconds from spawn to exit of `node args`; the exit code must be `expected`. */
function timed(args: readonly string[], cwd: string, expected: number): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd, stdio: 'ignore', timeout: 120_000 });
  const s = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== expected) throw new Error(`node ${args.join(' ')} exited ${r.status ?? r.signal}, not ${expected}`);
  return s;
}

/**
 * Seconds from spawn to the first request a run sends (its preflight) to a loopback server that answers 503; the
 * run is ended there (SIGKILL: what follows is not start-up).
 */
async function toFirstRequest(bin: string, cwd: string, reports: string): Promise<number> {
  let arrived: ((at: bigint) => void) | undefined;
  const first = new Promise<bigint>((resolve) => (arrived = resolve));
  const server = http.createServer((req, res) => {
    arrived?.(process.hrtime.bigint());
    req.resume();
    res.writeHead(503, { 'Content-Type': 'text/plain' }).end('bench: start-up measured');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [bin, 'run', '--target', target, '--format', 'json', '--reports', reports], { cwd, stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const at = await Promise.race([
      first,
      exited.then((code) => Promise.reject(new Error(`cardspec run exited ${code} before sending a request`))),
      sleep(120_000).then(() => Promise.reject(new Error('no request within 120 s'))),
    ]);
    return Number(at - started) / 1e9;
  } finally {
    child.kill('SIGKILL');
    await exited;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

interface Case {
  readonly what: string;
  /** Under this many seconds in the packed kit. */
  readonly goal: number;
  /** One run's seconds. */
  readonly measure: (bin: string, cwd: string) => Promise<number>;
}

export async function startupSection(reps: number, log: (line: string) => void): Promise<Row[]> {
  log('start-up: packing the package and installing it into an empty project ...');
  let kit: Kit;
  try {
    kit = packedKit();
  } catch (e) {
    log(`start-up: npm pack or install failed (${(e as Error).message.split('\n')[0]}); building a copy instead ...`);
    kit = builtCopy();
  }
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-bench-startup-'));
  try {
    const n = Math.max(5, reps);
    const floor = median(Array.from({ length: n }, () => timed(['-e', '0'], ROOT, 0)));
    const cases: readonly Case[] = [
      { what: 'cardspec --help', goal: 0.3, measure: async (bin, cwd) => timed([bin, '--help'], cwd, 0) },
      { what: 'cardspec run --help', goal: 0.3, measure: async (bin, cwd) => timed([bin, 'run', '--help'], cwd, 0) },
      { what: 'cardspec report --help', goal: 0.3, measure: async (bin, cwd) => timed([bin, 'report', '--help'], cwd, 0) },
      {
        what: 'run start-up: spawn to exit, no scenario (built-in target, reports written)',
        goal: 0.6,
        measure: async (bin, cwd) => timed([bin, 'run', '--format', 'json', '--tags', NO_SCENARIO_TAG, '--reports', reports], cwd, 2),
      },
      { what: 'run start-up: spawn to the first request (a loopback target)', goal: 0.6, measure: (bin, cwd) => toFirstRequest(bin, cwd, reports) },
    ];
    const rows: Row[] = [{ measure: 'Start-up', subject: 'node -e 0 (the floor)', figure: seconds(floor), runs: String(n) }];
    for (const c of cases) {
      log(`start-up: ${c.what} ...`);
      // Taking turns, so that a machine whose load drifts weighs on both alike.
      const fast: number[] = [];
      const slow: number[] = [];
      for (let i = 0; i < n; i++) {
        fast.push(await c.measure(kit.bin, kit.cwd));
        slow.push(await c.measure(path.join(ROOT, 'bin', 'cardspec.js'), ROOT));
      }
      const f = median(fast);
      const s = median(slow);
      rows.push({
        measure: 'Start-up',
        subject: `${c.what}; compiled (${kit.how})`,
        figure: seconds(f),
        ratio: `${ratio(f, floor, 1)}x the floor; ${ratio(s, f, 1)}x faster than ts-node`,
        target: `under ${c.goal} s: ${f < c.goal ? 'met' : 'NOT met'}`,
        runs: String(fast.length),
      });
      rows.push({ measure: 'Start-up', subject: `${c.what}; sources (ts-node, a clone)`, figure: seconds(s), runs: String(slow.length) });
    }
    return rows;
  } finally {
    kit.dispose();
    fs.rmSync(reports, { recursive: true, force: true });
  }
}
