/**
 * The census (src/selfcheck/census.ts): where each context mutant would change an answer, seen in one run against
 * the reference; the scenario that sent the request and every scenario that read its answer (the field boundary
 * examples of one row share one answer) are places of the mutant; a mutant that changes nothing is placed nowhere
 * and needs no run; a placed mutant runs only there, and is killed there.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { partOnly, takeCensus } from '../../src/selfcheck/census';
import { generatedNamed } from '../../src/selfcheck/mutants/operators';
import { runVariant } from '../../src/selfcheck/run-variant';
import { variantNamed } from '../../src/selfcheck/gallery';
import { verdictOf } from '../../src/selfcheck/verdict';

const named = (n: string) => {
  const v = generatedNamed(n);
  assert.ok(v, n);
  return v;
};

/** The place of the first line of a feature file matching `re` (the features are regenerated: no fixed lines). */
function placeOf(file: string, re: RegExp): string {
  const lines = fs.readFileSync(path.join(__dirname, '..', '..', file), 'utf8').split('\n');
  const i = lines.findIndex((l) => re.test(l));
  assert.ok(i >= 0, `${file}: ${re}`);
  return `${file}:${i + 1}`;
}

// An ordinary AUTH, and two examples of the boundary outline that read one shared AUTH answer: the first row
// (accounttypedescription) asks for it, the maskedpan row reads it.
const PLACES = [
  placeOf('features/auth.feature', /^\s*Scenario:/),
  placeOf('features/field-boundaries.feature', /^\s*\|\s*AUTH\s*\|\s*accounttypedescription\s*\|/),
  placeOf('features/field-boundaries.feature', /^\s*\|\s*AUTH\s*\|\s*maskedpan\s*\|/),
];

describe('the census of the context mutants', () => {
  it('places a mutant where it changes an answer or where that answer is read, its rule first; nowhere when it changes none', async () => {
    const masked = named('gen-misforms-auth-auth-maskedpan-in-xml');
    const never = named('gen-code-60107-as-0-in-combined');
    const census = await takeCensus([masked, never], PLACES);
    assert.deepEqual(census.failed, []);
    assert.deepEqual(census.problems, []);
    const focus = census.focus.get(masked.name);
    assert.ok(focus, 'placed');
    // In XML answers only; the row tagged with its rule (FIELD-MASKEDPAN:maskedpan) read the answer another
    // example asked for.
    assert.deepEqual(focus.json, []);
    assert.equal(focus.xml[0], PLACES[2]);
    assert.deepEqual([...focus.xml].sort(), [...PLACES].sort());
    assert.deepEqual(census.focus.get(never.name), { json: [], xml: [], tagged: { json: 0, xml: 0 } });

    const killed = await runVariant(masked, { fuzz: false, focus });
    const verdict = verdictOf(masked, killed);
    assert.equal(verdict.ok, true, verdict.note);
    // Killed by the first scenario runs, in the one format it changed.
    assert.ok(typeof killed.census === 'object' && killed.census.focused > 0 && killed.census.focused <= PLACES.length, JSON.stringify(killed.census));
    assert.ok(killed.scenarios.every((s) => s.format === 'xml'));
    assert.ok((killed.reached ?? 0) > 0);

    const unreached = await runVariant(never, { fuzz: false, focus: { json: [], xml: [] } });
    assert.equal(unreached.census, 'unreached');
    assert.equal(unreached.reached, 0);
    assert.match(verdictOf(never, unreached).note, /census run of the whole suite/);
  });

  it('speaks only for mutants whose whole change is a part hook', () => {
    assert.ok(partOnly(named('gen-code-0-as-99999-in-json')));
    assert.equal(partOnly(named('gen-takes-billingemail-email-local-part-field-email-localpart')), undefined);
    const fronted = variantNamed('credentials-not-required');
    assert.ok(fronted);
    assert.equal(partOnly(fronted), undefined);
  });
});
