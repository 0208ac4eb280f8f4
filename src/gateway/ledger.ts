/**
 * The ledger: the gateway's only mutable state. Transactions by reference, their children (inheritance and
 * subscription payments), the 3-D Secure `md`/`pares` issued, and the cache tokens minted through the control API.
 *
 * A request is applied through a UnitOfWork: its parts read their own earlier parts' records and write to the
 * unit, which is committed only once every part has answered. Processing is synchronous, so no other request can
 * interleave with a unit, and a unit that fails (a bug answered with 99999) is rolled back whole, including the
 * reference numbers it drew: nothing is half-stored and no reference is used twice.
 *
 * Card numbers are held here (a stored card must be usable later); security codes never are, only the result of
 * their check. Nothing leaves the ledger unmasked: see `maskRecord`.
 */
import type { SiteInfo } from './config';
import { NODE } from './config';
import type { CardData, MutableRecord, SecurityResult, TxRecord } from './types';

export interface TokenCard {
  readonly card: CardData;
  readonly securitycodeResult: SecurityResult;
}

export class Ledger {
  private readonly records = new Map<string, TxRecord>();
  private readonly kids = new Map<string, string[]>();
  private readonly byMd = new Map<string, string>();
  private readonly byPares = new Map<string, string>();
  private readonly tokens = new Map<string, TokenCard>();
  private readonly cards = new Map<string, CardData>();
  /**
   * Payments that had settlestatus `0` when written, by settle due date, waiting for the settlement run. An entry
   * may be stale (the payment was suspended since); the run checks the record. A list per day, not a set, because
   * appending is the cheapest thing a request can do here.
   */
  private readonly dueBy = new Map<string, string[]>();
  /** Subscriptions the engine looks at on each run. */
  readonly subscriptions = new Set<string>();
  /** Last sequence number drawn; references are `<site number>-<node>-<sequence>`, the first being 1001. */
  private seq = 1000;
  private open: UnitOfWork | undefined;

  /** `format` rewrites every new reference (a variant's other reference format: GatewayMutation.reference). */
  constructor(private readonly format?: (standard: string) => string) {}

  /** @internal A new reference: `<site number>-<node>-<sequence>`, or the variant's form of it. */
  referenceFor(site: SiteInfo, seq: number): string {
    const standard = `${site.number}-${NODE}-${seq}`;
    return this.format ? this.format(standard) : standard;
  }

  get size(): number {
    return this.records.size;
  }

  get(ref: string): TxRecord | undefined {
    return this.records.get(ref);
  }

  /** Every record, oldest first. */
  all(): IterableIterator<TxRecord> {
    return this.records.values();
  }

  /** Children of a transaction (inheritance and subscription payments), oldest first. */
  children(ref: string): TxRecord[] {
    const refs = this.kids.get(ref);
    return refs ? refs.map((r) => this.records.get(r)!) : [];
  }

  /** The THREEDQUERY that issued this `md` or this `pares`. */
  threeDsBy(md: string | undefined, pares: string | undefined): TxRecord | undefined {
    const ref = (md !== undefined ? this.byMd.get(md) : undefined) ?? (pares !== undefined ? this.byPares.get(pares) : undefined);
    return ref === undefined ? undefined : this.records.get(ref);
  }

  /**
   * The one CardData of a card number and expiry: records of the same card share it, so a ledger of many payments
   * on few cards holds each card once (less memory, less for the garbage collector to walk).
   */
  card(pan: string, expirydate: string): CardData {
    const key = pan + '|' + expirydate;
    let card = this.cards.get(key);
    if (!card) {
      card = { pan, expirydate };
      this.cards.set(key, card);
    }
    return card;
  }

  addToken(token: string, card: TokenCard): void {
    this.tokens.set(token, card);
  }

  token(token: string): TokenCard | undefined {
    return this.tokens.get(token);
  }

  /** Opens the unit of work of one request. Units never nest: processing is synchronous. */
  begin(): UnitOfWork {
    if (this.open) throw new Error('ledger: a unit of work is already open');
    const uow = new UnitOfWork(this, this.seq);
    this.open = uow;
    return uow;
  }

  /** @internal */
  drawSequence(): number {
    return ++this.seq;
  }

  /** @internal */
  close(uow: UnitOfWork, rollbackTo?: number): void {
    if (this.open === uow) this.open = undefined;
    if (rollbackTo !== undefined) this.seq = rollbackTo;
  }

  /**
   * Writes a record and keeps the indexes in step. Used by units on commit, and directly by the engine and the ACS,
   * each of which is one synchronous step.
   */
  store(rec: TxRecord): void {
    const old = this.records.get(rec.transactionreference);
    this.records.set(rec.transactionreference, rec);
    if (!old && rec.parent !== undefined) {
      const list = this.kids.get(rec.parent);
      if (list) list.push(rec.transactionreference);
      else this.kids.set(rec.parent, [rec.transactionreference]);
    }
    const t = rec.threeds;
    if (t?.md !== undefined) this.byMd.set(t.md, rec.transactionreference);
    if (old?.threeds?.pares !== undefined && old.threeds.pares !== t?.pares) this.byPares.delete(old.threeds.pares);
    if (t?.pares !== undefined) this.byPares.set(t.pares, rec.transactionreference);
    if (rec.settlestatus === '0' && old?.settlestatus !== '0') {
      const day = rec.settleduedate ?? '';
      const list = this.dueBy.get(day);
      if (list) list.push(rec.transactionreference);
      else this.dueBy.set(day, [rec.transactionreference]);
    }
    if (rec.subscription) this.subscriptions.add(rec.transactionreference);
  }

  /**
   * Takes the references waiting for settlement with a due date before `day` (they are the settlement run's from
   * now on: those still at `0` it settles, the others it drops).
   */
  takeDueBefore(day: string): string[] {
    const out: string[] = [];
    for (const [due, refs] of this.dueBy) {
      if (due >= day) continue;
      for (const r of refs) out.push(r);
      this.dueBy.delete(due);
    }
    return out;
  }

  /** Changes a stored record outside a unit of work (engine, ACS). */
  change(ref: string, edit: (r: MutableRecord) => void): TxRecord {
    const old = this.records.get(ref);
    if (!old) throw new Error(`ledger: no transaction ${ref}`);
    const copy: MutableRecord = { ...old };
    edit(copy);
    this.store(copy);
    return copy;
  }
}

export class UnitOfWork {
  // Created on first use: most units create one record and change none, and a Map is not free per request.
  private created: Map<string, TxRecord> | undefined;
  private changed: Map<string, TxRecord> | undefined;
  private done = false;

  constructor(
    private readonly ledger: Ledger,
    private readonly seqAtStart: number,
  ) {}

  /** A new transaction reference for a site: `<site number>-<node>-<sequence>`. */
  reference(site: SiteInfo): { transactionreference: string; seq: number } {
    const seq = this.ledger.drawSequence();
    return { transactionreference: this.ledger.referenceFor(site, seq), seq };
  }

  get(ref: string): TxRecord | undefined {
    return this.changed?.get(ref) ?? this.created?.get(ref) ?? this.ledger.get(ref);
  }

  add(rec: TxRecord): void {
    (this.created ??= new Map()).set(rec.transactionreference, rec);
  }

  update(ref: string, edit: (r: MutableRecord) => void): TxRecord {
    const current = this.get(ref);
    if (!current) throw new Error(`ledger: no transaction ${ref}`);
    const copy: MutableRecord = { ...current };
    edit(copy);
    if (this.created?.has(ref)) this.created.set(ref, copy);
    else (this.changed ??= new Map()).set(ref, copy);
    return copy;
  }

  commit(): void {
    if (this.done) return;
    this.done = true;
    if (this.created) for (const rec of this.created.values()) this.ledger.store(rec);
    if (this.changed) for (const rec of this.changed.values()) this.ledger.store(rec);
    this.ledger.close(this);
  }

  rollback(): void {
    if (this.done) return;
    this.done = true;
    this.ledger.close(this, this.seqAtStart);
  }
}
