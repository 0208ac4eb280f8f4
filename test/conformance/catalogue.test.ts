/**
 * The rule catalogue against the document, and the features against the catalogue: every quote is the document's
 * own words, every "not shown" point is listed as unspecified, every testable rule has a scenario, every tag names
 * something that exists, every error code of the Errors table has its scenario, and every step has one definition.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Pickle } from '@cucumber/messages';
import { FIELD, REQUEST_TYPES } from '../../schemas/fields';
import { CAPABILITIES, CARD_ROLES } from '../../src/client/profile';
import { loadCatalogue, readCatalogue } from '../../src/rules/catalogue';
import { DIMENSION_VALUES, scopeContexts } from '../../src/rules/scope';
import { documentPath, dryRun, headingPaths, loadRules, normalise, type Rule } from './catalogue';

const GROUPS = ['ENV', 'TRANSPORT', 'AUTH', '3DS', 'ACS', 'SUB', 'AC', 'STORE', 'RISKDEC', 'INHERIT', 'ERR', 'SEC', 'XML', 'VER', 'LIMIT', 'FIELD'];

const doc = fs.readFileSync(documentPath(), 'utf8');
const rules: Rule[] = loadRules();
const byId = new Map(rules.map((r) => [r.id, r]));
/** The catalogue rule of a tag: `FIELD-LENGTHS:billingemail` is FIELD-LENGTHS, qualified by a field the dictionary has. */
const baseRule = (id: string): string => {
  const i = id.indexOf(':');
  if (i < 0) return id;
  assert.ok(FIELD[id.slice(i + 1)], `@rule:${id} is qualified by ${id.slice(i + 1)}, which is no field of the dictionary`);
  return id.slice(0, i);
};
const tagsOf = (p: Pickle, prefix: string): string[] =>
  p.tags
    .map((t) => t.name)
    .filter((t) => t.startsWith(prefix))
    .map((t) => t.slice(prefix.length));

describe('the rule catalogue (features/rules.yaml)', () => {
  it('has unique, stable, grouped IDs and a known status, with a reason wherever a rule is not testable', () => {
    const seen = new Set<string>();
    for (const r of rules) {
      assert.match(r.id, new RegExp(`^(${GROUPS.join('|')})-[A-Z0-9]+(-[A-Z0-9]+)*$`), `rule id ${r.id}`);
      assert.ok(!seen.has(r.id), `rule id ${r.id} appears twice`);
      seen.add(r.id);
      assert.ok(['testable', 'untestable', 'unspecified'].includes(r.status), `${r.id}: status ${r.status}`);
      if (r.status !== 'testable') assert.ok(r.why && r.why.length > 20, `${r.id} is ${r.status} without a reason (why)`);
    }
  });

  it("quotes the document's own words, under a heading the document has", () => {
    const text = normalise(doc);
    const headings = headingPaths(doc);
    for (const r of rules) {
      assert.ok(text.includes(normalise(r.quote)), `${r.id}: the quote is not in the document: ${r.quote}`);
      assert.ok(headings.includes(r.section), `${r.id}: no section "${r.section}" in the document`);
    }
  });

  it('states where every testable rule applies (its scope), in known dimensions and values', () => {
    const catalogue = loadCatalogue();
    assert.deepEqual(catalogue.problems, []);
    const missing = catalogue.rules.filter((r) => r.status === 'testable' && !r.scope).map((r) => r.id);
    assert.deepEqual(missing, [], 'testable rules without a scope');
    for (const r of catalogue.rules.filter((x) => x.scope)) {
      const contexts = scopeContexts(r.scope!, r.formats ?? ['json', 'xml']);
      assert.ok(contexts.length > 0 && contexts.length <= 64, `${r.id}: ${contexts.length} contexts (a scope names the situations its sentence does)`);
    }
  });

  it('refuses a scope with an unknown dimension or value, naming the rule', () => {
    const read = (scope: unknown) => readCatalogue([{ id: 'X-ONE', section: 's', quote: 'q', status: 'testable', scope }], 'rules.yaml');
    const dim = read({ typez: ['AUTH'] });
    assert.equal(dim.rules[0].scope, undefined);
    assert.match(dim.problems.join('\n'), /X-ONE.*unknown dimension "typez"/);
    assert.match(read({ types: ['AUTHX'] }).problems.join('\n'), /X-ONE.*types: unknown value "AUTHX"/);
    assert.match(read({ outcomes: ['12345'] }).problems.join('\n'), /X-ONE.*outcomes: unknown value "12345"/);
    assert.match(read('everywhere').problems.join('\n'), /X-ONE.*scope must be a mapping/);
    assert.match(read({ formats: ['xml'] }).problems.join('\n'), /X-ONE.*own `formats` key/);
    const ok = read([{ types: 'all', outcomes: [0, 'failed'] }, { lengths: 'all' }]);
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.rules[0].scope, [{ types: DIMENSION_VALUES.types.all, outcomes: ['0', 'failed'] }, { lengths: DIMENSION_VALUES.lengths.all }]);
    // Each entry's dimensions multiply; entries add up: 6 x 2 + 8 contexts per format.
    assert.equal(scopeContexts(ok.rules[0].scope!, ['json']).length, 20);
  });

  it('lists every "not shown" point of the document as unspecified', () => {
    const unspecified = rules.filter((r) => r.status === 'unspecified').map((r) => normalise(r.quote));
    const lines = doc.split('\n').filter((l) => /not shown/.test(l));
    assert.ok(lines.length >= 10, 'the document has its "not shown" points');
    for (const line of lines) {
      const l = normalise(line);
      assert.ok(
        unspecified.some((q) => l.includes(q) && /not shown/.test(q)),
        `no unspecified rule quotes the "not shown" point: ${line.trim()}`,
      );
    }
  });
});

describe('the features against the catalogue', () => {
  let pickles: Pickle[] = [];
  let problems: string[] = [];
  before(async () => {
    ({ pickles, problems } = await dryRun());
  });

  it('has one step definition for every step', () => {
    assert.ok(pickles.length > 100, `the dry run found ${pickles.length} scenarios`);
    assert.deepEqual(problems, []);
  });

  it('has a scenario tagged @rule:<ID> for every testable rule', () => {
    // A tag qualified by a field (`@rule:FIELD-LENGTHS:billingemail`, the boundary phase) checks its rule.
    const tagged = new Set(pickles.flatMap((p) => tagsOf(p, '@rule:')).map(baseRule));
    const missing = rules.filter((r) => r.status === 'testable' && !tagged.has(r.id)).map((r) => r.id);
    assert.deepEqual(missing, [], 'testable rules without a scenario');
  });

  it('tags every scenario with at least one rule, each known and testable', () => {
    for (const p of pickles) {
      const ids = tagsOf(p, '@rule:');
      assert.ok(ids.length > 0, `${p.uri}: "${p.name}" has no @rule tag`);
      for (const id of ids) {
        const rule = byId.get(baseRule(id));
        assert.ok(rule, `${p.uri}: "${p.name}" names an unknown rule ${id}`);
        assert.equal(rule.status, 'testable', `${p.uri}: "${p.name}" is tagged with ${id}, which is ${rule.status}`);
      }
    }
  });

  it('has a scenario tagged @errorcode:<N> and @rule:ERR-<N> for every code of the Errors table', () => {
    const errorsSection = doc.slice(doc.indexOf('## Errors'), doc.indexOf('## Limits'));
    const codes = [...errorsSection.matchAll(/^\| `([0-9]+)` \|/gm)].map((m) => m[1]);
    assert.ok(codes.length >= 8, `the Errors table has ${codes.length} codes`);
    for (const code of codes) {
      const scenarios = pickles.filter((p) => tagsOf(p, '@errorcode:').includes(code));
      assert.ok(scenarios.length > 0, `no scenario tagged @errorcode:${code}`);
      assert.ok(
        scenarios.some((p) => tagsOf(p, '@rule:').includes(`ERR-${code}`)),
        `no scenario tagged @errorcode:${code} also carries @rule:ERR-${code}`,
      );
    }
  });

  it('names only known capabilities, card roles, request types and formats in its tags', () => {
    for (const p of pickles) {
      for (const r of tagsOf(p, '@requires:')) {
        const known = r === 'security' || r in CAPABILITIES || (r.startsWith('card:') && r.slice(5) in CARD_ROLES);
        assert.ok(known, `${p.uri}: "${p.name}" requires an unknown "${r}"`);
      }
      for (const t of tagsOf(p, '@type:')) assert.ok((REQUEST_TYPES as readonly string[]).includes(t), `${p.uri}: unknown @type:${t}`);
      for (const f of tagsOf(p, '@format:')) assert.ok(f === 'json' || f === 'xml', `${p.uri}: unknown @format:${f}`);
    }
  });
});
