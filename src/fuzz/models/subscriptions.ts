/**
 * Subscriptions under a moving clock ("States and transitions > Subscription"): combined AUTH+SUBSCRIPTION requests
 * in each starting state, the clock moved by whole days through the test-control API, and TRANSACTIONUPDATEs that
 * deactivate, change the amount or raise the final number. After every move the payments the target took (its
 * ledger, test-control API) are held against what the document allows:
 *
 * - none of an inactive subscription ("`0` Inactive: Future payments are suspended until overridden");
 * - none after a deactivation ("`transactionactive` set to `0`: Payments stop");
 * - never more than the final number allows ("subscriptionnumber exceeds subscriptionfinalnumber: payments stop");
 * - none before `subscriptionbegindate` ("Date of the scheduled payments' start");
 * - numbers that go up by one ("It is incremented with each subscription payment");
 * - the amount in force when taken (rule 3, an amount changed by TRANSACTIONUPDATE);
 * - and, for a subscription sent active ("Payments are scheduled at once"), at least one payment once its start
 *   date is more than a day past ("caught up within 24 hours").
 *
 * When settlement makes a pending subscription active is not shown, so pending ones are held to the safety rules only.
 */
import fc from 'fast-check';
import type { ProfileCard } from '../../client/profile';
import { addToDate } from '../../client/requests';
import { brief, call, cardsOf, expect, filterOf, requestOf, type ModelEnv, type ModelSpec } from './common';
import { byText } from '../../order';

interface Sub {
  readonly ref: string;
  readonly begin: string;
  readonly sentActive: '0' | '1' | undefined;
  final: number;
  deactivatedAt?: string;
  readonly amounts: { at: string; amount: string }[];
}

export interface SubscriptionModel {
  /** The target's clock, `YYYY-MM-DD HH:MM:SS`. */
  now: string;
  readonly subs: Sub[];
}

type Cmd = fc.AsyncCommand<SubscriptionModel, ModelEnv>;

const ROLES = ['authorised', 'notEnrolled'] as const;

class Create implements Cmd {
  constructor(
    readonly card: ProfileCard,
    readonly frequency: number,
    readonly final: number,
    readonly active: '0' | '1' | undefined,
    readonly beginInDays: number,
    readonly amount: string,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: SubscriptionModel, env: ModelEnv): Promise<void> {
    const today = m.now.slice(0, 10);
    const begin = addToDate(today, this.beginInDays, 'day');
    const request = requestOf(env, 'Subscription without 3-D Secure', { card: this.card }, today, {
      baseamount: this.amount,
      subscriptionunit: 'MONTH',
      subscriptionfrequency: String(this.frequency),
      subscriptionnumber: '1',
      subscriptionfinalnumber: String(this.final),
      subscriptionbegindate: begin,
      transactionactive: this.active,
    });
    const [auth, sub] = await call(env, request);
    expect(auth?.errorcode === '0', 'SUB-FIRST-PAYMENT-AT-ONCE', `the AUTH part of a new subscription answered ${brief(auth)}`);
    expect(sub?.errorcode === '0', 'SUB-NO-3DS', `the SUBSCRIPTION part answered ${brief(sub)}`);
    expect(sub.accounttypedescription === 'RECUR', 'SUB-RECUR', `the SUBSCRIPTION part carries accounttypedescription ${String(sub.accounttypedescription)}, not RECUR`);
    const want = this.active ?? '2';
    const rule = this.active === '1' ? 'SUB-STATE-ACTIVE' : this.active === '0' ? 'SUB-STATE-INACTIVE' : 'SUB-STATE-PENDING';
    expect(
      sub.transactionactive === want,
      rule,
      `transactionactive ${this.active === undefined ? 'omitted' : `sent as ${this.active}`}: the SUBSCRIPTION part says ${String(sub.transactionactive)}, not ${want}`,
    );
    expect(typeof sub.transactionreference === 'string' && sub.transactionreference !== auth.transactionreference, 'SUB-OWN-REFERENCE', 'the SUBSCRIPTION part has no reference of its own');
    m.subs.push({ ref: sub.transactionreference as string, begin, sentActive: this.active, final: this.final, amounts: [{ at: m.now, amount: this.amount }] });
  }
  toString(): string {
    return `Create(every ${this.frequency} MONTH, final ${this.final}, ${this.active === undefined ? 'pending' : this.active === '1' ? 'active' : 'inactive'}, begins in ${this.beginInDays}d, ${this.amount})`;
  }
}

const nextDay = (date: string): string => addToDate(date, 1, 'day');

class Advance implements Cmd {
  constructor(readonly days: number) {}
  check(): boolean {
    return true;
  }
  async run(m: SubscriptionModel, env: ModelEnv): Promise<void> {
    const moved = await env.control!.advance({ advanceDays: this.days });
    m.now = moved.now;
    for (const sub of m.subs) await checkPayments(m, env, sub);
  }
  toString(): string {
    return `Advance(${this.days}d)`;
  }
}

async function checkPayments(m: SubscriptionModel, env: ModelEnv, sub: Sub): Promise<void> {
  const records = await env.control!.children(sub.ref);
  const at = (r: Record<string, unknown>): string => String(r.transactionstartedtimestamp ?? '');
  const payments = [...records].sort((a, b) => byText(at(a), at(b)));
  const where = `subscription ${sub.ref} (now ${m.now})`;
  if (sub.sentActive === '0') expect(payments.length === 0, 'SUB-STATE-INACTIVE', `${where} was created inactive, yet ${payments.length} payment(s) were taken`);
  if (sub.final !== 0)
    expect(payments.length <= sub.final - 1, 'SUB-STATE-FINAL', `${where} has final number ${sub.final} (the AUTH is payment 1), yet ${payments.length} automatic payment(s) were taken`);
  payments.forEach((p, i) => {
    const t = at(p);
    expect(t.slice(0, 10) >= sub.begin, 'SUB-BEGINDATE', `${where}: a payment at ${t}, before subscriptionbegindate ${sub.begin}`);
    if (sub.deactivatedAt) expect(t <= sub.deactivatedAt, 'SUB-STATE-DEACTIVATE', `${where} was deactivated at ${sub.deactivatedAt}, yet a payment was taken at ${t}`);
    if (p.subscriptionnumber !== undefined)
      expect(p.subscriptionnumber === String(i + 2), 'SUB-NUMBER-INCREMENT', `${where}: payment ${i + 1} carries subscriptionnumber ${String(p.subscriptionnumber)}, not ${i + 2}`);
    const inForce = [...sub.amounts].reverse().find((a) => a.at < t)?.amount ?? sub.amounts[0].amount;
    if (p.baseamount !== undefined) expect(p.baseamount === inForce, 'SUB-AMOUNT-UPDATE', `${where}: the payment at ${t} is ${String(p.baseamount)}, the amount in force was ${inForce}`);
  });
  const dueBy = `${nextDay(sub.begin)} 00:00:00`;
  const stillOn = sub.deactivatedAt === undefined || sub.deactivatedAt >= `${nextDay(sub.begin)} 00:00:00`;
  if (sub.sentActive === '1' && sub.final !== 1 && stillOn && m.now > dueBy) {
    expect(payments.length > 0, 'SUB-STATE-ACTIVE', `${where} was created active ("Payments are scheduled at once") and began ${sub.begin}, yet no payment was taken`);
  }
}

/** The n-th (modulo) subscription a predicate accepts. */
function pick(m: Readonly<SubscriptionModel>, n: number, ok: (s: Sub) => boolean): Sub | undefined {
  const list = m.subs.filter(ok);
  return list.length > 0 ? list[n % list.length] : undefined;
}

type Change = { kind: 'deactivate' } | { kind: 'amount'; amount: string } | { kind: 'final'; by: number };

class Update implements Cmd {
  constructor(
    readonly n: number,
    readonly change: Change,
  ) {}
  private eligible(s: Sub): boolean {
    if (s.deactivatedAt) return false;
    // Only an active subscription has a documented deactivation ("Active | TRANSACTIONUPDATE ... | `0` Inactive").
    if (this.change.kind === 'deactivate') return s.sentActive === '1';
    if (this.change.kind === 'final') return s.final !== 0;
    return true;
  }
  check(m: Readonly<SubscriptionModel>): boolean {
    return pick(m, this.n, (s) => this.eligible(s)) !== undefined;
  }
  async run(m: SubscriptionModel, env: ModelEnv): Promise<void> {
    const sub = pick(m, this.n, (s) => this.eligible(s))!;
    const c = this.change;
    const updates = c.kind === 'deactivate' ? { transactionactive: '0' } : c.kind === 'amount' ? { baseamount: c.amount } : { subscriptionfinalnumber: String(sub.final + c.by) };
    const rule = c.kind === 'deactivate' ? 'SUB-STATE-DEACTIVATE' : c.kind === 'amount' ? 'SUB-AMOUNT-UPDATE' : 'SUB-STATE-RESUME';
    const [part] = await call(env, { requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: filterOf(env.site, [sub.ref]), updates });
    expect(part?.errorcode === '0', rule, `TRANSACTIONUPDATE ${JSON.stringify(updates)} of subscription ${sub.ref} answered ${brief(part)}`);
    if (c.kind === 'deactivate') sub.deactivatedAt = m.now;
    else if (c.kind === 'amount') sub.amounts.push({ at: m.now, amount: c.amount });
    else sub.final += c.by;
  }
  toString(): string {
    const c = this.change;
    return c.kind === 'deactivate' ? `Deactivate(${this.n})` : c.kind === 'amount' ? `ChangeAmount(${this.n}, ${c.amount})` : `RaiseFinal(${this.n}, +${c.by})`;
  }
}

const amount = fc.integer({ min: 100, max: 99_999 }).map(String);

export const SUBSCRIPTIONS: ModelSpec<SubscriptionModel> = {
  name: 'subscriptions',
  summary: 'AUTH+SUBSCRIPTION in each starting state, the clock moved, deactivation, amount and final number updates',
  capabilities: ['clock', 'ledger'],
  cards: [ROLES],
  initial: () => ({ now: '', subs: [] }),
  async setup(env, m) {
    m.now = await env.control!.now();
  },
  // Subscriptions left active would keep paying at every later move of the clock, runs after runs.
  async teardown(env, m) {
    if (!env.profile.capabilities.transactionupdate) return;
    for (const sub of m.subs) {
      if (sub.deactivatedAt || sub.sentActive === '0') continue;
      await env.rate?.take();
      await env.target.send({ requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: filterOf(env.site, [sub.ref]), updates: { transactionactive: '0' } });
    }
  },
  commands(env) {
    const cards = cardsOf(env.profile, ROLES);
    const out: fc.Arbitrary<Cmd>[] = [
      fc
        .tuple(
          fc.constantFrom(...cards),
          fc.integer({ min: 1, max: 3 }),
          fc.integer({ min: 0, max: 5 }),
          fc.constantFrom(undefined, '1' as const, '0' as const),
          fc.integer({ min: 0, max: 40 }),
          amount,
        )
        .map(([{ card }, frequency, final, active, begin, amt]) => new Create(card, frequency, final, active, begin, amt)),
      fc.integer({ min: 1, max: 45 }).map((d) => new Advance(d)),
    ];
    if (env.profile.capabilities.transactionupdate) {
      const n = fc.nat({ max: 7 });
      out.push(
        n.map((i) => new Update(i, { kind: 'deactivate' })),
        fc.tuple(n, amount).map(([i, a]) => new Update(i, { kind: 'amount', amount: a })),
        fc.tuple(n, fc.integer({ min: 1, max: 3 })).map(([i, by]) => new Update(i, { kind: 'final', by })),
      );
    }
    return out;
  },
};
