/**
 * The validation API: which row a request object is, the rules that are not one field's own (fixed values,
 * forbidden fields, card sources, amounts above zero, recommended fields, parts in order), severities, and the
 * field, rule and section each violation names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ECHOES, SECTION } from '../../schemas/fields';
import {
  echoViolations,
  mustEcho,
  selectRow,
  validateAgainstRow,
  validateRequestEnvelope,
  validateRequestObject,
  validateResponseEnvelope,
  validateResponsePart,
  withAnswersHeld,
  type Violation,
} from '../../src/validate';
import { OPERATION } from '../../schemas/operations';
import { parentFacts } from '../../src/wire/reading';
import { example } from '../schemas/fixtures';

type Obj = Record<string, unknown>;
const req = (row: string, change: Obj = {}, drop: string[] = []): Obj => {
  const o: Obj = { ...example('requests', row), ...change };
  for (const f of drop) delete o[f];
  return o;
};
const part = (type: string, change: Obj = {}, drop: string[] = []): Obj => {
  const o: Obj = { ...example('responses', type), ...change };
  for (const f of drop) delete o[f];
  return o;
};
const summary = (vs: readonly Violation[]): string[] => vs.map((v) => `${v.severity} ${v.field} ${v.rule}`);
const errors = (vs: readonly Violation[]): Violation[] => vs.filter((v) => v.severity === 'error');
const SECTIONS = new Set<string>(Object.values(SECTION));

test('selectRow: AUTH by its fields (md/pares, parent only, otherwise the ordinary AUTH)', () => {
  assert.equal(selectRow({ requesttypedescriptions: ['AUTH'], md: 'x', pares: 'y' })?.id, 'auth-3ds-enrolled');
  assert.equal(selectRow({ requesttypedescriptions: ['AUTH'], pares: 'y' })?.id, 'auth-3ds-enrolled');
  assert.equal(selectRow({ requesttypedescriptions: ['AUTH'], sitereference: 's', parenttransactionreference: '1-2-3', requestreference: 'A1' })?.id, 'auth-3ds-not-enrolled');
  assert.equal(selectRow({ requesttypedescriptions: ['AUTH'], sitereference: 's', parenttransactionreference: '1-2-3', baseamount: '100' })?.id, 'auth');
  assert.equal(selectRow({ requesttypedescriptions: ['AUTH'], cachetoken: 'c' })?.id, 'auth');
  assert.equal(selectRow({ requesttypedescriptions: ['AUTH'] })?.id, 'auth');
});

test('selectRow: the subscription variants, RISKDEC by card, combinations, and nothing for unknown types', () => {
  const sub = (o: Obj) => selectRow({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...o })?.id;
  assert.equal(sub({ md: 'm', pares: 'p' }), 'subscription-enrolled');
  assert.equal(sub({ parenttransactionreference: '1-2-3' }), 'subscription-not-enrolled');
  assert.equal(sub({ pan: '4111111111111111', expirydate: '12/2031' }), 'subscription-no-3ds');
  assert.equal(sub({}), 'subscription-no-3ds');
  assert.equal(selectRow({ requesttypedescriptions: ['RISKDEC'], pan: '4111111111111111' })?.id, 'riskdec-card');
  assert.equal(selectRow({ requesttypedescriptions: ['RISKDEC'], parenttransactionreference: '1-2-3' })?.id, 'riskdec-after-payment');
  assert.equal(selectRow({ requesttypedescriptions: ['RISKDEC', 'AUTH'] })?.id, 'riskdec-then-auth');
  assert.equal(selectRow({ requesttypedescriptions: ['AUTH', 'RISKDEC'] })?.id, 'auth-then-riskdec');
  assert.equal(selectRow({ requesttypedescriptions: ['STORE'] })?.id, 'store');
  assert.equal(selectRow({ requesttypedescriptions: ['REFUND'] }), undefined);
  assert.equal(selectRow({ requesttypedescriptions: 'AUTH' }), undefined);
  assert.equal(selectRow({}), undefined);
});

test('THREEDQUERY without useragent: one warning ("Strongly recommended"), no error', () => {
  const vs = validateRequestObject(req('threedquery', {}, ['useragent']));
  assert.deepEqual(summary(vs), ['warning useragent recommended']);
  assert.match(vs[0].message, /Strongly recommended/);
});

test('THREEDQUERY is ECOM only; STORE is CARDSTORE; RISKDEC is FRAUDCONTROL (fixed values of the rows)', () => {
  assert.deepEqual(summary(validateRequestObject(req('threedquery', { accounttypedescription: 'MOTO' }))), ['error accounttypedescription fixed']);
  assert.deepEqual(summary(validateRequestObject(req('store', { accounttypedescription: 'ECOM' }))), ['error accounttypedescription fixed']);
  assert.deepEqual(summary(validateRequestObject(req('riskdec-card', { accounttypedescription: 'ECOM' }))), ['error accounttypedescription fixed']);
  assert.deepEqual(validateRequestObject(req('auth', { accounttypedescription: 'MOTO' })), []);
  // A value outside the dictionary's list is also outside the row's.
  assert.deepEqual(summary(validateRequestObject(req('auth', { accounttypedescription: 'RECUR' }))), ['error accounttypedescription enum', 'error accounttypedescription fixed']);
});

test('securitycode must not be sent in STORE', () => {
  const vs = validateRequestObject(req('store', { securitycode: '123' }));
  assert.deepEqual(summary(vs), ['error securitycode forbidden']);
  assert.equal(vs[0].section, SECTION.common);
  assert.match(vs[0].message, /Must not be sent in STORE/);
});

test('the card must come from somewhere: pan + expirydate, cachetoken or parenttransactionreference', () => {
  const vs = validateRequestObject(req('auth', {}, ['pan', 'expirydate']));
  assert.deepEqual(summary(vs), ['error pan+expirydate|cachetoken|parenttransactionreference card-source']);
  assert.match(vs[0].message, /pan \+ expirydate, or cachetoken, or parenttransactionreference/);
  assert.deepEqual(summary(validateRequestObject(req('threedquery', {}, ['cachetoken']))), ['error cachetoken|parenttransactionreference card-source']);
  assert.deepEqual(validateRequestObject(req('auth', { cachetoken: 'c-1' }, ['pan', 'expirydate'])), []);
});

test('the AUTH rows after 3-D Secure send their fields "only": the card, a response field or another value than the parent\'s is an error', () => {
  const row = OPERATION['auth-3ds-enrolled'];
  const enrolled = req('auth-3ds-enrolled');
  assert.deepEqual(validateAgainstRow(enrolled, row), []);
  assert.deepEqual(summary(validateAgainstRow({ ...enrolled, securitycode: '123' }, row)), ['error securitycode not-in-row']);
  assert.deepEqual(summary(validateAgainstRow({ ...enrolled, pareq: 'eJxVUk1v' }, row)), ['error pareq not-in-row']);
  // Another amount than the THREEDQUERY's: "all other data is inherited from the THREEDQUERY".
  const query = parentFacts('THREEDQUERY', { baseamount: '1050', currencyiso3a: 'GBP' });
  assert.deepEqual(summary(validateAgainstRow({ ...enrolled, baseamount: '999' }, row, '', query)), ['error baseamount not-in-row']);
  // The same value again, a field the parent lacked (rule 4), or a parent not seen: a warning.
  assert.deepEqual(summary(validateAgainstRow({ ...enrolled, baseamount: '1050' }, row, '', query)), ['warning baseamount not-in-row']);
  assert.deepEqual(summary(validateAgainstRow({ ...enrolled, orderreference: 'o-1' }, row, '', query)), ['warning orderreference not-in-row']);
  assert.deepEqual(summary(validateAgainstRow({ ...enrolled, baseamount: '999' }, row)), ['warning baseamount not-in-row']);
  // The SDKs' extras and fields of no table are not this finding's.
  assert.deepEqual(validateAgainstRow({ ...enrolled, requestreference: 'A1', customfield: 'x' }, row), []);
  const notEnrolled = OPERATION['auth-3ds-not-enrolled'];
  assert.deepEqual(validateAgainstRow(req('auth-3ds-not-enrolled'), notEnrolled), []);
  assert.deepEqual(summary(validateAgainstRow({ ...req('auth-3ds-not-enrolled'), expirydate: '12/2031' }, notEnrolled)), ['error expirydate not-in-row']);
});

test('baseamount must be greater than zero, except in ACCOUNTCHECK', () => {
  for (const amount of ['0', '000']) {
    assert.deepEqual(summary(validateRequestObject(req('auth', { baseamount: amount }))), ['error baseamount amount-above-zero']);
    assert.deepEqual(summary(validateRequestObject(req('threedquery', { baseamount: amount }))), ['error baseamount amount-above-zero']);
    assert.deepEqual(validateRequestObject(req('accountcheck', { baseamount: amount })), []);
  }
  assert.deepEqual(validateRequestObject(req('auth', { baseamount: '0100' })), []);
  // The new baseamount of an update is a baseamount: where it sits is the public shape, its value the document's.
  assert.deepEqual(summary(validateRequestObject(req('transactionupdate', { updates: { baseamount: '0' } }))), ['error updates.baseamount amount-above-zero']);
});

test('billingpostcode is validated only for US, GB and CA; its length always', () => {
  assert.deepEqual(validateRequestObject(req('store', { billingcountryiso2a: 'FR', billingpostcode: '75001#' })), []);
  assert.deepEqual(validateRequestObject(req('store', { billingpostcode: '75001#' }, ['billingcountryiso2a'])), []);
  assert.deepEqual(summary(validateRequestObject(req('store', { billingcountryiso2a: 'GB', billingpostcode: 'TE45#6ST' }))), ['error billingpostcode pattern']);
  assert.deepEqual(summary(validateRequestObject(req('store', { billingcountryiso2a: 'FR', billingpostcode: '1'.repeat(26) }))), ['error billingpostcode maxLength']);
});

test('billingemail: at most 64 characters before the @', () => {
  assert.deepEqual(validateRequestObject(req('auth', { billingemail: `${'a'.repeat(64)}@example.test` })), []);
  assert.deepEqual(summary(validateRequestObject(req('auth', { billingemail: `${'a'.repeat(65)}@example.test` }))), ['error billingemail pattern']);
});

test('a field sent as a JSON number is reported under "All values ... are strings"', () => {
  const vs = validateRequestObject(req('auth', { baseamount: 1050 }));
  assert.deepEqual(summary(vs), ['error baseamount all-values-strings']);
  assert.match(vs[0].message, /All values in JSON requests and responses are strings/);
  assert.equal(vs[0].section, SECTION.common);
});

test('the envelope: one request object per call, version 1.00, alias; extra fields allowed', () => {
  const obj = example('requests', 'auth');
  const env = (o: Obj) => ({ alias: 'webservices@example.test', version: '1.00', request: [obj], ...o });
  assert.deepEqual(validateRequestEnvelope(env({ libraryversion: 'php_2.0.0' })), []);
  assert.deepEqual(summary(validateRequestEnvelope(env({ request: [obj, obj] }))), ['error request one-request-object']);
  assert.deepEqual(summary(validateRequestEnvelope(env({ request: [] }))), ['error request one-request-object']);
  assert.deepEqual(summary(validateRequestEnvelope(env({ version: '1.01' }))), ['error version enum']);
  assert.deepEqual(summary(validateRequestEnvelope(env({ request: obj }))), ['error request type']);
  const { alias: _a, ...noAlias } = env({});
  assert.deepEqual(summary(validateRequestEnvelope(noAlias)), ['error alias required']);
  assert.deepEqual(summary(validateRequestEnvelope([env({})])), ['error  type']);
  // Inside the envelope, a request object's findings carry their place.
  assert.deepEqual(summary(validateRequestEnvelope(env({ request: [{ ...obj, baseamount: 1050 }] }))), ['error request[0].baseamount all-values-strings']);
  assert.deepEqual(summary(validateRequestEnvelope(env({ request: ['AUTH'] }))), ['error request[0] type']);
});

test('request types: unknown is an error, SUBSCRIPTION alone is an error, a combination without a row is an error (as the gateway refuses it)', () => {
  assert.deepEqual(summary(validateRequestObject({ requesttypedescriptions: ['REFUND'] })), ['error requesttypedescriptions request-type']);
  assert.deepEqual(summary(validateRequestObject({ requesttypedescriptions: [] })), ['error requesttypedescriptions request-type']);
  assert.deepEqual(summary(validateRequestObject({ requesttypedescriptions: ['SUBSCRIPTION', 'AUTH'] })), ['error requesttypedescriptions request-type']);
  const combo = validateRequestObject({ requesttypedescriptions: ['THREEDQUERY', 'AUTH'], baseamount: 1050 });
  assert.deepEqual(summary(combo), ['error baseamount all-values-strings', 'error requesttypedescriptions no-row']);
  assert.deepEqual(summary(validateRequestObject({ sitereference: 's' })), ['error requesttypedescriptions required']);
  assert.deepEqual(summary(validateRequestObject({ requesttypedescriptions: ['AUTH', 7] })), ['error requesttypedescriptions[1] all-values-strings']);
});

test("the follow-ups' public shape (filter, updates) gives warnings only: it is not the document's; a field of the document in updates is held to its type", () => {
  const vs = validateRequestObject(req('transactionquery', {}, ['filter']));
  assert.deepEqual(summary(vs), ['warning filter required']);
  assert.deepEqual(summary(validateRequestObject(req('transactionquery', { filter: { transactionreference: [{}] } }))), ['warning filter.transactionreference[0].value required']);
  assert.deepEqual(summary(validateRequestObject(req('transactionupdate', { updates: {} }))), ['warning updates minProperties']);
  assert.deepEqual(summary(validateRequestObject(req('transactionupdate', { updates: 'baseamount=2000' }))), ['warning updates type']);
  assert.deepEqual(summary(validateRequestObject(req('transactionupdate', { updates: { baseamount: 2000 } }))), ['error updates.baseamount all-values-strings']);
  assert.deepEqual(summary(validateRequestObject(req('transactionupdate', { updates: { baseamount: '20.00' } }))), ['error updates.baseamount pattern']);
});

test('response parts: errorcode and errormessage always, "Ok" on success, the shape\'s fields on success only', () => {
  assert.deepEqual(summary(validateResponsePart(part('AUTH', {}, ['errorcode']))), ['error errorcode required']);
  assert.deepEqual(summary(validateResponsePart(part('AUTH', { errorcode: 0 }))), ['error errorcode all-values-strings']);
  assert.deepEqual(summary(validateResponsePart(part('AUTH', { errormessage: 'OK' }))), ['error errormessage ok-message']);
  assert.deepEqual(summary(validateResponsePart(part('STORE', {}, ['maskedpan']))), ['error maskedpan required']);
  // A failed part need not carry what a successful one does.
  assert.deepEqual(validateResponsePart({ requesttypedescription: 'STORE', errorcode: '30000', errormessage: 'Invalid field' }), []);
  assert.deepEqual(summary(validateResponsePart(part('STORE', { transactionactive: '2' }))), ['error transactionactive fixed']);
  assert.deepEqual(summary(validateResponsePart(part('SUBSCRIPTION', { accounttypedescription: 'ECOM' }))), ['error accounttypedescription fixed']);
});

test('THREEDQUERY parts: acsurl, md and pareq for enrolled cards only', () => {
  assert.deepEqual(summary(validateResponsePart(part('THREEDQUERY', {}, ['acsurl']))), ['error acsurl required']);
  assert.deepEqual(validateResponsePart(part('THREEDQUERY', { enrolled: 'N' }, ['acsurl', 'md', 'pareq'])), []);
  assert.deepEqual(summary(validateResponsePart(part('THREEDQUERY', { enrolled: 'X' }))), ['error enrolled enum']);
});

test('maskedpan must look masked, and the message never repeats the card number', () => {
  const vs = validateResponsePart(part('STORE', { maskedpan: '4111111111111111' }));
  assert.deepEqual(summary(vs), ['error maskedpan masked']);
  assert.ok(!JSON.stringify(vs).includes('4111111111111111'));
});

test('a part of an unknown request type gets the common checks and a warning', () => {
  const vs = validateResponsePart({ requesttypedescription: 'ERROR', errorcode: '10205', errormessage: 'Malformed' });
  assert.deepEqual(summary(vs), ['warning requesttypedescription request-type']);
  assert.deepEqual(summary(validateResponsePart({ errorcode: '0', errormessage: 'Bad' })), ['error errormessage ok-message', 'warning requesttypedescription request-type']);
});

test('response envelope: one part per requested type, in the requested order', () => {
  const env = example('envelopes', 'subscription.response');
  const [auth, sub] = env.response as Obj[];
  assert.deepEqual(validateResponseEnvelope(env, ['AUTH', 'SUBSCRIPTION']), []);
  assert.deepEqual(validateResponseEnvelope(env), []);
  assert.deepEqual(summary(validateResponseEnvelope({ ...env, response: [sub, auth] }, ['AUTH', 'SUBSCRIPTION'])), [
    'error response[0].requesttypedescription part-order',
    'error response[1].requesttypedescription part-order',
  ]);
  assert.deepEqual(summary(validateResponseEnvelope({ ...env, response: [auth] }, ['AUTH', 'SUBSCRIPTION'])), ['error response one-part-per-type']);
  assert.deepEqual(summary(validateResponseEnvelope({ ...env, response: [] }, [])), ['error response one-part-per-type']);
  // A part that does not name its type is checked as the type requested at its place.
  const { transactionreference: _t, requesttypedescription: _r, ...bare } = sub;
  assert.deepEqual(summary(validateResponseEnvelope({ ...env, response: [auth, bare] }, ['AUTH', 'SUBSCRIPTION'])), ['error response[1].transactionreference required']);
  const { secrand: _s, ...noSecrand } = env;
  assert.deepEqual(summary(validateResponseEnvelope(noSecrand)), ['error secrand required']);
  assert.deepEqual(summary(validateResponseEnvelope({ ...env, version: '3.67' })), ['error version enum']);
  // Mapped from an XML block: no secrand in XML, and the block's version is checked as a structure problem.
  assert.deepEqual(validateResponseEnvelope({ ...noSecrand, version: '3.66' }, ['AUTH', 'SUBSCRIPTION'], 'xml'), []);
  assert.deepEqual(summary(validateRequestEnvelope({ alias: 'a', version: '3.66', request: [example('requests', 'auth')] }, 'xml')), []);
  assert.deepEqual(summary(validateRequestEnvelope({ version: '1.00', request: [example('requests', 'auth')] }, 'xml')), ['error alias required']);
});

test('every violation names a field, a known rule, a section of the document and a message', () => {
  const all = [
    ...validateRequestObject({ requesttypedescriptions: ['STORE'], securitycode: 123, pan: '1', billingtelephone: 'abc', baseamount: '0' }),
    ...validateRequestEnvelope({ version: '2', request: [{}, {}] }),
    ...validateResponseEnvelope({ response: [{ errorcode: '0', requesttypedescription: 'AUTH', maskedpan: '1234567890123' }] }, ['RISKDEC', 'AUTH']),
  ];
  assert.ok(all.length >= 10);
  for (const v of all) {
    assert.ok(SECTIONS.has(v.section), `${v.field} ${v.rule}: section ${v.section}`);
    assert.match(v.rule, /^[a-z][A-Za-z-]*$/);
    assert.ok(v.message.length > 10);
    assert.ok(v.severity === 'error' || v.severity === 'warning');
  }
  assert.ok(errors(all).length > 0);
});

test('echoViolations held: the same answer asked again gives its findings, another request object its own', () => {
  // The checking proxy asks it twice per exchange (the contract gate's invariant, its own check): held once, by the
  // answer and the request object together.
  const answer = { requestreference: 'W1', version: '1.00', secrand: 'abc', response: [{ requesttypedescription: 'ACCOUNTCHECK', errorcode: '0', baseamount: '0', orderreference: 'o-1' }] };
  const same = { requesttypedescriptions: ['ACCOUNTCHECK'], baseamount: '0', orderreference: 'o-1' };
  const other = { requesttypedescriptions: ['ACCOUNTCHECK'], baseamount: '5', orderreference: 'o-2' };
  withAnswersHeld(() => {
    assert.deepEqual(echoViolations(same, answer), []);
    assert.deepEqual(summary(echoViolations(other, answer)), ['error response[0].baseamount echo', 'error response[0].orderreference echo']);
    const first = echoViolations(other, answer);
    first.length = 0;
    assert.equal(echoViolations(other, answer).length, 2, 'a caller changing its list changes nothing held');
    assert.deepEqual(echoViolations(same, answer), []);
  });
});

test('echoViolations: a successful part carries the echoed fields as the request sent them ("Echoed from the request")', () => {
  const sent = { requesttypedescriptions: ['ACCOUNTCHECK'], baseamount: '0', currencyiso3a: 'GBP', orderreference: 'o-1', accounttypedescription: 'ECOM' };
  const env = (...parts: Obj[]): Obj => ({ requestreference: 'W1', version: '1.00', secrand: 'abc', response: parts });
  const ok = { requesttypedescription: 'ACCOUNTCHECK', errorcode: '0', baseamount: '0', currencyiso3a: 'GBP', orderreference: 'o-1', accounttypedescription: 'ECOM' };
  assert.deepEqual(echoViolations(sent, env(ok)), []);
  const moved = echoViolations(sent, env({ ...ok, baseamount: '100', currencyiso3a: 'USD' }));
  assert.deepEqual(summary(moved), ['error response[0].baseamount echo', 'error response[0].currencyiso3a echo']);
  assert.ok(
    moved.every((v) => !v.message.includes('100') && !v.message.includes('USD')),
    'a message never quotes the value',
  );
  // Not the echo's business: a field left out that the part's type is not shown giving back (orderreference is the
  // STORE's), a failed part, a field the request did not send (inherited).
  assert.deepEqual(echoViolations(sent, env({ ...ok, orderreference: undefined })), []);
  assert.deepEqual(echoViolations(sent, env({ ...ok, errorcode: '70000', baseamount: '100' })), []);
  assert.deepEqual(echoViolations({ requesttypedescriptions: ['AUTH'], parenttransactionreference: '1-2-3' }, env({ ...ok, requesttypedescription: 'AUTH', baseamount: '100' })), []);
  // Values the document fixes for the part, or that the part's own type does not take: SUBSCRIPTION carries RECUR,
  // and the one ECOM of RISKDEC+AUTH is the AUTH's (RISKDEC takes FRAUDCONTROL).
  const combined = { requesttypedescriptions: ['RISKDEC', 'AUTH'], accounttypedescription: 'ECOM', baseamount: '1050' };
  assert.deepEqual(
    echoViolations(
      combined,
      env(
        { requesttypedescription: 'RISKDEC', errorcode: '0', accounttypedescription: 'FRAUDCONTROL', baseamount: '1050' },
        { requesttypedescription: 'AUTH', errorcode: '0', accounttypedescription: 'ECOM', baseamount: '1050' },
      ),
    ),
    [],
  );
  assert.deepEqual(
    summary(
      echoViolations(
        combined,
        env({ requesttypedescription: 'RISKDEC', errorcode: '0', baseamount: '1' }, { requesttypedescription: 'AUTH', errorcode: '0', accounttypedescription: 'MOTO', baseamount: '1050' }),
      ),
    ),
    ['error response[0].baseamount echo', 'error response[1].accounttypedescription echo'],
  );
  assert.deepEqual(
    echoViolations(
      { requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], accounttypedescription: 'ECOM' },
      env({ requesttypedescription: 'SUBSCRIPTION', errorcode: '0', accounttypedescription: 'RECUR' }),
    ),
    [],
  );
});

test("echoViolations: a part whose type gives an echo back carries it when the request sent it (the dictionary's ECHOES)", () => {
  const env = (...parts: Obj[]): Obj => ({ requestreference: 'W1', version: '1.00', secrand: 'abc', response: parts });
  const sub = { requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], accounttypedescription: 'ECOM', currencyiso3a: 'GBP', baseamount: '1050', orderreference: 'o-1', credentialsonfile: '1' };
  const auth = { requesttypedescription: 'AUTH', errorcode: '0', accounttypedescription: 'ECOM', currencyiso3a: 'GBP', baseamount: '1050', credentialsonfile: '1' };
  const recur = { requesttypedescription: 'SUBSCRIPTION', errorcode: '0', accounttypedescription: 'RECUR', currencyiso3a: 'GBP', baseamount: '1050', credentialsonfile: '1' };
  assert.deepEqual(echoViolations(sub, env(auth, recur)), []);
  const left = env({ ...auth, credentialsonfile: undefined }, { ...recur, credentialsonfile: undefined, currencyiso3a: undefined });
  assert.deepEqual(summary(echoViolations(sub, left)), ['error response[0].credentialsonfile echo', 'error response[1].currencyiso3a echo', 'error response[1].credentialsonfile echo']);
  // In XML the document places credentialsonfile nowhere: left out there, it is not held against the target.
  assert.deepEqual(summary(echoViolations(sub, left, 'xml')), ['error response[1].currencyiso3a echo']);
  // Not sent, nothing to give back; a failed part is not held to it.
  const { credentialsonfile: _c, ...without } = sub;
  assert.deepEqual(echoViolations(without, env({ ...auth, credentialsonfile: undefined }, { ...recur, credentialsonfile: undefined })), []);
  assert.deepEqual(echoViolations(sub, env({ ...auth, errorcode: '70000', credentialsonfile: undefined }, { ...recur, errorcode: '70000', credentialsonfile: undefined })), []);
  // A risk decision and a 3-D Secure query give back the amount, currency and account type; the STORE the order reference.
  const rd = { requesttypedescriptions: ['RISKDEC'], accounttypedescription: 'FRAUDCONTROL', currencyiso3a: 'GBP', baseamount: '1050', orderreference: 'o-1' };
  assert.deepEqual(summary(echoViolations(rd, env({ requesttypedescription: 'RISKDEC', errorcode: '0', currencyiso3a: 'GBP' }))), [
    'error response[0].baseamount echo',
    'error response[0].accounttypedescription echo',
  ]);
  // A field the part's own sentence requires ("The STORE response holds ... `orderreference`", "the amount in the
  // SUBSCRIPTION part") is missing under that sentence, the schema's, not again as an echo: one fault, one cause.
  const store = { requesttypedescriptions: ['STORE'], accounttypedescription: 'CARDSTORE', orderreference: 'o-1' };
  const stored = env({ requesttypedescription: 'STORE', errorcode: '0', accounttypedescription: 'CARDSTORE' });
  assert.deepEqual(echoViolations(store, stored), []);
  assert.ok(validateResponseEnvelope(stored, ['STORE']).some((v) => v.field === 'response[0].orderreference' && v.rule === 'required'));
  assert.deepEqual(echoViolations(sub, env(auth, { ...recur, baseamount: undefined })), []);
  assert.equal(mustEcho('THREEDQUERY', 'baseamount'), true);
  assert.equal(mustEcho('AUTH', 'orderreference'), false);
  assert.equal(mustEcho('AUTH', 'credentialsonfile', 'xml'), false);
  assert.deepEqual(Object.keys(ECHOES), ['baseamount', 'currencyiso3a', 'orderreference', 'accounttypedescription', 'credentialsonfile'], "the sentence's fields, in its order");
});

test("echoViolations: the document's example answers pass against the example requests they answer", () => {
  // The subscription example answers a request that sent orderreference and carries it in neither part; the risk
  // decision after a payment likewise: a target answering as the document shows is never failed.
  for (const row of ['subscription-no-3ds', 'subscription-not-enrolled', 'subscription-enrolled'])
    assert.deepEqual(echoViolations(example('requests', row), example('envelopes', 'subscription.response')), [], row);
  const env = (type: string): Obj => ({ requestreference: 'W1', version: '1.00', secrand: 'abc', response: [example('responses', type)] });
  assert.deepEqual(echoViolations(example('requests', 'riskdec-after-payment'), env('RISKDEC')), []);
  assert.deepEqual(echoViolations(example('requests', 'threedquery'), env('THREEDQUERY')), []);
  assert.deepEqual(echoViolations(example('requests', 'accountcheck'), env('ACCOUNTCHECK')), []);
  assert.deepEqual(echoViolations(example('requests', 'store'), env('STORE')), []);
});

test('a value that is not a string breaks "All values ... are strings" alone, not its value list, pattern or length', () => {
  const vs = errors(validateResponsePart(part('AUTH', { securityresponseaddress: 2, errorcode: 0 }) as never));
  assert.deepEqual(summary(vs.filter((v) => /securityresponseaddress|errorcode/.test(v.field))), ['error errorcode all-values-strings', 'error securityresponseaddress all-values-strings']);
});
