/**
 * The verdict rules on runs built by hand: a faulty variant is caught only by a failed scenario tagged with its
 * rule; a failure under another rule, a kit problem or a skipped scenario never catches it; a benign variant fails
 * on any failed scenario, kit problem, problem outside the scenarios, fuzz failure, or when nothing ran. And the
 * score and the Markdown block that carry them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { consoleTable, markdownBlock, MARKERS, replaceBlock } from '../../src/selfcheck/table';
import type { ScenarioOutcome, Variant, VariantRun } from '../../src/selfcheck/types';
import { passed, scoreOf, verdictOf } from '../../src/selfcheck/verdict';

const FAULTY: Variant = { kind: 'faulty', name: 'f', area: 'envelope', rule: 'ENV-ORDER', what: 'reverses parts', build: () => ({}) };
const BENIGN: Variant = { kind: 'benign', name: 'b', area: 'envelope', what: 'adds fields', allowedBy: 'the document fixes no field list', build: () => ({}) };

function scenario(rules: string[], verdict: ScenarioOutcome['verdict'], extra: Partial<ScenarioOutcome> = {}): ScenarioOutcome {
  return { format: 'json', uri: 'features/x.feature', line: 7, name: 'a scenario', rules, verdict, kitProblem: false, why: `[${rules.join(', ')}] wrong`, ...extra };
}

const run = (scenarios: ScenarioOutcome[], extra: Partial<VariantRun> = {}): VariantRun => ({ name: 'v', tags: '', formats: ['json'], scenarios, problems: [], durationMs: 1, ...extra });

describe('the verdict of a faulty variant', () => {
  it('is caught by a failed scenario tagged with its rule, and names it', () => {
    const v = verdictOf(FAULTY, run([scenario(['ENV-ORDER', 'ENV-TYPES-NAMED'], 'failed'), scenario(['ENV-ORDER'], 'passed')]));
    assert.equal(v.ok, true);
    assert.deepEqual(v.caughtBy, ['features/x.feature:7 [json]']);
    assert.equal(v.catcherName, 'a scenario');
  });

  it('is not caught by a failure under another rule, a kit problem, or a skipped scenario', () => {
    for (const s of [scenario(['ENV-SECRAND'], 'failed'), scenario(['ENV-ORDER'], 'failed', { kitProblem: true }), scenario(['ENV-ORDER'], 'skipped')]) {
      const v = verdictOf(FAULTY, run([s]));
      assert.equal(v.ok, false, JSON.stringify(s));
      assert.deepEqual(v.caughtBy, []);
    }
  });

  it('says when no scenario of its rule ran, and when they all passed (a gap in the suite)', () => {
    assert.match(verdictOf(FAULTY, run([])).note, /no scenario tagged @rule:ENV-ORDER ran/);
    assert.match(verdictOf(FAULTY, run([scenario(['ENV-ORDER'], 'passed')])).note, /passed: a gap in the suite/);
  });

  it('scores the fuzz run alone: caught under the rule, or flagged under another', () => {
    const fuzz = (rule: string) => ({ ran: true, failures: [{ rule, what: 'x' }], problems: [], durationMs: 1 });
    assert.equal(verdictOf(FAULTY, run([], { fuzz: fuzz('ENV-ORDER') })).fuzzOk, true);
    const other = verdictOf(FAULTY, run([], { fuzz: fuzz('ERR-30000') }));
    assert.equal(other.fuzzOk, false);
    assert.deepEqual(other.fuzzRules, ['ERR-30000']);
    assert.equal(verdictOf(FAULTY, run([])).fuzzOk, undefined);
  });
});

describe('the verdict of a benign variant', () => {
  it('passes when every scenario passed and the fuzz run found nothing', () => {
    const v = verdictOf(BENIGN, run([scenario(['ENV-ORDER'], 'passed'), scenario([], 'skipped')], { fuzz: { ran: true, failures: [], problems: [], durationMs: 1 } }));
    assert.equal(v.ok, true);
    assert.equal(v.fuzzOk, true);
  });

  it('fails on a failed scenario, a kit problem, a problem outside the scenarios, a fuzz failure, or nothing run', () => {
    const ok = scenario(['ENV-ORDER'], 'passed');
    const cases: VariantRun[] = [
      run([ok, scenario(['ENV-SECRAND'], 'failed')]),
      run([ok, scenario(['ENV-SECRAND'], 'skipped', { kitProblem: true })]),
      run([ok], { problems: ['XML run: cucumber stopped'] }),
      run([ok], { fuzz: { ran: true, failures: [{ rule: 'ERR-30000', what: 'valid-not-refused' }], problems: [], durationMs: 1 } }),
      run([]),
    ];
    for (const c of cases) assert.equal(verdictOf(BENIGN, c).ok, false, JSON.stringify(c));
  });
});

describe('the score and the tables', () => {
  const verdicts = [
    verdictOf(FAULTY, run([scenario(['ENV-ORDER'], 'failed')], { fuzz: { ran: true, failures: [], problems: [], durationMs: 1 } })),
    verdictOf({ ...FAULTY, name: 'g' }, run([scenario(['ENV-ORDER'], 'passed')], { fuzz: { ran: true, failures: [{ rule: 'ERR-30000', what: 'x' }], problems: [], durationMs: 1 } })),
    verdictOf(BENIGN, run([scenario([], 'passed')], { fuzz: { ran: true, failures: [], problems: [], durationMs: 1 } })),
  ];

  it('counts caught / total and passed / total, for the suite and for the fuzz run alone', () => {
    const s = scoreOf(verdicts);
    assert.deepEqual(s.faulty, { caught: 1, total: 2 });
    assert.deepEqual(s.benign, { passed: 1, total: 1 });
    assert.deepEqual(s.fuzz, { faulty: { caught: 0, flagged: 1, total: 2 }, benign: { passed: 1, total: 1 } });
    assert.equal(passed(verdicts), false);
    assert.equal(passed(verdicts.filter((v) => v.ok)), true);
    assert.equal(passed([]), false);
  });

  it('prints the score, each row, and what was not as expected', () => {
    const text = consoleTable(verdicts);
    assert.match(text, /Detection score: 1\/2 faulty variants caught \(50%\), 1\/1 benign variants passed \(100%\)/);
    assert.match(text, /Fuzz run alone: 0\/2 faulty variants caught under the rule they break \(0%\), 1\/2 flagged under some rule/);
    assert.match(text, /^g +faulty +ENV-ORDER +- +NOT CAUGHT +flagged: ERR-30000$/m);
    assert.match(text, /Not as expected \(1\):\n {2}g \(faulty, ENV-ORDER\): 1 scenario\(s\) tagged @rule:ENV-ORDER passed/);
  });

  it('writes the Markdown block between its markers, replacing an earlier one and keeping the rest', () => {
    const block = markdownBlock(verdicts, { durationMs: 1000, workers: 2, fuzz: 'none' });
    assert.match(block, /^\| `f`: reverses parts \| envelope \| `ENV-ORDER` \| x\.feature:7: a scenario \| caught \| - \|$/m);
    const once = replaceBlock('# Title\n\ntext\n', block);
    assert.ok(once.startsWith('# Title\n\ntext\n\n' + MARKERS.start));
    const twice = replaceBlock(`${once}\nafter\n`, 'new');
    assert.equal(twice, `# Title\n\ntext\n\n${MARKERS.start}\nnew\n${MARKERS.end}\n\nafter\n`);
    // A marker quoted in the text (docs/selfcheck.md's options table) is not the block's.
    const quoted = `between \`${MARKERS.start}\` and \`${MARKERS.end}\`\n\n${MARKERS.start}\nold\n${MARKERS.end}\n`;
    assert.equal(replaceBlock(quoted, 'new'), `between \`${MARKERS.start}\` and \`${MARKERS.end}\`\n\n${MARKERS.start}\nnew\n${MARKERS.end}\n`);
  });
});
