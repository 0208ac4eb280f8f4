/**
 * "It identifies the transaction and is the value used as `parenttransactionreference` later" (FIELD-TRANSACTIONREFERENCE):
 * a child naming a transaction the gateway answered Ok, refused for its parent, shows a reference that identifies
 * nothing. The proxy reads the refusal's cause from errordata only: a child may be refused for what it inherits,
 * and errordata is a public fact, not the document's, so a refusal that names nothing is not read as the parent's.
 * The AUTH a THREEDQUERY of N or U says to send next, refused for that parent, breaks the sentence that says so.
 * What a child inherits is held to its own row (rule 4): an amount of 0 from an ACCOUNTCHECK, in an AUTH.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, PAYMENT, SITE, type Obj, type Sender } from '../contract/helpers';
import { broken, closedAtEnd } from './helpers';

const { path } = closedAtEnd();

/** An ACCOUNTCHECK of 0, then an AUTH on it that sends no amount of its own: it inherits 0, which AUTH refuses. */
async function authOnZeroCheck(client: Sender): Promise<Obj> {
  const check = await client.ok({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, baseamount: '0', orderreference: 'zero-check', ...card('authorised') });
  return client.part({ requesttypedescriptions: ['AUTH'], sitereference: SITE, orderreference: 'on-zero', parenttransactionreference: String(check.transactionreference) });
}

describe('a child refused for its parent (FIELD-TRANSACTIONREFERENCE)', () => {
  it('a child refused for the amount it inherits, with no errordata: the parent is not blamed', async () => {
    const { client, proxy } = await path('errordata-left-out');
    const auth = await authOnZeroCheck(client);
    assert.equal(auth.errorcode, '30000');
    assert.equal(auth.errordata, undefined);
    assert.deepEqual(await broken(proxy, 'gateway'), []);
  });

  it('a gateway that answers references it did not store is named when a child names one', async () => {
    const { client, proxy } = await path('reference-not-the-stored-one');
    const parent = await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'parent', ...card('authorised') });
    const child = await client.part({ requesttypedescriptions: ['AUTH'], sitereference: SITE, orderreference: 'child', parenttransactionreference: String(parent.transactionreference) });
    assert.notEqual(child.errorcode, '0');
    assert.ok((await broken(proxy, 'gateway')).includes('FIELD-TRANSACTIONREFERENCE'));
  });
});

describe('the AUTH a THREEDQUERY of enrolment U says to send (3DS-NEXT-U)', () => {
  it('refused for its parent, after the same THREEDQUERY resubmitted, is named under 3DS-NEXT-U alone', async () => {
    const { client, proxy } = await path('blind3-resubmitted-unknown-query-not-followed');
    const query = client.threedquery(await client.token('enrolmentUnknown'), { orderreference: 'resubmitted' });
    await client.ok(query);
    const again = await client.ok(query);
    assert.equal(again.enrolled, 'U');
    const auth = await client.part({ requesttypedescriptions: ['AUTH'], sitereference: SITE, parenttransactionreference: String(again.transactionreference) });
    assert.equal(auth.errorcode, '30000');
    assert.deepEqual(await broken(proxy, 'gateway'), ['3DS-NEXT-U']);
  });
});

describe('an amount of 0 inherited from an ACCOUNTCHECK (FIELD-BASEAMOUNT-POSITIVE)', () => {
  it('the reference gateway refuses the AUTH: the client is named, the gateway is not', async () => {
    const { client, proxy } = await path();
    const auth = await authOnZeroCheck(client);
    assert.equal(auth.errorcode, '30000');
    assert.deepEqual(await broken(proxy, 'client'), ['FIELD-BASEAMOUNT-POSITIVE']);
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    assert.ok(proxy.session.report().coverage.find((c) => c.rule === 'FIELD-BASEAMOUNT-POSITIVE')?.failed);
  });

  it('a gateway that authorises it is named under FIELD-BASEAMOUNT-POSITIVE', async () => {
    const { client, proxy } = await path('blind3-inherited-zero-amount-authorised');
    const auth = await authOnZeroCheck(client);
    assert.equal(auth.errorcode, '0');
    assert.deepEqual(await broken(proxy, 'gateway'), ['FIELD-BASEAMOUNT-POSITIVE']);
  });
});
