/**
 * Time and the subscription engine. Time-based scenarios move the target's clock through the test-control API
 * (never sleep), and read the payments the engine took as the children of the SUBSCRIPTION transaction.
 */
import { Then, When } from '@cucumber/cucumber';
import { redact } from '../src/redact';
import { ControlError, type LedgerRecord } from '../src/client/control';
import { referenceOf } from './requests';
import type { CardspecWorld } from './world';
import { byText } from '../src/order';

const SECONDS: Readonly<Record<string, number>> = { second: 1, minute: 60, hour: 3600 };

When("the target's clock moves on by {int} {word}", async function (this: CardspecWorld, count: number, unit: string) {
  const u = unit.replace(/s$/, '');
  const by = u === 'day' ? { advanceDays: count } : u === 'month' ? { advanceMonths: count } : SECONDS[u] ? { advanceSeconds: count * SECONDS[u] } : this.fail(`unknown unit of time "${unit}"`);
  const moved = await this.control.advance(by);
  this.log(`The target's clock is now ${moved.now} (settled ${moved.settled ?? '?'}, payments ${moved.payments ?? '?'}).`);
});

/** The payments the engine took for a subscription, oldest first. */
async function paymentsOf(world: CardspecWorld, name: string): Promise<LedgerRecord[]> {
  const records = await world.control.children(referenceOf(world, name));
  const payments = records.filter((r) => r.requesttypedescription === 'AUTH');
  world.attach(
    JSON.stringify(
      redact({
        payments: payments.map((p) => ({
          transactionreference: p.transactionreference,
          subscriptionnumber: p.subscriptionnumber,
          baseamount: p.baseamount,
          transactionstartedtimestamp: p.transactionstartedtimestamp,
        })),
      }),
      null,
      2,
    ),
    'application/json',
  );
  return payments.sort((a, b) => byText(String(a.transactionstartedtimestamp), String(b.transactionstartedtimestamp)));
}

Then('{txn} has taken {int} automatic payment(s)', async function (this: CardspecWorld, name: string, count: number) {
  const payments = await paymentsOf(this, name);
  this.check(payments.length === count, `${name} has taken ${payments.length} automatic payment(s); expected ${count}`);
});

Then('the automatic payments of {txn} are numbered {string}', async function (this: CardspecWorld, name: string, numbers: string) {
  const got = (await paymentsOf(this, name)).map((p) => String(p.subscriptionnumber));
  const want = numbers.split(/,\s*/).filter(Boolean);
  this.check(got.join(', ') === want.join(', '), `the automatic payments of ${name} are numbered ${got.join(', ') || '(none)'}; expected ${want.join(', ')}`);
});

Then('every automatic payment of {txn} succeeded', async function (this: CardspecWorld, name: string) {
  const bad = (await paymentsOf(this, name)).filter((p) => p.errorcode !== '0');
  this.check(bad.length === 0, `${bad.length} automatic payment(s) of ${name} failed`);
});

Then('the latest automatic payment of {txn} has baseamount {string}', async function (this: CardspecWorld, name: string, amount: string) {
  const payments = await paymentsOf(this, name);
  const latest = payments[payments.length - 1];
  if (!latest) this.fail(`${name} has taken no automatic payment`);
  this.check(latest.baseamount === amount, `the latest automatic payment of ${name} has baseamount ${JSON.stringify(latest.baseamount)}; expected "${amount}"`);
});

/**
 * Settlement moves a payment's funds: "AUTH settled (settlestatus `100`)". A part that failed ("A non-zero code in
 * a part means that part failed"; 60022 and 70000: "No funds are transferred") must never get there, whatever
 * settlestatus its answer showed. A target that kept no record of it has nothing to settle.
 */
Then('{txn} has not been settled', async function (this: CardspecWorld, name: string) {
  const ref = referenceOf(this, name);
  let record: LedgerRecord | undefined;
  try {
    record = await this.control.transaction(ref);
  } catch (e) {
    if (!(e instanceof ControlError && /answered HTTP 404/.test(e.message))) throw e;
  }
  this.attach(JSON.stringify(redact({ transactionreference: ref, settlestatus: record?.settlestatus ?? '(no record)' }), null, 2), 'application/json');
  this.check(
    record?.settlestatus !== '100',
    `${name} (${ref}) has settlestatus "100" in the target's ledger: settled, though its part failed with errorcode ${JSON.stringify(this.field(name, 'errorcode'))}`,
  );
});
