/**
 * The fraud-control service in its orders ("Rules tied to the operations" 5 and 6, the combined rows):
 *
 * - RISKDEC, then a THREEDQUERY naming it: "If the shield status is `CHALLENGE` or `DENY`, the THREEDQUERY fails
 *   with errorcode `60107`"; after an ACCEPT it goes through;
 * - a THREEDQUERY of a card not enrolled (or unknown), then "AUTH with `parenttransactionreference` (the
 *   THREEDQUERY's `transactionreference`)";
 * - THREEDQUERY then AUTH then RISKDEC: "send the AUTH's `transactionreference` as `parenttransactionreference` of
 *   the RISKDEC" (the RISKDEC part carries it);
 * - `["RISKDEC","AUTH"]`: "the AUTH part's `parenttransactionreference` is the RISKDEC's `transactionreference`", and
 *   with CHALLENGE or DENY "Authorised transactions are automatically suspended" (settle status `2`, where the
 *   profile says the target keeps that default); `["AUTH","RISKDEC"]`: "the RISKDEC part carries the AUTH's
 *   reference in `parenttransactionreference`".
 *
 * The shield status a card gets is the profile's word (its `shieldChallenge` and `shieldDeny` cards); the model
 * holds the target to what it answered for each RISKDEC afterwards.
 */
import fc from 'fast-check';
import { SHIELD_STATUSES } from '../../../schemas/fields';
import type { CardRole, ProfileCard } from '../../client/profile';
import { brief, call, cardsOf, expect, requestOf, targetToday, type ModelEnv, type ModelSpec } from './common';

interface Decision {
  readonly ref: string;
  readonly shield: string;
}
interface Query {
  readonly ref: string;
  readonly enrolled: string;
}

export interface RiskdecModel {
  today: string;
  readonly decisions: Decision[];
  readonly queries: Query[];
  readonly auths: string[];
}

type Cmd = fc.AsyncCommand<RiskdecModel, ModelEnv>;

const ROLES: readonly CardRole[] = ['authorised', 'notEnrolled', 'enrolmentUnknown', 'shieldChallenge', 'shieldDeny'];
const EXPECTED_SHIELD: Partial<Record<CardRole, string>> = { shieldChallenge: 'CHALLENGE', shieldDeny: 'DENY' };
const suspicious = (shield: string): boolean => shield === 'CHALLENGE' || shield === 'DENY';

class Decide implements Cmd {
  constructor(
    readonly role: CardRole,
    readonly card: ProfileCard,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: RiskdecModel, env: ModelEnv): Promise<void> {
    const [part] = await call(env, requestOf(env, 'Risk decision on card data', { card: this.card }, m.today));
    expect(part?.errorcode === '0', 'RISKDEC-CARD', `a RISKDEC of the "${this.role}" card answered ${brief(part)}`);
    const shield = String(part.fraudcontrolshieldstatuscode);
    expect((SHIELD_STATUSES as readonly string[]).includes(shield), 'RISKDEC-SHIELD-VALUES', `the shield status is ${shield}`);
    const want = EXPECTED_SHIELD[this.role];
    if (want) expect(shield === want, 'RISKDEC-SHIELD', `the profile's "${this.role}" card should give ${want}; the RISKDEC gave ${shield}`);
    m.decisions.push({ ref: part.transactionreference as string, shield });
  }
  toString(): string {
    return `Riskdec(${this.role})`;
  }
}

class QueryAfterDecision implements Cmd {
  constructor(readonly n: number) {}
  check(m: Readonly<RiskdecModel>): boolean {
    return m.decisions.length > 0;
  }
  async run(m: RiskdecModel, env: ModelEnv): Promise<void> {
    const d = m.decisions[this.n % m.decisions.length];
    const [part] = await call(env, requestOf(env, '3-D Secure enrolment check', { parent: d.ref }, m.today));
    if (suspicious(d.shield)) {
      expect(part?.errorcode === '60107', 'RISKDEC-BEFORE-3DS', `the parent RISKDEC ${d.ref} gave ${d.shield}; the THREEDQUERY must fail with 60107, it answered ${brief(part)}`);
      return;
    }
    expect(part?.errorcode === '0', 'RISKDEC-BEFORE-3DS', `the parent RISKDEC ${d.ref} gave ${d.shield}; the THREEDQUERY answered ${brief(part)}`);
    expect(part.parenttransactionreference === d.ref, 'INHERIT-PARENT-ECHO', `the THREEDQUERY part names parent ${String(part.parenttransactionreference)}, not ${d.ref}`);
    m.queries.push({ ref: part.transactionreference as string, enrolled: String(part.enrolled) });
  }
  toString(): string {
    return `ThreeDQuery(after riskdec ${this.n})`;
  }
}

class AuthAfterQuery implements Cmd {
  constructor(readonly n: number) {}
  private candidates(m: Readonly<RiskdecModel>): Query[] {
    return m.queries.filter((q) => q.enrolled === 'N' || q.enrolled === 'U');
  }
  check(m: Readonly<RiskdecModel>): boolean {
    return this.candidates(m).length > 0;
  }
  async run(m: RiskdecModel, env: ModelEnv): Promise<void> {
    const list = this.candidates(m);
    const q = list[this.n % list.length];
    const [part] = await call(env, requestOf(env, 'AUTH after 3-D Secure, card not enrolled or unknown', { parent: q.ref }, m.today));
    // The cards the model uses are all authorised by the bank (their profile roles say so).
    expect(part?.errorcode === '0', q.enrolled === 'N' ? '3DS-NEXT-N' : '3DS-NEXT-U', `AUTH with the reference of THREEDQUERY ${q.ref} (enrolled ${q.enrolled}) answered ${brief(part)}`);
    expect(part.parenttransactionreference === q.ref, 'INHERIT-PARENT-ECHO', `the AUTH part names parent ${String(part.parenttransactionreference)}, not ${q.ref}`);
    m.auths.push(part.transactionreference as string);
  }
  toString(): string {
    return `Auth(after query ${this.n})`;
  }
}

class DecisionAfterAuth implements Cmd {
  constructor(readonly n: number) {}
  check(m: Readonly<RiskdecModel>): boolean {
    return m.auths.length > 0;
  }
  async run(m: RiskdecModel, env: ModelEnv): Promise<void> {
    const ref = m.auths[this.n % m.auths.length];
    const [part] = await call(env, requestOf(env, 'Risk decision after a payment', { parent: ref }, m.today));
    expect(part?.errorcode === '0', 'RISKDEC-AFTER-3DS-AUTH', `a RISKDEC naming AUTH ${ref} answered ${brief(part)}`);
    expect(part.parenttransactionreference === ref, 'RISKDEC-AFTER-PAYMENT', `the RISKDEC part names parent ${String(part.parenttransactionreference)}, not the AUTH ${ref}`);
  }
  toString(): string {
    return `Riskdec(after auth ${this.n})`;
  }
}

class Combined implements Cmd {
  constructor(
    readonly first: boolean,
    readonly role: CardRole,
    readonly card: ProfileCard,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: RiskdecModel, env: ModelEnv): Promise<void> {
    const title = this.first ? 'Combined, risk decision first' : 'Combined, risk decision last';
    const [a, b] = await call(env, requestOf(env, title, { card: this.card }, m.today));
    const riskdec = this.first ? a : b;
    const auth = this.first ? b : a;
    const rule = this.first ? 'RISKDEC-FIRST' : 'RISKDEC-LAST';
    expect(riskdec?.requesttypedescription === 'RISKDEC' && auth?.requesttypedescription === 'AUTH', rule, `the parts are ${brief(a)}, ${brief(b)}`);
    if (riskdec.errorcode !== '0' || auth.errorcode !== '0') return;
    if (this.first) {
      expect(
        auth.parenttransactionreference === riskdec.transactionreference,
        rule,
        `the AUTH part's parenttransactionreference is ${String(auth.parenttransactionreference)}, not the RISKDEC's ${String(riskdec.transactionreference)}`,
      );
      if (env.profile.capabilities.riskdecSuspends && suspicious(String(riskdec.fraudcontrolshieldstatuscode))) {
        expect(
          auth.settlestatus === '2',
          'RISKDEC-SUSPEND-BEFORE-AUTH',
          `the RISKDEC gave ${String(riskdec.fraudcontrolshieldstatuscode)}, so the authorised AUTH must be suspended (settle status 2); it is ${String(auth.settlestatus)}`,
        );
      }
    } else {
      expect(
        riskdec.parenttransactionreference === auth.transactionreference,
        rule,
        `the RISKDEC part's parenttransactionreference is ${String(riskdec.parenttransactionreference)}, not the AUTH's ${String(auth.transactionreference)}`,
      );
    }
    m.auths.push(auth.transactionreference as string);
  }
  toString(): string {
    return `${this.first ? 'RiskdecThenAuth' : 'AuthThenRiskdec'}(${this.role})`;
  }
}

export const RISKDEC: ModelSpec<RiskdecModel> = {
  name: 'riskdec',
  summary: 'RISKDEC before THREEDQUERY and AUTH, after AUTH, and the combined rows (rules 5 and 6)',
  capabilities: ['fraudcontrol'],
  cards: [['authorised', 'notEnrolled']],
  initial: () => ({ today: '', decisions: [], queries: [], auths: [] }),
  async setup(env, m) {
    m.today = await targetToday(env);
  },
  commands(env) {
    const cards = cardsOf(env.profile, ROLES);
    const card = fc.constantFrom(...cards);
    const n = fc.nat({ max: 7 });
    return [
      card.map(({ role, card: c }) => new Decide(role, c)),
      n.map((i) => new QueryAfterDecision(i)),
      n.map((i) => new AuthAfterQuery(i)),
      n.map((i) => new DecisionAfterAuth(i)),
      fc.tuple(fc.boolean(), card).map(([first, { role, card: c }]) => new Combined(first, role, c)),
    ];
  },
};
