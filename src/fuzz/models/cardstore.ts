/**
 * The card store ("States and transitions > Card store"): sequences of STORE, disable, enable and use of a stored
 * card, against a model of which stored cards are enabled.
 *
 * | none | STORE request | success | `1` enabled |
 * | `1` | TRANSACTIONUPDATE | value `0` | `0` disabled for future requests |
 * | `0` | TRANSACTIONUPDATE | value `1` | `1` |
 *
 * Every answer also passes the checks of every answer (./common.ts `call`), among them that no full card number
 * comes back ("the card number is masked in the response").
 *
 * A card is used the one way the document names: "A stored card (STORE) can be referenced in a THREEDQUERY"
 * (rule 7). TRANSACTIONUPDATE and TRANSACTIONQUERY go in the public shape (public-facts.md), so the model runs only
 * where the profile says the target takes it.
 */
import fc from 'fast-check';
import type { ProfileCard } from '../../client/profile';
import { brief, call, cardsOf, expect, filterOf, requestOf, targetToday, type ModelEnv, type ModelSpec } from './common';

interface Stored {
  readonly ref: string;
  readonly pan: string;
  active: boolean;
}

export interface CardStoreModel {
  today: string;
  readonly cards: Stored[];
}

type Cmd = fc.AsyncCommand<CardStoreModel, ModelEnv>;

const ROLES = ['authorised', 'notEnrolled'] as const;

class StoreCard implements Cmd {
  constructor(
    readonly role: string,
    readonly card: ProfileCard,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: CardStoreModel, env: ModelEnv): Promise<void> {
    const [part] = await call(env, requestOf(env, 'Card store', { card: this.card }, m.today));
    expect(part?.errorcode === '0', 'STORE-SHAPE', `a STORE of the "${this.role}" card answered ${brief(part)}`);
    expect(part.transactionactive === '1', 'STORE-STATE-ENABLED', `a new stored card must be "1 enabled"; the STORE part says transactionactive ${String(part.transactionactive)}`);
    expect(typeof part.transactionreference === 'string', 'STORE-RESPONSE-FIELDS', 'the STORE part has no transactionreference');
    m.cards.push({ ref: part.transactionreference as string, pan: this.card.pan, active: true });
  }
  toString(): string {
    return `Store(${this.role})`;
  }
}

/** Picks the n-th (modulo) of the cards in a state. */
function pick(m: Readonly<CardStoreModel>, n: number, active?: boolean): Stored | undefined {
  const list = active === undefined ? m.cards : m.cards.filter((c) => c.active === active);
  return list.length > 0 ? list[n % list.length] : undefined;
}

class SetActive implements Cmd {
  constructor(
    readonly n: number,
    readonly to: '0' | '1',
  ) {}
  check(m: Readonly<CardStoreModel>): boolean {
    return pick(m, this.n, this.to === '0') !== undefined;
  }
  async run(m: CardStoreModel, env: ModelEnv): Promise<void> {
    const card = pick(m, this.n, this.to === '0')!;
    const [part] = await call(env, { requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: filterOf(env.site, [card.ref]), updates: { transactionactive: this.to } });
    const rule = this.to === '0' ? 'STORE-STATE-DISABLE' : 'STORE-STATE-REENABLE';
    expect(part?.errorcode === '0', rule, `TRANSACTIONUPDATE transactionactive ${this.to} of stored card ${card.ref} answered ${brief(part)}`);
    card.active = this.to === '1';
  }
  toString(): string {
    return `${this.to === '0' ? 'Disable' : 'Enable'}(${this.n})`;
  }
}

class UseCard implements Cmd {
  constructor(readonly n: number) {}
  check(m: Readonly<CardStoreModel>): boolean {
    return m.cards.length > 0;
  }
  async run(m: CardStoreModel, env: ModelEnv): Promise<void> {
    const card = pick(m, this.n)!;
    const [part] = await call(env, requestOf(env, '3-D Secure enrolment check', { parent: card.ref }, m.today));
    if (card.active) {
      expect(part?.errorcode === '0', '3DS-STORED-CARD', `stored card ${card.ref} is enabled, yet a THREEDQUERY naming it answered ${brief(part)}`);
    } else {
      expect(
        part !== undefined && part.errorcode !== '0',
        'STORE-STATE-DISABLE',
        `stored card ${card.ref} was disabled ("0 disabled for future requests"), yet a THREEDQUERY naming it answered ${brief(part)}`,
      );
    }
  }
  toString(): string {
    return `Use(${this.n})`;
  }
}

class QueryCard implements Cmd {
  constructor(readonly n: number) {}
  check(m: Readonly<CardStoreModel>): boolean {
    return m.cards.length > 0;
  }
  async run(m: CardStoreModel, env: ModelEnv): Promise<void> {
    const card = pick(m, this.n)!;
    const [part] = await call(env, { requesttypedescriptions: ['TRANSACTIONQUERY'], filter: filterOf(env.site, [card.ref]) });
    expect(part?.errorcode === '0', 'STORE-QUERY-MASKED', `TRANSACTIONQUERY of stored card ${card.ref} answered ${brief(part)}`);
    const records = Array.isArray(part.records) ? (part.records as Record<string, unknown>[]) : [];
    const record = records.find((r) => r.transactionreference === card.ref);
    expect(record !== undefined, 'STORE-QUERY-MASKED', `TRANSACTIONQUERY of stored card ${card.ref} found ${String(part.found ?? records.length)} record(s), not the card`);
    const want = card.active ? '1' : '0';
    expect(
      record.transactionactive === want,
      card.active ? 'STORE-STATE-REENABLE' : 'STORE-STATE-DISABLE',
      `stored card ${card.ref} should be transactionactive ${want}; the query says ${String(record.transactionactive)}`,
    );
  }
  toString(): string {
    return `Query(${this.n})`;
  }
}

export const CARD_STORE: ModelSpec<CardStoreModel> = {
  name: 'card-store',
  summary: 'STORE, disable, enable and use of stored cards (Card store state table; rule 7)',
  capabilities: ['cardstore', 'transactionupdate'],
  cards: [ROLES],
  initial: () => ({ today: '', cards: [] }),
  async setup(env, m) {
    m.today = await targetToday(env);
  },
  commands(env) {
    const cards = cardsOf(env.profile, ROLES);
    const n = fc.nat({ max: 7 });
    const out: fc.Arbitrary<Cmd>[] = [
      fc.constantFrom(...cards).map(({ role, card }) => new StoreCard(role, card)),
      n.map((i) => new SetActive(i, '0')),
      n.map((i) => new SetActive(i, '1')),
      n.map((i) => new UseCard(i)),
    ];
    if (env.profile.capabilities.transactionquery) out.push(n.map((i) => new QueryCard(i)));
    return out;
  },
};
