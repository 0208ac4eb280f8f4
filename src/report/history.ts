/**
 * Allure's history across runs (`cardspec report --history PREVIOUS`): the trend charts (results, durations,
 * categories, retries) need the `history/*.json` of the previous report beside the new results. A report written
 * as a folder holds them in `history/`; the single-file report (cardspec's default) embeds them in its index.html
 * as `d('history/<name>.json','<base64>')`, which is read back here. They go into a folder of their own that is
 * given to `allure generate` as one more results folder, so that no input folder is written to.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { redactText } from '../redact';

/** Allure's own names: only these are carried over (nothing else of the old report is read). */
const HISTORY_FILE = /^[a-z-]+\.json$/;
const EMBEDDED = /d\('history\/([a-z-]+\.json)','([A-Za-z0-9+/=]*)'\)/g;

/** The history files of an earlier Allure report (its folder, or its single index.html), by name. */
export function readAllureHistory(previous: string): Map<string, Buffer> | { problem: string } {
  let st: fs.Stats;
  try {
    st = fs.statSync(previous);
  } catch {
    return { problem: redactText(`--history ${previous}: not found; give the folder (or the index.html) of the previous Allure report`) };
  }
  const dir = st.isDirectory() ? previous : path.dirname(previous);
  const files = new Map<string, Buffer>();
  const folder = path.join(dir, 'history');
  if (fs.existsSync(folder) && fs.statSync(folder).isDirectory()) {
    for (const name of fs.readdirSync(folder)) if (HISTORY_FILE.test(name)) files.set(name, fs.readFileSync(path.join(folder, name)));
  }
  const index = st.isDirectory() ? path.join(dir, 'index.html') : previous;
  if (files.size === 0 && fs.existsSync(index)) {
    for (const m of fs.readFileSync(index, 'utf8').matchAll(EMBEDDED)) files.set(m[1], Buffer.from(m[2], 'base64'));
  }
  if (files.size === 0) return { problem: redactText(`--history ${previous}: no Allure history there (neither history/*.json nor a single-file index.html that embeds it)`) };
  return files;
}

/** A new temporary results folder holding only `history/`: give it to allure generate; remove it afterwards. */
export function historyResultsFolder(files: ReadonlyMap<string, Buffer>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-allure-history-'));
  fs.mkdirSync(path.join(dir, 'history'));
  for (const [name, content] of files) fs.writeFileSync(path.join(dir, 'history', name), content);
  return dir;
}
