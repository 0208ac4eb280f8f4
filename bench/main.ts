/**
 * `npm run bench`: the kit's speed on this machine, beside the physical limit (a bare Node server, autocannon's raw
 * rate) and beside the tool users would pick instead (Stoplight Prism), in one run, printed as one table of medians
 * and ratios with the versions of everything measured, and written to bench/results/latest.md. Loopback only; every
 * load bounded by count and time. Not part of `npm test`: timing belongs here, not in tests. See docs/bench.md.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { findPrism } from '../src/openapi/prism';
import { redactText } from '../src/redact';
import { ROOT } from './child';
import { fuzzSection } from './fuzz';
import { proxySection } from './proxy';
import { captureAnswers, gatewaySection, type Answers } from './gateway';
import type { LoadSettings } from './loadgen';
import { soakSection, type SoakMode } from './soak';
import { startupSection } from './startup';
import { reportsSection } from './reports';
import { suiteSection } from './suite';
import { renderTable, type Row } from './table';
import { validationSection } from './validation';

const SECTIONS = ['gateway', 'proxy', 'validation', 'fuzz', 'suite', 'startup', 'reports', 'soak'] as const;
type Section = (typeof SECTIONS)[number];

const HELP = `Usage: npm run bench [-- options]      (node bench/run.js [options])

Measures, in one run, and prints one table (medians of several runs, ratios, versions):
  gateway     reference gateway vs bare node:http (ceiling) vs Prism mock: AUTH, THREEDQUERY + AUTH
  proxy       AUTH through cardspec proxy in front of the reference gateway vs the gateway alone, the
              rate of exchanges the proxy checks, and two floors: a byte pipe and the proxy's forwarding
              with nothing checked (issue 27)
  validation  envelopes validated per second: JSON and XML, requests and responses
  fuzz        cardspec fuzz cases per second vs autocannon with the same payloads (ceiling)
  suite       cardspec run wall time and peak memory: JSON, XML, both; --parallel 1 and 2; start-up alone
  startup     cardspec --help, run --help, report --help and a run's start-up (to exit, to its first request): packed
              (npm pack, installed) and from the sources
  reports     the reports folder of a full run (MB, files) and its single-file Allure report, per --reports-detail
  soak        resident memory of serve under a steady AUTH load and of a long fuzz run, with the growth per
              100k requests (cases) after warm-up: flat is the goal (issue 19)

Options:
  --only LIST        comma-separated sections to run (default: all); a partial run writes no file
  --reps N           repetitions per figure (default 3); the median is shown
  --duration S       seconds per measured load run (default 3)
  --warmup S         seconds of warm-up load per server before a row's runs (default 2)
  --connections N    concurrent connections of the load generator (default 10)
  --budget S         seconds the suite section may take (default 180): rounds that would not fit are not started
  --soak MODE        quick (default: serve at 100k/500k/1M requests, fuzz at 100k/200k cases, a few minutes),
                     full (serve at 100k/1M/5M, fuzz at 100k/1M/2M: half an hour; not for CI) or off
  --update-docs      also replace the table in docs/bench.md and README.md
  -h, --help         this text`;

interface Options {
  readonly sections: readonly Section[];
  readonly reps: number;
  readonly durationSec: number;
  readonly warmupSec: number;
  readonly connections: number;
  readonly budgetSec: number;
  readonly updateDocs: boolean;
  readonly soak: SoakMode | 'off';
}

function readOptions(argv: string[]): Options | string {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        only: { type: 'string' },
        reps: { type: 'string' },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string' },
        budget: { type: 'string' },
        soak: { type: 'string' },
        'update-docs': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    return (err as Error).message;
  }
  if (values.help) return 'help';
  const num = (name: string, def: number, min: number, max: number): number | string => {
    const raw = values[name];
    if (raw === undefined) return def;
    const n = Number(raw);
    return Number.isFinite(n) && n >= min && n <= max ? n : `--${name} must be a number from ${min} to ${max}`;
  };
  const reps = num('reps', 3, 1, 20);
  const durationSec = num('duration', 3, 0.5, 60);
  const warmupSec = num('warmup', 2, 0, 30);
  const connections = num('connections', 10, 1, 256);
  const budgetSec = num('budget', 180, 1, 3600);
  for (const v of [reps, durationSec, warmupSec, connections, budgetSec]) if (typeof v === 'string') return v;
  const soak = values.soak ?? 'quick';
  if (soak !== 'quick' && soak !== 'full' && soak !== 'off') return `--soak must be quick, full or off, not "${String(soak)}"`;
  const only =
    typeof values.only === 'string'
      ? values.only
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [...SECTIONS];
  const unknown = only.filter((s) => !(SECTIONS as readonly string[]).includes(s));
  if (unknown.length) return `--only: unknown section(s) ${unknown.join(', ')} (choose from ${SECTIONS.join(', ')})`;
  return {
    sections: SECTIONS.filter((s) => only.includes(s) && (s !== 'soak' || soak !== 'off')),
    reps: reps as number,
    durationSec: durationSec as number,
    warmupSec: warmupSec as number,
    connections: connections as number,
    budgetSec: budgetSec as number,
    updateDocs: values['update-docs'] === true,
    soak,
  };
}

function packageVersion(name: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}

/** The kit's version, and the commit measured (read-only git; "uncommitted changes" when the tree differs). */
function kitVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return `${pkg.version} (commit ${commit}${dirty ? ', with uncommitted changes' : ''})`;
  } catch {
    return pkg.version;
  }
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB, ${os.type()} ${os.release()}`;
}

/** The machine in a few words, for each row: cores and CPU model. */
function host(): string {
  const cpus = os.cpus();
  return `${cpus.length} x ${
    cpus[0]?.model
      .replace(/\((R|TM)\)/g, '')
      .replace(/\s+/g, ' ')
      .trim() ?? 'unknown CPU'
  }`;
}

/** The one-minute load average, as each row gives it. */
const load1 = (): string => os.loadavg()[0].toFixed(1);

/**
 * Stamps the rows of one section with where and at which load they were measured: the machine, the one-minute load
 * average at the section's start and end (other work on the machine), and the load the section applies.
 */
async function stamped(rows: Promise<Row[]>, applied: string): Promise<Row[]> {
  const before = load1();
  const out = await rows;
  const where = `${host()} (${before} to ${load1()}; ${applied})`;
  return out.map((r) => ({ ...r, where: r.where ?? where }));
}

const load = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function notes(o: Options): string[] {
  return [
    `- Each figure is the median of the runs in the Runs column, all made in this one run of \`npm run bench\`; ratios are of those medians.`,
    `- Loopback only (127.0.0.1). Gateway rows: ${o.connections} connections, pipelining 1, ${o.warmupSec} s warm-up then ${o.durationSec} s per run, each run also capped by request count. The servers of a row run side by side, each in a process of its own with a load generator of its own; after the warm-up their runs take turns (the order rotates every round), so that a machine whose load drifts weighs on all of them alike.`,
    `- The load generator (autocannon) runs in a process of its own, never on the event loop of the server it measures. On ${os.cpus().length} core(s) it competes with the server for CPU: every row pays the same cost, so ratios are fairer than absolute figures, and both are lower than on a machine with cores to spare.`,
    `- Pair rows (THREEDQUERY + AUTH): the rate is of completed pairs; p50/p99 are of a whole pair (the two requests' times added). Other rows: of one request.`,
    `- Every answer is checked (HTTP 200 and errorcode "0" in its first part); any other answer is counted in the Figure as "bad answers".`,
    `- Prism runs \`prism mock\` (static examples, log level error) on the document \`cardspec openapi\` writes, answering the example a client names with \`Prefer: example=...\`; it validates each request against the schemas, as the reference gateway checks each field.`,
    `- Proxy: \`cardspec proxy\` (as the command starts it: forwarding on its own thread, checks on the main thread at nice +10) in front of the reference gateway, each in a process of its own, against the same gateway alone, their runs in turns (the order alternating). The client's figures are the forwarding's: the checks may fall behind by a bounded queue. After each run through the proxy the benchmark waits until every exchange is checked; "checked" is the run's requests over the run's time plus that wait. Proxy CPU is per request, every thread of its process, and its main thread's share (the checks) from /proc; gateway CPU is the gateway's process's per request, alone and behind the proxy. With the cores busy throughout, the ratio of the rates is about that of the CPU per request of everything a request costs (load generator, gateway, and the proxy through it); each row also gives the load generator's CPU per request and the machine's idle time per request (both cores, from /proc/stat). Two floor rows, in the same turns: a byte pipe (client connections piped to the gateway, no HTTP read, nothing checked) and the proxy's own forwarding with nothing checked (a bench-only process): what a proxy that checks nothing reaches on this machine.`,
    `- Validation: \`validateText\` on the AUTH exchange (text in, violations out: parsing, XML mapping and schema checks included), per second of the process's CPU time (a single-threaded loop: on a shared machine the clock also counts the time it waited for a core).`,
    `- Gateway servers: parse-only (checks basic auth, parses the JSON, answers a fixed envelope: the floor any gateway pays), bare (the same, plus an answer built per request like the gateway's) and the reference gateway, all writing their answers at the end of each event-loop turn, and all started the same way: this Node reading the kit's TypeScript as a clone of the kit runs (bin/register.js: transpiled once, kept in a cache; no ts-node, so no node:domain wrapper on every event, which cost each of them about 1.5 µs per request before).`,
    `- The last column says where each row was measured: the machine, its one-minute load average at the start and end of the row's section (other work on the machine), and the load the section applies.`,
    `- Suite: \`cardspec run --target builtin\` as a user runs it; peak memory is the sum over its process tree of each process's own peak resident set (VmHWM, sampled every 50 ms).`,
    `- Soak (${o.soak}): resident memory after a full garbage collection, read between runs of load (serve: \`cardspec serve --control\` as a child, its clock standing still so nothing settles, the ledger at its default bound; autocannon in another process) or every tenth of one long fuzz run (the built-in target in the fuzzer's process, as a user runs it). The Ratio column is the growth per 100k after the first reading (the warm-up).`,
  ];
}

async function section<T>(name: string, log: (l: string) => void, fn: () => Promise<T>, fallback: (message: string) => T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const message = redactText((err as Error).message);
    log(`${name}: FAILED: ${message}`);
    return fallback(message);
  }
}

/** What stands between the `bench:soak` markers of a file of the repository ('' when it has none). */
function soakBlock(relative: string): string {
  const text = fs.readFileSync(path.join(ROOT, relative), 'utf8');
  const i = text.indexOf('<!-- bench:soak:begin -->');
  const j = text.indexOf('<!-- bench:soak:end -->');
  return i >= 0 && j > i ? text.slice(i, j) : '';
}

/** Replaces what stands between the `bench:latest` markers of a file of the repository. */
function updateDocs(relative: string, markdown: string, block = 'latest'): void {
  const file = path.join(ROOT, relative);
  const text = fs.readFileSync(file, 'utf8');
  const begin = `<!-- bench:${block}:begin -->`;
  const end = `<!-- bench:${block}:end -->`;
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${relative} has no ${begin} ... ${end} markers`);
  fs.writeFileSync(file, text.slice(0, i + begin.length) + '\n' + markdown.trim() + '\n' + text.slice(j));
}

export async function main(argv: string[]): Promise<number> {
  const o = readOptions(argv);
  if (o === 'help') {
    console.log(HELP);
    return 0;
  }
  if (typeof o === 'string') {
    console.error(`bench: ${redactText(o)}\n\n${HELP}`);
    return 2;
  }
  const t0 = Date.now();
  const log = (line: string): void => console.error(redactText(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${line}`));
  const loadBefore = load();
  const versions: [string, string][] = [
    ['node', process.version],
    ['cardspec', kitVersion()],
    ['autocannon', packageVersion('autocannon')],
    ['@stoplight/prism-cli', findPrism()?.version ?? 'not installed'],
    ['ajv', packageVersion('ajv')],
    ['@cucumber/cucumber', packageVersion('@cucumber/cucumber')],
    ['fast-check', packageVersion('fast-check')],
  ];
  const settings: LoadSettings = { reps: o.reps, durationSec: o.durationSec, warmupSec: o.warmupSec, connections: o.connections, maxRequests: 1_000_000 };
  const rows: Row[] = [];
  const failedRow =
    (measure: string) =>
    (message: string): Row[] => [{ measure, subject: 'FAILED', figure: message.slice(0, 160), runs: '0' }];

  let answers: Answers | undefined;
  if (o.sections.some((s) => s === 'gateway' || s === 'validation' || s === 'fuzz')) {
    log('asking the reference gateway for its answers to the benchmark payloads ...');
    answers = await captureAnswers();
  }
  for (const s of o.sections) {
    if (s === 'gateway' && answers) {
      const a = answers;
      rows.push(
        ...(await stamped(
          section('gateway', log, () => gatewaySection(settings, a, log), failedRow('Gateway')),
          `${o.connections} connections`,
        )),
      );
    }
    if (s === 'proxy') {
      rows.push(
        ...(await stamped(
          section('proxy', log, () => proxySection(settings, log), failedRow('Proxy: AUTH')),
          `${o.connections} connections, in turns with the gateway alone`,
        )),
      );
    }
    if (s === 'validation' && answers) {
      const a = answers;
      log('validation ...');
      rows.push(
        ...(await stamped(
          section('validation', log, () => validationSection(a, o.reps, Math.max(0.5, o.durationSec / 3)), failedRow('Validation')),
          'one thread, in a loop',
        )),
      );
    }
    if (s === 'fuzz' && answers) {
      rows.push(
        ...(await stamped(
          section('fuzz', log, () => fuzzSection(settings, log), failedRow('Fuzz')),
          '8 in flight',
        )),
      );
    }
    if (s === 'soak' && o.soak !== 'off') {
      const mode = o.soak;
      rows.push(
        ...(await stamped(
          section('soak', log, () => soakSection(mode, settings, log), failedRow('Soak')),
          `soak ${mode}, ${o.connections} connections`,
        )),
      );
    }
    if (s === 'reports') rows.push(...(await section('reports', log, () => reportsSection(log), failedRow('Reports of a full run'))));
    if (s === 'startup')
      rows.push(
        ...(await stamped(
          section('startup', log, () => startupSection(o.reps, log), failedRow('Start-up')),
          'one process at a time',
        )),
      );
    if (s === 'suite') {
      rows.push(
        ...(await stamped(
          section('suite', log, () => suiteSection({ reps: o.reps, budgetSec: o.budgetSec, timeoutSec: 300 }, log), failedRow('Suite')),
          'one run at a time',
        )),
      );
    }
  }

  const table = renderTable(rows);
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const header = [
    `Measured ${when} in ${((Date.now() - t0) / 1000).toFixed(0)} s on ${machine()}; load average before ${loadBefore}, after ${load()}.`,
    '',
    'Versions: ' + versions.map(([k, v]) => `${k} ${v}`).join(', ') + '.',
  ];
  const markdown = [...header, '', table, '', ...notes(o), ''].join('\n');
  console.log('\n' + redactText(markdown));
  // The soak rows also stand in a table of their own (README, docs/bench.md), which `--only soak --update-docs`
  // replaces: the soak takes minutes, and its figures do not depend on the throughput rows.
  const soakRows = rows.filter((r) => r.measure.startsWith('Soak'));
  // A quick soak (the default of a run of all sections) never replaces the figures of a full one: they take half an
  // hour to make, and the quick one's points (up to 1M requests) say less about growth than 5M do.
  const keepsFull = o.soak !== 'full' && soakBlock('docs/bench.md').includes('--soak full');
  if (o.updateDocs && soakRows.length > 0 && keepsFull) log('the soak table in docs/bench.md and README.md holds a full soak: a quick one does not replace it');
  if (o.updateDocs && soakRows.length > 0 && !keepsFull) {
    const soakTable = [`Measured ${when} on ${machine()}, \`npm run bench -- --only soak --soak ${o.soak}\`; load average before ${loadBefore}, after ${load()}.`, '', renderTable(soakRows)].join(
      '\n',
    );
    updateDocs('docs/bench.md', redactText(soakTable), 'soak');
    updateDocs('README.md', redactText(soakTable), 'soak');
    log('updated the soak table in docs/bench.md and README.md');
  }
  // The start-up rows too (docs/bench.md, "Start-up"), which `--only startup --update-docs` replaces.
  const startupRows = rows.filter((r) => r.measure === 'Start-up');
  if (o.updateDocs && startupRows.length > 0) {
    const startupTable = [`Measured ${when} on ${machine()}, \`npm run bench -- --only startup\`; load average before ${loadBefore}, after ${load()}.`, '', renderTable(startupRows)].join('\n');
    updateDocs('docs/bench.md', redactText(startupTable), 'startup');
    log('updated the start-up table in docs/bench.md');
  }
  // A partial run (--only) must not replace the whole table: its rows are printed above and nowhere else.
  const partial = o.sections.length < SECTIONS.length;
  if (partial) {
    log('a partial run (--only): bench/results/latest.md and docs/bench.md are left as they were');
    return rows.some((r) => r.subject === 'FAILED') ? 1 : 0;
  }
  const resultsDir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, 'latest.md'), redactText(`# cardspec benchmark: latest run\n\nWritten by \`npm run bench\` (see docs/bench.md).\n\n${markdown}`));
  log(`wrote bench/results/latest.md`);
  if (o.updateDocs) {
    updateDocs('docs/bench.md', redactText(markdown));
    // The README shows the table and when and where it was measured; the notes on method stay in docs/bench.md.
    updateDocs('README.md', redactText([...header, '', table].join('\n')));
    log('updated the table in docs/bench.md and README.md');
  }
  return rows.some((r) => r.subject === 'FAILED') ? 1 : 0;
}
