/**
 * TRANSACTIONUPDATE and TRANSACTIONQUERY on payments, in the public shape (public-facts.md; the document: "shape not
 * shown"), so the model runs only where the profile says the target takes it. Payments are made, some suspended
 * ("It is recommended to suspend the transaction by updating it to settle status `2`"), and queried, one or several
 * at a time; the model knows which it suspended and that every card comes back masked ("the card number is masked
 * in the response" is the STORE query's rule; every answer is held to it by ./common.ts `call`).
 */
import fc from 'fast-check';
import type { ProfileCard } from '../../client/profile';
import { brief, call, cardsOf, expect, filterOf, requestOf, targetToday, type ModelEnv, type ModelSpec } from './common';

interface Payment {
  readonly ref: string;
  suspended: boolean;
}

export interface FollowUpModel {
  today: string;
  readonly payments: Payment[];
}

type Cmd = fc.AsyncCommand<FollowUpModel, ModelEnv>;

const ROLES = ['authorised', 'notEnrolled'] as const;

class Pay implements Cmd {
  constructor(readonly card: ProfileCard) {}
  check(): boolean {
    return true;
  }
  async run(m: FollowUpModel, env: ModelEnv): Promise<void> {
    const [part] = await call(env, requestOf(env, 'Ordinary AUTH without 3-D Secure', { card: this.card }, m.today));
    expect(part?.errorcode === '0', 'AUTH-AUTHORISE', `an AUTH answered ${brief(part)}`);
    m.payments.push({ ref: part.transactionreference as string, suspended: false });
  }
  toString(): string {
    return 'Pay';
  }
}

class Suspend implements Cmd {
  constructor(readonly n: number) {}
  check(m: Readonly<FollowUpModel>): boolean {
    return m.payments.some((p) => !p.suspended);
  }
  async run(m: FollowUpModel, env: ModelEnv): Promise<void> {
    const open = m.payments.filter((p) => !p.suspended);
    const p = open[this.n % open.length];
    const [part] = await call(env, { requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: filterOf(env.site, [p.ref]), updates: { settlestatus: '2' } });
    expect(part?.errorcode === '0', 'RISKDEC-SUSPEND-AFTER-AUTH', `TRANSACTIONUPDATE settlestatus 2 of payment ${p.ref} answered ${brief(part)}`);
    p.suspended = true;
  }
  toString(): string {
    return `Suspend(${this.n})`;
  }
}

class QueryPayments implements Cmd {
  constructor(readonly picks: readonly number[]) {}
  check(m: Readonly<FollowUpModel>): boolean {
    return m.payments.length > 0;
  }
  async run(m: FollowUpModel, env: ModelEnv): Promise<void> {
    const chosen = [...new Set(this.picks.map((i) => m.payments[i % m.payments.length]))];
    const [part] = await call(env, {
      requesttypedescriptions: ['TRANSACTIONQUERY'],
      filter: filterOf(
        env.site,
        chosen.map((p) => p.ref),
      ),
    });
    expect(part?.errorcode === '0', 'STORE-FOLLOWUP-SHAPES', `TRANSACTIONQUERY of ${chosen.length} payment(s) answered ${brief(part)}`);
    const records = Array.isArray(part.records) ? (part.records as Record<string, unknown>[]) : [];
    for (const p of chosen) {
      const r = records.find((x) => x.transactionreference === p.ref);
      expect(r !== undefined, 'FIELD-TRANSACTIONREFERENCE', `TRANSACTIONQUERY did not find payment ${p.ref} (${records.length} record(s) found)`);
      if (p.suspended) expect(r.settlestatus === '2', 'RISKDEC-SUSPEND-AFTER-AUTH', `payment ${p.ref} was suspended (settle status 2); the query says ${String(r.settlestatus)}`);
    }
  }
  toString(): string {
    return `Query(${this.picks.join(',')})`;
  }
}

export const FOLLOW_UPS: ModelSpec<FollowUpModel> = {
  name: 'followups',
  summary: 'payments suspended by TRANSACTIONUPDATE and read back by TRANSACTIONQUERY (public shape)',
  capabilities: ['transactionupdate', 'transactionquery'],
  cards: [ROLES],
  initial: () => ({ today: '', payments: [] }),
  async setup(env, m) {
    m.today = await targetToday(env);
  },
  commands(env) {
    const cards = cardsOf(env.profile, ROLES);
    return [
      fc.constantFrom(...cards).map(({ card }) => new Pay(card)),
      fc.nat({ max: 7 }).map((i) => new Suspend(i)),
      fc.array(fc.nat({ max: 7 }), { minLength: 1, maxLength: 3 }).map((picks) => new QueryPayments(picks)),
    ];
  },
};
