/**
 * Start-up (issue 28): how long `cardspec --help` and a run's start-up take, from the compiled modules a packed kit
 * carries (scripts/build.js, run by `prepack`) and from the sources through ts-node (a clone), beside a bare
 * `node -e 0` (the floor no command can go under). The compiled kit is built in a copy of the package's files in a
 * temporary folder, so the clone never holds compiled modules (test/structure/compiled.test.ts). A run's start-up
 * is the suite section's "runner start-up alone": the same command with a tag no scenario carries (cucumber loads
 * the steps and features, the gateway starts and stops, the reports are written).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from './child';
import { NO_SCENARIO_TAG } from './suite';
import { median, ratio, seconds, type Row } from './table';

/** What `npm pack` ships (package.json "files") and what the build needs. */
const PACKAGE_FILES = ['bin', 'src', 'steps', 'features', 'schemas', 'generators', 'nock.js', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js'];

/** A copy of the package with its modules compiled beside their sources; the clone's node_modules linked. */
function compiledCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-bench-compiled-'));
  for (const f of PACKAGE_FILES) fs.cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  execFileSync(process.execPath, [path.join(dir, 'scripts', 'build.js')], { cwd: dir, stdio: 'ignore' });
  return dir;
}

/** Seconds from spawn to exit of `node args`, the median of `reps`; the exit code must be `expected`. */
function timed(args: readonly string[], cwd: string, expected: number, reps: number): { seconds: number; runs: number } {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { cwd, stdio: 'ignore', timeout: 120_000 });
    const s = Number(process.hrtime.bigint() - started) / 1e9;
    if (r.status !== expected) throw new Error(`node ${args.join(' ')} exited ${r.status ?? r.signal}, not ${expected}`);
    times.push(s);
  }
  return { seconds: median(times), runs: times.length };
}

export async function startupSection(reps: number, log: (line: string) => void): Promise<Row[]> {
  log('start-up: compiling a copy of the package ...');
  const compiled = compiledCopy();
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-bench-startup-'));
  try {
    const n = Math.max(3, reps);
    const floor = timed(['-e', '0'], ROOT, 0, n);
    const cases = [
      { what: 'cardspec --help', args: ['--help'], expected: 0, goal: 0.3 },
      { what: 'cardspec run --help', args: ['run', '--help'], expected: 0, goal: 0.3 },
      { what: 'run start-up (no scenario)', args: ['run', '--format', 'json', '--tags', NO_SCENARIO_TAG, '--reports', reports], expected: 2, goal: 0.6 },
    ];
    const rows: Row[] = [{ measure: 'Start-up', subject: 'node -e 0 (the floor)', figure: seconds(floor.seconds), runs: String(floor.runs) }];
    for (const c of cases) {
      log(`start-up: ${c.what} ...`);
      const fast = timed([path.join(compiled, 'bin', 'cardspec.js'), ...c.args], compiled, c.expected, n);
      const slow = timed([path.join(ROOT, 'bin', 'cardspec.js'), ...c.args], ROOT, c.expected, n);
      rows.push({
        measure: 'Start-up',
        subject: `${c.what}, compiled (packed kit)`,
        figure: seconds(fast.seconds),
        ratio: `${ratio(fast.seconds, floor.seconds, 1)}x the floor; ${ratio(slow.seconds, fast.seconds, 1)}x faster than ts-node`,
        target: `under ${c.goal} s: ${fast.seconds < c.goal ? 'met' : 'NOT met'}`,
        runs: String(fast.runs),
      });
      rows.push({ measure: 'Start-up', subject: `${c.what}, sources (ts-node, a clone)`, figure: seconds(slow.seconds), runs: String(slow.runs) });
    }
    return rows;
  } finally {
    fs.rmSync(compiled, { recursive: true, force: true });
    fs.rmSync(reports, { recursive: true, force: true });
  }
}
