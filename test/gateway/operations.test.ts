/**
 * Each row of the document's "Request types" table, sent as the document shows it, gets the documented answer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, PAYMENT, SITE, SUBSCRIPTION_FIELDS, threedquery, useGateway } from './helpers';

const client = useGateway();

describe('Request types, row by row', () => {
  it('3-D Secure enrolment check: 1 part with enrolled, xid, and for enrolled cards acsurl, md, pareq', async () => {
    const p = await client.ok(threedquery(await client.token('authorised')));
    assert.equal(p.requesttypedescription, 'THREEDQUERY');
    assert.equal(p.enrolled, 'Y');
    for (const f of ['transactionreference', 'xid', 'acsurl', 'md', 'pareq']) assert.equal(typeof p[f], 'string', f);
    assert.equal(p.acsurl, `${client.url}/acs/`);
    assert.match(String(p.transactionreference), /^[0-9]+-[0-9]+-[0-9]+$/);
    assert.equal(p.maskedpan, '411111######1111');
  });

  it('AUTH after 3-D Secure, enrolled card: md and pares only, 1 AUTH part with enrolled, xid, status, cavv, eci', async () => {
    const { query, auth } = await client.threeDsAuth('authorised');
    assert.equal(auth.requesttypedescription, 'AUTH');
    assert.equal(auth.errorcode, '0');
    assert.equal(auth.errormessage, 'Ok');
    assert.equal(auth.enrolled, 'Y');
    assert.equal(auth.xid, query.xid);
    assert.equal(auth.status, 'Y');
    assert.equal(typeof auth.cavv, 'string');
    assert.equal(auth.eci, '05');
    // "all other data is inherited from the THREEDQUERY"
    assert.equal(auth.baseamount, '1050');
    assert.equal(auth.currencyiso3a, 'GBP');
    assert.equal(auth.parenttransactionreference, query.transactionreference);
    assert.notEqual(auth.transactionreference, query.transactionreference);
  });

  it('AUTH after 3-D Secure, card not enrolled: sitereference and parenttransactionreference only, 1 AUTH part with enrolled', async () => {
    const query = await client.ok(threedquery(await client.token('notEnrolled')));
    assert.equal(query.enrolled, 'N');
    assert.equal(query.acsurl, undefined);
    assert.equal(query.md, undefined);
    const auth = await client.ok({ requesttypedescriptions: ['AUTH'], sitereference: SITE, parenttransactionreference: query.transactionreference });
    assert.equal(auth.enrolled, 'N');
    assert.equal(auth.parenttransactionreference, query.transactionreference);
    assert.equal(auth.baseamount, '1050');
    assert.equal(auth.status, undefined);
  });

  it('AUTH after 3-D Secure, enrolment unknown (U): the same THREEDQUERY may be resubmitted, then AUTH with the parent', async () => {
    const token = await client.token('enrolmentUnknown');
    const q1 = await client.ok(threedquery(token));
    const q2 = await client.ok(threedquery(token));
    assert.equal(q1.enrolled, 'U');
    assert.equal(q2.enrolled, 'U');
    const auth = await client.ok({ requesttypedescriptions: ['AUTH'], sitereference: SITE, parenttransactionreference: q2.transactionreference });
    assert.equal(auth.enrolled, 'U');
  });

  const subscriptionRequest = { requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, orderreference: 'sub-1', ...SUBSCRIPTION_FIELDS };

  it('Subscription, enrolled card: 2 parts, AUTH then SUBSCRIPTION, each with its own reference', async () => {
    const query = await client.ok(threedquery(await client.token('authorised')));
    const { pares, md } = await client.acs(query);
    const r = await client.send({ ...subscriptionRequest, md, pares });
    const [a, s] = r.json.response;
    assert.deepEqual(
      r.json.response.map((p) => p.requesttypedescription),
      ['AUTH', 'SUBSCRIPTION'],
    );
    assert.equal(a.errorcode, '0');
    assert.equal(a.status, 'Y');
    assert.equal(s.errorcode, '0');
    assert.notEqual(a.transactionreference, s.transactionreference);
    assert.equal(s.accounttypedescription, 'RECUR');
    assert.equal(s.transactionactive, '2');
    assert.equal(s.baseamount, '1050');
    assert.equal(s.subscriptionbegindate, '2026-02-05');
  });

  it('Subscription, card not enrolled: parenttransactionreference in place of md and pares', async () => {
    const query = await client.ok(threedquery(await client.token('notEnrolled')));
    const r = await client.send({ ...subscriptionRequest, parenttransactionreference: query.transactionreference });
    assert.deepEqual(
      r.json.response.map((p) => [p.requesttypedescription, p.errorcode]),
      [
        ['AUTH', '0'],
        ['SUBSCRIPTION', '0'],
      ],
    );
  });

  it('Subscription without 3-D Secure: pan, expirydate, securitycode', async () => {
    const r = await client.send({ ...subscriptionRequest, ...card('authorised') });
    const [a, s] = r.json.response;
    assert.equal(a.errorcode, '0');
    assert.equal(a.credentialsonfile, '1');
    assert.equal(s.errorcode, '0');
    assert.equal(s.subscriptionunit, 'MONTH');
    assert.equal(s.subscriptionfinalnumber, '12');
  });

  it('Account check: the fields of AUTH, baseamount 0, 1 part shaped as an AUTH part with requesttypedescription ACCOUNTCHECK', async () => {
    const p = await client.ok({
      requesttypedescriptions: ['ACCOUNTCHECK'],
      ...PAYMENT,
      baseamount: '0',
      billingpremise: '789',
      billingpostcode: 'TE45 6ST',
      ...card('authorised'),
    });
    assert.equal(p.requesttypedescription, 'ACCOUNTCHECK');
    assert.equal(p.baseamount, '0');
    assert.equal(p.securityresponseaddress, '2');
    assert.equal(p.securityresponsepostcode, '2');
    assert.equal(p.securityresponsesecuritycode, '2');
    assert.equal(typeof p.authcode, 'string');
    assert.equal(p.maskedpan, '411111######1111');
  });

  it('Card store: 1 STORE part with the fields the document lists', async () => {
    const p = await client.ok({
      requesttypedescriptions: ['STORE'],
      sitereference: SITE,
      orderreference: 'store-1',
      ...card('authorised', false),
      accounttypedescription: 'CARDSTORE',
      billingprefix: 'Mr',
      billingfirstname: 'Ann',
      billinglastname: 'Smith',
    });
    const listed = [
      'transactionreference',
      'transactionactive',
      'requesttypedescription',
      'orderreference',
      'accounttypedescription',
      'maskedpan',
      'paymenttypedescription',
      'issuer',
      'issuercountryiso2a',
      'merchantname',
      'operatorname',
      'livestatus',
      'transactionstartedtimestamp',
      'errorcode',
      'errormessage',
    ];
    assert.deepEqual(Object.keys(p).sort(), [...listed].sort());
    assert.equal(p.transactionactive, '1');
    assert.equal(p.accounttypedescription, 'CARDSTORE');
  });

  it('Risk decision on card data: 1 RISKDEC part with a shield status', async () => {
    const p = await client.ok({ requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 'rd-1', ...card('authorised') });
    assert.equal(p.requesttypedescription, 'RISKDEC');
    assert.equal(p.fraudcontrolshieldstatuscode, 'ACCEPT');
    assert.equal(p.acquirerrecommendedaction, 'C');
    assert.equal(typeof p.fraudcontrolreference, 'string');
    assert.match(String(p.fraudcontrolresponsecode), /^[0-9]{1,4}$/);
  });

  it('Risk decision after a payment: 1 RISKDEC part carrying parenttransactionreference', async () => {
    const auth = await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'rd-2', ...card('authorised') });
    const p = await client.ok({
      requesttypedescriptions: ['RISKDEC'],
      sitereference: SITE,
      accounttypedescription: 'FRAUDCONTROL',
      currencyiso3a: 'GBP',
      baseamount: '1050',
      orderreference: 'rd-2',
      parenttransactionreference: auth.transactionreference,
    });
    assert.equal(p.parenttransactionreference, auth.transactionreference);
    assert.equal(p.fraudcontrolshieldstatuscode, 'ACCEPT');
    assert.equal(p.maskedpan, '411111######1111');
  });

  it('Combined, risk decision first: RISKDEC then AUTH; the AUTH part’s parent is the RISKDEC', async () => {
    const r = await client.send({ requesttypedescriptions: ['RISKDEC', 'AUTH'], ...PAYMENT, cachetoken: await client.token('authorised') });
    const [rd, a] = r.json.response;
    assert.deepEqual([rd.requesttypedescription, a.requesttypedescription], ['RISKDEC', 'AUTH']);
    assert.equal(a.parenttransactionreference, rd.transactionreference);
    assert.equal(a.settlestatus, '0');
  });

  it('Combined, risk decision last: AUTH then RISKDEC; the RISKDEC part carries the AUTH’s reference', async () => {
    const r = await client.send({ requesttypedescriptions: ['AUTH', 'RISKDEC'], ...PAYMENT, cachetoken: await client.token('authorised') });
    const [a, rd] = r.json.response;
    assert.deepEqual([a.requesttypedescription, rd.requesttypedescription], ['AUTH', 'RISKDEC']);
    assert.equal(rd.parenttransactionreference, a.transactionreference);
    assert.equal(rd.fraudcontrolshieldstatuscode, 'ACCEPT');
  });

  it('Amount change for a subscription: TRANSACTIONUPDATE with the SUBSCRIPTION reference and a new baseamount', async () => {
    const r = await client.send({ ...subscriptionRequest, ...card('authorised') });
    const sub = r.json.response[1];
    const u = await client.ok({
      requesttypedescriptions: ['TRANSACTIONUPDATE'],
      filter: { sitereference: [{ value: SITE }], transactionreference: [{ value: sub.transactionreference }] },
      updates: { baseamount: '2000' },
    });
    assert.equal(u.requesttypedescription, 'TRANSACTIONUPDATE');
    assert.equal((await client.record(String(sub.transactionreference))).baseamount, '2000');
  });

  it('Query of stored details: TRANSACTIONQUERY identifies the STORE; the card number is masked', async () => {
    const s = await client.ok({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'store-q', accounttypedescription: 'CARDSTORE', ...card('mastercard', false) });
    const q = await client.ok({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { sitereference: [{ value: SITE }], transactionreference: [{ value: s.transactionreference }] } });
    assert.equal(q.found, '1');
    const records = q.records as Record<string, unknown>[];
    assert.equal(records.length, 1);
    assert.equal(records[0].transactionreference, s.transactionreference);
    assert.equal(records[0].maskedpan, '510000######0511');
    assert.equal(records[0].pan, undefined);
    assert.equal(records[0].securitycode, undefined);
    assert.doesNotMatch(JSON.stringify(q), /5100000000000511/);
  });

  it('the response envelope: requestreference, version 1.00, one part per request type in order, secrand', async () => {
    const r = await client.send({ requesttypedescriptions: ['AUTH', 'RISKDEC'], ...PAYMENT, ...card('authorised') });
    assert.deepEqual(Object.keys(r.json).sort(), ['requestreference', 'response', 'secrand', 'version']);
    assert.equal(r.json.version, '1.00');
    assert.match(String(r.json.requestreference), /^A[A-Za-z0-9]+$/);
    assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
    for (const p of r.json.response) for (const v of Object.values(p)) assert.equal(typeof v, 'string');
  });
});
