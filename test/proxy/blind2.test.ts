/**
 * The second round of blind faults, seen by a passive observer: each named from the document and the traffic alone,
 * on a real proxy on loopback in front of the gallery's variant, and the reference gateway answering the same
 * traffic leaves no gateway error.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, PAYMENT, SUBSCRIPTION, type Obj } from '../contract/helpers';
import { broken, closedAtEnd } from './helpers';

const { path } = closedAtEnd();

const resumed = (): Obj => ({
  requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'],
  ...PAYMENT,
  orderreference: 'sub-resumed',
  ...SUBSCRIPTION,
  subscriptionnumber: '4',
  ...card('authorised'),
});

describe('a resumed subscription numbered below the number sent (SUB-NUMBER-RESUME)', () => {
  it('the reference gateway: no gateway error, the rule checked', async () => {
    const { client, proxy } = await path();
    await client.send(resumed());
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    assert.equal(proxy.session.report().coverage.find((c) => c.rule === 'SUB-NUMBER-RESUME')?.status, 'passed');
  });

  it('a gateway that numbers it 1 again is named under SUB-NUMBER-RESUME', async () => {
    const { client, proxy } = await path('blind2-resumed-subscription-number-reset');
    const parts = await client.send(resumed());
    assert.equal(parts[1].subscriptionnumber, '1');
    assert.deepEqual(await broken(proxy, 'gateway'), ['SUB-NUMBER-RESUME']);
  });
});
