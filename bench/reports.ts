/**
 * Reports of a full run (issue 30): what `cardspec run --format both` against the built-in target leaves in its
 * reports folder, in bytes and files, in the default detail (`summary`) and in `full`, and the single-file Allure
 * report `cardspec report` makes of each (when Java is there). Targets: the folder under 25 MB and 2,000 files, the
 * single-file Allure report under 10 MB, in the default detail. One run of each: sizes do not vary run to run.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findJava } from '../src/report/allure-cli';
import { ROOT } from './child';
import type { Row } from './table';

const MB = 1024 * 1024;
const FOLDER_MB = 25;
const FOLDER_FILES = 2000;
const ALLURE_MB = 10;

function measure(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        bytes += fs.statSync(p).size;
        files++;
      }
    }
  };
  walk(dir);
  return { bytes, files };
}

function cardspec(args: readonly string[]): void {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'cardspec.js'), ...args], { cwd: ROOT, stdio: 'ignore', timeout: 900_000 });
  if (r.status !== 0) throw new Error(`cardspec ${args.join(' ')} exited ${r.status ?? r.signal}`);
}

export async function reportsSection(log: (line: string) => void): Promise<Row[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-bench-reports-'));
  const java = !('problem' in findJava());
  try {
    const rows: Row[] = [];
    for (const detail of ['summary', 'full'] as const) {
      log(`reports: a full run, --reports-detail ${detail} ...`);
      const dir = path.join(work, detail);
      cardspec(['run', '--format', 'both', '--reports', dir, '--reports-detail', detail]);
      const m = measure(dir);
      const mine = detail === 'summary';
      rows.push({
        measure: 'Reports of a full run',
        subject: `--reports-detail ${detail}${mine ? ' (default)' : ''}, built-in target, JSON + XML`,
        figure: `${(m.bytes / MB).toFixed(1)} MB, ${m.files.toLocaleString('en')} files`,
        ...(mine ? { target: `under ${FOLDER_MB} MB and ${FOLDER_FILES.toLocaleString('en')} files: ${m.bytes < FOLDER_MB * MB && m.files < FOLDER_FILES ? 'met' : 'NOT met'}` } : {}),
        runs: '1',
      });
      if (!java) continue;
      log(`reports: cardspec report (single file) of the ${detail} run ...`);
      const out = path.join(work, `${detail}-allure`);
      cardspec(['report', '--results', dir, '--out', out]);
      const size = fs.statSync(path.join(out, 'index.html')).size;
      rows.push({
        measure: 'Reports of a full run',
        subject: `single-file Allure report (cardspec report) of --reports-detail ${detail}`,
        figure: `${(size / MB).toFixed(1)} MB`,
        ...(mine ? { target: `under ${ALLURE_MB} MB: ${size < ALLURE_MB * MB ? 'met' : 'NOT met'}` } : {}),
        runs: '1',
      });
    }
    if (!java) rows.push({ measure: 'Reports of a full run', subject: 'single-file Allure report', figure: 'not measured: no Java runtime', runs: '0' });
    return rows;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
