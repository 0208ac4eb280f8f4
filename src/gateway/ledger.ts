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
 *
 * The ledger is bounded (docs/gateway.md, "What the ledger keeps"): the newest `maxRecords` transactions are always
 * kept (the window); a transaction leaving the window is kept only while something can still reach it (a stored
 * card, a subscription with payments to come, a THREEDQUERY waiting for its AUTH, the parent of a record still
 * held), and at most `maxRecords` of those, the least recently used going first. Everything else is dropped, with its indexes, so
 * a gateway under a steady load holds at most twice `maxRecords` transactions. A dropped transaction is unknown.
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

/** How many transactions the window holds unless told otherwise (`cardspec serve --max-records`). */
export const DEFAULT_MAX_RECORDS = 100_000;

/**
 * A list of references (a parent's children, the payments due on a day) that sheds the ones no longer held. Records
 * are dropped oldest first, so the dead ones are mostly at the front and leave cheaply; those behind a long-lived
 * entry are filtered out when the list has doubled since it was last filtered: a list costs amortised O(1) per entry
 * and never outgrows twice what it holds (plus a little), however many records pass through it.
 */
class RefList {
  private items: string[];
  private head = 0;
  private limit = 64;

  /**
   * Made with its first entry, in a list of exactly one: most parents have one child (a THREEDQUERY its AUTH), and an
   * empty list that is pushed to gets room for seventeen, which the ledger would hold for as long as the parent.
   */
  constructor(first: string) {
    this.items = [first];
  }

  push(ref: string, held: (ref: string) => boolean): void {
    this.items.push(ref);
    if (this.items.length - this.head > this.limit) {
      this.items = this.items.slice(this.head).filter(held);
      this.head = 0;
      this.limit = Math.max(64, 2 * this.items.length);
    }
  }

  /** Entries, some possibly no longer held (readers look each up). */
  get length(): number {
    return this.items.length - this.head;
  }

  values(): string[] {
    return this.head === 0 ? this.items : this.items.slice(this.head);
  }

  /** Sheds the entries at the front that are no longer held. */
  trim(held: (ref: string) => boolean): void {
    while (this.head < this.items.length && !held(this.items[this.head])) this.head++;
    if (this.head >= 64 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

/** What the ledger holds, for the control API (`GET /_cardspec/ledger`) and the tests. */
export interface LedgerStats {
  /** Transactions held. */
  readonly records: number;
  /** Of those, kept beyond the window because something can still reach them. */
  readonly kept: number;
  readonly maxRecords: number;
  /** Transactions dropped since the start. */
  readonly dropped: number;
}

export class Ledger {
  /**
   * The window: records by sequence number (index `seq - base`), oldest first. The sequence is the gateway's own,
   * one per record, so a reference in the standard form finds its record by the number it ends with, and a request
   * stores its record with one append instead of probing and growing a hash table of every reference ever made.
   * Slots before `head` have left the window; they are cut off in batches.
   */
  private bySeq: (TxRecord | undefined)[] = [];
  /** Children's lists of the parents in the window, at the same index as `bySeq`. */
  private kidsBySeq: (RefList | undefined)[] = [];
  private base = FIRST_SEQ;
  private head = 0;
  /** Records that left the window but can still be reached, in the order they left it (oldest first). */
  private readonly kept = new Map<string, TxRecord>();
  /**
   * The kept records by last use (a change, a new child), least recent first: beyond the cap the least recently
   * used goes, so that a parent a client keeps naming (a stored card paid with every day) outlives one nobody named
   * since it was made.
   */
  private readonly lastUsed = new Map<string, true>();
  /** A variant's own reference form (`GatewayMutation.reference`) cannot be read back: its records by reference. */
  private readonly byRef: Map<string, TxRecord> | undefined;
  private count = 0;
  private droppedCount = 0;
  /** Children by their parent's reference, for parents outside the window (kept, a variant's form, or not yet written). */
  private readonly kids = new Map<string, RefList>();
  private readonly byMd = new Map<string, string>();
  private readonly byPares = new Map<string, string>();
  private readonly tokens = new Map<string, TokenCard>();
  /** Card data by card number, then expiry date. */
  private cards = new Map<string, Map<string, CardData>>();
  /**
   * Payments that had settlestatus `0` when written, by settle due date, waiting for the settlement run. An entry
   * may be stale (the payment was suspended or dropped since); the run checks the record.
   */
  private readonly dueBy = new Map<string, RefList>();
  /** The list of `dueBy` a payment was last added to: payments of one day follow each other. */
  private lastDue: { day: string; refs: RefList } | undefined;
  /** Subscriptions the engine looks at on each run. */
  readonly subscriptions = new Set<string>();
  /** `<site number>-<node>-` of each site, written once. */
  private readonly prefixes = new Map<SiteInfo, string>();
  /** Last sequence number drawn; references are `<site number>-<node>-<sequence>`, the first being 1001. */
  private seq = 1000;
  private open: UnitOfWork | undefined;
  readonly maxRecords: number;

  /**
   * `format` rewrites every new reference (a variant's other reference format: GatewayMutation.reference);
   * `maxRecords` is the size of the window (and of what may be kept beyond it).
   */
  constructor(
    private readonly format?: (standard: string) => string,
    maxRecords: number = DEFAULT_MAX_RECORDS,
  ) {
    if (!Number.isInteger(maxRecords) || maxRecords < 1) throw new Error(`ledger: maxRecords must be a whole number of at least 1, not ${maxRecords}`);
    this.maxRecords = maxRecords;
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

  stats(): LedgerStats {
    return { records: this.count, kept: this.kept.size, maxRecords: this.maxRecords, dropped: this.droppedCount };
  }

  get(ref: string): TxRecord | undefined {
    if (this.byRef) return this.byRef.get(ref);
    const i = sequenceOf(ref) - this.base;
    if (i >= this.head) {
      const rec = this.bySeq[i];
      return rec !== undefined && rec.transactionreference === ref ? rec : undefined;
    }
    // Most ledgers keep nothing beyond the window (a load of plain payments): no hashing of the reference then.
    return i + this.base >= FIRST_SEQ && this.kept.size > 0 ? this.kept.get(ref) : undefined;
  }

  /** Every record held, oldest first. */
  *all(): IterableIterator<TxRecord> {
    yield* this.kept.values();
    for (let i = this.head; i < this.bySeq.length; i++) {
      const rec = this.bySeq[i];
      if (rec !== undefined) yield rec;
    }
  }

  /** Children of a transaction (inheritance and subscription payments) still held, oldest first. */
  children(ref: string): TxRecord[] {
    const list = this.kidsOf(ref);
    if (!list) return [];
    const out: TxRecord[] = [];
    for (const r of list.values()) {
      const rec = this.get(r);
      if (rec) out.push(rec);
    }
    return out;
  }

  /** The place in `bySeq` of a record in the window (standard form), or -1. */
  private indexOf(ref: string): number {
    if (this.byRef) {
      const rec = this.byRef.get(ref);
      const i = rec === undefined ? -1 : rec.seq - this.base;
      return i >= this.head && this.bySeq[i] === rec ? i : -1;
    }
    const i = sequenceOf(ref) - this.base;
    return i >= this.head && this.bySeq[i]?.transactionreference === ref ? i : -1;
  }

  private kidsOf(ref: string): RefList | undefined {
    const i = this.indexOf(ref);
    return i < 0 ? this.kids.get(ref) : this.kidsBySeq[i];
  }

  /** The THREEDQUERY that issued this `md` or this `pares`. */
  threeDsBy(md: string | undefined, pares: string | undefined): TxRecord | undefined {
    const ref = (md !== undefined ? this.byMd.get(md) : undefined) ?? (pares !== undefined ? this.byPares.get(pares) : undefined);
    return ref === undefined ? undefined : this.get(ref);
  }

  /**
   * The one CardData of a card number and expiry: records of the same card share it, so a ledger of many payments
   * on few cards holds each card once (less memory, less for the garbage collector to walk). Only a cache: it is
   * emptied when it grows past the window, so that a stream of new card numbers (a fuzzer) does not pile up.
   */
  card(pan: string, expirydate: string): CardData {
    let byExpiry = this.cards.get(pan);
    if (!byExpiry) {
      if (this.cards.size >= this.maxRecords) this.cards = new Map();
      this.cards.set(pan, (byExpiry = new Map()));
    }
    let card = byExpiry.get(expirydate);
    if (!card) {
      card = { pan, expirydate };
      byExpiry.set(expirydate, card);
    }
    return card;
  }

  /** Keeps a minted cache token; the oldest is forgotten beyond `maxRecords` tokens. */
  addToken(token: string, card: TokenCard): void {
    this.tokens.set(token, card);
    if (this.tokens.size > this.maxRecords) this.tokens.delete(this.tokens.keys().next().value as string);
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
   * Writes a record and keeps the indexes in step, then lets the window move on. Used by the engine and the ACS,
   * each of which is one synchronous step; units write all their records first (`storeAll`).
   */
  store(rec: TxRecord): void {
    this.write(rec, this.get(rec.transactionreference));
    this.slide();
  }

  /** @internal A unit's records, written together before the window moves (a record leaving the window meanwhile
   * would otherwise be judged before its new child is written). */
  storeAll(recs: Iterable<TxRecord>): void {
    for (const rec of recs) this.write(rec, this.get(rec.transactionreference));
    this.slide();
  }

  private write(rec: TxRecord, old: TxRecord | undefined): void {
    const ref = rec.transactionreference;
    if (this.byRef) this.byRef.set(ref, rec);
    const seq = this.byRef ? rec.seq : sequenceOf(ref);
    if (seq < FIRST_SEQ) throw new Error(`ledger: not a reference of this gateway: ${ref}`);
    const i = seq - this.base;
    if (i >= this.head) {
      this.bySeq[i] = rec;
      // Kept as long as `bySeq`, written in the same order, so that neither array has gaps.
      if (this.kidsBySeq.length <= i) this.kidsBySeq[i] = undefined;
    } else if (old !== undefined && this.kept.has(ref)) {
      this.kept.set(ref, rec);
      this.touch(ref);
    } else {
      // A record that left the window before it was written (a unit outlived by the window): nothing can hold it.
      if (this.byRef) this.byRef.delete(ref);
      return;
    }
    if (!old) this.count++;
    if (!old && rec.parent !== undefined) {
      const p = this.indexOf(rec.parent);
      const list = p < 0 ? this.kids.get(rec.parent) : this.kidsBySeq[p];
      if (p < 0) this.touch(rec.parent);
      if (list) list.push(ref, this.isHeld);
      else {
        const fresh = new RefList(ref);
        if (p < 0) this.kids.set(rec.parent, fresh);
        else this.kidsBySeq[p] = fresh;
      }
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
      if (last !== undefined && last.day === day) last.refs.push(ref, this.isDue);
      else {
        let list = this.dueBy.get(day);
        if (!list) this.dueBy.set(day, (list = new RefList(ref)));
        else list.push(ref, this.isDue);
        this.lastDue = { day, refs: list };
      }
    }
    if (rec.subscription) this.subscriptions.add(ref);
    // A kept record that nothing reaches any more since this change (a subscription's last payment taken).
    if (i < this.head && !this.reachable(rec, this.kidsOf(ref))) this.drop(rec);
  }

  /**
   * Whether something can still reach a record outside the window: "a stored card, a subscription with payments to
   * come, a THREEDQUERY waiting for its AUTH, the parent of a live child" (docs/gateway.md).
   */
  /** Marks a kept record, and the kept ancestors it reads, as just used. */
  private touch(ref: string): void {
    for (let depth = 0; depth < 16; depth++) {
      const rec = this.kept.get(ref);
      if (rec === undefined) return;
      this.lastUsed.delete(ref);
      this.lastUsed.set(ref, true);
      if (rec.parent === undefined) return;
      ref = rec.parent;
    }
  }

  private readonly isHeld = (ref: string): boolean => this.get(ref) !== undefined;
  private readonly isDue = (ref: string): boolean => this.get(ref)?.settlestatus === '0';

  private reachable(rec: TxRecord, kids: RefList | undefined, hadKids = false): boolean {
    if (kids !== undefined) {
      kids.trim(this.isHeld);
      if (kids.length > 0) return true;
    }
    if (rec.type === 'STORE') return rec.errorcode === '0';
    const sub = rec.subscription;
    if (sub !== undefined) return sub.finalNumber === 0 || sub.lastNumber < sub.finalNumber;
    // Waiting: no AUTH has come for it yet (an AUTH after 3-D Secure marks it used; any other AUTH is its child).
    if (rec.type === 'THREEDQUERY') return !hadKids && rec.threeds?.used !== true;
    return false;
  }

  /** Moves the window past the records older than the newest `maxRecords`: each is kept or dropped. */
  private slide(): void {
    // The window is the newest `maxRecords` sequence numbers drawn.
    const end = this.seq - this.maxRecords + 1 - this.base;
    if (end <= this.head) return;
    while (this.head < end) {
      const i = this.head;
      const rec = this.bySeq[i];
      const kids = this.kidsBySeq[i];
      this.bySeq[i] = undefined;
      this.kidsBySeq[i] = undefined;
      this.head++;
      if (rec === undefined) continue;
      if (this.reachable(rec, kids)) {
        this.kept.set(rec.transactionreference, rec);
        this.lastUsed.set(rec.transactionreference, true);
        if (kids) this.kids.set(rec.transactionreference, kids);
        if (this.kept.size > this.maxRecords) {
          // Beyond the cap even a reachable record goes, the least recently used first: the ledger's memory has a
          // ceiling.
          const stale = this.kept.get(this.lastUsed.keys().next().value as string);
          if (stale) this.drop(stale);
        }
      } else this.drop(rec, true);
    }
    // Cut the slots that left, in batches, so that the arrays do not grow with every request ever made.
    if (this.head >= 1024 && this.head * 2 >= this.bySeq.length) {
      this.bySeq.splice(0, this.head);
      this.kidsBySeq.splice(0, this.head);
      this.base += this.head;
      this.head = 0;
    }
  }

  /**
   * Forgets a record and every index entry of it; a kept parent nothing else reaches goes with it. `leaving`: the
   * record is the one the window just moved past (`slide` cleared its slot), so not in the window, and in the
   * standard form, whose references are unique by their sequence number, not kept either: no look-up of its
   * reference, whose text is the oldest in the ledger and seldom still in the processor's caches. A variant's own
   * form (or an observed upstream's) may repeat a reference, so there the kept one of that reference goes as before.
   */
  private drop(rec: TxRecord, leaving = false): void {
    const ref = rec.transactionreference;
    const i = leaving ? -1 : this.indexOf(ref);
    if (i >= 0) {
      this.bySeq[i] = undefined;
      this.kidsBySeq[i] = undefined;
    } else if (!leaving || this.byRef) {
      this.kept.delete(ref);
      this.lastUsed.delete(ref);
    }
    // Most records never had children of their own outside the window: no look-up of their reference then.
    if (this.kids.size > 0) this.kids.delete(ref);
    if (this.byRef) this.byRef.delete(ref);
    this.count--;
    this.droppedCount++;
    const t = rec.threeds;
    if (t?.md !== undefined && this.byMd.get(t.md) === ref) this.byMd.delete(t.md);
    if (t?.pares !== undefined && this.byPares.get(t.pares) === ref) this.byPares.delete(t.pares);
    if (rec.subscription) this.subscriptions.delete(ref);
    if (rec.settlestatus === '0') this.dueBy.get(rec.settleduedate ?? '')?.trim(this.isDue);
    if (rec.parent !== undefined) {
      const list = this.kidsOf(rec.parent);
      if (list) {
        list.trim(this.isHeld);
        const parent = list.length === 0 ? this.kept.get(rec.parent) : undefined;
        if (parent !== undefined && !this.reachable(parent, undefined, true)) this.drop(parent);
      }
    }
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
      for (const r of refs.values()) out.push(r);
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
    this.slide();
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
    const created = this.created ?? [];
    this.ledger.storeAll(this.changed ? [...created, ...this.changed.values()] : created);
    this.ledger.close(this);
  }

  rollback(): void {
    if (this.done) return;
    this.done = true;
    this.ledger.close(this, this.seqAtStart);
  }
}
