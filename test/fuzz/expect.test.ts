/**
 * What the fuzzer expects of an answer, case by case: valid, invalid (which fields may be named), refused, or left
 * open where the document says "not shown".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expectFor, type ExpectContext } from '../../src/fuzz/expect';
import { TEST_CARDS } from '../../src/testdata';

const CARD = TEST_CARDS.authorised;
const PARENT = '12-9-1001';
const CTX: ExpectContext = {
  alias: 'me',
  site: 'test_site12345',
  currency: 'GBP',
  cards: [CARD],
  cachetokens: ['tok-1'],
  parents: new Map([
    [
      PARENT,
      { requesttypedescriptions: ['AUTH'], sitereference: 'test_site12345', accounttypedescription: 'ECOM', currencyiso3a: 'GBP', baseamount: '1050', pan: CARD.pan, expirydate: CARD.expirydate },
    ],
  ]),
};
const AUTH = {
  requesttypedescriptions: ['AUTH'],
  sitereference: 'test_site12345',
  accounttypedescription: 'ECOM',
  currencyiso3a: 'GBP',
  baseamount: '1050',
  pan: CARD.pan,
  expirydate: CARD.expirydate,
};

const of = (request: Record<string, unknown>, env: Record<string, unknown> = {}) => expectFor({ alias: 'me', version: '1.00', request: [request], ...env }, CTX);
const kind = (request: Record<string, unknown>, env?: Record<string, unknown>): string => of(request, env).expectation.kind;
const fields = (request: Record<string, unknown>): readonly string[] => {
  const e = of(request).expectation;
  assert.ok(e.kind === 'invalid' || e.kind === 'refused', JSON.stringify(e));
  return e.fields;
};

describe('expectations', () => {
  it('a request of its row, in the context, is valid and expects one part per type', () => {
    assert.equal(kind(AUTH), 'valid');
    assert.deepEqual(of(AUTH).parts, ['AUTH']);
    assert.equal(kind({ ...AUTH, requesttypedescriptions: ['ACCOUNTCHECK'], baseamount: '0' }), 'valid');
  });

  it('a field against the dictionary is invalid, and names that field', () => {
    assert.deepEqual(fields({ ...AUTH, baseamount: 1050 }), ['baseamount']);
    assert.equal((of({ ...AUTH, baseamount: 1050 }).expectation as { rule: string }).rule, 'FIELD-STRINGS');
    assert.deepEqual(fields({ ...AUTH, baseamount: '1'.repeat(14) }), ['baseamount']);
    assert.deepEqual(fields({ ...AUTH, currencyiso3a: 'GB1' }), ['currencyiso3a']);
    assert.deepEqual(fields({ ...AUTH, baseamount: '0' }), ['baseamount']);
    assert.deepEqual(fields({ ...AUTH, accounttypedescription: 'CARDSTORE' }), ['accounttypedescription']);
  });

  it('a required field left out is invalid; with a parent that has it, it is inherited', () => {
    const { currencyiso3a: _c, ...noCurrency } = AUTH;
    assert.ok(fields(noCurrency).includes('currencyiso3a'));
    const { pan: _p, expirydate: _e, ...child } = noCurrency;
    assert.equal(kind({ ...child, parenttransactionreference: PARENT }), 'valid');
    const { pan: _q, ...halfCard } = AUTH;
    assert.ok(fields(halfCard).includes('pan'));
    assert.equal(kind({ ...halfCard, parenttransactionreference: PARENT }), 'open');
  });

  it('a row whose fields are "only" those it names leaves none of them to the parent', () => {
    // "`sitereference`, `parenttransactionreference` only": the AUTH after a THREEDQUERY sends its site itself, as
    // the gateway and validate read it (src/wire/reading.ts `requiredStanding`), though the parent holds one.
    const only = { requesttypedescriptions: ['AUTH'], sitereference: 'test_site12345', parenttransactionreference: PARENT };
    assert.equal(kind(only), 'valid');
    const { sitereference: _s, ...noSite } = only;
    assert.ok(fields(noSite).includes('sitereference'));
    assert.equal((of(noSite).expectation as { rule: string }).rule, '3DS-AUTH-NOT-ENROLLED');
  });

  it('request types the document does not name, or SUBSCRIPTION out of place, are refused', () => {
    assert.deepEqual(fields({ ...AUTH, requesttypedescriptions: ['AUTH', 'FOO'] }), ['requesttypedescriptions', 'FOO']);
    assert.equal(kind({ ...AUTH, requesttypedescriptions: ['SUBSCRIPTION', 'AUTH'] }), 'refused');
    assert.equal(kind({ ...AUTH, requesttypedescriptions: [] }), 'invalid');
    assert.equal(kind({ ...AUTH, requesttypedescriptions: 'AUTH' }), 'invalid');
  });

  it('what the document leaves open stays open', () => {
    assert.equal(kind({ ...AUTH, requesttypedescriptions: ['STORE', 'AUTH'] }), 'open');
    assert.equal(kind({ ...AUTH, baseamount: '1'.repeat(10) }), 'open');
    assert.equal(kind({ ...AUTH, parenttransactionreference: '99-9-9999' }), 'open');
    assert.equal(kind({ ...AUTH, sitereference: 'test_other' }), 'open');
    assert.equal(kind({ ...AUTH, libraryversion: 'x' }), 'open');
    assert.equal(
      kind({
        requesttypedescriptions: ['STORE'],
        sitereference: 'test_site12345',
        orderreference: 'o',
        accounttypedescription: 'CARDSTORE',
        pan: CARD.pan,
        expirydate: CARD.expirydate,
        securitycode: '123',
      }),
      'open',
    );
    assert.equal(kind({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: {} }), 'open');
    assert.equal(kind(AUTH, { version: '2.00' }), 'open');
    assert.equal(kind(AUTH, { alias: 'someone' }), 'open');
    assert.equal(expectFor({ alias: 'me', version: '1.00', request: [AUTH, AUTH] }, CTX).expectation.kind, 'open');
    assert.equal(of(AUTH, { version: '2.00' }).parts, undefined);
  });

  it('empty and null values are not sent', () => {
    assert.equal(kind({ ...AUTH, billingtown: '' }), 'valid');
    assert.equal(kind({ ...AUTH, billingtown: null }), 'valid');
    assert.ok(fields({ ...AUTH, currencyiso3a: '' }).includes('currencyiso3a'));
  });
});
