/**
 * The contract gate's flows in the proxy's report: the documented flows the observed client went through, judged
 * once the observed ledger holds each exchange's transactions (the flows read a step's record and its parent's).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, PAYMENT, SITE } from '../contract/helpers';
import { closedAtEnd } from './helpers';

const { path } = closedAtEnd();

describe('the flows the proxy observed', () => {
  it('counts each flow a client went through, a follow-up with its observed parent, and none it did not', async () => {
    const { proxy, client } = await path();
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') });
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'o-2', ...card('authorised') });
    const query = await client.ok(client.threedquery(await client.token('notEnrolled')));
    await client.ok({ requesttypedescriptions: ['AUTH'], sitereference: SITE, parenttransactionreference: query.transactionreference });
    await proxy.settled();
    const flows = proxy.session.report().contract.flows;
    const times = Object.fromEntries(flows.filter((f) => f.times > 0).map((f) => [f.id, f.times]));
    assert.deepEqual(times, { auth: 2, 'threeds-not-enrolled': 1 });
    assert.equal(flows.find((f) => f.id === 'auth')?.covered, true);
  });
});
