/**
 * The generated gallery: hundreds of mutants derived from the dictionary and the tables, each with a rule the
 * catalogue knows (or the rule qualified by a field), each a real change; and, run on a few, a kill where the
 * document constrains the change and a survivor, explained, where it does not.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIELD } from '../../schemas/fields';
import { CONTEXTS, inCodeScope, restrict, typeContext } from '../../src/selfcheck/mutants/contexts';
import { contextGallery, generatedGallery, generatedNamed } from '../../src/selfcheck/mutants/operators';
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

describe('the context-restricted operators', () => {
  it('apply each answer mutant again in one context only, for every context of the list', () => {
    const restricted = contextGallery();
    assert.ok(restricted.length >= 300, `${restricted.length} mutants`);
    assert.ok(restricted.every((v) => v.context !== undefined));
    for (const c of CONTEXTS)
      assert.ok(
        restricted.some((v) => v.context === c.name),
        c.name,
      );
    for (const v of restricted) assert.equal(v.equivalent, undefined, `${v.name}: an equivalent mutant stays equivalent in any context`);
    assert.ok(generatedNamed('gen-code-0-as-30000-in-xml'), 'found by name in a worker');
  });

  it('change an answer in their context only, and count what they changed', () => {
    const base = generatedNamed('gen-code-0-as-30000')!;
    const xml = restrict(
      base,
      CONTEXTS.find((c) => c.name === 'xml')!,
    ).build();
    const part = { requesttypedescription: 'AUTH', errorcode: '0', errormessage: 'Ok' };
    assert.equal(xml.mutate!.part!(part, { format: 'json', requesttypes: ['AUTH'] }), part);
    assert.equal(xml.reached!(), 0);
    assert.equal(xml.mutate!.part!(part, { format: 'xml', requesttypes: ['AUTH'] })!.errorcode, '30000');
    assert.equal(xml.reached!(), 1);
  });

  it('split an error code of several request types by the type of the part, and no code of one type', () => {
    const names = new Set(contextGallery().map((v) => v.name));
    // "| `0` | any |": each request type with a scenario of its own for the code; "| `60025` | AUTH, ACCOUNTCHECK |".
    for (const t of ['auth', 'subscription', 'threedquery', 'accountcheck', 'store', 'riskdec']) assert.ok(names.has(`gen-code-0-as-99999-in-type-${t}`), t);
    assert.ok(names.has('gen-code-60025-as-0-in-type-accountcheck'));
    assert.ok(!names.has('gen-code-60025-as-0-in-type-store'), 'outside the row of 60025');
    // "| `30000` | THREEDQUERY |": one type, nothing to split.
    assert.ok(![...names].some((n) => n.startsWith('gen-code-30000-') && n.includes('-in-type-')));
    const store = restrict(generatedNamed('gen-code-0-as-99999')!, typeContext('STORE')).build();
    const auth = { requesttypedescription: 'AUTH', errorcode: '0', errormessage: 'Ok' };
    assert.equal(store.mutate!.part!(auth, { format: 'json', requesttypes: ['STORE', 'AUTH'] }), auth);
    assert.equal(store.mutate!.part!({ ...auth, requesttypedescription: 'STORE' }, { format: 'json', requesttypes: ['STORE'] })!.errorcode, '99999');
  });

  it('change an error code only where its row of the Errors table applies', () => {
    // "| `70000` | AUTH after 3-D Secure | ..." and its Request types rows: "1 AUTH part with `enrolled`".
    assert.equal(inCodeScope('70000', { requesttypedescription: 'AUTH', errorcode: '70000', enrolled: 'Y' }), true);
    assert.equal(inCodeScope('70000', { requesttypedescription: 'AUTH', errorcode: '70000' }), false);
    // "| `30000` | THREEDQUERY | Invalid field. |"
    assert.equal(inCodeScope('30000', { requesttypedescription: 'THREEDQUERY', errorcode: '30000' }), true);
    assert.equal(inCodeScope('30000', { requesttypedescription: 'AUTH', errorcode: '30000' }), false);
    assert.equal(inCodeScope('0', { requesttypedescription: 'STORE', errorcode: '0' }), true);
  });

  it('are killed where the suite checks the rule in that context, and listed apart where no exchange reaches it', async () => {
    const killed = generatedNamed('gen-code-0-as-30000-in-xml')!;
    // A mutant whose context no exchange has changes nothing the suite sees: told apart, never a gap nor a kill.
    const never = restrict(generatedNamed('gen-code-0-as-30000')!, { name: 'nowhere', what: 'in no answer', holds: () => false });
    const r = await runSelfcheck({ variants: [killed, never], workers: 1, fuzz: false });
    const score = scoreGenerated([killed, never], r.verdicts);
    assert.equal(score.killed, 1, scoreLines(score).join('\n'));
    assert.deepEqual(
      score.unreached.map((u) => u.name),
      [never.name],
    );
    assert.deepEqual(score.unexplained, []);
  });
});
