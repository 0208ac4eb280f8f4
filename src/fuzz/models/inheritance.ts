/**
 * AUTH children inheriting from their parents (rule 4: "a child request inherits billing and delivery data, and
 * card data for the payment, from its parent. Extra fields may be added to the child that the parent lacked. Fields
 * sent in an ACCOUNTCHECK are inherited by its child requests."), in chains: a child can be the parent of the next.
 *
 * The model knows which card each transaction holds; a child that sends no card of its own must be answered with
 * its parent's card (`maskedpan`) and must name its parent ("`parenttransactionreference`: Present when the
 * response part was based on an earlier request").
 */
import fc from 'fast-check';
import { BILLING_FIELDS } from '../../../schemas/operations';
import { fieldValue } from '../../../generators/values';
import type { ProfileCard } from '../../client/profile';
import { brief, call, cardsOf, expect, requestOf, targetToday, type ModelEnv, type ModelSpec } from './common';

interface Tx {
  readonly ref: string;
  readonly type: 'AUTH' | 'ACCOUNTCHECK';
  /** `maskedpan` of the card the transaction holds, as the target answered it. */
  readonly maskedpan: string;
}

export interface InheritanceModel {
  today: string;
  readonly txs: Tx[];
}

type Cmd = fc.AsyncCommand<InheritanceModel, ModelEnv>;

const ROLES = ['authorised', 'notEnrolled'] as const;
/** Billing fields a request may carry, the document's names only (not the STORE example's `billingprefix`). */
const BILLING = BILLING_FIELDS.filter((f) => f !== 'billingprefix' && f !== 'billingcountryiso2a' && f !== 'billingpostcode');

class Parent implements Cmd {
  constructor(
    readonly type: 'AUTH' | 'ACCOUNTCHECK',
    readonly role: string,
    readonly card: ProfileCard,
    readonly billing: Readonly<Record<string, string>>,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: InheritanceModel, env: ModelEnv): Promise<void> {
    const title = this.type === 'AUTH' ? 'Ordinary AUTH without 3-D Secure' : 'Account check';
    const [part] = await call(env, requestOf(env, title, { card: this.card }, m.today, this.billing));
    expect(part?.errorcode === '0', this.type === 'AUTH' ? 'AUTH-AUTHORISE' : 'AC-VALIDATES', `${this.type} of the "${this.role}" card answered ${brief(part)}`);
    expect(typeof part.transactionreference === 'string' && typeof part.maskedpan === 'string', 'FIELD-TRANSACTIONREFERENCE', `the ${this.type} part lacks transactionreference or maskedpan`);
    m.txs.push({ ref: part.transactionreference as string, type: this.type, maskedpan: part.maskedpan as string });
  }
  toString(): string {
    return `${this.type}(${this.role}${Object.keys(this.billing).length ? `, ${Object.keys(this.billing).join('+')}` : ''})`;
  }
}

class Child implements Cmd {
  constructor(
    readonly n: number,
    readonly extra: Readonly<Record<string, string>>,
  ) {}
  check(m: Readonly<InheritanceModel>): boolean {
    return m.txs.length > 0;
  }
  async run(m: InheritanceModel, env: ModelEnv): Promise<void> {
    const parent = m.txs[this.n % m.txs.length];
    // An ordinary AUTH whose card comes from its parent; extra billing fields "the parent lacked" may be added.
    const request = requestOf(env, 'Ordinary AUTH without 3-D Secure', { parent: parent.ref }, m.today, this.extra);
    const [part] = await call(env, request);
    expect(part?.errorcode === '0', 'INHERIT-CHILD', `a child AUTH of ${parent.type} ${parent.ref} (sending no card) answered ${brief(part)}: the card "for the payment" is inherited`);
    expect(part.parenttransactionreference === parent.ref, 'INHERIT-PARENT-ECHO', `the child part's parenttransactionreference is ${String(part.parenttransactionreference)}, not ${parent.ref}`);
    expect(part.maskedpan === parent.maskedpan, 'INHERIT-CHILD', `the child was answered with card ${String(part.maskedpan)}, its parent holds ${parent.maskedpan}`);
    m.txs.push({ ref: part.transactionreference as string, type: 'AUTH', maskedpan: parent.maskedpan });
  }
  toString(): string {
    return `Child(${this.n}${Object.keys(this.extra).length ? `, +${Object.keys(this.extra).join('+')}` : ''})`;
  }
}

function billing(): fc.Arbitrary<Record<string, string>> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const f of BILLING) model[f] = fieldValue(f, 'request');
  return fc.record(model, { requiredKeys: [], noNullPrototype: true }).map((r) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(r)) if (v !== undefined) out[k] = v;
    return out;
  });
}

export const INHERITANCE: ModelSpec<InheritanceModel> = {
  name: 'inheritance',
  summary: 'AUTH and ACCOUNTCHECK parents, AUTH children in chains inheriting the card (rule 4, AC-INHERITED)',
  capabilities: [],
  cards: [ROLES],
  initial: () => ({ today: '', txs: [] }),
  async setup(env, m) {
    m.today = await targetToday(env);
  },
  commands(env) {
    const cards = cardsOf(env.profile, ROLES);
    return [
      fc.tuple(fc.constantFrom('AUTH' as const, 'ACCOUNTCHECK' as const), fc.constantFrom(...cards), billing()).map(([type, { role, card }, b]) => new Parent(type, role, card, b)),
      fc.tuple(fc.nat({ max: 7 }), billing()).map(([n, extra]) => new Child(n, extra)),
    ];
  },
};
