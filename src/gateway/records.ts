/**
 * Ledger records that do not keep their response part. The ledger keeps every transaction for the run (the
 * test-control API, TRANSACTIONQUERY, children inheriting from parents), and the part is the biggest thing a
 * payment's record would hold: some thirty fields, nearly all of them repeating the record's own data (its fields,
 * card, reference, timestamps, result). The busiest records (AUTH, ACCOUNTCHECK, THREEDQUERY) therefore keep only
 * what their part is made from, and make the part again, with the very code that made the answer, whenever it is
 * read: the same fields, values and order as answered. A part is read rarely (a query, the control API, the ACS
 * page, a RISKDEC after a payment); every request stores a record, and a smaller record is less for the garbage
 * collector to copy and walk and less memory for the process to take from the system.
 */
import type { RequestType } from '../../schemas/fields';
import type { Shield } from '../testdata';
import type { ResponsePart } from '../wire/types';
import type { CardData, Fields, MutableRecord, SecurityResult, SubscriptionState, ThreeDsState, TxRecord } from './transaction';

/**
 * Longer field values by value, so that records of equal values share one string (as records of one card share
 * its CardData, ledger.ts). `JSON.parse` already shares the strings of values of up to ten characters; every longer
 * one (an order reference, a street, an e-mail address) was a string of its own per record, kept for as long as the
 * ledger holds the record: copied twice by the young-generation collector and marked by every full collection.
 * Bounded, and emptied when full, so that ever-new values (a fuzzer's) cannot pile up.
 */
const shared = new Map<string, string>();
const SHARED_KEPT = 4096;
/** `JSON.parse` shares values up to this length (V8's own limit): no need to look them up. */
const PARSER_SHARES = 10;

/**
 * Fields objects kept lately (a few, written over in turn), with their keys and values in order: a record whose
 * fields equal one of them (the same keys in the same order, the same values) holds that one instead of its own. A
 * client that sends the same request again and again (a load test, a soak, the bench) would otherwise have the
 * ledger hold one more object of some twenty properties per record, the biggest thing in it after the record itself:
 * promoted, then marked by every full collection for as long as the ledger holds the record. Fields are never
 * changed once stored (a child or a change copies them), so records may share them. A few, so that requests of two
 * or three kinds in turn (a THREEDQUERY and its AUTH) each find theirs.
 */
const recent: { fields: Fields; keys: string[]; values: string[] }[] = [];
const RECENT_KEPT = 4;
/** The next place in `recent` to write over once it is full. */
let nextRecent = 0;

/**
 * Whether `fields` has exactly the keys `keys` with the values `values`, in that order (read by position: a look-up by
 * name in another object costs several times more).
 */
function sameFields(fields: Record<string, string>, keys: readonly string[], values: readonly string[]): boolean {
  let i = 0;
  for (const k in fields) {
    if (k !== keys[i] || fields[k] !== values[i]) return false;
    i++;
  }
  return i === keys.length;
}

/**
 * The fields a new record keeps: an equal fields object kept from an earlier record, or `fields` itself with each
 * longer value replaced by the equal string kept from an earlier record (in place: the object is the request's own,
 * the request check made it, and each value stays the same text, so no reader can tell).
 */
function sharedFields(fields: Fields): Fields {
  if (Object.isFrozen(fields)) return fields;
  const out = fields as Record<string, string>;
  // A request equal to a recent one (a client sending the same request again) is found first: comparing its values
  // with the kept ones costs less than looking each longer one up by its text (hashing a fresh string, then the map).
  for (let i = 0; i < recent.length; i++) if (sameFields(out, recent[i].keys, recent[i].values)) return recent[i].fields;
  for (const k in out) {
    const v = out[k];
    if (typeof v !== 'string' || v.length <= PARSER_SHARES) continue;
    // Equal text compares equal whichever string holds it: the kept one is written over the value every time.
    const hit = shared.get(v);
    if (hit !== undefined) out[k] = hit;
    else {
      if (shared.size >= SHARED_KEPT) shared.clear();
      shared.set(v, v);
    }
  }
  const entry = { fields, keys: Object.keys(fields), values: Object.values(fields) };
  if (recent.length < RECENT_KEPT) recent.push(entry);
  else {
    recent[nextRecent] = entry;
    nextRecent = (nextRecent + 1) % RECENT_KEPT;
  }
  return fields;
}

/** What a record holds besides its part. */
export type RecordData = Omit<TxRecord, 'part'>;

/**
 * A record whose `part` is made on demand by `makePart`. `part` can still be set (a change that rewrites a record's
 * part, as `MutableRecord` allows): the part set then stands in for the made one.
 */
export abstract class DerivedRecord implements TxRecord {
  readonly transactionreference: string;
  readonly seq: number;
  readonly type: RequestType;
  readonly sitereference: string;
  readonly createdAt: string;
  readonly fields: Fields;
  readonly card: CardData | undefined;
  readonly securitycodeResult: SecurityResult;
  readonly errorcode: string;
  readonly settlestatus: string | undefined;
  readonly settleduedate: string | undefined;
  // Members most records leave out are held only when set (`declare`: no slot of their own otherwise), so that a
  // record is no bigger than what it holds.
  declare readonly parent?: string;
  declare readonly transactionactive?: string;
  declare readonly threeds?: ThreeDsState;
  declare readonly shield?: Shield | 'NOSCORE';
  declare readonly subscription?: SubscriptionState;
  declare private setPart?: ResponsePart;

  protected constructor(data: RecordData, setPart?: ResponsePart) {
    this.transactionreference = data.transactionreference;
    this.seq = data.seq;
    this.type = data.type;
    this.sitereference = data.sitereference;
    this.createdAt = data.createdAt;
    // A copy's fields are its original's, shared already.
    this.fields = data instanceof DerivedRecord ? data.fields : sharedFields(data.fields);
    this.card = data.card;
    this.securitycodeResult = data.securitycodeResult;
    this.errorcode = data.errorcode;
    this.settlestatus = data.settlestatus;
    this.settleduedate = data.settleduedate;
    const self = this as MutableRecord;
    if (data.parent !== undefined) self.parent = data.parent;
    if (data.transactionactive !== undefined) self.transactionactive = data.transactionactive;
    if (data.threeds !== undefined) self.threeds = data.threeds;
    if (data.shield !== undefined) self.shield = data.shield;
    if (data.subscription !== undefined) self.subscription = data.subscription;
    if (setPart !== undefined) this.setPart = setPart;
  }

  /** The response part as answered when the transaction was made, made again (or the part set since). */
  get part(): ResponsePart {
    return this.setPart ?? this.makePart();
  }

  set part(part: ResponsePart) {
    this.setPart = part;
  }

  /** The part as answered, from what the record holds. */
  protected abstract makePart(): ResponsePart;

  /** A copy of the same kind, to change (a unit of work's copy on write, `Ledger.change`). */
  abstract copy(): DerivedRecord;

  /** The part set by a change, if any, for `copy`. */
  protected get partSet(): ResponsePart | undefined {
    return this.setPart;
  }
}

/** A copy of a record to change: a record that makes its part stays one (a spread copy would drop its `part`). */
export function copyRecord(rec: TxRecord): MutableRecord {
  return rec instanceof DerivedRecord ? (rec.copy() as MutableRecord) : { ...rec };
}
