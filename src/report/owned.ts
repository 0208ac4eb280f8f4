/**
 * Which files of a reports folder the kit wrote, so that each run's reports hold that run's results only, and no
 * file the kit did not write is ever deleted. A run leaves a list of the files it wrote (`.cardspec-reports.json`);
 * the next run into the same folder deletes those before it starts (`claimReportsFolder`), notes what else is there
 * (a user's own files, another tool's Allure results), and at its end lists what it wrote itself
 * (`recordReportsFolder`): every file of the kit's places that was not there before, or was there and changed.
 *
 * Without this an earlier run's Allure results and containers stayed beside a new verdict: a run whose target was
 * not ready (INCOMPLETE) showed the last run's passed tests in its Allure report. Only the kit's own places are
 * looked at (the report files by name, the format folders and the Allure results folder), never the whole
 * folder: `--reports` may name a folder that holds much else.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The list of the files the last run wrote, in the reports folder. */
export const OWNED_LIST = '.cardspec-reports.json';

/** Folders under the reports folder where the kit writes files whose names it does not choose (uuids). */
const KIT_FOLDERS = ['allure-results', 'json', 'xml'] as const;
/** Files at the top of the reports folder the kit writes (src/report REPORT_FILES, the run's rules.yaml). */
const KIT_FILES = ['junit.xml', 'matrix.md', 'matrix.json', 'matrix.html', 'summary.md', 'summary.json', 'rules.yaml'] as const;

/** A reports folder as a run found it: the files in the kit's places that were there before the run wrote any. */
export interface ReportsFolder {
  readonly dir: string;
  /** Relative path -> size and modification time, as found after the earlier run's files were deleted. */
  readonly before: ReadonlyMap<string, string>;
  /** The files of the earlier run that were deleted (relative paths). */
  readonly removed: readonly string[];
}

const signature = (st: fs.Stats): string => `${st.size}:${st.mtimeMs}`;

function kitFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const add = (rel: string): void => {
    try {
      const st = fs.statSync(path.join(dir, rel));
      if (st.isFile()) out.set(rel, signature(st));
    } catch {
      // not there
    }
  };
  for (const f of KIT_FILES) add(f);
  for (const folder of KIT_FOLDERS) {
    let names: string[];
    try {
      names = fs.readdirSync(path.join(dir, folder));
    } catch {
      continue;
    }
    for (const n of names) add(path.join(folder, n));
  }
  return out;
}

/** A listed path the kit may delete: relative, inside one of its places, no way out of the folder. */
function isKitPath(rel: string): boolean {
  if (path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) return false;
  const parts = rel.split(/[\\/]/);
  if (parts.length === 1) return (KIT_FILES as readonly string[]).includes(parts[0]);
  return parts.length === 2 && (KIT_FOLDERS as readonly string[]).includes(parts[0]) && parts[1] !== '';
}

function readList(dir: string): string[] {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(dir, OWNED_LIST), 'utf8')) as { files?: unknown };
    return Array.isArray(v.files) ? v.files.filter((f): f is string => typeof f === 'string' && isKitPath(f)) : [];
  } catch {
    return [];
  }
}

/**
 * Before a run writes anything: deletes the files the last run into this folder listed as its own, and notes
 * what else stands in the kit's places. The folder must exist (the run checked it can write there).
 */
export function claimReportsFolder(dir: string): ReportsFolder {
  const removed: string[] = [];
  for (const rel of readList(dir)) {
    try {
      if (!fs.lstatSync(path.join(dir, rel)).isFile()) continue;
      fs.rmSync(path.join(dir, rel), { force: true });
      removed.push(rel);
    } catch {
      // already gone
    }
  }
  fs.rmSync(path.join(dir, OWNED_LIST), { force: true });
  return { dir, before: kitFiles(dir), removed };
}

/** After the reports are written: lists the files this run wrote (new, or changed since the claim). */
export function recordReportsFolder(folder: ReportsFolder): string[] {
  const mine = [...kitFiles(folder.dir)].filter(([rel, sig]) => folder.before.get(rel) !== sig).map(([rel]) => rel.split(path.sep).join('/'));
  mine.sort();
  fs.writeFileSync(
    path.join(folder.dir, OWNED_LIST),
    JSON.stringify({ about: 'the files the last cardspec run wrote here; the next run into this folder deletes them first, and nothing else', files: mine }, null, 2) + '\n',
  );
  return mine;
}
