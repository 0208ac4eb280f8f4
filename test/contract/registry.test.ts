/**
 * The check registry traces to the document: every check quotes the document's own words, every rule it, a flow or
 * a client case names is in the rule catalogue (features/rules.yaml) or proposed in src/rules/contract.ts with the
 * document's words, every row of the Request types table has its rule, and nothing the document leaves unspecified
 * can fail a client.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { OPERATIONS } from '../../schemas/operations';
import { CHECKS, FLOWS, PROPOSED_RULES, ROW_RULES } from '../../src/contract';
import { CLIENT_CASES } from '../../src/cases';
import { loadCatalogue } from '../../src/rules/catalogue';
import { documentPath, normalise } from '../conformance/catalogue';

const ROOT = path.join(__dirname, '..', '..');

/** The interface document, found as the catalogue test finds it (docs/spec/, kept equal to the shared original). */
function documentText(): string {
  return fs.readFileSync(documentPath(), 'utf8');
}

describe('the check registry', () => {
  const doc = normalise(documentText());
  const catalogue = new Map(loadCatalogue().rules.map((r) => [r.id, r]));

  it('quotes the document verbatim in every check and every proposed rule', () => {
    for (const check of CHECKS) assert.ok(doc.includes(normalise(check.quote)), `${check.name}: "${check.quote}" is not in the document`);
    for (const rule of PROPOSED_RULES) assert.ok(doc.includes(normalise(rule.quote)), `${rule.id}: "${rule.quote}" is not in the document`);
  });

  it('names only rules of the catalogue or proposed ones, and proposes none the catalogue already has', () => {
    const proposed = new Set(PROPOSED_RULES.map((r) => r.id));
    for (const r of PROPOSED_RULES) assert.ok(!catalogue.has(r.id), `${r.id} is in features/rules.yaml now: remove it from PROPOSED_RULES`);
    const named = [
      ...CHECKS.flatMap((c) => c.rules.map((rule) => ({ rule, by: `check ${c.name}` }))),
      ...Object.entries(ROW_RULES).map(([row, r]) => ({ rule: r.rule, by: `row ${row}` })),
      ...FLOWS.flatMap((f) => f.rules.map((rule) => ({ rule, by: `flow ${f.id}` }))),
      ...CLIENT_CASES.flatMap((c) => c.rules.map((rule) => ({ rule, by: `case ${c.id}` }))),
    ];
    for (const { rule, by } of named) assert.ok(catalogue.has(rule) || proposed.has(rule), `${by} names ${rule}, which is neither in features/rules.yaml nor proposed`);
  });

  it('has a rule for every row of the Request types table, and no error on what the document does not show', () => {
    assert.deepEqual(Object.keys(ROW_RULES).sort(), OPERATIONS.map((o) => o.id).sort());
    for (const [row, r] of Object.entries(ROW_RULES)) {
      if (catalogue.get(r.rule)?.status === 'unspecified') assert.equal(r.severity, 'warning', `row ${row}: ${r.rule} is unspecified, so its findings are warnings`);
    }
    for (const c of CLIENT_CASES) {
      const unspecified = c.rules.every((rule) => catalogue.get(rule)?.status === 'unspecified');
      if (unspecified) assert.equal(c.severity, 'warning', `case ${c.id} rests only on unspecified rules`);
    }
  });

  it('is documented: docs/contract.md names every check, row, flow and client case', () => {
    const docs = fs.readFileSync(path.join(ROOT, 'docs', 'contract.md'), 'utf8');
    const names = [
      ...CHECKS.filter((c) => !c.name.startsWith('fields-of-')).map((c) => c.name),
      ...OPERATIONS.map((o) => o.id),
      ...FLOWS.map((f) => f.id),
      ...CLIENT_CASES.map((c) => c.id),
      ...PROPOSED_RULES.map((r) => r.id),
    ];
    for (const name of names) assert.ok(docs.includes(`\`${name}\``), `docs/contract.md does not name \`${name}\``);
  });

  it('has unique names', () => {
    const names = CHECKS.map((c) => c.name);
    assert.equal(new Set(names).size, names.length);
    assert.equal(new Set(FLOWS.map((f) => f.id)).size, FLOWS.length);
    assert.equal(new Set(CLIENT_CASES.map((c) => c.id)).size, CLIENT_CASES.length);
  });
});
