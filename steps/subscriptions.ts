/**
 * Time and the subscription engine. Time-based scenarios move the target's clock through the test-control API
 * (never sleep), and read the payments the engine took as the children of the SUBSCRIPTION transaction.
 */
import { Then, When } from '@cucumber/cucumber';
import { redact } from '../src/redact';
import { ControlError, type LedgerRecord } from '../src/client/control';
import { filterFor } from '../src/client/requests';
import { referenceOf } from './requests';
import { ScenarioSkipped, type CardspecWorld } from './world';
import { byText } from '../src/order';
import { addMonths, parseTimestamp } from '../src/calendar';

const SECONDS: Readonly<Record<string, number>> = { second: 1, minute: 60, hour: 3600 };

/**
 * Where a run of month moves started, and how many months it has counted: "1 month, then 1 month" from 31 January
 * is 31 March, as the schedule counts it ("Number of units between payments", "payments resume at the original
 * intervals": every due date from the same start, src/calendar.ts), not 28 March, one month from the shortened
 * 28 February. Counting each move from the clock's shortened date, the scenario fell behind the payments it
 * expected whenever a start fell on the 29th-31st. `at` is the clock the last move left: any other move ends the run.
 */
const monthRuns = new WeakMap<CardspecWorld, { from: number; months: number; at: string }>();

When("the target's clock moves on by {int} {word}", async function (this: CardspecWorld, count: number, unit: string) {
  const u = unit.replace(/s$/, '');
  const by = u === 'month' ? await monthMove(this, count) : u === 'day' ? { advanceDays: count } : SECONDS[u] ? { advanceSeconds: count * SECONDS[u] } : this.fail(`unknown unit of time "${unit}"`);
  const moved = await this.control.advance(by);
  if (u === 'month') monthRuns.set(this, { ...monthRuns.get(this)!, at: moved.now });
  else monthRuns.delete(this);
  this.log(`The target's clock is now ${moved.now} (settled ${moved.settled ?? '?'}, payments ${moved.payments ?? '?'}).`);
});

// A date at an edge: the clock moved on to the last day of its month (or of its year), so that what a payment made
// then carries (settleduedate, the timestamp) is met at the edge whatever day the run started on.
When("the target's clock moves on to the last day of its {word}", async function (this: CardspecWorld, edge: string) {
  if (edge !== 'month' && edge !== 'year') this.fail(`unknown edge "${edge}": month or year`);
  const nowText = await this.control.now();
  const now = parseTimestamp(nowText);
  if (now === undefined) this.fail(`the target's clock reads ${JSON.stringify(nowText)}, not a time "YYYY-MM-DD HH:MM:SS"`);
  const d = new Date(now);
  const last = Date.UTC(d.getUTCFullYear(), edge === 'year' ? 12 : d.getUTCMonth() + 1, 0);
  const days = Math.round((last - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())) / 86_400_000);
  monthRuns.delete(this);
  if (days === 0) return;
  const moved = await this.control.advance({ advanceDays: days });
  this.log(`The target's clock is now ${moved.now} (settled ${moved.settled ?? '?'}, payments ${moved.payments ?? '?'}).`);
});

/**
 * A move by months, as seconds: the kit counts the month with the gateway's calendar, so that the scenario's
 * expectations and the schedule agree; a target's own reading of `advanceMonths` is not what they were counted with.
 */
async function monthMove(world: CardspecWorld, count: number): Promise<{ advanceSeconds: number }> {
  const nowText = await world.control.now();
  const now = parseTimestamp(nowText);
  if (now === undefined) world.fail(`the target's clock reads ${JSON.stringify(nowText)}, not a time "YYYY-MM-DD HH:MM:SS"`);
  const last = monthRuns.get(world);
  const run = last && last.at === nowText ? { from: last.from, months: last.months + count, at: nowText } : { from: now, months: count, at: nowText };
  monthRuns.set(world, run);
  return { advanceSeconds: Math.max(0, Math.round((addMonths(run.from, run.months) - now) / 1000)) };
}

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

// A value the document does not show (a unit other than MONTH): a target may refuse it, and then this scenario has
// nothing to check; one that takes it is held to what the document says of the value it took.
Then('{txn} succeeded, unless the target does not take a subscriptionunit the document does not show', function (this: CardspecWorld, name: string) {
  const part = this.entry(name).part;
  if (part.errorcode !== '0')
    throw new ScenarioSkipped(`${name} was refused (errorcode ${JSON.stringify(part.errorcode)}): the target does not take the subscriptionunit sent, a value the document does not show`);
});

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

// An automatic payment is a transaction the merchant may query like any other: its answer is held to the document
// as every answer is (src/rules/answers.ts), the fields of its record included.
When('the merchant sends a TRANSACTIONQUERY of the latest automatic payment of {txn}', async function (this: CardspecWorld, name: string) {
  const payments = await paymentsOf(this, name);
  const latest = payments[payments.length - 1];
  if (!latest) this.fail(`${name} has taken no automatic payment`);
  await this.send({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: filterFor(this.site, String(latest.transactionreference)) });
});

Then('the TRANSACTIONQUERY found the latest automatic payment of {txn}', async function (this: CardspecWorld, name: string) {
  const payments = await paymentsOf(this, name);
  const ref = payments[payments.length - 1]?.transactionreference;
  const records = this.entry('the TRANSACTIONQUERY').part.records;
  const found = Array.isArray(records) && records.some((r) => typeof r === 'object' && r !== null && (r as Record<string, unknown>).transactionreference === ref);
  this.check(found, `the TRANSACTIONQUERY's records do not include the latest automatic payment of ${name} (${String(ref)})`);
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
