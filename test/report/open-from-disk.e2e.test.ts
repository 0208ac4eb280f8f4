/**
 * The auditor's first click (issue 18): the default output of `cardspec report` is one self-contained index.html
 * that renders when opened from disk (file://) in Chromium; the folder form (--multi-file) is what a browser refuses
 * from disk ("Failed to fetch"), which shows the check can fail. `--open` serves the report on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { spawn } from 'node:child_process';
import { findJava } from '../../src/report/allure-cli';
import { launchChromium } from '../chromium';
import { cardspecAsync, BIN } from '../cli/spawn';
import { runFixture } from './fixture';

const java = findJava();
const noJava = 'problem' in java ? 'no Java runtime here' : false;

describe('cardspec report opens from disk', { skip: noJava }, () => {
  let work = '';
  let results = '';
  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-open-'));
    results = path.join(work, 'reports');
    await runFixture(results, { formats: ['json'] });
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  /** What Chromium shows of a page opened from disk, once Allure had time to load its data. */
  async function fromDisk(t: import('node:test').TestContext, file: string): Promise<{ text: string; suites: number } | undefined> {
    const browser = await launchChromium(t);
    if (!browser) return undefined;
    try {
      const page = await browser.newPage();
      // Bounded by what a busy CI machine (two cores, Chromium beside two test files) may need to render Allure's
      // page, not an idle one: a wait that ran out would read as "no suites" or "no error" below.
      page.setDefaultTimeout(90_000);
      await page.goto(`${pathToFileURL(file).href}#suites`);
      // Either the tree of suites renders, or Allure's error page does.
      await page.waitForSelector('.tree__content, .error-page, :text("Failed to fetch")').catch(() => undefined);
      const text = (await page.textContent('body')) ?? '';
      const suites = await page.locator('.node__title .node__name').count();
      return { text, suites };
    } finally {
      await browser.close();
    }
  }

  test('the default is one index.html that renders from file:// in Chromium', async (t) => {
    const out = path.join(work, 'single');
    const r = await cardspecAsync(['report', '--results', results, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.existsSync(path.join(out, 'index.html')));
    assert.ok(!fs.existsSync(path.join(out, 'widgets')), 'no data files beside it: everything is inside index.html');
    const shown = await fromDisk(t, path.join(out, 'index.html'));
    if (!shown) return;
    assert.doesNotMatch(shown.text, /Failed to fetch/);
    assert.ok(shown.suites > 0, `the suites tree renders (${shown.text.slice(0, 200)})`);
  });

  test('the folder form (--multi-file) is what fails from disk', async (t) => {
    const out = path.join(work, 'multi');
    const r = await cardspecAsync(['report', '--results', results, '--out', out, '--multi-file']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.existsSync(path.join(out, 'widgets', 'summary.json')));
    const shown = await fromDisk(t, path.join(out, 'index.html'));
    if (!shown) return;
    assert.equal(shown.suites, 0);
    assert.match(shown.text, /Failed to fetch/);
  });

  test('--open serves the report on 127.0.0.1 until SIGTERM', async () => {
    const out = path.join(work, 'served');
    const child = spawn(process.execPath, [BIN, 'report', '--results', results, '--out', out, '--multi-file', '--open'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address printed: ${stdout}`)), 120_000);
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString('utf8');
        const m = /Serving the report at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.on('close', (code) => reject(new Error(`report exited ${code}: ${stdout}`)));
    });
    const index = await fetch(url);
    assert.equal(index.status, 200);
    assert.match(index.headers.get('content-type') ?? '', /text\/html/);
    assert.equal((await fetch(`${url}widgets/summary.json`)).status, 200);
    assert.equal((await fetch(`${url}..%2f..%2fetc/passwd`)).status, 404, 'nothing outside the report folder');
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    assert.equal(await closed, 0);
  });
});
