/**
 * A value a child does not send but inherits (rule 4) is held to the child's row, as the gateway reads it: an AUTH
 * on an ACCOUNTCHECK of 0 runs with an amount of 0, which "It must be greater than zero, except that ACCOUNTCHECK
 * allows `0`" refuses. The request side names the client; an AUTH answered errorcode 0 names the gateway too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, PAYMENT, SITE, type Sender } from '../contract/helpers';
import { broken, closedAtEnd } from './helpers';

const { path } = closedAtEnd();

/** An ACCOUNTCHECK of 0, then an AUTH on it that sends no amount of its own. */
async function authOnZeroCheck(client: Sender): Promise<Record<string, unknown>> {
  const check = await client.ok({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, baseamount: '0', ...card('authorised') });
  return client.part({
    requesttypedescriptions: ['AUTH'],
    sitereference: SITE,
    accounttypedescription: 'ECOM',
    currencyiso3a: 'GBP',
    parenttransactionreference: String(check.transactionreference),
  });
}

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
