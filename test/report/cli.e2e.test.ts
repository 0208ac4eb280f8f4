/**
 * `cardspec report`: two CI shards of the fixture merged into one Allure report and one matrix and summary; the
 * report rendered in headless Chromium (Debian's, installed by scripts/install-chromium.sh); a missing Java
 * runtime and bad options answered clearly.
 */
import { after, before, test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { run as runReport } from '../../src/cli/report';
import { REPORT_FILES } from '../../src/report';
import { findJava } from '../../src/report/allure-cli';
import type { Summary } from '../../src/report/model';
import { ROOT, runFixture } from './fixture';
import { launchChromium } from '../chromium';

let work: string;
let shard1: string;
let shard2: string;

before(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-report-cli-'));
  shard1 = path.join(work, 'shard-1');
  shard2 = path.join(work, 'shard-2');
  // As two CI jobs would: cucumber's --shard splits the scenarios between them.
  await runFixture(shard1, { shard: '1/2' });
  await runFixture(shard2, { shard: '2/2' });
});

after(() => fs.rmSync(work, { recursive: true, force: true }));

function cardspec(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'cardspec.js'), 'report', ...args], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function readSummary(dir: string): Summary {
  return JSON.parse(fs.readFileSync(path.join(dir, REPORT_FILES.summaryJson), 'utf8')) as Summary;
}

test('each shard ran part of the scenarios', () => {
  const a = readSummary(shard1).totals.scenarios;
  const b = readSummary(shard2).totals.scenarios;
  assert.ok(a > 0 && b > 0, `${a} and ${b}`);
  assert.equal(a + b, 12);
});

const java = findJava();
const noJava = 'problem' in java ? 'no Java runtime here' : false;

test('two shards merge into one Allure report, one matrix and one summary; a browser shows the suites, a failure and its attachment', { skip: noJava }, async (t) => {
  const out = path.join(work, 'merged');
  const r = await cardspec(['--results', shard1, '--results', shard2, '--out', out, '--multi-file']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Merged 2 runs: FAILED: 7 passed, 3 failed, 2 skipped; rule coverage 2\/6 \(33\.3%\)/);

  const s = readSummary(out);
  assert.deepEqual(s.totals, { scenarios: 12, passed: 7, failed: 3, skipped: 2 });
  assert.equal(s.coverage.covered, 2);
  assert.match(s.problems[0], /^merged from 2 run\(s\)/);
  for (const f of [REPORT_FILES.matrixHtml, REPORT_FILES.matrixMd, REPORT_FILES.matrixJson, REPORT_FILES.summaryMd, REPORT_FILES.junit]) assert.ok(fs.existsSync(path.join(out, f)), f);
  const stats = JSON.parse(fs.readFileSync(path.join(out, 'widgets', 'summary.json'), 'utf8')) as { statistic: Record<string, number> };
  assert.equal(stats.statistic.total, 12, 'Allure merged both shards');
  // Each shard's verdict is of its part; the merged report names the verdict of the whole beside them.
  const env = JSON.parse(fs.readFileSync(path.join(out, 'widgets', 'environment.json'), 'utf8')) as { name: string; values: string[] }[];
  const entry = (name: string): string[] => env.find((e) => e.name === name)?.values ?? [];
  assert.deepEqual(entry('verdict_of_the_whole'), ['FAILED for the 2 runs merged: 2 distinct cause(s) of 3 failed scenario(s) (summary.html beside the report says what was certified and why)']);
  assert.deepEqual(entry('rule_coverage_of_the_whole'), ['2/6 (33.3%)']);
  assert.equal(entry('verdict').length, 2, "each run's own verdict stays beside it");
  assert.ok(!fs.readFileSync(path.join(out, 'index.html'), 'utf8').includes('googletagmanager'), 'no analytics in the page');

  const browser = await launchChromium(t);
  if (!browser) return;
  const server = http.createServer((req, res) => {
    const file = path.join(out, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    if (!file.startsWith(out) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html#suites`);
    await page.waitForSelector('.tree__content');
    const suites = await page.$$eval('.node__title .node__name', (els) => els.map((e) => e.textContent?.trim() ?? ''));
    assert.deepEqual(suites, ['ACCOUNTCHECK', 'AUTH', 'STORE', 'THREEDQUERY'], 'features grouped by request type');

    await page.getByText('THREEDQUERY', { exact: true }).click();
    await page.getByText('3-D Secure authentication', { exact: true }).click();
    await page.getByText('XML', { exact: true }).first().click();
    await page.getByText('A customer who is not authenticated gives 60022').first().click();
    const result = page.locator('.test-result');
    await result.getByText('Failed', { exact: true }).first().waitFor();
    assert.match((await result.textContent()) ?? '', /expected errorcode 60022, got 0/);
    assert.match((await result.textContent()) ?? '', /Rule FX-60022/);

    await result.getByText('When it is sent').click();
    await result.getByText('request.xml').first().click();
    const preview = result.locator('.attachment-preview__code').first();
    await preview.waitFor();
    const text = (await preview.textContent()) ?? '';
    assert.match(text, /<pan>400000######1018<\/pan>/, 'the masked request is shown');
    assert.ok(!text.includes('4000000000001018'));
    const shot = path.join(work, 'allure-failed-scenario.png');
    await page.screenshot({ path: shot, fullPage: true });
    assert.ok(fs.statSync(shot).size > 10_000);
    // To look at it: CARDSPEC_REPORT_SCREENSHOT=/some/file.png node scripts/test.js report/cli
    if (process.env.CARDSPEC_REPORT_SCREENSHOT) fs.copyFileSync(shot, process.env.CARDSPEC_REPORT_SCREENSHOT);
  } finally {
    await browser.close();
    server.close();
  }
});

/** `cardspec report` in this process (the merge test above runs the real command line), its console captured. */
async function reportHere(_t: TestContext, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const code = await runReport(args, { out: { write: (t: string) => (out.stdout += t) }, err: { write: (t: string) => (out.stderr += t) }, env: process.env, cwd: process.cwd() });
  return { code, ...out };
}

test('without Java: says what to install, and still writes the matrix, the summary and the JUnit file', async (t) => {
  const out = path.join(work, 'no-java');
  const saved = { PATH: process.env.PATH, JAVA_HOME: process.env.JAVA_HOME };
  process.env.PATH = path.join(work, 'empty-path');
  delete process.env.JAVA_HOME;
  let r: { code: number; stdout: string; stderr: string };
  try {
    r = await reportHere(t, ['--results', shard1, '--out', out]);
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.JAVA_HOME !== undefined) process.env.JAVA_HOME = saved.JAVA_HOME;
  }
  assert.equal(r.code, 2);
  assert.match(r.stderr, /needs a Java runtime/);
  assert.match(r.stderr, /apt-get install -y openjdk-17-jre-headless/);
  assert.ok(fs.existsSync(path.join(out, REPORT_FILES.summaryJson)));
  assert.ok(fs.existsSync(path.join(out, REPORT_FILES.junit)));
  assert.ok(!fs.existsSync(path.join(out, 'index.html')));
});

test('bad input gets a clear answer', async (t) => {
  const help = await reportHere(t, ['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: cardspec report/);

  const unknown = await reportHere(t, ['--frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown option '--frobnicate'/);

  const missing = await reportHere(t, ['--results', path.join(work, 'nowhere')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nowhere does not exist.*: give a reports folder of `cardspec run`/);

  // A file of a reports folder (summary.json) is not the folder: the answer says what was given, what is expected,
  // and which folder holds the file.
  const file = await reportHere(t, [path.join(shard1, REPORT_FILES.summaryJson)]);
  assert.equal(file.code, 2);
  assert.match(file.stderr, /summary\.json is a file, not a folder: give the reports folder of `cardspec run`/);
  assert.ok(file.stderr.includes(`this file's folder is ${shard1}`), file.stderr);
  assert.doesNotMatch(file.stderr, /no such folder/);

  // Allure's --clean would delete the results it reads, or a folder that is not a report.
  const clobber = await reportHere(t, ['--results', shard1, '--out', shard1]);
  assert.equal(clobber.code, 2);
  assert.match(clobber.stderr, /holds the input .*Allure would delete it/);

  const other = path.join(work, 'not-a-report');
  fs.mkdirSync(other);
  fs.writeFileSync(path.join(other, 'notes.txt'), 'keep me');
  const foreign = await reportHere(t, ['--results', shard1, '--out', other]);
  assert.equal(foreign.code, 2);
  assert.match(foreign.stderr, /other content .*Allure would delete it/);
  assert.equal(fs.readFileSync(path.join(other, 'notes.txt'), 'utf8'), 'keep me');

  const empty = path.join(work, 'empty');
  fs.mkdirSync(empty);
  const nothing = await reportHere(t, ['--results', empty]);
  assert.equal(nothing.code, 2);
  assert.match(nothing.stderr, /nothing to report/);
});
