/**
 * What the ledger keeps (docs/gateway.md, "What the ledger keeps"): with a window of a few transactions, records
 * nothing can reach any more (a settled or pending AUTH without children, a declined AUTH, an unauthenticated AUTH,
 * a used 3-D Secure session) are dropped once the window passes them, and answered as unknown; records still
 * reachable (a stored card, a subscription with payments to come and its AUTH, a THREEDQUERY waiting for its AUTH)
 * are kept, and every flow through them still works after the window has moved far past them. Counted, not timed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger } from '../../src/gateway/ledger';
import { card, Client, gateway, PAYMENT, SITE, SUBSCRIPTION_FIELDS, threedquery, type Obj, type Part } from './helpers';

/** Larger than the records the first test makes before it fills the window. */
const WINDOW = 12;

async function withGateway(fn: (c: Client) => Promise<void>): Promise<void> {
  const { client, gw } = await gateway({ maxRecords: WINDOW });
  try {
    await fn(client);
  } finally {
    await gw.close();
  }
}

/** Plain AUTHs that nothing references: they push the window on. */
async function fill(c: Client, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await c.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: `fill-${i}`, ...card('authorised') });
}

async function held(c: Client, ref: unknown): Promise<boolean> {
  const r = await c.control('GET', `transactions/${encodeURIComponent(String(ref))}`);
  assert.ok(r.status === 200 || r.status === 404, JSON.stringify(r.body));
  return r.status === 200;
}

async function stats(c: Client): Promise<{ records: number; kept: number; maxRecords: number; dropped: number }> {
  const r = await c.control('GET', 'ledger');
  assert.equal(r.status, 200);
  return r.body as never;
}

const storeRequest = { requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'keep', accounttypedescription: 'CARDSTORE' };

describe('ledger retention', () => {
  it('drops unreachable records once the window passes them, keeps reachable ones, and every flow through a kept one still works', () =>
    withGateway(async (c) => {
      // Unreachable once out of the window.
      const settled = await c.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'settled', ...card('authorised') });
      const declined = await c.part({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'declined', ...card('declined2') });
      assert.equal(declined.errorcode, '70000');
      const used = await c.threeDsAuth('authorised');
      assert.equal(used.auth.errorcode, '0');
      const parentOfDropped = await c.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'parent', ...card('authorised') });
      // Reachable.
      const stored = await c.ok({ ...storeRequest, ...card('authorised', false) });
      const [subAuth, sub] = (await c.send({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, orderreference: 'sub', ...SUBSCRIPTION_FIELDS, ...card('authorised') })).json.response;
      assert.equal(sub.errorcode, '0', JSON.stringify(sub));
      const waiting = await c.ok(threedquery(await c.token('authorised')));
      assert.equal(waiting.enrolled, 'Y');
      // A child of an AUTH that leaves the window with it: both go.
      const child = await c.ok({ requesttypedescriptions: ['AUTH'], parenttransactionreference: parentOfDropped.transactionreference, orderreference: 'child', sitereference: SITE });
      // The clock moves one day: the AUTHs settle (100); nothing else changes.
      await c.advance({ advanceDays: 1 });
      assert.equal((await c.record(String(settled.transactionreference))).settlestatus, '100');

      await fill(c, 3 * WINDOW);

      for (const [name, ref] of Object.entries({ settled, declined, usedQuery: used.query, usedAuth: used.auth, parentOfDropped, child })) {
        assert.equal(await held(c, (ref as Part).transactionreference), false, `${name} is dropped`);
      }
      for (const [name, ref] of Object.entries({ stored, subAuth, sub, waiting })) {
        assert.equal(await held(c, (ref as Part).transactionreference), true, `${name} is kept`);
      }
      const s = await stats(c);
      assert.equal(s.maxRecords, WINDOW);
      assert.equal(s.kept, 4, 'the four reachable records are kept beyond the window');
      assert.equal(s.records, WINDOW + 4, `the window and the kept ones are held: ${JSON.stringify(s)}`);
      assert.equal(s.dropped, 10 + 3 * WINDOW - s.records, 'the ten made before the filling and the filling, less what is held');

      // A dropped record is unknown: as a parent "20004 Missing parent", in an update 30000 naming it, not found by a query.
      const orphan = await c.part({ requesttypedescriptions: ['AUTH'], parenttransactionreference: settled.transactionreference, orderreference: 'orphan', sitereference: SITE });
      assert.equal(orphan.errorcode, '20004');
      assert.deepEqual(orphan.errordata, ['parenttransactionreference']);
      const update = await c.part({
        requesttypedescriptions: ['TRANSACTIONUPDATE'],
        filter: { sitereference: [{ value: SITE }], transactionreference: [{ value: declined.transactionreference }] },
        updates: { settlestatus: '2' },
      });
      assert.equal(update.errorcode, '30000');
      assert.deepEqual(update.errordata, ['transactionreference']);
      const query = await c.part({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { sitereference: [{ value: SITE }], transactionreference: [{ value: settled.transactionreference }] } });
      assert.equal(query.found, '0');

      // The stored card still pays (rule 7), the waiting session still authenticates, the subscription still pays.
      const fromStored = await c.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'from-stored', parenttransactionreference: stored.transactionreference });
      assert.equal(fromStored.maskedpan, stored.maskedpan);
      const { pares, md } = await c.acs(waiting);
      const auth3ds = await c.ok({ requesttypedescriptions: ['AUTH'], md, pares });
      assert.equal(auth3ds.status, 'Y');
      assert.equal(auth3ds.parenttransactionreference, waiting.transactionreference);
      await fill(c, 3 * WINDOW);
      const moved = await c.advance({ advanceMonths: 2 });
      assert.ok(Number(moved.payments) >= 1, JSON.stringify(moved));
      const subNow = await c.record(String(sub.transactionreference));
      assert.equal(subNow.transactionactive, '1', 'the subscription went active when its AUTH settled');
      const paid = (await c.children(String(sub.transactionreference))) as Obj[];
      assert.ok(paid.length >= 1 && paid.every((p) => p.errorcode === '0'), JSON.stringify(paid));
      // The session has been used: the window passes it, and it goes.
      await fill(c, 3 * WINDOW);
      assert.equal(await held(c, waiting.transactionreference), false, 'a used session is dropped');
      assert.equal(await held(c, stored.transactionreference), true, 'the stored card stays');
      assert.equal(await held(c, sub.transactionreference), true, 'the subscription stays (payments to come)');
    }));

  it('a subscription whose last payment is taken is dropped with its AUTH once nothing else reaches them', () =>
    withGateway(async (c) => {
      const [auth, sub] = (
        await c.send({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, orderreference: 'short', ...SUBSCRIPTION_FIELDS, subscriptionfinalnumber: '2', ...card('authorised') })
      ).json.response;
      await fill(c, 3 * WINDOW);
      assert.equal(await held(c, sub.transactionreference), true);
      assert.equal(await held(c, auth.transactionreference), true, 'the parent of a kept subscription is kept');
      const moved = await c.advance({ advanceMonths: 2 });
      assert.equal(moved.payments, 1, 'payment 2 of 2 is taken');
      await fill(c, 3 * WINDOW);
      assert.equal(await held(c, sub.transactionreference), false, 'no payments to come: dropped');
      assert.equal(await held(c, auth.transactionreference), false, 'and its AUTH, now a parent of nothing');
    }));
});

describe('ledger bound', () => {
  it('holds at most twice maxRecords records whatever comes, reachable or not, the least recently used going first', () => {
    const ledger = new Ledger(undefined, 10);
    const site = { number: '12' } as never;
    const stores: string[] = [];
    for (let n = 0; n < 1000; n++) {
      const uow = ledger.begin();
      const { transactionreference, seq } = uow.reference(site);
      // Every third a stored card (reachable for ever), the others plain AUTHs; every fifth pays with the first card.
      const type = n % 3 === 0 ? 'STORE' : 'AUTH';
      if (type === 'STORE') stores.push(transactionreference);
      const parent = type === 'AUTH' && n % 5 === 0 ? stores[0] : undefined;
      uow.add({
        transactionreference,
        seq,
        type,
        sitereference: SITE,
        createdAt: '2026-01-05 09:00:00',
        fields: {},
        securitycodeResult: '0',
        errorcode: '0',
        part: {},
        ...(parent ? { parent } : {}),
      } as never);
      uow.commit();
      assert.ok(ledger.size <= 20, `${ledger.size} records held after ${n + 1}`);
    }
    assert.equal(ledger.stats().kept, 10);
    // The ten newest stored cards beyond the window are the ones kept.
    const keptStores = stores.filter((r) => ledger.get(r) !== undefined);
    assert.ok(keptStores.length >= 10);
    assert.notEqual(ledger.get(stores[0]), undefined, 'the card paid with all along stays');
    assert.equal(ledger.get(stores[1]), undefined, 'a card nobody used since it was stored went once the cap was reached');
    assert.ok(ledger.children(stores[0]).length > 0);
    assert.deepEqual(
      [...ledger.all()].map((r) => r.seq),
      [...ledger.all()].map((r) => r.seq).sort((a, b) => a - b),
      'oldest first',
    );
  });
});
