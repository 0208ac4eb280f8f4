/**
 * "It identifies the transaction and is the value used as `parenttransactionreference` later" (FIELD-TRANSACTIONREFERENCE):
 * a child naming a transaction the gateway answered Ok, refused for its parent, shows a reference that identifies
 * nothing. The proxy reads the refusal's cause from errordata only: a child may be refused for what it inherits,
 * and errordata is a public fact, not the document's, so a refusal that names nothing is not read as the parent's.
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
