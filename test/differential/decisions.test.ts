/**
 * Decisions of src/wire/reading.ts the differential property found, held request by request: subscription
 * values (documented rules are errors everywhere; the gateway's documented choices where the document says "not
 * shown" are refused by the gateway and only warned about by validate and the contract), and a cache token as the
 * card of a row that lists `pan` (docs/gateway.md, the request check 5).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SUBSCRIPTION_CHOICE_FIELDS } from '../../src/wire/reading';
import { context } from './property';
import { readAll, readers, USER } from './readers';

const r = readers();
const ctx = context(r);
const TOKEN = ctx.cachetokens?.[0] ?? '';
const BASE = { sitereference: ctx.site, accounttypedescription: 'ECOM', currencyiso3a: 'GBP', baseamount: '1050', orderreference: 'decision-1' };
const SUB = { subscriptiontype: 'RECURRING', subscriptionunit: 'MONTH', subscriptionfrequency: '1', subscriptionnumber: '1', subscriptionfinalnumber: '12', subscriptionbegindate: '2026-02-05' };

function read(request: Record<string, unknown>, format: 'json' | 'xml' = 'json') {
  const text = JSON.stringify({ alias: USER.alias, version: '1.00', request: [request] });
  return readAll(r, format, text, request.requesttypedescriptions as string[]);
}

test('subscription values: number below 1 and a date that is not a calendar date are errors in all three readers', () => {
  const a = read({
    requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'],
    ...BASE,
    pan: ctx.cards[0].pan,
    expirydate: ctx.cards[0].expirydate,
    ...SUB,
    subscriptionnumber: '0',
    subscriptionbegindate: '2026-02-30',
  });
  assert.deepEqual(a.codes, ['30000', '30000']);
  assert.deepEqual([...a.gateway].sort(), ['subscriptionbegindate', 'subscriptionnumber']);
  assert.deepEqual([...a.validate].sort(), ['subscriptionbegindate', 'subscriptionnumber']);
  assert.deepEqual([...a.contract].sort(), ['subscriptionbegindate', 'subscriptionnumber']);
  assert.ok(a.findings.some((f) => f.rule === 'SUB-NUMBER-START' && f.severity === 'error'));
  assert.ok(a.findings.some((f) => f.rule === 'SUB-BEGINDATE' && f.severity === 'error'));
});

test('subscription values the document does not show: the gateway refuses them, validate and the contract warn and say why', () => {
  const a = read({
    requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'],
    ...BASE,
    pan: ctx.cards[0].pan,
    expirydate: ctx.cards[0].expirydate,
    ...SUB,
    subscriptiontype: 'WEEKLY',
    subscriptionunit: 'YEAR',
    subscriptionfrequency: '0',
  });
  assert.deepEqual(a.codes, ['30000', '30000']);
  assert.deepEqual([...a.gateway].sort(), [...SUBSCRIPTION_CHOICE_FIELDS].sort());
  assert.deepEqual([...a.validate], []);
  assert.deepEqual([...a.contract], []);
  for (const field of SUBSCRIPTION_CHOICE_FIELDS) {
    const v = a.violations.find((x) => x.field === `request[0].${field}`);
    assert.equal(v?.severity, 'warning', field);
    assert.match(v?.message ?? '', /reference gateway/);
    assert.equal(a.findings.find((f) => f.field === `request[0].${field}`)?.severity, 'warning', field);
  }
  assert.ok(!a.findings.some((f) => f.severity === 'error'));
});

test("the examples' values and the gateway's own (INSTALLMENT, DAY) pass all three readers", () => {
  for (const [subscriptiontype, subscriptionunit] of [
    ['RECURRING', 'MONTH'],
    ['INSTALLMENT', 'DAY'],
  ]) {
    const a = read({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...BASE, pan: ctx.cards[0].pan, expirydate: ctx.cards[0].expirydate, ...SUB, subscriptiontype, subscriptionunit });
    assert.deepEqual(a.codes, ['0', '0']);
    assert.deepEqual([...a.validate, ...a.contract], []);
  }
});

test('a cache token is the card of "Risk decision on card data" and "Subscription without 3-D Secure" in all three readers', () => {
  const rows = [
    { requesttypedescriptions: ['RISKDEC'], ...BASE, accounttypedescription: 'FRAUDCONTROL', cachetoken: TOKEN },
    { requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...BASE, cachetoken: TOKEN, ...SUB },
  ];
  for (const request of rows) {
    const a = read(request);
    assert.ok(
      a.codes.every((c) => c === '0'),
      JSON.stringify(a.codes),
    );
    assert.deepEqual([...a.validate], []);
    assert.deepEqual([...a.contract], []);
  }
});

test('an amount of 0 a parent ACCOUNTCHECK passes on: refused where the row needs an amount, in all three readers', () => {
  const check = read({ requesttypedescriptions: ['ACCOUNTCHECK'], ...BASE, baseamount: '0', pan: ctx.cards[0].pan, expirydate: ctx.cards[0].expirydate });
  assert.deepEqual(check.codes, ['0']);
  const parent = String((check.answer.response as Record<string, unknown>[])[0].transactionreference);
  const { baseamount: _, ...noAmount } = BASE;
  const auth = read({ requesttypedescriptions: ['AUTH'], ...noAmount, parenttransactionreference: parent });
  assert.deepEqual(auth.codes, ['30000']);
  assert.deepEqual([...auth.gateway], ['baseamount']);
  assert.deepEqual([...auth.validate], ['baseamount']);
  assert.deepEqual([...auth.contract], ['baseamount']);
  assert.ok(auth.findings.some((f) => f.rule === 'FIELD-BASEAMOUNT-POSITIVE' && f.severity === 'error'));
  // A STORE needs no amount: what it inherits is not checked by any of the three.
  const store = read({ requesttypedescriptions: ['STORE'], sitereference: ctx.site, accounttypedescription: 'CARDSTORE', parenttransactionreference: parent });
  assert.deepEqual(store.codes, ['0']);
  assert.deepEqual([...store.validate, ...store.contract], []);
});

test('"`sitereference`, `parenttransactionreference` only": the AUTH after a THREEDQUERY of a card not enrolled sends both, in all three readers', () => {
  const parent = ctx.parents?.['THREEDQUERY-N']?.[0] ?? '';
  const bare = read({ requesttypedescriptions: ['AUTH'], parenttransactionreference: parent });
  assert.deepEqual(bare.codes, ['30000']);
  assert.deepEqual([...bare.gateway], ['sitereference']);
  assert.deepEqual([...bare.validate], ['sitereference']);
  assert.deepEqual([...bare.contract], ['sitereference']);
  assert.ok(bare.findings.some((f) => f.rule === '3DS-AUTH-NOT-ENROLLED' && f.severity === 'error' && f.field === 'request[0].sitereference'));
  // Another row's required field a parent holds is still inherited (rule 4): a RISKDEC after the payment.
  const riskdec = read({
    requesttypedescriptions: ['RISKDEC'],
    accounttypedescription: 'FRAUDCONTROL',
    currencyiso3a: 'GBP',
    baseamount: '1050',
    orderreference: 'decision-rd',
    parenttransactionreference: ctx.parents?.AUTH?.[0] ?? '',
  });
  assert.deepEqual(riskdec.codes, ['0']);
  assert.deepEqual([...riskdec.gateway, ...riskdec.validate, ...riskdec.contract], []);
  const sent = read({ requesttypedescriptions: ['AUTH'], sitereference: ctx.site, parenttransactionreference: parent });
  assert.deepEqual(sent.codes, ['0']);
  assert.deepEqual([...sent.validate, ...sent.contract], []);
});
