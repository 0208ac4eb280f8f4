/**
 * Allure's history across runs (`cardspec report --history PREVIOUS`, src/report/history.ts): the previous report's
 * history is carried into the next one, so that its trend charts span the runs. From the single-file report
 * (cardspec's default), whose index.html embeds the history, and into the same --out folder (Allure empties it
 * first: the history is read before). Needs a Java runtime, as Allure does.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { run as runReport } from '../../src/cli/report';
import { findJava } from '../../src/report/allure-cli';
import { readAllureHistory } from '../../src/report/history';
import { runFixture } from './fixture';

const java = findJava();
const noJava = 'problem' in java ? 'no Java runtime here' : false;

/** The runs in the history-trend.json of a report: one entry per run it has seen. */
function trend(report: string): unknown[] {
  const files = readAllureHistory(report);
  if ('problem' in files) assert.fail(files.problem);
  return JSON.parse(files.get('history-trend.json')?.toString('utf8') ?? '[]') as unknown[];
}

async function quiet(args: string[]): Promise<number> {
  return runReport(args, { out: { write: () => undefined }, err: process.stderr, env: process.env, cwd: process.cwd() });
}

test('a report given the previous one carries its history: the trend has one entry per run', { skip: noJava }, async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-history-'));
  try {
    const results = path.join(work, 'reports');
    await runFixture(results);
    const out = path.join(work, 'allure');
    assert.equal(await quiet(['--results', results, '--out', out]), 0);
    assert.equal(trend(out).length, 1);
    // The next run's report, into the same folder, carrying the history of the one there.
    assert.equal(await quiet(['--results', results, '--out', out, '--history', out]), 0);
    assert.equal(trend(out).length, 2);
    assert.equal(await quiet(['--results', results, '--out', out, '--history', path.join(out, 'index.html')]), 0);
    assert.equal(trend(out).length, 3);
    // Without --history, a report starts a new history.
    assert.equal(await quiet(['--results', results, '--out', out]), 0);
    assert.equal(trend(out).length, 1);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

test('a --history that is not an Allure report is refused, saying what to give', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-history-none-'));
  assert.match((readAllureHistory(empty) as { problem: string }).problem, /no Allure history there/);
  assert.match((readAllureHistory(path.join(empty, 'nothing')) as { problem: string }).problem, /not found; give the folder \(or the index\.html\) of the previous Allure report/);
  fs.rmSync(empty, { recursive: true, force: true });
});
