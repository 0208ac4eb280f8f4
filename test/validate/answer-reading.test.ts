/**
 * One reading of an answer (principle 3): an empty string or null is a value not returned, in JSON as in XML (where
 * an empty element is dropped), as it is "not sent" in a request; a required field returned empty fails where its
 * absence fails. A code of the Errors table spelt otherwise (`00000` for `0`) is one finding, on its row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENVELOPE_FIELDS, fieldsFor } from '../../schemas/fields';
import { causeFindings, rulesForViolation } from '../../src/rules/attribution';
import { validateResponseEnvelope, validateText, type Violation } from '../../src/validate';
import { readAnswer } from '../../src/wire/reading';
import { buildResponseBlock } from '../../src/wire/xml';
import { example } from '../schemas/fixtures';

type Obj = Record<string, unknown>;
const envelope = (...parts: Obj[]): Obj => ({ requestreference: 'A0bc1de2', version: '1.00', secrand: 'Zx8Qw3Er5Ty7Ui9O', response: parts });
const typesOf = (env: Obj): string[] => (env.response as Obj[]).map((p) => String(p.requesttypedescription));
const errors = (vs: readonly Violation[]): string[] => vs.filter((v) => v.severity === 'error').map((v) => `${v.field} ${v.rule}`);
const json = (env: Obj): string[] => errors(validateText(JSON.stringify(env), { requested: typesOf(env) }).violations);
const xml = (env: Obj): string[] => errors(validateText(buildResponseBlock(env), { requested: typesOf(env) }).violations);

/** Every response field of the dictionary the part does not carry, as `empty`. */
function filled(part: Obj, empty: '' | null): Obj {
  const out: Obj = { ...part };
  for (const d of fieldsFor('response')) if (!ENVELOPE_FIELDS.has(d.name) && out[d.name] === undefined) out[d.name] = empty;
  return out;
}

const notEnrolled = (): Obj => {
  const p: Obj = { ...example('responses', 'THREEDQUERY'), enrolled: 'N' };
  delete p.acsurl;
  delete p.md;
  delete p.pareq;
  return p;
};

test('readAnswer: empty strings and null dropped at every depth, list places kept, nothing copied when nothing is unset', () => {
  const answer = { a: '', b: null, c: 'x', list: ['', null, { d: '', e: 'y' }], nested: { f: null, g: { h: '' } } };
  assert.deepEqual(readAnswer(answer), { c: 'x', list: ['', null, { e: 'y' }], nested: { g: {} } });
  const clean = { a: 'x', list: [{ b: 'y' }] };
  assert.equal(readAnswer(clean), clean);
});

test('every field the reference leaves out, written "" or null: the answer passes in JSON, as its XML form does', () => {
  for (const base of [notEnrolled(), example('responses', 'AUTH'), example('responses', 'STORE'), example('responses', 'ACCOUNTCHECK'), example('responses', 'RISKDEC')]) {
    for (const empty of ['', null] as const) {
      const env = envelope(filled(base, empty));
      assert.deepEqual(json(env), [], `${String(base.requesttypedescription)} with ${JSON.stringify(empty)}`);
      assert.deepEqual(validateResponseEnvelope(env, typesOf(env)), []);
    }
    assert.deepEqual(xml(envelope(filled(base, ''))), []);
  }
});

test('a field a sentence requires, returned "": the same finding as the field left out, in JSON and XML alike, on its rule', () => {
  const enrolled = example('responses', 'THREEDQUERY');
  const empty = envelope({ ...enrolled, md: '' });
  const left = { ...enrolled };
  delete left.md;
  assert.deepEqual(json(empty), ['response[0].md required']);
  assert.deepEqual(json(empty), json(envelope(left)));
  assert.deepEqual(xml(empty), json(empty));
  const [v] = validateResponseEnvelope(empty, ['THREEDQUERY']);
  // The scenario of an enrolled card's THREEDQUERY: the rule that says md is returned for enrolled cards, alone.
  assert.deepEqual(rulesForViolation(v, undefined, { partType: 'THREEDQUERY', requestedType: 'THREEDQUERY', tags: ['3DS-QUERY-RESPONSE', '3DS-ENROLMENT-CHECK'] }), ['3DS-QUERY-RESPONSE']);
});

test('a successful part with "errorcode": "" or null has no errorcode ("Every response part has errorcode")', () => {
  for (const code of ['', null]) {
    const vs = validateResponseEnvelope(envelope({ ...example('responses', 'AUTH'), errorcode: code }), ['AUTH']);
    assert.deepEqual(errors(vs), ['response[0].errorcode required']);
    assert.deepEqual(rulesForViolation(vs[0]), ['ERR-PART-FIELDS']);
  }
});

test('the success code spelt otherwise (00000, " 0", "0.0", "+0") is one finding, on ERR-0 alone, whatever scenario met it', () => {
  for (const code of ['00000', ' 0', '0 ', '0.0', '+0', '00']) {
    const vs = validateResponseEnvelope(envelope({ ...example('responses', 'AUTH'), errorcode: code }), ['AUTH']);
    assert.deepEqual(errors(vs), ['response[0].errorcode code-spelling'], JSON.stringify(code));
    const ctx = { partType: 'AUTH', requestedType: 'AUTH', tags: ['AUTH-AUTHORISE', 'AUTH-BANK-CONTACTED', 'FIELD-ECHO'], value: code };
    assert.deepEqual(rulesForViolation(vs[0], undefined, ctx), ['ERR-0'], JSON.stringify(code));
    assert.deepEqual(rulesForViolation(vs[0]), ['ERR-0']);
  }
  // Another row of the table, spelt otherwise: that row.
  const declined = validateResponseEnvelope(envelope({ requesttypedescription: 'AUTH', errorcode: '070000', errormessage: 'Decline' }), ['AUTH']);
  assert.deepEqual(errors(declined), ['response[0].errorcode code-spelling']);
  assert.deepEqual(rulesForViolation(declined[0], undefined, { value: '070000' }), ['ERR-70000']);
  // The codes as the table writes them, and codes it does not list ("Other codes exist"), are no finding.
  for (const code of ['0', '70000', '70001', '00001', '1']) {
    const vs = validateResponseEnvelope(envelope({ requesttypedescription: 'AUTH', errorcode: code, errormessage: code === '0' ? 'Ok' : 'Decline' }), ['AUTH']);
    assert.deepEqual(
      errors(vs).filter((e) => e.endsWith('code-spelling')),
      [],
      code,
    );
  }
  // A number is not a string, and only that (FIELD-STRINGS): not also a misspelt code.
  assert.deepEqual(errors(validateResponseEnvelope(envelope({ ...example('responses', 'AUTH'), errorcode: 0 }), ['AUTH'])), ['response[0].errorcode all-values-strings']);
});

test('a value outside its list ("Y " for status, "recur" for RECUR): validate reports each fact, the cause is the list alone', () => {
  const status = validateResponseEnvelope(envelope({ ...example('responses', 'AUTH'), status: 'Y ' }), ['AUTH']);
  assert.deepEqual(errors(status), ['response[0].status enum', 'response[0].status maxLength', 'response[0].status pattern']);
  assert.deepEqual(errors(causeFindings(status)), ['response[0].status enum']);
  assert.deepEqual(rulesForViolation(causeFindings(status)[0]), ['3DS-STATUS']);
  const sub = validateResponseEnvelope(envelope({ ...example('responses', 'SUBSCRIPTION'), accounttypedescription: 'recur' }), ['SUBSCRIPTION']);
  assert.deepEqual(errors(causeFindings(sub)), ['response[0].accounttypedescription fixed']);
  // A value of the wrong form with no list keeps its findings (a longer timestamp is too long and misformed).
  const plain = validateResponseEnvelope(envelope({ ...example('responses', 'AUTH'), transactionstartedtimestamp: '2026-01-05T09:00:00Z' }), ['AUTH']);
  assert.deepEqual(causeFindings(plain), plain);
});
