/**
 * The matrix of contexts: per rule, in how many exchanges and in which contexts of its scope it was checked, which
 * contexts no exchange reached, said in the Markdown and HTML matrix, and never a change of the verdict.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogueRule } from '../../src/rules/catalogue';
import { readScope } from '../../src/rules/scope';
import { groupReached, reachedByRule, reachOf, readReach } from '../../src/report/messages';
import { buildMatrix, buildSummary, type RunMeta } from '../../src/report/model';
import { contextsCell, contextsLines, contextsTotalLine, matrixHtml, matrixMarkdown } from '../../src/report/matrix';
import { scenarioResult } from './results';

const scope = (raw: unknown) => readScope(raw).scope!;
const RULES: CatalogueRule[] = [
  // The Errors table's 60025 row: AUTH and ACCOUNTCHECK, that code: 2 contexts per format.
  { id: 'ERR-60025', section: 's', quote: 'q', status: 'testable', scope: scope({ types: ['AUTH', 'ACCOUNTCHECK'], outcomes: ['60025'] }) },
  { id: 'ONE', section: 's', quote: 'q', status: 'testable', scope: scope({ types: ['STORE'] }) },
  { id: 'OLD', section: 's', quote: 'q', status: 'testable' },
];
const meta: RunMeta = { target: 't', profile: 'p', formats: ['json', 'xml'], kitVersion: '0', interfaceVersions: { json: '1.00', xml: '3.67' } };

const auth60025 = { format: 'json', type: 'AUTH', outcome: '60025', request: 'separate', parent: 'none' } as const;

describe('the matrix of contexts', () => {
  const checks = reachOf([
    // Two exchanges of the scenario checked ERR-60025 in its JSON AUTH context; one check of the AUTH was out of scope.
    { rule: 'ERR-60025', ok: true, attribution: 'named', call: 0, contexts: [auth60025] },
    { rule: 'ERR-60025', ok: true, attribution: 'named', call: 1, contexts: [auth60025] },
    { rule: 'ERR-60025', ok: true, attribution: 'named', call: 2, contexts: [{ ...auth60025, outcome: '0' }] },
    { rule: 'ONE', ok: true, attribution: 'field', field: 'maskedpan', call: 0, contexts: [{ format: 'json', type: 'STORE' }] },
    // A check that looked at no exchange adds no context.
    { rule: 'OLD', ok: true, attribution: 'scenario' },
  ]);
  const scenarios = [
    scenarioResult('a', 'json', ['ERR-60025', 'ONE', 'OLD'], 'passed', { reached: checks }),
    scenarioResult('a', 'xml', ['ERR-60025', 'ONE', 'OLD'], 'passed', { reached: reachOf([{ rule: 'ONE', ok: true, attribution: 'field', call: 0, contexts: [{ format: 'xml', type: 'STORE' }] }]) }),
  ];
  const matrix = buildMatrix(meta, RULES, scenarios);
  const row = (id: string) => matrix.rules.find((r) => r.id === id)!;

  it('counts exchanges and contexts of the scope reached, and names those no exchange reached', () => {
    assert.deepEqual(row('ERR-60025').contexts, {
      exchanges: 2,
      total: 4,
      reached: [{ context: 'JSON AUTH errorcode 60025', exchanges: 2 }],
      unreached: ['JSON ACCOUNTCHECK errorcode 60025', 'XML AUTH errorcode 60025', 'XML ACCOUNTCHECK errorcode 60025'],
    });
    assert.equal(contextsCell(row('ERR-60025')), '1 of 4');
    assert.deepEqual(contextsLines(row('ERR-60025')), [
      'Where it applies: checked in 2 exchange(s), in 1 of the 4 contexts of its scope.',
      'Reached: JSON AUTH errorcode 60025 (2).',
      'Not reached: JSON ACCOUNTCHECK errorcode 60025; XML AUTH errorcode 60025; XML ACCOUNTCHECK errorcode 60025.',
    ]);
    assert.deepEqual(contextsLines(row('ONE')), ['Where it applies: checked in 2 exchange(s), in all 2 contexts of its scope.', 'Reached: JSON STORE (1); XML STORE (1).']);
    // A rule without a scope (a user's catalogue) has no contexts, and says nothing of them.
    assert.equal(row('OLD').contexts, undefined);
    assert.deepEqual(contextsLines(row('OLD')), []);
    assert.equal(contextsCell(row('OLD')), '-');
  });

  it('reads a check of a field for its field row too', () => {
    assert.deepEqual(Object.keys(checks).sort(), ['ERR-60025', 'ONE', 'ONE:maskedpan']);
    // One short text per rule: its exchanges, then each context key with the exchanges checked in it.
    assert.equal(checks['ONE'], '0 json|STORE|||||||@0');
    assert.deepEqual(readReach(checks['ERR-60025']), {
      calls: [0, 1, 2],
      contexts: [
        ['json|AUTH|60025|||separate|none||', [0, 1]],
        ['json|AUTH|0|||separate|none||', [2]],
      ],
    });
  });

  it('summary.json groups the rules of one text under one key, and a matrix built from it is the same', () => {
    const grouped = groupReached(checks);
    assert.deepEqual(grouped, { 'ERR-60025': checks['ERR-60025'], 'ONE ONE:maskedpan': '0 json|STORE|||||||@0' });
    assert.deepEqual(groupReached(grouped), grouped, 'idempotent');
    assert.deepEqual(reachedByRule(grouped), checks);
    const again = buildMatrix(
      meta,
      RULES,
      scenarios.map((s) => ({ ...s, reached: groupReached(s.reached ?? {}) })),
    );
    assert.deepEqual(
      again.rules.map((r) => r.contexts),
      matrix.rules.map((r) => r.contexts),
    );
  });

  it('leaves the verdict alone: a rule checked in 1 of its 4 contexts passed, and the run is PASSED', () => {
    assert.equal(row('ERR-60025').overall.verdict, 'passed');
    assert.equal(buildSummary(meta, matrix, scenarios, [], []).result, 'passed');
  });

  it('shows the contexts in the Markdown and HTML matrix', () => {
    const md = matrixMarkdown(matrix);
    // ERR-60025 1 of 4, ONE 2 of 2; OLD has no scope and counts for nothing.
    const total = 'Contexts reached: 3 of the 6 contexts of the scopes of the 2 testable rules in scope (50.0%); 1 rule(s) checked in every context of their scope, 0 in none.';
    assert.equal(contextsTotalLine(matrix), total);
    assert.ok(md.includes(total));
    assert.ok(matrixHtml(matrix).includes(`<p>${total}</p>`));
    assert.match(md, /\| Overall \| Scenarios \| Contexts \|/);
    assert.match(md, /\| \[ERR-60025\][^\n]*\| 1 of 4 \|/);
    assert.match(md, /- Not reached: JSON ACCOUNTCHECK errorcode 60025; XML AUTH errorcode 60025; XML ACCOUNTCHECK errorcode 60025\./);
    const html = matrixHtml(matrix);
    assert.match(html, /<th>Contexts<\/th>/);
    assert.match(html, /<li class="unreached">Not reached: JSON ACCOUNTCHECK errorcode 60025;/);
  });
});
