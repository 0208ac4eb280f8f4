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
import { copyRecord } from './records';
import type { CardData, MutableRecord, SecurityResult, TxRecord } from './transaction';

export interface TokenCard {
  readonly card: CardData;
  readonly securitycodeResult: SecurityResult;
}

/** The first sequence number; references are `<site number>-<node>-<sequence>`. */
const FIRST_SEQ = 1001;

/**
 * The sequence number of a reference in the standard form (`12-9-1001` gives 1001), or -1. Only the digits after
 * the last hyphen are read: the record found there must still carry the very same reference.
 */
function sequenceOf(ref: string): number {
  // Read from the end, digit by digit, up to the hyphen (a plain loop: `lastIndexOf` is a call into the engine).
  let seq = 0;
  let scale = 1;
  for (let i = ref.length - 1; i >= 0; i--) {
    const c = ref.charCodeAt(i);
    if (c === 45 /* - */) return scale > 1 ? seq : -1;
    const d = c - 48;
    if (d < 0 || d > 9 || scale > 1e14) return -1;
    seq += d * scale;
    scale *= 10;
  }
  return -1;
}

export class Ledger {
  /**
   * Records by sequence number (index `seq - FIRST_SEQ`): the sequence is the gateway's own, one per record, so a
   * reference in the standard form finds its record by the number it ends with, and a request stores its record with
   * one append instead of probing and growing a hash table of every reference ever made. A variant's own reference
   * form (`GatewayMutation.reference`) cannot be read back, so its records are found by reference in `byRef`.
   */
  private readonly bySeq: (TxRecord | undefined)[] = [];
  private readonly byRef: Map<string, TxRecord> | undefined;
  private count = 0;
  /**
   * Children by their parent's reference. A parent stored in `bySeq` keeps its children's list at the same index of
   * `kidsBySeq` (no hash table of every parent either); `kids` holds the others: a variant's own reference form, or
   * a child written before its parent.
   */
  private readonly kids = new Map<string, string[]>();
  private readonly kidsBySeq: (string[] | undefined)[] = [];
  private readonly byMd = new Map<string, string>();
  private readonly byPares = new Map<string, string>();
  private readonly tokens = new Map<string, TokenCard>();
  /** Card data by card number, then expiry date. */
  private readonly cards = new Map<string, Map<string, CardData>>();
  /**
   * Payments that had settlestatus `0` when written, by settle due date, waiting for the settlement run. An entry
   * may be stale (the payment was suspended since); the run checks the record. A list per day, not a set, because
   * appending is the cheapest thing a request can do here.
   */
  private readonly dueBy = new Map<string, string[]>();
  /** The list of `dueBy` a payment was last added to: payments of one day follow each other. */
  private lastDue: { day: string; refs: string[] } | undefined;
  /** Subscriptions the engine looks at on each run. */
  readonly subscriptions = new Set<string>();
  /** `<site number>-<node>-` of each site, written once. */
  private readonly prefixes = new Map<SiteInfo, string>();
  /** Last sequence number drawn; references are `<site number>-<node>-<sequence>`, the first being 1001. */
  private seq = 1000;
  private open: UnitOfWork | undefined;

  /** `format` rewrites every new reference (a variant's other reference format: GatewayMutation.reference). */
  constructor(private readonly format?: (standard: string) => string) {
    if (format) this.byRef = new Map();
  }

  /** @internal A new reference: `<site number>-<node>-<sequence>`, or the variant's form of it. */
  referenceFor(site: SiteInfo, seq: number): string {
    let prefix = this.prefixes.get(site);
    if (prefix === undefined) this.prefixes.set(site, (prefix = `${site.number}-${NODE}-`));
    const standard = prefix + seq;
    return this.format ? this.format(standard) : standard;
  }

  get size(): number {
    return this.count;
  }

  get(ref: string): TxRecord | undefined {
    if (this.byRef) return this.byRef.get(ref);
    const seq = sequenceOf(ref);
    const rec = seq < FIRST_SEQ ? undefined : this.bySeq[seq - FIRST_SEQ];
    return rec !== undefined && rec.transactionreference === ref ? rec : undefined;
  }

  /** Every record, oldest first. */
  *all(): IterableIterator<TxRecord> {
    if (this.byRef) {
      yield* this.byRef.values();
      return;
    }
    for (const rec of this.bySeq) if (rec !== undefined) yield rec;
  }

  /** Children of a transaction (inheritance and subscription payments), oldest first. */
  children(ref: string): TxRecord[] {
    const early = this.kids.get(ref);
    const i = this.indexOf(ref);
    const late = i < 0 ? undefined : this.kidsBySeq[i];
    // Children written before their parent (if any) are the older ones.
    const refs = early && late ? [...early, ...late] : (early ?? late);
    return refs ? refs.map((r) => this.get(r)!) : [];
  }

  /** The place in `bySeq` of a stored record in the standard form, or -1. */
  private indexOf(ref: string): number {
    if (this.byRef) return -1;
    const i = sequenceOf(ref) - FIRST_SEQ;
    return i >= 0 && this.bySeq[i]?.transactionreference === ref ? i : -1;
  }

  /** The THREEDQUERY that issued this `md` or this `pares`. */
  threeDsBy(md: string | undefined, pares: string | undefined): TxRecord | undefined {
    const ref = (md !== undefined ? this.byMd.get(md) : undefined) ?? (pares !== undefined ? this.byPares.get(pares) : undefined);
    return ref === undefined ? undefined : this.get(ref);
  }

  /**
   * The one CardData of a card number and expiry: records of the same card share it, so a ledger of many payments
   * on few cards holds each card once (less memory, less for the garbage collector to walk).
   */
  card(pan: string, expirydate: string): CardData {
    let byExpiry = this.cards.get(pan);
    if (!byExpiry) this.cards.set(pan, (byExpiry = new Map()));
    let card = byExpiry.get(expirydate);
    if (!card) {
      card = { pan, expirydate };
      byExpiry.set(expirydate, card);
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
    this.write(rec, this.get(rec.transactionreference));
  }

  private write(rec: TxRecord, old: TxRecord | undefined): void {
    const ref = rec.transactionreference;
    if (this.byRef) this.byRef.set(ref, rec);
    else {
      const seq = sequenceOf(ref);
      if (seq < FIRST_SEQ) throw new Error(`ledger: not a reference of this gateway: ${ref}`);
      const i = seq - FIRST_SEQ;
      this.bySeq[i] = rec;
      // Kept as long as `bySeq`, written in the same order, so that neither array has gaps.
      if (this.kidsBySeq.length <= i) this.kidsBySeq[i] = undefined;
    }
    if (!old) this.count++;
    if (!old && rec.parent !== undefined) {
      const p = this.indexOf(rec.parent);
      const list = p < 0 ? this.kids.get(rec.parent) : this.kidsBySeq[p];
      if (list) list.push(ref);
      else if (p < 0) this.kids.set(rec.parent, [ref]);
      else this.kidsBySeq[p] = [ref];
    }
    const t = rec.threeds;
    if (t !== undefined || old?.threeds !== undefined) {
      if (t?.md !== undefined) this.byMd.set(t.md, ref);
      if (old?.threeds?.pares !== undefined && old.threeds.pares !== t?.pares) this.byPares.delete(old.threeds.pares);
      if (t?.pares !== undefined) this.byPares.set(t.pares, ref);
    }
    if (rec.settlestatus === '0' && old?.settlestatus !== '0') {
      const day = rec.settleduedate ?? '';
      const last = this.lastDue;
      if (last !== undefined && last.day === day) last.refs.push(ref);
      else {
        let list = this.dueBy.get(day);
        if (list) list.push(ref);
        else this.dueBy.set(day, (list = [ref]));
        this.lastDue = { day, refs: list };
      }
    }
    if (rec.subscription) this.subscriptions.add(ref);
  }

  /**
   * Takes the references waiting for settlement with a due date before `day` (they are the settlement run's from
   * now on: those still at `0` it settles, the others it drops).
   */
  takeDueBefore(day: string): string[] {
    const out: string[] = [];
    // The settlement run owns the lists it takes: the next payment starts a list of its own.
    this.lastDue = undefined;
    for (const [due, refs] of this.dueBy) {
      if (due >= day) continue;
      for (const r of refs) out.push(r);
      this.dueBy.delete(due);
    }
    return out;
  }

  /** Changes a stored record outside a unit of work (engine, ACS). */
  change(ref: string, edit: (r: MutableRecord) => void): TxRecord {
    const old = this.get(ref);
    if (!old) throw new Error(`ledger: no transaction ${ref}`);
    const copy = copyRecord(old);
    edit(copy);
    this.write(copy, old);
    return copy;
  }
}

export class UnitOfWork {
  // Created on first use: most units create one record and change none. The records created are few (one per
  // part), so a list is searched rather than a Map built per request.
  private created: TxRecord[] | undefined;
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

  /** The place of a record this unit created, or -1. */
  private createdAt(ref: string): number {
    const list = this.created;
    if (list) for (let i = 0; i < list.length; i++) if (list[i].transactionreference === ref) return i;
    return -1;
  }

  get(ref: string): TxRecord | undefined {
    const changed = this.changed?.get(ref);
    if (changed) return changed;
    const i = this.createdAt(ref);
    return i >= 0 ? this.created![i] : this.ledger.get(ref);
  }

  add(rec: TxRecord): void {
    const i = this.createdAt(rec.transactionreference);
    if (i >= 0) this.created![i] = rec;
    else if (this.created) this.created.push(rec);
    // A list of exactly one: most units create one record (a `[]` that is pushed to starts with room for 16).
    else this.created = [rec];
  }

  update(ref: string, edit: (r: MutableRecord) => void): TxRecord {
    const current = this.get(ref);
    if (!current) throw new Error(`ledger: no transaction ${ref}`);
    const copy = copyRecord(current);
    edit(copy);
    const i = this.createdAt(ref);
    if (i >= 0) this.created![i] = copy;
    else (this.changed ??= new Map()).set(ref, copy);
    return copy;
  }

  commit(): void {
    if (this.done) return;
    this.done = true;
    if (this.created) for (const rec of this.created) this.ledger.store(rec);
    if (this.changed) for (const rec of this.changed.values()) this.ledger.store(rec);
    this.ledger.close(this);
  }

  rollback(): void {
    if (this.done) return;
    this.done = true;
    this.ledger.close(this, this.seqAtStart);
  }
}
