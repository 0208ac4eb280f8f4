/**
 * The settlement run and the subscription engine, driven by the clock. Nothing here reads the wall clock: when
 * the clock moves (control API, or a ticking clock noticed at the next request) `runUntil` replays every midnight
 * in between, in time order, so a scenario can move a month and see every settlement and payment of that month.
 *
 * At each midnight (docs/architecture.md):
 * 1. settlement: every payment with settlestatus `0` whose `settleduedate` has passed becomes `100`;
 * 2. "Pending: AUTH settled (settlestatus `100`): Active": pending subscriptions whose AUTH settled become `1`;
 * 3. the subscription engine takes every payment due on or before that day, for active subscriptions, until
 *    "subscriptionnumber exceeds subscriptionfinalnumber" (never when the final number is `0`). Payment n of a
 *    subscription opened with number s is due at `subscriptionbegindate + (n - s - 1) x frequency x unit`; missed
 *    payments (a raised final number) are caught up at the first midnight after, that is within 24 hours.
 */
import { cardFor } from '../testdata';
import { addUnits, formatDate, formatTimestamp, nextMidnight } from '../calendar';
import { takePayment } from './operations/payment';
import type { Clock } from './clock';
import type { ResolvedConfig } from './config';
import type { Ledger } from './ledger';
import type { TxRecord } from './transaction';

export interface RunResult {
  settled: number;
  payments: number;
}

/** Payments one subscription may take in one run: a guard against a schedule that could never end. */
const MAX_PAYMENTS_PER_RUN = 10_000;

/** What the engine reads of its runtime (not the runtime itself, which holds the engine). */
export interface EngineDeps {
  readonly config: ResolvedConfig;
  readonly ledger: Ledger;
  readonly clock: Clock;
}

export class Engine {
  /** The instant up to which every midnight has been run. */
  private doneUntil: number;
  /** The first midnight after `doneUntil`: what every request compares the clock with. */
  private nextRun: number;

  constructor(private readonly rt: EngineDeps) {
    this.doneUntil = rt.clock.now();
    this.nextRun = nextMidnight(this.doneUntil);
  }

  /** For a ticking clock: runs the midnights that passed since the last run (cheap when none did). */
  catchUp(): void {
    const now = this.rt.clock.now();
    if (now >= this.nextRun) this.runUntil(now);
  }

  /** Runs every midnight in (last run, target]. The caller moves the clock to `target` afterwards. */
  runUntil(target: number): RunResult {
    const total: RunResult = { settled: 0, payments: 0 };
    for (let m = nextMidnight(this.doneUntil); m <= target; m = nextMidnight(m)) {
      total.settled += this.settle(m);
      this.activate();
      total.payments += this.takePayments(m);
      this.doneUntil = m;
    }
    if (target > this.doneUntil) this.doneUntil = target;
    this.nextRun = nextMidnight(this.doneUntil);
    return total;
  }

  /** Settlement run at midnight `m`: settle every due `0` (due date before the day that starts at `m`). */
  private settle(m: number): number {
    const today = formatDate(m);
    const ledger = this.rt.ledger;
    let n = 0;
    for (const ref of ledger.takeDueBefore(today)) {
      const rec = ledger.get(ref);
      if (!rec || rec.settlestatus !== '0') continue;
      ledger.change(ref, (r) => (r.settlestatus = '100'));
      n++;
    }
    return n;
  }

  /** "Pending: AUTH settled: settlestatus `100`: Active." */
  private activate(): void {
    const ledger = this.rt.ledger;
    for (const ref of ledger.subscriptions) {
      const rec = ledger.get(ref);
      if (rec?.transactionactive !== '2' || !rec.subscription) continue;
      if (ledger.get(rec.subscription.authRef)?.settlestatus === '100') ledger.change(ref, (r) => (r.transactionactive = '1'));
    }
  }

  private takePayments(m: number): number {
    const ledger = this.rt.ledger;
    let n = 0;
    for (const ref of ledger.subscriptions) {
      for (let i = 0; i < MAX_PAYMENTS_PER_RUN; i++) {
        // A subscription whose last payment was just taken may have left the ledger (docs/gateway.md).
        const rec = ledger.get(ref);
        if (!rec || !this.due(rec, m)) break;
        this.pay(rec, m);
        n++;
      }
    }
    return n;
  }

  private due(rec: TxRecord, m: number): boolean {
    const sub = rec.subscription;
    if (!sub || rec.transactionactive !== '1') return false;
    const next = sub.lastNumber + 1;
    // "subscriptionfinalnumber: Last payment number after which automatic payments stop. `0` means payments
    // continue until deactivated."
    if (sub.finalNumber !== 0 && next > sub.finalNumber) return false;
    return addUnits(sub.begindate, sub.periodIndex * sub.frequency, sub.unit) <= formatDate(m);
  }

  /** One automatic payment: an AUTH, child of the SUBSCRIPTION, at the subscription's current amount. */
  private pay(rec: TxRecord, m: number): void {
    const sub = rec.subscription!;
    const number = sub.lastNumber + 1;
    const site = this.rt.config.sites.get(rec.sitereference)!;
    const uow = this.rt.ledger.begin();
    try {
      if (rec.card && !cardFor(rec.card.pan).unknownError) {
        takePayment(uow, {
          type: 'AUTH',
          site,
          parent: rec.transactionreference,
          fields: { ...rec.fields, baseamount: sub.baseamount, accounttypedescription: 'RECUR' },
          card: rec.card,
          // The security code is never stored, so a later payment has none to check.
          securitycodeResult: '0',
          timestamp: formatTimestamp(m),
          date: formatDate(m),
          operator: String(rec.part.operatorname ?? ''),
          extra: { subscriptionnumber: String(number) },
        });
      }
      uow.update(rec.transactionreference, (r) => {
        r.subscription = { ...sub, lastNumber: number, periodIndex: sub.periodIndex + 1 };
      });
      uow.commit();
    } catch (err) {
      uow.rollback();
      throw err;
    }
  }
}
