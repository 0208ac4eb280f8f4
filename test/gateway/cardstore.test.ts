/**
 * The card store state machine ("States and transitions > Card store"): STORE enables (1), TRANSACTIONUPDATE 0
 * disables for future requests, 1 enables again; the security code is never stored; a site without card store
 * refuses STORE.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, type Part, PAYMENT, SITE, SITE_BASIC, threedquery, useGateway, valuesEqualTo } from './helpers';

const client = useGateway();

const storeRequest = {
  requesttypedescriptions: ['STORE'],
  sitereference: SITE,
  orderreference: 'cs',
  accounttypedescription: 'CARDSTORE',
  billingpremise: '789',
  billingpostcode: 'TE45 6ST',
  billingcountryiso2a: 'GB',
};

async function setActive(ref: unknown, value: string): Promise<Part> {
  return client.part({ requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: { sitereference: [{ value: SITE }], transactionreference: [{ value: ref }] }, updates: { transactionactive: value } });
}

describe('card store', () => {
  it('1 -> 0 -> 1 by TRANSACTIONUPDATE; disabled, the stored card is refused; enabled again, it is used', async () => {
    const s = await client.ok({ ...storeRequest, ...card('authorised', false) });
    assert.equal(s.transactionactive, '1');
    const auth = { requesttypedescriptions: ['AUTH'], ...PAYMENT, parenttransactionreference: s.transactionreference };
    const a = await client.ok(auth);
    assert.equal(a.maskedpan, '411111######1111');
    assert.equal(a.securityresponseaddress, '2', 'billing details are inherited from the STORE');

    assert.equal((await setActive(s.transactionreference, '0')).errorcode, '0');
    assert.equal((await client.record(String(s.transactionreference))).transactionactive, '0');
    const refused = await client.part(auth);
    assert.deepEqual([refused.errorcode, refused.errordata], ['30000', ['parenttransactionreference']]);
    const refused3ds = await client.part(threedquery('x', { cachetoken: undefined, parenttransactionreference: s.transactionreference }));
    assert.equal(refused3ds.errorcode, '30000');

    assert.equal((await setActive(s.transactionreference, '1')).errorcode, '0');
    assert.equal((await client.part(auth)).errorcode, '0');
  });

  it('TRANSACTIONQUERY answers the current state, masked', async () => {
    const s = await client.ok({ ...storeRequest, orderreference: 'cs-q', ...card('amex', false) });
    await setActive(s.transactionreference, '0');
    const q = await client.ok({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { orderreference: [{ value: 'cs-q' }] } });
    assert.equal(q.found, '1');
    const [rec] = q.records as Part[];
    assert.equal(rec.transactionactive, '0');
    assert.equal(rec.maskedpan, '3400#######0611');
  });

  it('securitycode must not be sent in STORE: 30000 naming it, nothing stored', async () => {
    const size = client.gw.ledger.size;
    const p = await client.part({ ...storeRequest, ...card('authorised') });
    assert.deepEqual([p.errorcode, p.errordata], ['30000', ['securitycode']]);
    assert.equal(client.gw.ledger.size, size);
  });

  it('the security code is never stored: not in the ledger, and a later AUTH on the stored card reports it not given', async () => {
    const tokenReq = await client.control('POST', 'cachetokens', { ...card('authorised', false), securitycode: '4321' });
    const p = await client.ok({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, cachetoken: tokenReq.body.cachetoken, baseamount: '0' });
    assert.equal(p.securityresponsesecuritycode, '2');
    const s = await client.ok({ ...storeRequest, parenttransactionreference: p.transactionreference });
    const a = await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, parenttransactionreference: s.transactionreference });
    assert.equal(a.securityresponsesecuritycode, '0');
    const everything = JSON.stringify([...client.gw.ledger.all()]);
    assert.deepEqual(valuesEqualTo([...client.gw.ledger.all()], '4321'), [], 'the security code is stored nowhere');
    assert.doesNotMatch(everything, /"securitycode"/);
  });

  it('a site without card store refuses STORE (30000 naming requesttypedescriptions)', async () => {
    const p = await client.part({ ...storeRequest, sitereference: SITE_BASIC, ...card('authorised', false) });
    assert.deepEqual([p.errorcode, p.errordata], ['30000', ['requesttypedescriptions']]);
  });

  it('STORE inherits details through parenttransactionreference', async () => {
    const a = await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('mastercard'), billingfirstname: 'Ann' });
    const s = await client.ok({
      requesttypedescriptions: ['STORE'],
      sitereference: SITE,
      orderreference: 'inh',
      accounttypedescription: 'CARDSTORE',
      parenttransactionreference: a.transactionreference,
    });
    assert.equal(s.maskedpan, '510000######0511');
    assert.equal(s.parenttransactionreference, a.transactionreference);
  });
});
