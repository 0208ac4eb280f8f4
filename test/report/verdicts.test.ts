/**
 * Three verdicts, one meaning each: PASSED (every testable rule in scope has a passing check in every format run it
 * applies to, nothing in scope skipped), FAILED, INCOMPLETE; waivers are the one way the scope narrows and every one
 * is shown; the failures lead with their distinct causes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { exitCode } from '../../src/suite/run';
import type { CatalogueRule } from '../../src/rules/catalogue';
import { causesOf } from '../../src/report/causes';
import type { ScenarioResult } from '../../src/report/messages';
import { scenarioResult } from './results';
import { buildMatrix, buildSummary, type RunMeta } from '../../src/report/model';
import { matrixMarkdown } from '../../src/report/matrix';
import { summaryMarkdown, verdictConsole } from '../../src/report/summary';
import { loadWaivers, readWaivers, WaiverError, type Waiver } from '../../src/report/waivers';
import type { Format } from '../../src/wire/types';

const RULES: CatalogueRule[] = [
  { id: 'A', section: 's', quote: 'a', status: 'testable' },
  { id: 'B', section: 's', quote: 'b', status: 'testable' },
  { id: 'X', section: 's', quote: 'x', status: 'testable', formats: ['xml'] },
  { id: 'U', section: 's', quote: 'u', status: 'untestable', why: 'no observation' },
];

const scenario = scenarioResult;

function summaryOf(formats: Format[], scenarios: ScenarioResult[], waivers: Waiver[] = [], tags?: string) {
  const meta: RunMeta = { target: 't', profile: 'p', formats, kitVersion: '0', interfaceVersions: { json: '1.00', xml: '3.67' }, ...(tags ? { tags } : {}) };
  const matrix = buildMatrix(meta, RULES, scenarios, waivers);
  return { matrix, summary: buildSummary(meta, matrix, scenarios, [], []) };
}

describe('the verdict of a run', () => {
  it('PASSED: every testable rule checked in the formats it applies to (X is XML only: a JSON run needs no check of it)', () => {
    const { summary } = summaryOf(['json'], [scenario('one', 'json', ['A', 'B'], 'passed')]);
    assert.equal(summary.result, 'passed');
    assert.deepEqual(summary.unchecked, []);
  });

  it('INCOMPLETE: a rule in scope without a passing check, or a skipped scenario in scope; never PASSED with skips', () => {
    const { summary } = summaryOf(['json'], [scenario('one', 'json', ['A'], 'passed'), scenario('two', 'json', ['B'], 'skipped', { reason: 'no clock' })]);
    assert.equal(summary.result, 'incomplete');
    assert.ok(summary.unchecked.some((u) => u.rule === 'B' && /no clock/.test(u.why)));
    assert.ok(summary.unchecked.some((u) => u.rule === 'scenario' && /two/.test(u.why)));
    // Both formats asked for: X must be checked in XML as well.
    const both = summaryOf(['json', 'xml'], [scenario('one', 'json', ['A', 'B'], 'passed'), scenario('one', 'xml', ['A', 'B'], 'passed')]).summary;
    assert.equal(both.result, 'incomplete');
    assert.deepEqual(
      both.unchecked.map((u) => `${u.rule}/${u.format}`),
      ['X/xml'],
    );
  });

  it('a rule whose scenarios are all @format:json is not required of the XML run', () => {
    const s = [
      scenario('one', 'json', ['A'], 'passed'),
      scenario('one', 'xml', ['A'], 'passed'),
      scenario('j', 'json', ['B'], 'passed', { tags: ['@format:json'] }),
      scenario('x', 'xml', ['X'], 'passed'),
    ];
    assert.equal(summaryOf(['json', 'xml'], s).summary.result, 'passed');
  });

  it('FAILED outweighs INCOMPLETE, and the failure is its cause', () => {
    const failed = scenario('bad', 'json', ['A'], 'failed', {
      error: '[B] the AUTH part has maskedpan with *',
      broken: ['B'],
      blocked: ['A'],
      failedChecks: [{ rule: 'B', ok: false, attribution: 'field', field: 'maskedpan', expected: 'middle digits #', seen: '4111**1111', message: 'maskedpan not masked with #' }],
    });
    const { summary } = summaryOf(['json'], [failed, scenario('two', 'json', ['B'], 'skipped')]);
    assert.equal(summary.result, 'failed');
    assert.equal(summary.causes.length, 1);
    assert.equal(summary.causes[0].rule, 'B');
    const text = verdictConsole(summary).join('\n');
    assert.match(text, /^Result: FAILED/);
    assert.match(text, /B · maskedpan: 1 scenario/);
    assert.match(text, /expected middle digits #; seen 4111\*\*1111/);
    assert.match(summaryMarkdown(summary), /## Causes[\s\S]*B · `maskedpan`/);
  });

  it('--tags limits the scope to the rules of the scenarios it selected', () => {
    const { summary } = summaryOf(['json'], [scenario('one', 'json', ['A'], 'passed')], [], '@rule:A');
    assert.equal(summary.result, 'passed');
  });

  it('exit codes: 0 PASSED, 1 FAILED, 3 INCOMPLETE (0 with --allow-incomplete), a stopped run never 0 without it', () => {
    assert.equal(exitCode('passed', false, false, false), 0);
    assert.equal(exitCode('failed', true, false, false), 1);
    assert.equal(exitCode('incomplete', false, false, false), 3);
    assert.equal(exitCode('incomplete', false, false, true), 0);
    assert.equal(exitCode('passed', false, true, false), 3);
    assert.equal(exitCode(undefined, false, false, false), 3);
    assert.equal(exitCode('passed', true, false, false), 1);
  });
});

describe('waivers narrow the scope, each shown with its reason', () => {
  const known = new Set(RULES.map((r) => r.id));
  it('a waived rule or tag leaves the scope; the summary, summary.json and the matrix list each waiver', () => {
    const waivers = readWaivers({ waivers: [{ rule: 'B', reason: 'the sandbox cannot show it (ticket 42)' }] }, 'w.yaml', known);
    const { summary, matrix } = summaryOf(['json'], [scenario('one', 'json', ['A'], 'passed'), scenario('two', 'json', ['B'], 'skipped')], waivers);
    assert.equal(summary.result, 'passed');
    assert.deepEqual(summary.waivers, waivers);
    assert.equal(matrix.rules.find((r) => r.id === 'B')?.waiver?.reason, 'the sandbox cannot show it (ticket 42)');
    assert.match(summaryMarkdown(summary), /ticket 42/);
    assert.match(matrixMarkdown(matrix), /## Waivers[\s\S]*ticket 42/);
    assert.match(JSON.stringify(summary), /ticket 42/);
    const byTag = readWaivers([{ tag: '@requires:clock', reason: 'no movable clock in the sandbox' }], 'w.yaml', known);
    const t = summaryOf(
      ['json'],
      [scenario('one', 'json', ['A'], 'passed'), scenario('two', 'json', ['A', 'B'], 'skipped', { tags: ['@requires:clock'] }), scenario('three', 'json', ['B'], 'passed')],
      byTag,
    );
    assert.equal(t.summary.result, 'passed');
  });

  it('a failure on a waived rule still fails the run', () => {
    const waivers = readWaivers([{ rule: 'A', reason: 'out of scope for this certification' }], 'w', known);
    const s = summaryOf(['json'], [scenario('one', 'json', ['A'], 'failed', { broken: ['A'], error: '[A] x' }), scenario('two', 'json', ['B'], 'passed')], waivers);
    assert.equal(s.summary.result, 'failed');
  });

  it('a waiver without a written reason, of an unknown rule, or with both rule and tag is refused, saying what to fix', () => {
    assert.throws(
      () => readWaivers([{ rule: 'A' }], 'w', known),
      (e: Error) => e instanceof WaiverError && /written reason/.test(e.message),
    );
    assert.throws(() => readWaivers([{ rule: 'NOPE', reason: 'a perfectly good reason' }], 'w', known), /not a rule of the catalogue/);
    assert.throws(() => readWaivers([{ rule: 'A', tag: '@x', reason: 'a perfectly good reason' }], 'w', known), /exactly one of rule/);
    assert.throws(() => readWaivers('nonsense', 'w', known), /expected a list/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-waivers-'));
    const file = path.join(dir, 'w.json');
    fs.writeFileSync(file, JSON.stringify([{ rule: 'A', reason: 'JSON works as well as YAML' }]));
    assert.deepEqual(loadWaivers(file, known), [{ id: 'A', kind: 'rule', reason: 'JSON works as well as YAML' }]);
    assert.throws(() => loadWaivers(path.join(dir, 'missing.yaml'), known), /cannot be read/);
  });
});

describe('causes: failures grouped by what broke', () => {
  it('the same field fault in many scenarios and parts is one cause with the count', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      scenario(`s${i}`, i % 2 ? 'json' : 'xml', ['A'], 'failed', {
        broken: ['FIELD-MASKEDPAN'],
        failedChecks: [
          {
            rule: 'FIELD-MASKEDPAN',
            ok: false,
            attribution: 'field',
            field: 'maskedpan',
            part: i % 3 ? 'AUTH' : 'STORE',
            expected: `response[${i % 2}].maskedpan must be masked`,
            seen: '411111******1111',
            message: 'm',
          },
        ],
      }),
    );
    const causes = causesOf(many);
    assert.equal(causes.length, 1);
    assert.equal(causes[0].scenarios, 30);
    assert.deepEqual(causes[0].parts, ['AUTH', 'STORE']);
    assert.deepEqual(causes[0].formats, ['json', 'xml']);
  });
});
