/**
 * The sixth blind round's follow-up faults, seen by a passive observer (src/proxy/answers.ts `follow-ups-hold`):
 * a TRANSACTIONUPDATE of a subscription's amount taken or refused as the document says, and a TRANSACTIONQUERY's
 * records against what the exchanges before showed was done. A real proxy on loopback in front of the gallery's
 * variant; the reference gateway answering the same traffic leaves no gateway error.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, PAYMENT, type Sender, SITE, SUBSCRIPTION, type Obj } from '../contract/helpers';
import { broken, closedAtEnd } from './helpers';

const { path } = closedAtEnd();

const subscription = (): Obj => ({
  requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'],
  ...PAYMENT,
  baseamount: '1050',
  orderreference: 'sub-update',
  ...SUBSCRIPTION,
  ...card('authorised'),
});

const filter = (ref: unknown): Obj => ({ sitereference: [{ value: SITE }], transactionreference: [{ value: String(ref) }] });

/** A subscription whose amount is updated, then a query of its first payment and one of the SUBSCRIPTION. */
async function updateThenQuery(client: Sender, amount: string): Promise<void> {
  const [auth, sub] = await client.send(subscription());
  await client.send({ requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: filter(sub.transactionreference), updates: { baseamount: amount } });
  await client.send({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: filter(auth.transactionreference) });
  await client.send({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: filter(sub.transactionreference) });
}

describe('follow-ups held to what the exchanges showed', () => {
  it('the reference gateway: no gateway error, the rules checked', async () => {
    const { client, proxy } = await path();
    await updateThenQuery(client, '2000');
    await updateThenQuery(client, '0');
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    const coverage = proxy.session.report().coverage;
    // The update to 0 is the client's fault (FIELD-BASEAMOUNT-POSITIVE, client side): the gateway refused it, no error of its own.
    for (const rule of ['SUB-AMOUNT-UPDATE', 'SUB-OWN-REFERENCE', 'FIELD-TRANSACTIONREFERENCE']) assert.equal(coverage.find((c) => c.rule === rule)?.status, 'passed', rule);
  });

  it('a first payment read back with the updated amount is named under SUB-AMOUNT-UPDATE', async () => {
    const { client, proxy } = await path('blind6-amount-update-rewrites-first-payment');
    await updateThenQuery(client, '2000');
    assert.deepEqual(await broken(proxy, 'gateway'), ['SUB-AMOUNT-UPDATE']);
  });

  it('an amount update refused while the subscription is pending is named under SUB-AMOUNT-UPDATE', async () => {
    const { client, proxy } = await path('blind6-amount-update-refused-while-pending');
    await updateThenQuery(client, '2000');
    assert.deepEqual(await broken(proxy, 'gateway'), ['SUB-AMOUNT-UPDATE']);
  });

  it('an update to baseamount 0 taken is named under FIELD-BASEAMOUNT-POSITIVE', async () => {
    const { client, proxy } = await path('blind6-zero-amount-update-accepted');
    await updateThenQuery(client, '0');
    assert.ok((await broken(proxy, 'gateway')).includes('FIELD-BASEAMOUNT-POSITIVE'));
  });

  it("a query of the SUBSCRIPTION's reference that finds the AUTH is named under SUB-OWN-REFERENCE", async () => {
    const { client, proxy } = await path('blind6-query-subscription-ref-finds-auth');
    await updateThenQuery(client, '2000');
    assert.deepEqual(await broken(proxy, 'gateway'), ['SUB-OWN-REFERENCE']);
  });
});

describe('states and parents read back as the exchanges left them', () => {
  /** A pending subscription whose AUTH is suspended, then a query of the SUBSCRIPTION. */
  async function suspendThenQuery(client: Sender): Promise<void> {
    const [auth, sub] = await client.send(subscription());
    await client.send({ requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: filter(auth.transactionreference), updates: { settlestatus: '2' } });
    await client.send({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: filter(sub.transactionreference) });
  }

  /** A declined payment, then a child of it with a card of its own. */
  async function childOfDeclined(client: Sender): Promise<void> {
    const [declined] = await client.send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'declined', ...card('declined') });
    await client.send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'child', parenttransactionreference: declined.transactionreference, ...card('notEnrolled') });
  }

  it('the reference gateway: no gateway error', async () => {
    const { client, proxy } = await path();
    await suspendThenQuery(client);
    await childOfDeclined(client);
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    const coverage = proxy.session.report().coverage;
    for (const rule of ['SUB-STATE-PENDING-TO-ACTIVE', 'INHERIT-PARENT']) assert.equal(coverage.find((c) => c.rule === rule)?.status, 'passed', rule);
  });

  it('a subscription activated by its suspended AUTH is named under SUB-STATE-PENDING-TO-ACTIVE', async () => {
    const { client, proxy } = await path('blind6-suspended-first-payment-activates');
    await suspendThenQuery(client);
    assert.deepEqual(await broken(proxy, 'gateway'), ['SUB-STATE-PENDING-TO-ACTIVE']);
  });

  it('a child of a declined payment refused for its parent is named under INHERIT-PARENT', async () => {
    const { client, proxy } = await path('blind6-declined-parent-refused');
    await childOfDeclined(client);
    assert.deepEqual(await broken(proxy, 'gateway'), ['INHERIT-PARENT']);
  });
});
