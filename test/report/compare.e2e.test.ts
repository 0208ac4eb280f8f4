/**
 * `cardspec report --compare` (src/report/compare.ts): several client-case reports, or several runs, in one table
 * with the differences first. The inputs are real: client reports written by the cases through a real adapter
 * process, and runs of the conformance suite against gallery variants on loopback. The comparison opens from disk in
 * Chromium, and its links reach the compared reports' pages.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startContractGateway, type RunningContractGateway } from '../../src/contract';
import { runClientCases } from '../../src/cases';
import { writeClientReport } from '../../src/cases/report';
import { buildComparison, COMPARE_FILES, writeComparison, type Comparison } from '../../src/report/compare';
import { registerSecret } from '../../src/redact';
import { runAgainstVariant, tempDir } from '../conformance/cli';
import { launchChromium } from '../chromium';
import { run as report } from '../../src/cli/report';

const ADAPTER = path.join(__dirname, '..', 'contract', 'fixtures', 'adapter.js');
const command = (mode: string): string => `CARDSPEC_FIXTURE_MODE=${mode} "${process.execPath}" "${ADAPTER}"`;
/** Two-part cases (which a client reading only the first part fails) and one-part ones (which it passes). */
const CASES = ['auth-60022', 'subscription-not-enrolled', 'riskdec-then-auth', 'threedquery-enrolled-Y'];
const SECRET = 'compare-secret-token-xyzzy';

let gw: RunningContractGateway;
let root: string;
before(async () => {
  gw = await startContractGateway({ scenarios: true });
  root = tempDir('compare');
});
after(() => gw.close());

async function clientReport(name: string, mode: string): Promise<string> {
  const dir = path.join(root, name);
  const results = await runClientCases(gw, { command: command(mode), only: CASES });
  // A secret in the adapter's command line: the comparison shows the command, masked.
  await writeClientReport(dir, results, { command: `${command(mode)} --token ${SECRET}`, strict: false });
  // The report masked it already; a cases.json from elsewhere may not have: the comparison masks on its own.
  const file = path.join(dir, 'cases.json');
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { cases: { title: string }[] };
  json.cases[0].title += ` (card 4111111111111111, ${SECRET})`;
  fs.writeFileSync(file, JSON.stringify(json));
  return dir;
}

function built(dirs: string[], out: string): Comparison {
  const c = buildComparison(dirs, out);
  if ('problem' in c) assert.fail(c.problem);
  return c;
}

describe('report --compare: client-case reports', () => {
  it('puts cases by clients, the differences first, each cell linking to the case page; opens from disk', async (t) => {
    registerSecret(SECRET);
    const good = await clientReport('good-sdk', 'good');
    const first = await clientReport('first-part-sdk', 'first-part');
    const out = path.join(root, 'out-clients');
    const c = built([good, first], out);
    assert.deepEqual(
      c.columns.map((col) => col.label),
      ['good-sdk', 'first-part-sdk'],
    );
    assert.deepEqual(
      c.rows.map((r) => [r.id, r.differs, r.cells.map((x) => x.value)]),
      [
        ['subscription-not-enrolled', true, ['pass', 'fail']],
        ['riskdec-then-auth', true, ['pass', 'fail']],
        ['threedquery-enrolled-Y', false, ['pass', 'pass']],
        ['auth-60022', false, ['pass', 'pass']],
      ],
    );
    assert.equal(c.differences, 2);
    const written = writeComparison(out, c);
    assert.deepEqual(written.map((f) => path.basename(f)).sort(), [COMPARE_FILES.html, COMPARE_FILES.json].sort());
    for (const f of written) {
      const text = fs.readFileSync(f, 'utf8');
      assert.ok(!text.includes(SECRET) && !text.includes('4111111111111111'), `${f} holds a secret`);
      assert.match(text, /card 411111######1111/);
    }
    assert.match(fs.readFileSync(path.join(out, COMPARE_FILES.html), 'utf8'), /--token \*\*\*/);

    const browser = await launchChromium(t);
    if (!browser) return;
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(path.join(out, COMPARE_FILES.html)).href);
      const rows = await page.$$eval('#comparison tr[data-row]', (els) => els.map((e) => [e.getAttribute('data-row'), e.getAttribute('data-differs')]));
      assert.deepEqual(rows, [
        ['subscription-not-enrolled', 'true'],
        ['riskdec-then-auth', 'true'],
        ['threedquery-enrolled-Y', 'false'],
        ['auth-60022', 'false'],
      ]);
      // the catalogue's order within each part (3-D Secure, then Request types)
      // The failing cell opens that client's page of the case, from disk.
      await page.locator('tr[data-row="subscription-not-enrolled"] td.fail a').click();
      await page.waitForLoadState();
      assert.equal(decodeURIComponent(page.url()), pathToFileURL(path.join(first, 'cases', 'subscription-not-enrolled.html')).href);
      assert.match((await page.locator('h1').textContent()) ?? '', /subscription-not-enrolled: FAIL/);
    } finally {
      await browser.close();
    }
  });

  it('a report played in JSON and one in XML line up by case id, a column per format', async () => {
    const json = await clientReport('sdk-json', 'good');
    const xmlDir = path.join(root, 'sdk-xml');
    // The JSON fixture adapter told to play XML: it still posts JSON, and every XML case fails for it.
    await writeClientReport(xmlDir, await runClientCases(gw, { command: command('good'), only: CASES, format: 'xml' }), { command: 'x', strict: false });
    const out = path.join(root, 'out-formats');
    const c = built([json, xmlDir], out);
    assert.deepEqual(
      c.columns.map((col) => col.label),
      ['sdk-json (json)', 'sdk-xml (xml)'],
    );
    assert.ok(c.rows.every((r) => r.differs && r.cells[1].value === 'fail'));
    assert.equal(c.rows[0].cells[1].href, `../sdk-xml/cases/xml/${c.rows[0].id}.html`);
  });

  it('cardspec report --compare writes both files into --out and says how many rows differ', async () => {
    const out = path.join(root, 'out-cli');
    const lines: string[] = [];
    const sink = { write: (t: string) => void lines.push(t) };
    const code = await report(['--compare', path.join(root, 'good-sdk'), path.join(root, 'first-part-sdk'), '--out', out], { out: sink, err: sink, env: process.env, cwd: process.cwd() });
    assert.equal(code, 0);
    assert.ok(fs.existsSync(path.join(out, COMPARE_FILES.html)) && fs.existsSync(path.join(out, COMPARE_FILES.json)));
    assert.match(lines.join('\n'), /Compared good-sdk, first-part-sdk: 4 cases, 2 differ \(listed first\)/);
    const json = JSON.parse(fs.readFileSync(path.join(out, COMPARE_FILES.json), 'utf8')) as Comparison;
    assert.deepEqual(
      json.rows.slice(0, 2).map((r) => r.id),
      ['subscription-not-enrolled', 'riskdec-then-auth'],
    );
  });

  it('refuses fewer than two folders, a folder of neither kind, and a mix of kinds, saying why', async () => {
    const good = path.join(root, 'good-sdk');
    assert.match((buildComparison([good], root) as { problem: string }).problem, /at least two/);
    const empty = tempDir('compare-empty');
    assert.match((buildComparison([good, empty], root) as { problem: string }).problem, /neither a client-case report .* nor a run's reports folder/);
    fs.writeFileSync(path.join(empty, 'summary.json'), '{}');
    assert.match((buildComparison([good, empty], root) as { problem: string }).problem, /compare like with like: .*good-sdk is a client-case report, .* is a run's reports/);
  });
});

describe('report --compare: runs', () => {
  it('puts rules by targets, the rule a variant breaks first, each linking to its run matrix; opens from disk', async (t) => {
    const args = ['--format', 'json', '--tags', '@type:STORE'];
    const benign = await runAgainstVariant('extra-fields', args);
    const faulty = await runAgainstVariant('maskedpan-stars', args);
    assert.ok(faulty.failed.includes('FIELD-MASKEDPAN') && !benign.failed.includes('FIELD-MASKEDPAN'));
    const out = path.join(root, 'out-runs');
    const c = built([benign.r.reports, faulty.r.reports], out);
    assert.equal(c.of, 'runs');
    const differing = c.rows.filter((r) => r.differs).map((r) => r.id);
    assert.ok(differing.includes('FIELD-MASKEDPAN'), differing.join());
    // differences first: no alike row before a differing one
    assert.equal(
      c.rows.findIndex((r) => !r.differs),
      differing.length,
    );
    const masked = c.rows.find((r) => r.id === 'FIELD-MASKEDPAN')!;
    assert.deepEqual(
      masked.cells.map((x) => x.value),
      ['passed', 'failed'],
    );
    assert.match(c.columns[1].verdict, /^FAILED: /);
    writeComparison(out, c);

    const browser = await launchChromium(t);
    if (!browser) return;
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(path.join(out, COMPARE_FILES.html)).href);
      const first = await page.$$eval('#comparison tr[data-row]', (els) => els.slice(0, 1).map((e) => e.getAttribute('data-differs')));
      assert.deepEqual(first, ['true']);
      const rows = await page.$$eval('#differences tr[data-row]', (els) => els.map((e) => e.getAttribute('data-row')));
      assert.deepEqual(rows, differing);
      await page.locator('tr[data-row="FIELD-MASKEDPAN"] td.failed a').click();
      await page.waitForLoadState();
      assert.match(decodeURIComponent(page.url()), /matrix\.html#/);
      assert.ok(decodeURIComponent(page.url()).startsWith(pathToFileURL(faulty.r.reports).href));
    } finally {
      await browser.close();
    }
  });
});
