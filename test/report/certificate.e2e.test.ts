/**
 * The certificate (summary.html) as an auditor opens it: from disk (file://) in Chromium, with scripts off and every
 * network request refused, for a PASSED, an INCOMPLETE and a FAILED run. From the page alone: the verdict in words
 * and colour, the scope and what narrowed it (waivers with their reasons), what was not checked and why (each reason
 * once, with the way to check it), the causes first with expected vs seen and a masked exchange, the links.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import { REPORT_FILES, writeVerdictFiles } from '../../src/report';
import type { CatalogueRule } from '../../src/rules/catalogue';
import type { ScenarioResult } from '../../src/report/messages';
import { scenarioResult } from './results';
import { buildMatrix, buildSummary, type RunMeta } from '../../src/report/model';
import type { Waiver } from '../../src/report/waivers';
import type { Format } from '../../src/wire/types';
import { launchChromium } from '../chromium';
import { runFixture } from './fixture';
import { startGateway } from '../../src/gateway';
import { runCli } from '../conformance/cli';

const RULES: CatalogueRule[] = [
  { id: 'AUTH-AUTHORISE', section: 'What the service does', quote: 'asks the acquiring bank to authorise a payment', status: 'testable' },
  { id: 'FIELD-LENGTHS', section: 'Fields', quote: '| `pan` | Numeric | 12-19 | Card number. |', status: 'testable' },
  { id: 'SUB-ENGINE', section: 'Subscriptions', quote: 'later payments are taken automatically', status: 'testable' },
  { id: 'FX-RATE', section: 's', quote: 'not shown', status: 'unspecified', why: 'The document does not show them.' },
];

const CONTROL = 'the target does not offer the capability "clock" (the test-control clock): its test-control API did not answer (HTTP 404)';

function scenario(name: string, format: Format, rules: string[], verdict: ScenarioResult['verdict'], extra: Partial<ScenarioResult> = {}): ScenarioResult {
  return scenarioResult(name, format, rules, verdict, { feature: 'Flows', uri: 'features/flows.feature', line: 10 + name.length, types: ['AUTH'], ...extra });
}

function write(dir: string, scenarios: ScenarioResult[], waivers: Waiver[] = []): string {
  const meta: RunMeta = {
    target: 'https://sandbox.example',
    profile: 'sandbox.json',
    formats: ['json'],
    kitVersion: '0.1.0',
    interfaceVersions: { json: '1.00', xml: '3.67' },
    startedAt: '2026-01-05T09:00:00.000Z',
  };
  const matrix = buildMatrix(meta, RULES, scenarios, waivers);
  const summary = buildSummary(meta, matrix, scenarios, [], []);
  fs.mkdirSync(dir, { recursive: true });
  writeVerdictFiles(dir, summary, matrix, { href: 'allure-report/index.html', written: false });
  return path.join(dir, REPORT_FILES.summaryHtml);
}

interface Shown {
  readonly text: string;
  readonly verdict: string;
  readonly colour: string;
  readonly links: string[];
  readonly requests: string[];
}

async function open(t: TestContext, file: string): Promise<Shown | undefined> {
  const browser = await launchChromium(t);
  if (!browser) return undefined;
  try {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const requests: string[] = [];
    // Anything but the page itself would be fetched: recorded and refused, so that the page must stand alone.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url === pathToFileURL(file).href) return route.continue();
      requests.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    const verdict = page.locator('#verdict');
    return {
      text: (await page.textContent('body')) ?? '',
      verdict: (await verdict.textContent()) ?? '',
      colour: await verdict.evaluate((e) => (globalThis as unknown as { getComputedStyle(el: unknown): { backgroundColor: string } }).getComputedStyle(e).backgroundColor),
      links: await page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? '')),
      requests,
    };
  } finally {
    await browser.close();
  }
}

describe('summary.html, the certificate, opened from disk', () => {
  let work = '';
  before(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-certificate-'));
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  test('PASSED: the verdict in green, the scope as one number, the waivers with their reasons, the links', async (t) => {
    const file = write(
      path.join(work, 'passed'),
      [scenario('authorise', 'json', ['AUTH-AUTHORISE'], 'passed'), scenario('pan 12', 'json', ['FIELD-LENGTHS:pan'], 'passed'), scenario('pan 19', 'json', ['FIELD-LENGTHS:pan'], 'passed')],
      [{ id: 'SUB-ENGINE', kind: 'rule', reason: 'the sandbox has no movable clock (ticket 123)' }],
    );
    const shown = await open(t, file);
    if (!shown) return;
    assert.equal(shown.verdict, 'PASSED');
    assert.equal(shown.colour, 'rgb(46, 125, 50)');
    assert.match(shown.text, /The target conforms to every testable rule in scope/);
    assert.match(shown.text, /2 testable rule\(s\) of the document are in scope/);
    assert.match(shown.text, /SUB-ENGINE.*the sandbox has no movable clock \(ticket 123\)/);
    assert.match(shown.text, /2 of 2 rules in scope checked and held \(100\.0%\)/);
    assert.doesNotMatch(shown.text, /Not checked in scope/);
    assert.ok(shown.links.includes('matrix.html') && shown.links.includes('allure-report/index.html'), shown.links.join(' '));
    assert.deepEqual(shown.requests, []);
    assert.match(fs.readFileSync(path.join(work, 'passed', REPORT_FILES.matrixHtml), 'utf8'), /class="verdict v-passed">PASSED</);
  });

  test('INCOMPLETE: in amber, each reason once with the way to check it, and no waiver offered for a failure', async (t) => {
    const skips = Array.from({ length: 6 }, (_, i) => scenario(`payment ${i}`, 'json', ['SUB-ENGINE'], 'skipped', { reason: CONTROL }));
    const file = write(path.join(work, 'incomplete'), [scenario('authorise', 'json', ['AUTH-AUTHORISE'], 'passed'), scenario('pan 12', 'json', ['FIELD-LENGTHS:pan'], 'passed'), ...skips]);
    const shown = await open(t, file);
    if (!shown) return;
    assert.equal(shown.verdict, 'INCOMPLETE');
    assert.equal(shown.colour, 'rgb(249, 168, 37)');
    assert.match(shown.text, /this run certifies no conformance/);
    assert.equal(shown.text.split(CONTROL).length - 1, 1, 'the reason once, not once per scenario');
    assert.match(shown.text, /1 rule\(s\): SUB-ENGINE; 6 scenario\(s\) skipped/);
    assert.match(shown.text, /To check it: start the reference gateway with `cardspec serve --control`/);
    assert.match(fs.readFileSync(path.join(work, 'incomplete', REPORT_FILES.summaryMd), 'utf8'), /cardspec serve --control/);
    assert.deepEqual(shown.requests, []);
  });

  test('INCOMPLETE (a real run against `cardspec serve` without --control): the page names the way to check it', async (t) => {
    const gw = await startGateway({ control: false });
    let reports: string;
    try {
      const r = await runCli(['--target', gw.url, '--tags', '@requires:clock and not @phase:boundary']);
      assert.equal(r.code, 3, r.out);
      reports = r.reports;
    } finally {
      await gw.close();
    }
    try {
      const shown = await open(t, path.join(reports, REPORT_FILES.summaryHtml));
      if (!shown) return;
      assert.equal(shown.verdict, 'INCOMPLETE');
      assert.match(shown.text, /narrowed by --tags|--tags "@requires:clock and not @phase:boundary"/);
      assert.match(shown.text, /To check it: start the reference gateway with `cardspec serve --control`/);
      assert.deepEqual(shown.requests, []);
    } finally {
      fs.rmSync(reports, { recursive: true, force: true });
    }
  });

  test('FAILED (a real run of the report fixture): the causes first, expected vs seen, one masked exchange', async (t) => {
    const dir = path.join(work, 'failed');
    await runFixture(dir, { formats: ['json'] });
    const shown = await open(t, path.join(dir, REPORT_FILES.summaryHtml));
    if (!shown) return;
    assert.equal(shown.verdict, 'FAILED');
    assert.equal(shown.colour, 'rgb(198, 40, 40)');
    const causes = shown.text.indexOf('Causes of the failures');
    assert.ok(causes > 0 && causes < shown.text.indexOf('Figures'), 'the causes come before the figures');
    assert.match(shown.text, /Broke FX-/);
    assert.doesNotMatch(shown.text.slice(causes, shown.text.indexOf('Not checked in scope')), /waive/i, 'a failure never suggests a waiver');
    // A capability the profile lacks names the way to get it (and there a waiver is a fitting answer).
    assert.match(shown.text, /does not offer cardstore.*To check it: where the target offers it, set capabilities\.cardstore: true in the profile/s);
    assert.doesNotMatch(shown.text, /4111111111111111/);
    assert.ok(!shown.text.includes(path.sep + 'tmp' + path.sep) && !shown.text.includes(os.tmpdir()), 'no path of the machine');
    assert.deepEqual(shown.requests, []);
    // Nor in the records behind it: the stack traces in cucumber's messages are relative to the kit.
    const root = path.join(__dirname, '..', '..');
    for (const f of [REPORT_FILES.messages('json'), REPORT_FILES.allureLog('json'), REPORT_FILES.summaryJson]) {
      assert.ok(!fs.readFileSync(path.join(dir, f), 'utf8').includes(root), `${f} names the kit's folder`);
    }
  });
});
