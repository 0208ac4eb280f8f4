/**
 * The reports of a fixture run (test/fixtures/report): per format, a passing, a failing and a skipped scenario,
 * a scenario outline, and a rule catalogue with testable, unspecified, untestable and unchecked rules.
 */
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { cucumberFormats, writeReports, REPORT_FILES } from '../../src/report';
import type { Matrix, Summary } from '../../src/report/model';
import { junitXml } from '../../src/report/junit';
import type { ScenarioResult } from '../../src/report/messages';
import { runFixture, ROOT } from './fixture';
import { scenarioResult } from './results';

let dir: string;
let written: string[];

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-reports-'));
  ({ written } = await runFixture(dir));
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

function json<T>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as T;
}

type Attrs = Record<string, string>;
type XmlCase = Attrs & { failure?: Attrs & { '#text': string }; skipped?: Attrs; error?: Attrs };

function junit(): { suites: (Attrs & { testcase: XmlCase[] })[]; root: Attrs } {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'property' }).parse(
    fs.readFileSync(path.join(dir, REPORT_FILES.junit), 'utf8'),
  ) as { testsuites: Attrs & { testsuite: (Attrs & { testcase: XmlCase[] })[] } };
  return { suites: doc.testsuites.testsuite, root: doc.testsuites };
}

test('every report file is written', () => {
  for (const f of [
    REPORT_FILES.junit,
    REPORT_FILES.matrixMd,
    REPORT_FILES.matrixJson,
    REPORT_FILES.matrixHtml,
    REPORT_FILES.summaryMd,
    REPORT_FILES.summaryJson,
    REPORT_FILES.messages('json'),
    REPORT_FILES.messages('xml'),
    REPORT_FILES.cucumberHtml('json'),
    REPORT_FILES.cucumberHtml('xml'),
    path.join(REPORT_FILES.allureResults, 'environment.properties'),
    path.join(REPORT_FILES.allureResults, 'categories.json'),
  ]) {
    assert.ok(fs.existsSync(path.join(dir, f)), `${f} missing`);
  }
  assert.ok(written.includes(path.join(dir, REPORT_FILES.summaryJson)));
});

test('JUnit: one testcase per scenario and format, classname = feature, failures name the broken rules', () => {
  const { suites, root } = junit();
  assert.deepEqual([root.tests, root.failures, root.skipped, root.errors], ['12', '3', '2', '0']);
  assert.deepEqual(
    suites.map((s) => s.name),
    ['cardspec json', 'cardspec xml'],
  );
  for (const s of suites) assert.equal(s.testcase.length, 6);
  const json = suites[0].testcase;
  const xml = suites[1].testcase;
  assert.deepEqual([...new Set(json.map((c) => c.classname))].sort(), ['3-D Secure authentication', 'Account check', 'Card store', 'Ordinary payment']);

  const unauth = json.find((c) => c.name === 'A customer who is not authenticated gives 60022 [json]');
  assert.ok(unauth?.failure, 'the 60022 scenario fails');
  // The message names none of the scenario's rules, so every rule it is tagged with is broken.
  assert.match(unauth.failure.message, /^Broke FX-60022: /);
  assert.equal(unauth.failure.type, 'FX-60022');
  assert.match(unauth.failure['#text'], /FX-60022 \(Errors\): "Customer not authenticated\./);
  assert.ok(!unauth.failure['#text'].includes('4000000000001018'), 'the card number is masked');

  const version = xml.find((c) => c.name === 'The response carries the interface version [xml]');
  assert.match(version?.failure?.message ?? '', /^Broke FX-VERSION: .*3\.66/);
  assert.equal(json.find((c) => c.name === 'The response carries the interface version [json]')?.failure, undefined);

  const store = json.find((c) => c.classname === 'Card store');
  assert.equal(store?.skipped?.message, "the target's profile does not offer cardstore");

  // The two examples of the outline share a name: the second is told apart by its line.
  const outline = json.filter((c) => c.classname === 'Account check').map((c) => c.name);
  assert.deepEqual(outline, ['An account check accepts an amount [json]', 'An account check accepts an amount [json] (line 12)']);
});

test('JUnit: characters XML 1.0 forbids in an error do not break the file', () => {
  const s: ScenarioResult = {
    format: 'json',
    feature: 'F',
    uri: 'f.feature',
    line: 1,
    name: 'bell',
    tags: [],
    rules: [],
    errorcodes: [],
    types: [],
    requires: [],
    verdict: 'failed',
    status: 'FAILED',
    error: 'target said \u0007\u0000 here',
    durationMs: 1,
    attachments: 0,
  };
  const xml = junitXml({ target: 't', profile: 'p', formats: ['json'], kitVersion: '0', interfaceVersions: { json: '1.00', xml: '3.67' } }, [], [s]);
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as { testsuites: unknown };
  assert.ok(parsed.testsuites);
  assert.ok(!xml.includes('\u0007'));
});

test('JUnit: every scenario the kit could not run is an error, never a skip a CI reads as fine', () => {
  const meta = { target: 't', profile: 'p', formats: ['json' as const], kitVersion: '0', interfaceVersions: { json: '1.00', xml: '3.67' } };
  const kitProblems = ['UNDEFINED', 'AMBIGUOUS', 'PENDING', 'UNFINISHED'];
  const list = [...kitProblems, 'SKIPPED'].map((status, i) => scenarioResult(status, 'json', [], 'skipped', { status, line: i + 1, reason: `kit: ${status}` }));
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junitXml(meta, [], list)) as {
    testsuites: Attrs & { testsuite: Attrs & { testcase: XmlCase[] } };
  };
  const cases = parsed.testsuites.testsuite.testcase;
  assert.deepEqual(
    cases.filter((c) => c.error).map((c) => c.error!.type),
    kitProblems,
  );
  assert.deepEqual(
    cases.filter((c) => c.skipped).map((c) => c.name),
    ['SKIPPED [json]'],
  );
  assert.equal(parsed.testsuites.errors, String(kitProblems.length));
  assert.equal(parsed.testsuites.skipped, '1');
});

test('matrix: every catalogue rule, its scenarios and a verdict per format, with the quoted sentence', () => {
  const m = json<Matrix>(REPORT_FILES.matrixJson);
  assert.deepEqual(
    m.rules.map((r) => [r.id, r.byFormat.json?.verdict, r.byFormat.xml?.verdict, r.overall.verdict]),
    [
      ['FX-VERSION', 'passed', 'failed', 'failed'],
      ['FX-MASKED', 'passed', 'passed', 'passed'],
      ['FX-60022', 'failed', 'failed', 'failed'],
      ['FX-STORE-NO-SC', 'skipped', 'skipped', 'skipped'],
      ['FX-ZERO', 'passed', 'passed', 'passed'],
      ['FX-FUNDS', 'not-covered', 'not-covered', 'not-covered'],
      ['FX-RATE', 'unspecified', 'unspecified', 'unspecified'],
      ['FX-WINDOW', 'untestable', 'untestable', 'untestable'],
    ],
  );
  const store = m.rules.find((r) => r.id === 'FX-STORE-NO-SC');
  assert.equal(store?.overall.reason, "the target's profile does not offer cardstore");
  assert.equal(m.rules.find((r) => r.id === 'FX-RATE')?.overall.reason, 'The document does not show them.');
  assert.match(m.rules.find((r) => r.id === 'FX-WINDOW')?.overall.reason ?? '', /sized by the ACS provider/);
  const zero = m.rules.find((r) => r.id === 'FX-ZERO');
  assert.equal(zero?.scenarios.length, 2, 'both examples of the outline');
  assert.equal(zero?.quote, 'It must be greater than zero, except that ACCOUNTCHECK allows `0`.');
  // Covered: FX-MASKED and FX-ZERO of 6 testable rules; per format, FX-VERSION passes in JSON only.
  assert.deepEqual(m.coverage, {
    testable: 6,
    covered: 2,
    percent: 33.3,
    byFormat: { json: { testable: 6, covered: 3, percent: 50 }, xml: { testable: 6, covered: 2, percent: 33.3 } },
    catalogue: { rules: 8, testable: 6, waived: 0, otherFormat: 0, untestable: 1, unspecified: 1 },
  });

  const md = fs.readFileSync(path.join(dir, REPORT_FILES.matrixMd), 'utf8');
  assert.match(md, /Rule coverage: 2 of 6 testable rules in scope checked and held \(33\.3%\)/);
  for (const r of m.rules) assert.ok(md.includes(r.id) && md.includes(r.quote.split('`')[0]), `${r.id} in matrix.md`);
  const html = fs.readFileSync(path.join(dir, REPORT_FILES.matrixHtml), 'utf8');
  assert.match(html, /<section id="rule-FX-60022">/);
  assert.ok(!/<script/i.test(html), 'a plain page');
});

test('summary: target, formats, versions, the run date from its own timestamps, counts per type and flow, failures', () => {
  const s = json<Summary>(REPORT_FILES.summaryJson);
  assert.equal(s.result, 'failed');
  assert.equal(s.meta.target, 'fixture target');
  assert.deepEqual(s.meta.formats, ['json', 'xml']);
  assert.equal(s.meta.kitVersion, JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
  assert.deepEqual(s.meta.interfaceVersions, { json: '1.00', xml: '3.67' });

  const started = fs
    .readFileSync(path.join(dir, REPORT_FILES.messages('json')), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { testRunStarted?: { timestamp: { seconds: number; nanos: number } } })
    .find((e) => e.testRunStarted)?.testRunStarted?.timestamp;
  assert.ok(started);
  const iso = new Date(started.seconds * 1000 + Math.floor(started.nanos / 1e6)).toISOString();
  assert.equal(s.meta.startedAt, iso, 'the earliest testRunStarted of the runs');
  assert.equal(s.date, iso.slice(0, 10));

  assert.deepEqual(s.totals, { scenarios: 12, passed: 7, failed: 3, skipped: 2 });
  assert.deepEqual(s.byFormat, { json: { scenarios: 6, passed: 4, failed: 1, skipped: 1 }, xml: { scenarios: 6, passed: 3, failed: 2, skipped: 1 } });
  // In the dictionary's order of request types.
  assert.deepEqual(
    s.byRequestType.map((t) => [t.type, t.passed, t.failed, t.skipped]),
    [
      ['AUTH', 3, 3, 0],
      ['THREEDQUERY', 0, 2, 0],
      ['ACCOUNTCHECK', 4, 0, 0],
      ['STORE', 0, 0, 2],
    ],
  );
  assert.deepEqual(
    s.byFlow.map((f) => [f.feature, f.passed, f.failed, f.skipped]),
    [
      ['Account check', 4, 0, 0],
      ['Ordinary payment', 3, 1, 0],
      ['Card store', 0, 0, 2],
      ['3-D Secure authentication', 0, 2, 0],
    ],
  );
  assert.deepEqual(
    s.failures.map((f) => [f.scenario, f.format, f.rules.map((r) => r.id)]),
    [
      ['A customer who is not authenticated gives 60022', 'json', ['FX-60022']],
      ['The response carries the interface version', 'xml', ['FX-VERSION']],
      ['A customer who is not authenticated gives 60022', 'xml', ['FX-60022']],
    ],
  );
  assert.equal(s.failures[1].rules[0].quote, 'The JSON envelope carries `version` with the value `1.00`, in both the request and the response.');
  assert.match(s.failures[0].error, /expected errorcode 60022, got 0/);
  assert.ok(!s.failures[0].error.includes(' at '), 'no stack trace');
  const md = fs.readFileSync(path.join(dir, REPORT_FILES.summaryMd), 'utf8');
  assert.match(md, /\*\*Result: FAILED\*\*/);
  assert.match(md, /\| Schema version \| JSON envelope 1\.00; XML block 3\.67 \|/);
  assert.match(md, /Broke \*\*FX-60022\*\* \(Errors\)/);
});

interface AllureResult {
  name: string;
  status: string;
  historyId: string;
  labels: { name: string; value: string }[];
  links: { name: string; url: string }[];
  parameters: { name: string; value: string }[];
  steps: { name: string; steps: { attachments: { name: string; source: string }[] }[] }[];
}

test('Allure: both formats in one folder, told apart by a parameter, rules and error codes as labels and links', () => {
  const resultsDir = path.join(dir, REPORT_FILES.allureResults);
  const results = fs
    .readdirSync(resultsDir)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(resultsDir, f), 'utf8')) as AllureResult);
  assert.equal(results.length, 12);
  assert.equal(new Set(results.map((r) => r.historyId)).size, 12, 'the JSON and XML results of a scenario are not retries of each other');
  const format = (r: AllureResult): string | undefined => r.parameters.find((p) => p.name === 'format')?.value;
  assert.deepEqual(results.map(format).sort(), [...Array(6).fill('json'), ...Array(6).fill('xml')]);

  // A plain Error that names its rule is the target's failure, not a broken test.
  const version = results.find((r) => r.name === 'The response carries the interface version' && format(r) === 'xml');
  assert.equal(version?.status, 'failed');

  const unauth = results.find((r) => r.name === 'A customer who is not authenticated gives 60022' && format(r) === 'xml');
  assert.ok(unauth);
  const label = (n: string): string[] => unauth.labels.filter((l) => l.name === n).map((l) => l.value);
  assert.equal(unauth.status, 'failed');
  assert.deepEqual(label('rule'), ['FX-60022']);
  assert.deepEqual(label('errorcode'), ['60022']);
  assert.deepEqual(label('requesttype'), ['THREEDQUERY', 'AUTH']);
  assert.deepEqual(label('parentSuite'), ['THREEDQUERY']);
  assert.deepEqual(label('epic'), ['AUTH + THREEDQUERY'], "the request types in the document's order");
  assert.deepEqual(label('suite'), ['3-D Secure authentication']);
  assert.deepEqual(label('subSuite'), ['XML']);
  assert.deepEqual(label('story'), ['FX-60022']);
  assert.deepEqual(unauth.links, [{ name: 'Rule FX-60022', url: 'matrix.html#rule-FX-60022', type: 'rule' }]);

  // The request and the response are attached, masked.
  const attachments = unauth.steps.flatMap((s) => s.steps.flatMap((x) => x.attachments));
  assert.deepEqual(
    attachments.map((a) => a.name),
    ['request.xml', 'response.xml'],
  );
  const request = fs.readFileSync(path.join(resultsDir, attachments[0].source), 'utf8');
  assert.match(request, /<pan>400000######1018<\/pan>/);
  assert.match(request, /<securitycode>\*\*\*<\/securitycode>/);

  const env = fs.readFileSync(path.join(resultsDir, 'environment.properties'), 'utf8');
  assert.match(env, /^target = fixture target$/m);
  assert.match(env, /^formats = json, xml$/m);
});

test('the cucumber HTML report is built from the masked messages', () => {
  const html = fs.readFileSync(path.join(dir, REPORT_FILES.cucumberHtml('xml')), 'utf8');
  assert.ok(html.includes('400000######1018'));
  assert.ok(!html.includes('4000000000001018'));
  // The page's own code is untouched by the masking (it holds `password:!0`, which text masking would break).
  assert.ok(html.includes('password:!0'));
});

test('a run that left no messages, and a broken catalogue, still give reports that say what is missing', async () => {
  const bad = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-bad-'));
  try {
    const catalogue = path.join(bad, 'rules.yaml');
    fs.writeFileSync(catalogue, '- id: A\n  status: maybe\n  quote: q\n- id: A\n  quote: again\n- just a string\n');
    fs.mkdirSync(path.join(bad, 'xml'));
    fs.writeFileSync(path.join(bad, 'xml', 'messages.ndjson'), '{"testRunStarted":{"timestamp":{"seconds":1767603600,"nanos":0}}}\nnot json\n');
    await writeReports({
      reportsDir: bad,
      runs: [
        { format: 'json', messages: path.join(bad, 'json', 'messages.ndjson') },
        { format: 'xml', messages: path.join(bad, 'xml', 'messages.ndjson') },
      ],
      target: 'https://merchant:hunter2-secret@gateway.example',
      profile: 'p',
      startedAt: '2026-01-05T09:00:00.000Z',
      finishedAt: '2026-01-05T09:01:00.000Z',
      catalogue,
      problems: ['the target did not answer: connect ECONNREFUSED'],
    });
    const s = JSON.parse(fs.readFileSync(path.join(bad, REPORT_FILES.summaryJson), 'utf8')) as Summary;
    assert.equal(s.result, 'incomplete');
    assert.deepEqual(s.incompleteBecause, ['json: no scenario results', 'xml: no scenario results']);
    assert.equal(s.meta.target, 'https://merchant:***@gateway.example');
    assert.equal(s.meta.startedAt, '2026-01-05T09:00:00.000Z', 'from the messages');
    const problems = s.problems.join('\n');
    assert.match(problems, /the target did not answer/);
    assert.match(problems, /json: no cucumber messages at .*ENOENT/);
    assert.match(problems, /xml: 1 line\(s\) of the cucumber messages are not JSON/);
    assert.match(problems, /xml: the cucumber run did not finish/);
    assert.match(problems, /entry 1 \(A\): status must be one of testable, untestable, unspecified/);
    assert.match(problems, /id A appears twice/);
    assert.match(problems, /entry 3 is not a mapping/);
    const m = JSON.parse(fs.readFileSync(path.join(bad, REPORT_FILES.matrixJson), 'utf8')) as Matrix;
    assert.deepEqual(
      m.rules.map((r) => [r.id, r.status, r.overall.verdict]),
      [['A', 'unspecified', 'unspecified']],
    );
    assert.ok(fs.existsSync(path.join(bad, REPORT_FILES.junit)));
  } finally {
    fs.rmSync(bad, { recursive: true, force: true });
  }
});

test('cucumberFormats: the Allure formatter for the format, and a clear refusal of a path cucumber would misread', () => {
  const [entry] = cucumberFormats('/tmp/r', 'xml');
  assert.match(entry, /^"file:\/\/.*allure-formatter\.mjs\?results=%2Ftmp%2Fr%2Fallure-results&format=xml":"\/tmp\/r\/xml\/allure\.log"$/);
  assert.throws(() => cucumberFormats('/tmp/a"b', 'json'), /must not contain a double quote/);
});

test("a second run into the same folder replaces the first run's Allure results instead of adding to them", async () => {
  const again = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-again-'));
  try {
    const count = (ext: string): number => fs.readdirSync(path.join(again, REPORT_FILES.allureResults)).filter((f) => f.endsWith(ext)).length;
    await runFixture(again, { formats: ['json'] });
    const attachments = fs.readdirSync(path.join(again, REPORT_FILES.allureResults)).filter((f) => f.includes('-attachment')).length;
    assert.equal(count('-result.json'), 6);
    await runFixture(again, { formats: ['json'] });
    assert.equal(count('-result.json'), 6);
    assert.equal(fs.readdirSync(path.join(again, REPORT_FILES.allureResults)).filter((f) => f.includes('-attachment')).length, attachments);
  } finally {
    fs.rmSync(again, { recursive: true, force: true });
  }
});
