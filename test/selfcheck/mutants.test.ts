/**
 * The generated gallery: hundreds of mutants derived from the dictionary and the tables, each with a rule the
 * catalogue knows (or the rule qualified by a field), each a real change; and, run on a few, a kill where the
 * document constrains the change and a survivor, explained, where it does not.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIELD } from '../../schemas/fields';
import { generatedGallery, generatedNamed } from '../../src/selfcheck/mutants/operators';
import { scoreGenerated, scoreLines } from '../../src/selfcheck/mutants/score';
import { variantNamed } from '../../src/selfcheck/gallery';
import { runSelfcheck } from '../../src/selfcheck/runner';
import { loadRules } from '../conformance/catalogue';

const gallery = generatedGallery();
const rules = new Map(loadRules().map((r) => [r.id, r]));

describe('the generated gallery', () => {
  it('derives hundreds of mutants from every operator, each named once and found by name in a worker', () => {
    assert.ok(gallery.length >= 300, `${gallery.length} variants`);
    const names = gallery.map((v) => v.name);
    assert.deepEqual(
      names.filter((n, i) => names.indexOf(n) !== i),
      [],
    );
    for (const n of names) assert.match(n, /^gen-[a-z0-9]+(?:-[a-z0-9]+)*$/, n);
    for (const op of ['request-constraint', 'response-dropped', 'response-format', 'transition', 'error-code'])
      assert.ok(
        gallery.some((v) => v.operator === op),
        op,
      );
    assert.equal(variantNamed(gallery[0].name), generatedNamed(gallery[0].name));
  });

  it('names a testable rule of the catalogue for each mutant, qualified only by a field of the dictionary', () => {
    for (const v of gallery) {
      const [base, field] = v.rule.split(':');
      assert.equal(rules.get(base)?.status, 'testable', `${v.name}: ${v.rule}`);
      if (field !== undefined) assert.ok(FIELD[field], `${v.name}: ${field}`);
      if (v.equivalent !== undefined) assert.ok(v.equivalent.length > 30, `${v.name}: a reason`);
      const b = v.build();
      assert.ok(b.mutate && Object.keys(b.mutate).length > 0, `${v.name} changes nothing`);
    }
  });

  it('kills a mutant the document constrains and lets an equivalent one survive, with its reason', async () => {
    const picked = ['gen-takes-billingemail-email-local-part-field-email-localpart', 'gen-code-60025-as-0', 'gen-misforms-auth-auth-settleduedate'];
    const equivalent = gallery.find((v) => v.equivalent && v.operator === 'response-dropped' && v.name.includes('-auth-auth-'))!;
    const variants = [...picked.map((n) => generatedNamed(n)!), equivalent];
    const r = await runSelfcheck({ variants, workers: 1, fuzz: false });
    const score = scoreGenerated(variants, r.verdicts);
    assert.equal(score.killed, 3, scoreLines(score).join('\n'));
    assert.deepEqual(
      score.equivalent.map((e) => e.name),
      [equivalent.name],
    );
    assert.match(scoreLines(score).join('\n'), /Equivalent survivors \(1\)/);
  });
});
