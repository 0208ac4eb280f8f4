/**
 * The scope is one number: field rows roll up into their rule, the count of testable rules in scope depends on the
 * catalogue, the formats and the waivers only (never on what ran), and a merge that lacks part of a whole run (a
 * shard narrowed by --tags, a shard missing, a format not run) is INCOMPLETE and names the part.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogueRule } from '../../src/rules/catalogue';
import type { ScenarioResult } from '../../src/report/messages';
import { scenarioResult } from './results';
import { buildMatrix, buildSummary, type RunMeta } from '../../src/report/model';
import { mergeRuns, type RunReports } from '../../src/report/merge';
import { listText, type PlannedScenario } from '../../src/suite/list';
import type { Waiver } from '../../src/report/waivers';
import type { Format } from '../../src/wire/types';

const RULES: CatalogueRule[] = [
  { id: 'A', section: 's', quote: 'a', status: 'testable' },
  { id: 'LEN', section: 's', quote: 'lengths', status: 'testable' },
  { id: 'X', section: 's', quote: 'x', status: 'testable', formats: ['xml'] },
  { id: 'U', section: 's', quote: 'u', status: 'untestable', why: 'no observation' },
];

const scenario = scenarioResult;

const meta = (formats: Format[], extra: Partial<RunMeta> = {}): RunMeta => ({ target: 't', profile: 'p', formats, kitVersion: '0', interfaceVersions: { json: '1.00', xml: '3.67' }, ...extra });

function run(formats: Format[], scenarios: ScenarioResult[], waivers: Waiver[] = [], extra: Partial<RunMeta> = {}) {
  const m = meta(formats, extra);
  const matrix = buildMatrix(m, RULES, scenarios, waivers);
  return { matrix, summary: buildSummary(m, matrix, scenarios, [], []) };
}

describe('field rows roll up into their rule', () => {
  it('a rule checked per field is covered when its rows are, failed when one fails, and counted once', () => {
    const all = [scenario('a', 'json', ['A'], 'passed'), scenario('pan', 'json', ['LEN:pan'], 'passed'), scenario('email', 'json', ['LEN:billingemail'], 'passed')];
    const ok = run(['json'], all);
    assert.equal(ok.summary.result, 'passed');
    assert.equal(ok.matrix.rules.find((r) => r.id === 'LEN')?.overall.verdict, 'passed');
    assert.deepEqual(ok.matrix.rules.find((r) => r.id === 'LEN')?.fieldRows, ['LEN:billingemail', 'LEN:pan']);
    assert.equal(ok.matrix.rules.find((r) => r.id === 'LEN:pan')?.rollsUpTo, 'LEN');
    assert.equal(ok.matrix.coverage.testable, 2, 'A and LEN; X is XML only, U untestable, the field rows are not rules');
    assert.equal(ok.matrix.coverage.covered, 2);

    const one = run(['json'], [all[0], all[1], scenario('email', 'json', ['LEN:billingemail'], 'failed', { broken: ['LEN:billingemail'], error: '[LEN:billingemail] too long' })]);
    assert.equal(one.summary.result, 'failed');
    assert.equal(one.matrix.rules.find((r) => r.id === 'LEN')?.overall.verdict, 'failed');
    assert.match(one.matrix.rules.find((r) => r.id === 'LEN')?.overall.reason ?? '', /LEN:billingemail/);

    const skipped = run(['json'], [all[0], all[1], scenario('email', 'json', ['LEN:billingemail'], 'skipped', { reason: 'no clock' })]);
    assert.equal(skipped.matrix.rules.find((r) => r.id === 'LEN')?.overall.verdict, 'skipped', 'a rule is covered when all its rows are');
    assert.equal(skipped.summary.result, 'incomplete');
  });

  it('the scope depends on the formats and the waivers, never on what ran', () => {
    const full = run(['json', 'xml'], [scenario('a', 'json', ['A'], 'passed'), scenario('pan', 'json', ['LEN:pan'], 'passed'), scenario('x', 'xml', ['X'], 'passed')]);
    const none = run(['json', 'xml'], []);
    assert.equal(full.matrix.coverage.testable, 3);
    assert.equal(none.matrix.coverage.testable, 3);
    assert.equal(none.summary.result, 'incomplete');
    assert.equal(run(['json'], []).matrix.coverage.testable, 2, 'X applies to XML only');
    assert.deepEqual(full.matrix.coverage.byFormat.json, { testable: 2, covered: 2, percent: 100 });
    const waived = run(['json', 'xml'], [], [{ id: 'A', kind: 'rule', reason: 'certified elsewhere (ticket 7)' }]);
    assert.equal(waived.matrix.coverage.testable, 2);
    assert.equal(waived.matrix.coverage.catalogue.waived, 1);
    assert.match(waived.summary.scope, /2 testable rule\(s\) of the document in JSON and XML \(of the catalogue's 4; not in scope: 1 waived, 1 untestable\)/);
  });

  it('--list counts a field row under its rule, which is in the catalogue', () => {
    const planned: PlannedScenario[] = [
      { format: 'json', uri: 'f.feature', line: 1, name: 'pan', rules: ['LEN:pan'], tags: [] },
      { format: 'json', uri: 'f.feature', line: 2, name: 'email', rules: ['LEN:billingemail'], tags: [] },
    ];
    const text = listText(planned, RULES, 'h');
    assert.doesNotMatch(text, /not in the rule catalogue/);
    assert.match(text, /LEN {2,}2\/0 {2}\(2 field row\(s\), e\.g\. LEN:billingemail\)/);
    assert.match(text, /Testable rules no listed scenario checks \(2\): A, X/);
  });
});

describe('cardspec report --merge certifies only a whole run', () => {
  const shard = (dir: string, shardOf: string | undefined, scenarios: ScenarioResult[], tags?: string): RunReports => {
    const r = run(['json'], scenarios, [], { ...(shardOf ? { shard: shardOf } : {}), ...(tags ? { tags } : {}) });
    return { dir, summary: r.summary, matrix: r.matrix };
  };
  const a = scenario('a', 'json', ['A'], 'passed');
  const len = scenario('pan', 'json', ['LEN:pan'], 'passed');

  it('every shard present and unnarrowed: PASSED', () => {
    assert.equal(mergeRuns([shard('s1', '1/2', [a]), shard('s2', '2/2', [len])]).summary.result, 'passed');
  });

  it('a shard narrowed by --tags: INCOMPLETE, naming it', () => {
    const m = mergeRuns([shard('s1', '1/2', [a]), shard('s2', '2/2', [len], '@rule:LEN')]).summary;
    assert.equal(m.result, 'incomplete');
    assert.ok(
      m.incompleteBecause.some((i) => /s2 was narrowed by --tags "@rule:LEN"/.test(i)),
      m.incompleteBecause.join('\n'),
    );
    assert.equal(m.coverage.testable, 2, 'the scope of the merge is the whole catalogue');
  });

  it('a shard missing: INCOMPLETE, naming it', () => {
    const m = mergeRuns([shard('s1', '1/3', [a]), shard('s3', '3/3', [len])]).summary;
    assert.equal(m.result, 'incomplete');
    assert.ok(
      m.incompleteBecause.some((i) => /shard 2\/3 missing/.test(i)),
      m.incompleteBecause.join('\n'),
    );
  });
});

describe('hints that fit', () => {
  it('a missing capability names the way to get it; a failure, --bail or a stop never suggests a waiver', async () => {
    const { howToCheck, groupUnchecked } = await import('../../src/report/hints');
    const control = howToCheck('the target does not offer the capability "clock" (the test-control clock): its test-control API did not answer (HTTP 404)');
    assert.match(control.how ?? '', /cardspec serve --control/);
    assert.match(control.how ?? '', /capabilities\.clock: true/);
    assert.equal(control.waivable, true);
    assert.match(howToCheck('the profile "p" lacks the capability "cardstore": card store').how ?? '', /capabilities\.cardstore: true/);
    for (const reason of [
      'blocked by FIELD-MASKEDPAN (failed)',
      'not reached: --bail: the scenario "x" (JSON) failed',
      'the run was stopped before this scenario: interrupted (SIGINT).',
      'not reached: the answer is no envelope [ENV-SHAPE], so no XML scenario could be checked.',
    ]) {
      assert.equal(howToCheck(reason).waivable, false, reason);
    }
    assert.match(howToCheck('blocked by FIELD-MASKEDPAN, ENV-ORDER (failed)').how ?? '', /fix the failure on FIELD-MASKEDPAN/);
    // Each reason once: 56 skipped scenarios of one reason are one group.
    const groups = groupUnchecked(Array.from({ length: 56 }, (_, i) => ({ rule: 'scenario', format: 'json' as const, why: `skipped f.feature:${i} s${i}: no clock`, reason: 'no clock' })));
    assert.equal(groups.length, 1);
    assert.equal(groups[0].scenarios, 56);
  });
});

describe("Allure's environment", () => {
  it('carries the verdict, scope and waivers; a shard says its verdict is of its part alone', async () => {
    const { allureEnvironment } = await import('../../src/report/index');
    const whole = run(['json'], [scenario('a', 'json', ['A'], 'passed'), scenario('pan', 'json', ['LEN:pan'], 'passed')], [{ id: 'X', kind: 'rule', reason: 'no XML on this target (ticket 9)' }]);
    const env = allureEnvironment(whole.summary.meta, whole.summary);
    assert.match(env.verdict ?? '', /^PASSED: /);
    assert.match(env.scope ?? '', /2 testable rule\(s\)/);
    assert.match(env.waivers ?? '', /X: no XML on this target \(ticket 9\)/);
    const part = run(['json'], [scenario('a', 'json', ['A'], 'passed')], [], { shard: '1/3' });
    const partEnv = allureEnvironment(part.summary.meta, part.summary);
    assert.equal(partEnv.verdict, undefined);
    assert.match(partEnv['verdict of this part'] ?? '', /^PASSED for shard 1\/3 alone, not the whole suite/);
  });

  it("a merge of runs carries the verdict of the whole beside each run's", async () => {
    const { mergedAllureEnvironment } = await import('../../src/report/index');
    const shard = (dir: string, n: string, scenarios: ScenarioResult[]): RunReports => {
      const r = run(['json'], scenarios, [], { shard: n });
      return { dir, summary: r.summary, matrix: r.matrix };
    };
    const failed = scenario('pan', 'json', ['LEN:pan'], 'failed', { broken: ['LEN:pan'], error: '[LEN:pan] too long' });
    const merged = mergeRuns([shard('s1', '1/2', [scenario('a', 'json', ['A'], 'passed')]), shard('s2', '2/2', [failed])]).summary;
    const env = mergedAllureEnvironment(merged, 2);
    assert.match(env['verdict of the whole'], /^FAILED for the 2 runs merged: 1 distinct cause\(s\) of 1 failed scenario\(s\)/);
    assert.equal(env['rule coverage of the whole'], '1/2 (50.0%)');
    const whole = mergedAllureEnvironment(mergeRuns([shard('s1', '1/2', [scenario('a', 'json', ['A'], 'passed')]), shard('s2', '2/2', [scenario('pan', 'json', ['LEN:pan'], 'passed')])]).summary, 2);
    assert.match(whole['verdict of the whole'], /^PASSED for the 2 runs merged: every testable rule in scope was checked/);
  });
});
