/**
 * The subscription state machine ("States and transitions > Subscription") on the moving clock: pending until the
 * AUTH settles, explicit 1 and 0, payments at the unit and frequency from subscriptionbegindate, subscriptionnumber
 * incremented, stop after the final number (never when it is 0), resume with missed payments caught up within 24
 * hours. Each test runs its own gateway, so its clock starts at 2026-01-05 09:00:00.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, Client, gateway, PAYMENT, SITE, SUBSCRIPTION_FIELDS, type Obj, type Part } from './helpers';

async function withGateway(fn: (c: Client) => Promise<void>): Promise<void> {
  const { client, gw } = await gateway();
  try {
    await fn(client);
  } finally {
    await gw.close();
  }
}

async function subscribe(c: Client, fields: Obj = {}, cardName: 'authorised' | 'declined2' = 'authorised'): Promise<{ auth: Part; sub: Part }> {
  const r = await c.send({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, orderreference: 'sub', ...SUBSCRIPTION_FIELDS, ...card(cardName), ...fields });
  const [auth, sub] = r.json.response;
  return { auth, sub };
}

async function update(c: Client, ref: unknown, updates: Obj): Promise<Part> {
  return c.part({ requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: { sitereference: [{ value: SITE }], transactionreference: [{ value: ref }] }, updates });
}

async function payments(c: Client, sub: Part): Promise<Obj[]> {
  return c.children(String(sub.transactionreference));
}

const numbers = (list: Obj[]): number[] => list.map((p) => Number(p.subscriptionnumber));
const times = (list: Obj[]): string[] => list.map((p) => String(p.transactionstartedtimestamp));

describe('subscription state machine', () => {
  it('none -> 2 Pending by default; Pending -> Active once the AUTH settles (settlestatus 100); monthly payments; stop after the final number', () =>
    withGateway(async (c) => {
      const { auth, sub } = await subscribe(c, { subscriptionfinalnumber: '3' });
      assert.equal(auth.errorcode, '0');
      assert.equal(sub.transactionactive, '2');
      assert.equal((await c.record(String(sub.transactionreference))).transactionactive, '2');

      const moved = await c.advance({ advanceDays: 1 });
      assert.equal(moved.now, '2026-01-06 09:00:00');
      assert.ok(Number(moved.settled) >= 1);
      assert.equal((await c.record(String(auth.transactionreference))).settlestatus, '100');
      assert.equal((await c.record(String(sub.transactionreference))).transactionactive, '1');
      assert.equal((await payments(c, sub)).length, 0);

      await c.advance({ set: '2026-02-05 00:00:00' });
      let list = await payments(c, sub);
      assert.deepEqual(numbers(list), [2]);
      assert.deepEqual(times(list), ['2026-02-05 00:00:00']);
      assert.equal(list[0].requesttypedescription, 'AUTH');
      assert.equal(list[0].accounttypedescription, 'RECUR');
      assert.equal(list[0].parenttransactionreference, sub.transactionreference);
      assert.equal(list[0].baseamount, '1050');
      assert.equal(list[0].errorcode, '0');
      assert.equal(list[0].maskedpan, '411111######1111');

      await c.advance({ advanceMonths: 5 });
      list = await payments(c, sub);
      assert.deepEqual(numbers(list), [2, 3], 'payments stop after subscriptionfinalnumber');
      assert.deepEqual(times(list), ['2026-02-05 00:00:00', '2026-03-05 00:00:00']);
      assert.equal((await c.record(String(sub.transactionreference))).subscriptionnumber, '3');
      // every payment settles at the next settlement run
      assert.deepEqual(
        list.map((p) => p.settlestatus),
        ['100', '100'],
      );
    }));

  it('a pending subscription whose AUTH does not settle takes no payments; one sent as 1 takes them at once', () =>
    withGateway(async (c) => {
      const pending = await subscribe(c, { subscriptionbegindate: '2026-01-06', subscriptionunit: 'DAY', subscriptionfinalnumber: '0' });
      const active = await subscribe(c, { subscriptionbegindate: '2026-01-06', subscriptionunit: 'DAY', subscriptionfinalnumber: '0', transactionactive: '1' });
      assert.equal(active.sub.transactionactive, '1');
      // Manual settlement (1): the AUTHs never reach 100 by themselves.
      for (const s of [pending, active]) assert.equal((await update(c, s.auth.transactionreference, { settlestatus: '1' })).errorcode, '0');
      await c.advance({ advanceDays: 3 });
      assert.equal((await c.record(String(pending.sub.transactionreference))).transactionactive, '2');
      assert.deepEqual(numbers(await payments(c, pending.sub)), []);
      assert.deepEqual(numbers(await payments(c, active.sub)), [2, 3, 4]);
      assert.deepEqual(times(await payments(c, active.sub)), ['2026-01-06 00:00:00', '2026-01-07 00:00:00', '2026-01-08 00:00:00']);
    }));

  it('sent as 0: inactive, no payments until overridden; re-enabled with 1, payments resume at the next due date, numbers without a gap', () =>
    withGateway(async (c) => {
      const { sub } = await subscribe(c, { transactionactive: '0', subscriptionbegindate: '2026-01-10', subscriptionunit: 'DAY', subscriptionfrequency: '2', subscriptionfinalnumber: '0' });
      assert.equal(sub.transactionactive, '0');
      await c.advance({ set: '2026-01-20 12:00:00' });
      assert.deepEqual(numbers(await payments(c, sub)), []);
      assert.equal((await update(c, sub.transactionreference, { transactionactive: '1' })).errorcode, '0');
      await c.advance({ set: '2026-01-25 00:00:00' });
      const list = await payments(c, sub);
      // due dates 01-10, 01-12, ... : the first after 2026-01-20 is 01-22, then 01-24
      assert.deepEqual(numbers(list), [2, 3]);
      assert.deepEqual(times(list), ['2026-01-22 00:00:00', '2026-01-24 00:00:00']);
    }));

  it('final number 0: payments never stop by count; TRANSACTIONUPDATE transactionactive 0 stops them', () =>
    withGateway(async (c) => {
      const { sub } = await subscribe(c, { transactionactive: '1', subscriptionbegindate: '2026-01-06', subscriptionunit: 'DAY', subscriptionfinalnumber: '0' });
      const moved = await c.advance({ advanceDays: 40 });
      assert.equal(moved.payments, 40);
      const list = await payments(c, sub);
      assert.deepEqual(
        numbers(list),
        Array.from({ length: 40 }, (_, i) => i + 2),
      );
      assert.equal((await update(c, sub.transactionreference, { transactionactive: '0' })).errorcode, '0');
      await c.advance({ advanceDays: 10 });
      assert.equal((await payments(c, sub)).length, 40);
      assert.equal((await c.record(String(sub.transactionreference))).transactionactive, '0');
    }));

  it('stopped by count, then the final number raised: payments resume at the original intervals, missed ones caught up within 24 hours', () =>
    withGateway(async (c) => {
      const { sub } = await subscribe(c, { transactionactive: '1', subscriptionfinalnumber: '2' });
      await c.advance({ set: '2026-05-10 09:00:00' });
      assert.deepEqual(numbers(await payments(c, sub)), [2]);
      assert.equal((await update(c, sub.transactionreference, { subscriptionfinalnumber: '6' })).errorcode, '0');
      await c.advance({ advanceSeconds: 24 * 3600 });
      let list = await payments(c, sub);
      assert.deepEqual(numbers(list), [2, 3, 4, 5]);
      assert.deepEqual(times(list).slice(1), ['2026-05-11 00:00:00', '2026-05-11 00:00:00', '2026-05-11 00:00:00']);
      await c.advance({ set: '2026-07-01 00:00:00' });
      list = await payments(c, sub);
      assert.deepEqual(numbers(list), [2, 3, 4, 5, 6]);
      assert.equal(times(list)[4], '2026-06-05 00:00:00', 'the original interval');
    }));

  it('rule 3: an amount change by TRANSACTIONUPDATE applies to later payments', () =>
    withGateway(async (c) => {
      const { sub } = await subscribe(c, { transactionactive: '1', subscriptionfinalnumber: '3' });
      await c.advance({ set: '2026-02-06 00:00:00' });
      assert.equal((await update(c, sub.transactionreference, { baseamount: '2599' })).errorcode, '0');
      await c.advance({ set: '2026-03-06 00:00:00' });
      assert.deepEqual(
        (await payments(c, sub)).map((p) => p.baseamount),
        ['1050', '2599'],
      );
    }));

  it('months keep the day of the month and fall back to the last day of a shorter month', () =>
    withGateway(async (c) => {
      const { sub } = await subscribe(c, { transactionactive: '1', subscriptionbegindate: '2026-01-31', subscriptionfinalnumber: '4' });
      await c.advance({ set: '2026-04-01 00:00:00' });
      assert.deepEqual(times(await payments(c, sub)), ['2026-01-31 00:00:00', '2026-02-28 00:00:00', '2026-03-31 00:00:00']);
    }));

  it('resuming a former subscription: subscriptionnumber 4 makes the AUTH payment 4 and the next one 5', () =>
    withGateway(async (c) => {
      const { sub } = await subscribe(c, { transactionactive: '1', subscriptionnumber: '4', subscriptionfinalnumber: '6' });
      assert.equal(sub.subscriptionnumber, '4');
      await c.advance({ advanceMonths: 6 });
      assert.deepEqual(numbers(await payments(c, sub)), [5, 6]);
    }));

  it('a declined AUTH makes no subscription: the SUBSCRIPTION part repeats its errorcode', () =>
    withGateway(async (c) => {
      const { auth, sub } = await subscribe(c, {}, 'declined2');
      assert.equal(auth.errorcode, '70000');
      assert.equal(sub.errorcode, '70000');
      assert.equal(sub.transactionreference, undefined);
      const moved = await c.advance({ advanceMonths: 3 });
      assert.equal(moved.payments, 0);
    }));

  it('a subscription unit or type the gateway cannot schedule is an invalid field; nothing is stored', () =>
    withGateway(async (c) => {
      const before = c.gw.ledger.size;
      const { auth, sub } = await subscribe(c, { subscriptionunit: 'WEEK', subscriptiontype: 'SOMETIMES', subscriptionbegindate: '2026-02-30' });
      for (const p of [auth, sub]) {
        assert.equal(p.errorcode, '30000');
        assert.deepEqual(p.errordata, ['subscriptiontype', 'subscriptionunit', 'subscriptionbegindate']);
      }
      assert.equal(c.gw.ledger.size, before);
    }));

  it('updates: transactionactive 2 is not a value to send; a payment’s fields cannot be updated like a subscription’s', () =>
    withGateway(async (c) => {
      const { auth, sub } = await subscribe(c);
      assert.deepEqual((await update(c, sub.transactionreference, { transactionactive: '2' })).errordata, ['transactionactive']);
      const p = await update(c, auth.transactionreference, { subscriptionfinalnumber: '9' });
      assert.deepEqual([p.errorcode, p.errordata], ['60017', ['subscriptionfinalnumber']]);
      const q = await update(c, sub.transactionreference, { nosuchfield: '1' });
      assert.deepEqual([q.errorcode, q.errordata], ['30000', ['nosuchfield']]);
      const r = await update(c, '99-9-99999', { baseamount: '1' });
      assert.deepEqual([r.errorcode, r.errordata], ['30000', ['transactionreference']]);
      // nothing half-applied: a valid change next to an invalid one is not applied
      await update(c, sub.transactionreference, { baseamount: '777', transactionactive: '5' });
      assert.equal((await c.record(String(sub.transactionreference))).baseamount, '1050');
    }));
});

describe('the test-control clock', () => {
  it('GET shows the time; moves run settlement; time never goes back; bad bodies are refused with a reason', () =>
    withGateway(async (c) => {
      assert.deepEqual((await c.control('GET', 'clock')).body, { now: '2026-01-05 09:00:00' });
      await c.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') });
      assert.deepEqual(await c.advance({ advanceSeconds: 54000 }), { now: '2026-01-06 00:00:00', settled: 1, payments: 0 });
      assert.equal((await c.advance({ advanceMonths: 1 })).now, '2026-02-06 00:00:00');
      for (const body of [{ set: '2026-01-01 00:00:00' }, { advanceDays: -1 }, { advanceDays: 1.5 }, { advanceYears: 1 }, {}, { advanceDays: 1, advanceSeconds: 1 }, { set: '2026-02-30 00:00:00' }]) {
        const r = await c.control('POST', 'clock', body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(typeof r.body.error, 'string');
      }
      assert.equal((await c.control('GET', 'clock')).body.now, '2026-02-06 00:00:00');
    }));

  it('the control API is off unless enabled', async () => {
    const { gw } = await gateway({ control: false });
    try {
      assert.equal((await fetch(`${gw.url}/_cardspec/clock`)).status, 404);
    } finally {
      await gw.close();
    }
  });
});
