/**
 * Suite wall time and peak memory: the whole conformance run (`cardspec run`, the real CLI in a process of its own)
 * against the built-in target, JSON, XML and both, with 1 and 2 cucumber workers (`--parallel 1`, `--parallel 2`),
 * and the runner's start-up by itself (the same command with a tag expression that matches no scenario: node,
 * ts-node, cucumber loading the steps and features, the gateway started and stopped, the reports written) so that
 * the share of a run spent in the kit rather than in the scenarios is visible.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { redactText } from '../src/redact';
import { ROOT } from './child';
import { sampleTree } from './procmem';
import { median, mib, seconds, type Row } from './table';

export interface SuiteConfig {
  readonly label: string;
  readonly args: readonly string[];
  /** The exit code a clean run gives (2 for the start-up run: "no scenario matched"). */
  readonly expectedExit: number;
  /** The formats run, in the order of the summary's columns. */
  readonly formats: readonly string[];
}

/** A tag no scenario carries: the run loads everything and runs nothing. */
export const NO_SCENARIO_TAG = '@cardspec-bench-no-such-tag';

export const SUITE_CONFIGS: readonly SuiteConfig[] = [
  { label: 'runner start-up alone', args: ['--format', 'json', '--tags', NO_SCENARIO_TAG], expectedExit: 2, formats: ['JSON'] },
  { label: 'JSON, --parallel 1', args: ['--format', 'json', '--parallel', '1'], expectedExit: 0, formats: ['JSON'] },
  { label: 'JSON, --parallel 2', args: ['--format', 'json', '--parallel', '2'], expectedExit: 0, formats: ['JSON'] },
  { label: 'XML, --parallel 1', args: ['--format', 'xml', '--parallel', '1'], expectedExit: 0, formats: ['XML'] },
  { label: 'XML, --parallel 2', args: ['--format', 'xml', '--parallel', '2'], expectedExit: 0, formats: ['XML'] },
  { label: 'both, --parallel 1', args: ['--format', 'both', '--parallel', '1'], expectedExit: 0, formats: ['JSON', 'XML'] },
  { label: 'both, --parallel 2', args: ['--format', 'both', '--parallel', '2'], expectedExit: 0, formats: ['JSON', 'XML'] },
];

export interface SuiteRun {
  readonly seconds: number;
  readonly peakBytes: number;
  readonly exit: number | null;
  /** The summary's "Total" line, to show what ran. */
  readonly total: string;
}

/** One `cardspec run`, timed from spawn to exit, its process tree's memory sampled. Bounded by `timeoutMs`. */
export function runSuiteOnce(config: SuiteConfig, timeoutMs: number): Promise<SuiteRun> {
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-bench-run-'));
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'cardspec.js'), 'run', '--target', 'builtin', '--reports', reports, ...config.args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const sampler = sampleTree(child.pid ?? -1);
  let out = '';
  const keep = (c: Buffer): void => {
    out = (out + c.toString('utf8')).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const secs = Number(process.hrtime.bigint() - started) / 1e9;
      const peakBytes = sampler.stop();
      fs.rmSync(reports, { recursive: true, force: true });
      const total = /^Total\s+(.*)$/m.exec(out)?.[1].trim().replace(/\s+/g, ' ') ?? '';
      resolve({ seconds: secs, peakBytes, exit: code, total: redactText(total) });
    });
  });
}

export interface SuiteSettings {
  readonly reps: number;
  /** The time this section may take; once a round of every configuration would not fit, no new round starts. */
  readonly budgetSec: number;
  readonly timeoutSec: number;
}

export async function suiteSection(s: SuiteSettings, log: (line: string) => void): Promise<Row[]> {
  const runs = new Map<string, SuiteRun[]>(SUITE_CONFIGS.map((c) => [c.label, []]));
  const sectionStart = Date.now();
  let roundSec = 0;
  for (let rep = 0; rep < s.reps; rep++) {
    const elapsed = (Date.now() - sectionStart) / 1000;
    if (rep > 0 && elapsed + roundSec > s.budgetSec) {
      log(`suite: time budget of ${s.budgetSec} s reached after ${rep} round(s); the Runs column says so`);
      break;
    }
    const roundStart = Date.now();
    for (const config of SUITE_CONFIGS) {
      log(`suite: ${config.label} (round ${rep + 1}) ...`);
      runs.get(config.label)?.push(await runSuiteOnce(config, s.timeoutSec * 1000));
    }
    roundSec = (Date.now() - roundStart) / 1000;
  }
  const startup = median((runs.get(SUITE_CONFIGS[0].label) ?? []).map((r) => r.seconds));
  return SUITE_CONFIGS.map((config, i) => {
    const list = runs.get(config.label) ?? [];
    const wall = median(list.map((r) => r.seconds));
    const unexpected = list.filter((r) => r.exit !== config.expectedExit);
    const last = list[list.length - 1];
    // The summary's Total line holds passed/failed/skipped per format, in the order of the formats.
    const totals = last?.total ? last.total.split(' ').map((t, k) => `${config.formats[k] ?? ''} ${t}`.trim()) : [];
    const scenarios = i === 0 ? 'no scenario' : totals.length ? `passed/failed/skipped ${totals.join(', ')}` : '';
    const exits = unexpected.length ? `; exit ${unexpected.map((r) => r.exit).join(',')} (expected ${config.expectedExit})` : '';
    return {
      measure: 'Suite: cardspec run (built-in target)',
      subject: config.label,
      figure: `${seconds(wall)} wall${scenarios ? ` (${scenarios}${exits})` : exits ? ` (${exits.slice(2)})` : ''}`,
      memory: mib(median(list.map((r) => r.peakBytes))),
      ratio: i === 0 ? '' : `start-up = ${Number.isFinite(wall) && wall > 0 ? ((100 * startup) / wall).toFixed(0) : 'n/a'}% of wall`,
      runs: String(list.length),
    };
  });
}
