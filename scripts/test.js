#!/usr/bin/env node
// Runs the kit's own tests: every test/**/*.test.ts in its own process, as many at once as there are cores, and
// prints one line per failing test and a total instead of TAP. End-to-end files (real CLI runs, cucumber, the
// self-check, Chromium) are named *.e2e.test.ts; `--fast` leaves them out (`npm run test:fast`, the inner loop),
// `--e2e` runs only them.
//
//   node scripts/test.js [--fast | --e2e] [--concurrency N] [--files] [--timeout S] [part of a path ...]
//
// `npm test -- gateway` runs the files whose path contains "gateway". Exit code: 0 when nothing failed.
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.join(__dirname, '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const valued = new Set(['--concurrency', '--timeout']);
const filters = args.filter((a, i) => !a.startsWith('-') && !valued.has(args[i - 1]));
/**
 * The CPUs this process may use: its affinity, and a container's CPU quota (cgroup v2 cpu.max, v1 cfs_quota_us), which
 * the affinity does not show. A CI container limited to two CPUs of a large host would otherwise start a file per host
 * CPU at once, and the timing guards of the end-to-end files would meet a machine many times slower than they assume.
 */
function usableCores() {
  const affinity = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const read = (file) => {
    try {
      return fs.readFileSync(file, 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  let quota;
  const v2 = read('/sys/fs/cgroup/cpu.max')?.split(/\s+/);
  if (v2 && v2[0] !== 'max') quota = Number(v2[0]) / Number(v2[1]);
  else {
    const q = Number(read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us'));
    const period = Number(read('/sys/fs/cgroup/cpu/cpu.cfs_period_us'));
    if (q > 0 && period > 0) quota = q / period;
  }
  return quota > 0 && Number.isFinite(quota) ? Math.max(1, Math.min(affinity, Math.ceil(quota))) : affinity;
}
const cores = usableCores();
const concurrency = Math.max(1, Number(option('--concurrency', process.env.CARDSPEC_TEST_CONCURRENCY || cores)) || cores);
// A file that has not ended by then is stopped and counted as failed: every run ends.
const timeoutMs = Number(option('--timeout', 900)) * 1000;
const listEvery = flag('--files');

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : walk(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}
const isE2e = (p) => p.endsWith('.e2e.test.ts');
const files = walk(path.join(root, 'test'))
  .map((p) => path.relative(root, p).split(path.sep).join('/'))
  .filter((p) => filters.length === 0 || filters.some((f) => p.includes(f)))
  .filter((p) => (flag('--fast') ? !isE2e(p) : flag('--e2e') ? isE2e(p) : true))
  .sort()
  // Longest first (end-to-end files), so that the last file to finish is a short one.
  .sort((a, b) => Number(isE2e(b)) - Number(isE2e(a)));
if (files.length === 0) {
  console.error('scripts/test.js: no test file matched');
  process.exit(1);
}

const env = { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' };
const reporter = path.join(__dirname, 'test-reporter.mjs');
const tty = process.stdout.isTTY;
const totals = { pass: 0, fail: 0, skip: 0, todo: 0 };
const done = [];
const started = Date.now();

function runFile(file) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, ['--require', path.join(root, 'bin', 'register.js'), '--test', `--test-reporter=${reporter}`, file], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const results = [];
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      let nl;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        try {
          results.push(JSON.parse(line));
        } catch {
          err += line + '\n';
        }
      }
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
      if (err.length > 200000) err = err.slice(-100000);
    });
    running.add(child.pid);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The whole group: node --test runs the file in a child of its own, which may have started a server or a CLI.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('close', (code, signal) => {
      running.delete(child.pid);
      clearTimeout(timer);
      resolve({ file, code, signal, timedOut, results, stderr: err, ms: Date.now() - t0 });
    });
  });
}

/** The failing tests of a file, as lines; a file that failed with no failing test (a crash on load) is one line. */
function report(r) {
  const output =
    r.results
      .filter((t) => t.status === 'output')
      .map((t) => t.message)
      .join('') + r.stderr;
  // The file itself appears as a test named by its absolute path (node --test runs it in a child process).
  const isFile = (t) => t.nesting === 0 && path.isAbsolute(t.name) && t.name.endsWith(r.file);
  const tests = r.results.filter((t) => t.status !== 'output' && !t.suite && !isFile(t));
  for (const t of tests) totals[t.status]++;
  const failed = tests.filter((t) => t.status === 'fail');
  const lines = [];
  for (const t of failed) {
    lines.push(`✗ ${r.file} › ${t.name}${t.ms !== undefined ? ` (${Math.round(t.ms)} ms)` : ''}`);
    if (t.error) lines.push(...indent(t.error, 12));
  }
  const fileFailed = r.timedOut || r.code !== 0;
  if (fileFailed && failed.length === 0) {
    totals.fail++;
    const why = r.timedOut ? `did not end within ${timeoutMs / 1000} s (stopped)` : r.signal ? `ended by ${r.signal}` : `exited ${r.code} with no failing test`;
    lines.push(`✗ ${r.file} ${why}`);
    lines.push(...indent(output.trim().split('\n').slice(-20).join('\n') || 'no output', 20));
  }
  return { failed: fileFailed || failed.length > 0, lines, count: tests.length };
}

function indent(text, max) {
  // Node's own frames and the TypeScript loader's say nothing about the failure.
  const all = String(text)
    .split('\n')
    .filter((l) => l.trim() !== '' && !/\(node:|at node:|node_modules[\\/]ts-node|bin[\\/]typescript\.js/.test(l));
  const shown = all.slice(0, max).map((l) => '    ' + l);
  if (all.length > max) shown.push(`    ... ${all.length - max} more lines`);
  return shown;
}

function progress() {
  if (tty) process.stdout.write(`\r${done.length}/${files.length} files, ${totals.fail} failed, ${Math.round((Date.now() - started) / 1000)} s `);
}

/**
 * Without a terminal (a CI log, output to a file) the counter above is not drawn: a line at least every 10 s
 * instead, so that a log never falls silent through a long file. Time left: the files left at the average time of
 * the files done so far, over the files run at once.
 */
const PROGRESS_EVERY_MS = 10_000;
const current = new Map();
let lastLine = Date.now();
function progressLine() {
  const now = Date.now();
  const left = files.length - done.length;
  const avg = done.length ? done.reduce((a, d) => a + d.ms, 0) / done.length : undefined;
  const waiting = left - current.size;
  const eta =
    avg === undefined
      ? 'time left unknown until a file ends'
      : waiting <= 0
        ? 'waiting for the last file(s) to end'
        : `about ${Math.round((avg * left) / Math.min(concurrency, Math.max(1, left)) / 1000)} s left at the average file's pace`;
  const running_ = [...current.entries()].map(([f, t0]) => `${f} (${Math.round((now - t0) / 1000)} s)`).join(', ');
  console.log(`... ${done.length}/${files.length} files done, ${totals.fail} failed, ${Math.round((now - started) / 1000)} s; running ${running_ || 'nothing'}; ${eta}`);
  lastLine = now;
}
const ticker = tty
  ? undefined
  : setInterval(() => {
      if (Date.now() - lastLine >= PROGRESS_EVERY_MS - 1000) progressLine();
    }, 1000);

// Ctrl-C or a CI timeout ends every file's process group too, so that no server or run is left behind.
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const pid of running) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    process.exit(130);
  });
}

async function main() {
  const queue = [...files];
  const workers = Array.from({ length: Math.min(concurrency, files.length) }, async () => {
    while (queue.length > 0) {
      const file = queue.shift();
      current.set(file, Date.now());
      const r = await runFile(file);
      current.delete(file);
      const { failed, lines, count } = report(r);
      done.push({ file, ms: r.ms, failed });
      if (tty) process.stdout.write('\r\x1b[K');
      if (listEvery || failed) {
        console.log(`${failed ? 'FAIL' : 'ok  '} ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${file} (${count} tests)`);
        lastLine = Date.now();
      }
      for (const l of lines) console.log(l);
      progress();
    }
  });
  await Promise.all(workers);
  if (ticker) clearInterval(ticker);
  if (tty) process.stdout.write('\r\x1b[K');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const slowest = [...done]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3)
    .map((d) => `${d.file} ${(d.ms / 1000).toFixed(0)} s`);
  console.log(
    `\n${totals.pass} passed, ${totals.fail} failed, ${totals.skip} skipped${totals.todo ? `, ${totals.todo} todo` : ''} (${files.length} files, ${seconds} s, ${concurrency} at once; slowest: ${slowest.join(', ')})`,
  );
  process.exit(totals.fail > 0 || done.some((d) => d.failed) ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
