/**
 * The answer's side of an observed exchange: what the upstream answered, held to the document. The envelope and
 * every part go through validate (the same schemas as `cardspec run` and `validate`; a finding is named by the rule
 * attribution of src/rules/attribution.ts), the echoes through validate's `echoViolations`, the XML block's
 * structure through the reading of src/wire/xml.ts. Then the **session** checks: what only the exchanges seen so far
 * show (a follow-up's answer against its parent's, a combined request's links, a value that must differ from call
 * to call). Each is a small named check of one rule, quoting the document; a check says which rules it looked at
 * in an exchange (observed coverage) and what it found.
 *
 * A check never guesses at what it did not see: a parent the proxy did not observe, an ACS round trip whose browser
 * went elsewhere, test data of a particular sandbox. Those rules stay "not observed" for that exchange.
 */
import { hash } from 'node:crypto';
import { isMaskedForm } from '../../schemas/check';
import { FIELD, REQUEST_TYPES } from '../../schemas/fields';
import type { OperationRow } from '../../schemas/operations';
import { ROW_RULES } from '../contract/checks';
import type { TxRecord } from '../gateway/transaction';
import { findCardNumbers } from '../redact';
import { ANSWER_INVARIANTS, answerFindings, securityCodePaths, xmlProblemRule, type Answer } from '../rules/answers';
import { causeFindings, defaultRuleIndex, formRuleOf, presenceRuleOf, rulesForViolation } from '../rules/attribution';
import type { Finding } from '../rules/findings';
import { echoViolations, validateResponseEnvelope } from '../validate';
import { filterReferences, passedOn } from '../wire/reading';
import type { Format, RequestObject, ResponseEnvelope, ResponsePart } from '../wire/types';
import type { ObservedLedger } from './observed';

/** One request object of the exchange, with the parts that answered it and its parent as observed earlier. */
export interface AnswerView {
  readonly index: number;
  /** Where its parts start in the answer's list. */
  readonly offset: number;
  readonly obj: RequestObject | undefined;
  readonly types: readonly string[];
  readonly row: OperationRow | undefined;
  readonly parts: readonly ResponsePart[];
  readonly parent: TxRecord | undefined;
}

export interface AnswerContext {
  readonly format: Format;
  /** The envelope as it came (JSON form; XML mapped). */
  readonly raw: ResponseEnvelope;
  /** As every reader reads it: an empty or null value is not returned. */
  readonly envelope: ResponseEnvelope;
  /** XML: what the responseblock's structure got wrong. */
  readonly problems: readonly string[];
  readonly views: readonly AnswerView[];
  /** The request types asked for, in order, across the request objects. */
  readonly requested: readonly string[];
  /** The rules the request side found broken with an error in this exchange (for "was it refused?"). */
  readonly clientErrors: ReadonlySet<string>;
  /** What the request side found, with where (`request[0].accounttypedescription`); none when absent. */
  readonly clientFindings?: readonly Finding[];
  readonly observed: ObservedLedger;
  readonly memory: AnswerMemory;
}

export interface AnswerResult {
  readonly findings: readonly Finding[];
}

/**
 * The rules looked at in one exchange, each once, in the order first looked at: every check of an exchange says
 * which rules it looked at, most of them every time, so a rule is a small integer here (interned once per session)
 * and "once" is a stamp per exchange, not a set of strings made and merged for each.
 */
export class LookedRules {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];
  private stamps = new Int32Array(256);
  private epoch = 0;
  /** The ids looked at in the current exchange, in order. */
  readonly list: number[] = [];

  /** A new exchange: nothing looked at yet. */
  begin(): void {
    this.epoch++;
    this.list.length = 0;
  }

  /** The id of a rule (interned at its first use). */
  id(rule: string): number {
    let id = this.ids.get(rule);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(rule, id);
      this.names.push(rule);
      if (id >= this.stamps.length) {
        const grown = new Int32Array(this.stamps.length * 2);
        grown.set(this.stamps);
        this.stamps = grown;
      }
    }
    return id;
  }

  name(id: number): string {
    return this.names[id];
  }

  lookId(id: number): void {
    if (this.stamps[id] === this.epoch) return;
    this.stamps[id] = this.epoch;
    this.list.push(id);
  }

  look(rule: string): void {
    this.lookId(this.id(rule));
  }

  /** By a response field's name: the id of the rule of its value's form (`formRuleOf`), or -1 for none. */
  private readonly formIds = new Map<string, number>();

  /**
   * Looks at the rule of a response field's value's form, if it has one: its listed values' rule, else its format's.
   * Every field of every part comes here: the rule is found once per field name, then by one look-up.
   */
  lookForm(field: string): void {
    let id = this.formIds.get(field);
    if (id === undefined) {
      const rule = formRuleOf(field, true) ?? formRuleOf(field, false);
      id = rule ? this.id(rule) : -1;
      // Bounded: the names of fields the dictionary gives no form rule are the answer's to choose.
      if (this.formIds.size < 10_000) this.formIds.set(field, id);
    }
    if (id >= 0) this.lookId(id);
  }

  /** Whether the rule was looked at in the current exchange. */
  has(rule: string): boolean {
    const id = this.ids.get(rule);
    return id !== undefined && this.stamps[id] === this.epoch;
  }
}

/** The address and postcode results a form answered for the same data. */
interface SecurityResults {
  /** The first answer's. */
  readonly address: string;
  readonly postcode: string;
  /** Whether a later answer of the form gave other results for the data. */
  readonly varied: boolean;
}

/**
 * How the two forms' answers to the same data compare: `alike`; `swapped` (the address and postcode results
 * exchanged, and they differ); `other`; `none` (one form only, a form's answers varied, or the results are equal, so a
 * swap could not show).
 */
type FormsCompared = 'alike' | 'swapped' | 'other' | 'none';

/** What the security results of the two forms showed so far, over every data set answered in both. */
export interface SecurityTally {
  readonly alike: number;
  readonly swapped: number;
  readonly other: number;
  /** A form answered the same data with other results than before: this bank's results are not the data's alone. */
  readonly varied: boolean;
  /** How the forms compare on this answer's data. */
  readonly here: FormsCompared;
}

/** How many entries each memory of the session checks holds: the oldest is forgotten to make room for a new one. */
const MEMORY_BOUND = 10_000;

/** Makes room for one more entry in a memory at its bound, forgetting the oldest (maps and sets keep insertion order). */
function makeRoom(memory: Map<string, unknown> | Set<string>): void {
  if (memory.size >= MEMORY_BOUND) memory.delete(memory.keys().next().value as string);
}

/** What the session checks remember between exchanges: bounded, whatever the traffic. */
export class AnswerMemory {
  private readonly secrands: string[] = [];
  private readonly fraudRefs = new Set<string>();

  /** Whether this secrand was answered in one of the last few answers (and remembers it). */
  secrandSeen(s: string): boolean {
    const seen = this.secrands.includes(s);
    this.secrands.push(s);
    if (this.secrands.length > 8) this.secrands.shift();
    return seen;
  }

  private readonly updated = new Set<string>();
  /** By a digest of the card number (the number itself is not kept): the masked form first answered for it. */
  private readonly masks = new Map<string, string>();
  /** By a digest of the data checked: the address and postcode results answered in each form, and how the forms compared. */
  private readonly results = new Map<string, { forms: Partial<Record<Format, SecurityResults>>; compared: FormsCompared }>();
  private readonly tally: { alike: number; swapped: number; other: number; varied: boolean; here: FormsCompared } = { alike: 0, swapped: 0, other: 0, varied: false, here: 'none' };

  /**
   * The card number of the exchange being checked and its digest: both memories key by it, and the digest is made
   * once per exchange (`forgetCard` after each: the number is not kept beyond its exchange).
   */
  private card: { readonly pan: string; readonly key: string } | undefined;

  /** The exchange is checked: its card number is not held any longer. */
  forgetCard(): void {
    this.card = undefined;
  }

  /** A key that stands for the card number without holding it, made once per exchange. */
  private cardKey(pan: string): string {
    const card = this.card;
    if (card !== undefined && card.pan === pan) return card.key;
    const key = digest(pan);
    this.card = { pan, key };
    return key;
  }

  /** The masked form answered before for this card number, remembering this one when there was none. */
  maskedBefore(pan: string, masked: string): string | undefined {
    const key = this.cardKey(pan);
    const before = this.masks.get(key);
    if (before === undefined) {
      makeRoom(this.masks);
      this.masks.set(key, masked);
    }
    return before;
  }

  /**
   * Remembers the results a form answered for the data (the card number, then the rest of what the bank was given);
   * answers the tally over every data set both forms answered.
   */
  securityResults(pan: string, rest: string, format: Format, address: string, postcode: string): SecurityTally {
    // The card number by its digest (the one the masked form's memory uses), the rest as it is: no card data in it.
    const key = `${this.cardKey(pan)}\u0000${rest}`;
    let entry = this.results.get(key);
    if (entry === undefined) {
      if (this.results.size >= MEMORY_BOUND) {
        const [oldest, forgotten] = this.results.entries().next().value as [string, { compared: FormsCompared }];
        this.count(forgotten.compared, -1);
        this.results.delete(oldest);
      }
      this.results.set(key, (entry = { forms: {}, compared: 'none' }));
    }
    const seen = entry.forms[format];
    // The same results as before (the common case) change nothing of what was remembered, nor how the forms compare.
    const now = seen === undefined ? { address, postcode, varied: false } : seen.varied || (seen.address === address && seen.postcode === postcode) ? seen : { ...seen, varied: true };
    if (now !== seen) {
      entry.forms[format] = now;
      if (now.varied) this.tally.varied = true;
      this.count(entry.compared, -1);
      entry.compared = compareForms(entry.forms.json, entry.forms.xml);
      this.count(entry.compared, 1);
    }
    // The tally itself, read at once by the caller (the next call changes it).
    this.tally.here = entry.compared;
    return this.tally;
  }

  private count(c: FormsCompared, by: number): void {
    if (c !== 'none') this.tally[c] += by;
  }

  /** A transaction a TRANSACTIONUPDATE named: its later refusal as a parent may be the update's doing (disabled). */
  markUpdated(ref: string): void {
    makeRoom(this.updated);
    this.updated.add(ref);
  }

  wasUpdated(ref: string): boolean {
    return this.updated.has(ref);
  }

  /** By a STORE's reference: the value its last update answered Ok set, and whether it was ever disabled. */
  private readonly storeStates = new Map<string, { value: '0' | '1'; disabledBefore: boolean }>();

  storeUpdated(ref: string, value: '0' | '1'): void {
    const before = this.storeStates.get(ref);
    if (before === undefined) makeRoom(this.storeStates);
    this.storeStates.set(ref, { value, disabledBefore: (before?.disabledBefore ?? false) || before?.value === '0' });
  }

  storeState(ref: string): { readonly value: '0' | '1'; readonly disabledBefore: boolean } | undefined {
    return this.storeStates.get(ref);
  }

  /**
   * By the reference of a subscription's first payment (its AUTH): the amount it was taken with, once a
   * TRANSACTIONUPDATE of the SUBSCRIPTION's amount was answered Ok ("A subscription amount that differs from the first
   * payment").
   */
  private readonly firstPayments = new Map<string, string>();
  /** By a SUBSCRIPTION's reference: the `transactionactive` its last update answered Ok set. */
  private readonly subscriptionStates = new Map<string, string>();
  /** AUTHs an update suspended (settle status 2, answered Ok) and no later update released. */
  private readonly suspended = new Set<string>();

  subscriptionUpdated(ref: string, value: string): void {
    if (!this.subscriptionStates.has(ref)) makeRoom(this.subscriptionStates);
    this.subscriptionStates.set(ref, value);
  }

  subscriptionState(ref: string): string | undefined {
    return this.subscriptionStates.get(ref);
  }

  settleStatusUpdated(ref: string, value: string): void {
    if (value !== '2') this.suspended.delete(ref);
    else {
      makeRoom(this.suspended);
      this.suspended.add(ref);
    }
  }

  isSuspended(ref: string | undefined): boolean {
    return ref !== undefined && this.suspended.has(ref);
  }

  firstPaymentAmountKept(authRef: string, amount: string): void {
    if (!this.firstPayments.has(authRef)) makeRoom(this.firstPayments);
    this.firstPayments.set(authRef, amount);
  }

  firstPaymentAmount(ref: string): string | undefined {
    return this.firstPayments.get(ref);
  }

  fraudReferenceSeen(ref: string): boolean {
    const seen = this.fraudRefs.has(ref);
    if (!seen) {
      makeRoom(this.fraudRefs);
      this.fraudRefs.add(ref);
    }
    return seen;
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** A value as text, or '' for one that is none. */
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
/** How many digits a text holds: a card number has twelve at least, and most values fewer (no pattern run then). */
function digits(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}
/**
 * Whether `findCardNumbers` could find a card number in the text: each form it finds is 12 digits or more within
 * a stretch of digits, spaces and hyphens (plain or in groups), or written with character references (`&#`). A
 * timestamp (`2026-01-05 09:00:00`, 14 digits but none of its stretches holds 12) is told without running its
 * patterns.
 */
export function mayHoldCardNumber(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++run >= 12) return true;
    } else if (c !== 32 && c !== 45) run = 0;
  }
  return text.includes('&#');
}
/** A key that stands for a text without holding it (a card number is not kept): the hash's bytes as a string. */
const digest = (text: string): string => hash('sha256', text, 'binary');
const has = (p: ResponsePart, f: string): boolean => str(p[f]) !== undefined;
/**
 * The field(s) a refused part names behind its error: `errordata` as the field dictionary has it, a list of texts
 * (schemas/fields.ts, public-facts.md: `["pan"]` with 30000; the XML form's `<data>` elements are read into one).
 * Anything else (a bare string, a number) is no list and names nothing here: the schemas name its form.
 */
function errorData(p: ResponsePart): string[] {
  const data = p.errordata;
  return Array.isArray(data) ? data.filter((d): d is string => typeof d === 'string') : [];
}
const ok = (p: ResponsePart): boolean => p.errorcode === '0';

/** How the two forms' answers to one data set compare (a form's answers that varied are not compared). */
function compareForms(json: SecurityResults | undefined, xml: SecurityResults | undefined): FormsCompared {
  if (!json || !xml || json.varied || xml.varied || json.address === json.postcode) return 'none';
  if (xml.address === json.address && xml.postcode === json.postcode) return 'alike';
  return xml.address === json.postcode && xml.postcode === json.address ? 'swapped' : 'other';
}

interface SessionCheck {
  readonly name: string;
  readonly rules: readonly string[];
  /** The document's sentence, verbatim. */
  readonly quote: string;
  /** The rules looked at in this exchange (none: the check did not apply), and what is wrong. */
  run(ctx: AnswerContext, out: Out): void;
}

class Out {
  readonly findings: Finding[] = [];
  constructor(private readonly looked: LookedRules) {}
  look(...rules: string[]): void {
    for (let i = 0; i < rules.length; i++) this.looked.look(rules[i]);
  }
  lookForm(field: string): void {
    this.looked.lookForm(field);
  }
  fail(rule: string, field: string, message: string, severity: Finding['severity'] = 'error'): void {
    this.looked.look(rule);
    this.findings.push({ rule, field, severity, message });
  }
}

/** A RISKDEC on an AUTH that followed a THREEDQUERY (rule 6: "THREEDQUERY then AUTH then RISKDEC"), as observed. */
function afterThreeDsAuth(ctx: AnswerContext, view: AnswerView): boolean {
  const parent = view.parent;
  return view.types.join() === 'RISKDEC' && parent?.type === 'AUTH' && ctx.observed.get(parent.parent)?.type === 'THREEDQUERY';
}

/**
 * The type of the observed ancestor a parent's field came from: the earliest of the chain that held the same value
 * (a STORE made on an ACCOUNTCHECK holds the ACCOUNTCHECK's billing: "Fields sent in an ACCOUNTCHECK are inherited by
 * its child requests", its children's children too).
 */
function sourceOf(ctx: AnswerContext, parent: TxRecord, field: string): string {
  let rec = parent;
  for (let depth = 0; depth < 8; depth++) {
    const up = ctx.observed.get(rec.parent);
    if (!up || up.fields[field] !== rec.fields[field]) break;
    rec = up;
  }
  return rec.type;
}

/** The one `transactionreference` a follow-up's `filter` names, if it names exactly one. */
function namedByFilter(obj: RequestObject | undefined): string | undefined {
  const refs = filterReferences(obj?.filter);
  return refs.length === 1 ? str(refs[0]) : undefined;
}

/**
 * A TRANSACTIONUPDATE of an observed subscription's amount (rule 3: "then sending a TRANSACTIONUPDATE with the
 * SUBSCRIPTION reference and the new `baseamount`"): a positive amount is taken, whatever the subscription's state;
 * one of zero is not ("It must be greater than zero, except that ACCOUNTCHECK allows `0`"). A taken one leaves the
 * first payment's amount as it was, which a later query of that payment is held to.
 */
function amountUpdateHolds(ctx: AnswerContext, view: AnswerView, out: Out): void {
  const part = view.parts[0];
  const rec = ctx.observed.get(namedByFilter(view.obj));
  const updates = view.obj?.updates as Record<string, unknown> | undefined;
  // What an update answered Ok did, for the queries after it: a subscription's state, a payment suspended or released.
  if (part && ok(part) && rec && updates) {
    if (rec.type === 'SUBSCRIPTION' && (updates.transactionactive === '0' || updates.transactionactive === '1')) ctx.memory.subscriptionUpdated(rec.transactionreference, updates.transactionactive);
    if (rec.type === 'AUTH' && typeof updates.settlestatus === 'string') ctx.memory.settleStatusUpdated(rec.transactionreference, updates.settlestatus);
  }
  const amount = updates?.baseamount;
  if (!part || rec?.type !== 'SUBSCRIPTION' || rec.errorcode !== '0' || typeof amount !== 'string' || Object.keys(updates!).length !== 1) return;
  if (/^0+$/.test(amount)) {
    out.look('FIELD-BASEAMOUNT-POSITIVE');
    if (ok(part))
      out.fail(
        'FIELD-BASEAMOUNT-POSITIVE',
        at(view, part, 'errorcode'),
        'a TRANSACTIONUPDATE of a subscription to baseamount 0 is taken: "It must be greater than zero, except that ACCOUNTCHECK allows `0`"',
      );
    return;
  }
  if (!/^[0-9]{1,13}$/.test(amount) || ctx.clientErrors.size > 0) return;
  out.look('SUB-AMOUNT-UPDATE');
  if (!ok(part))
    out.fail(
      'SUB-AMOUNT-UPDATE',
      at(view, part, 'errorcode'),
      'a TRANSACTIONUPDATE of the SUBSCRIPTION with a new baseamount is refused: "then sending a TRANSACTIONUPDATE with the SUBSCRIPTION reference and the new `baseamount`"',
    );
  else if (rec.parent !== undefined && rec.fields.baseamount !== undefined) ctx.memory.firstPaymentAmountKept(rec.parent, rec.fields.baseamount);
}

/**
 * A TRANSACTIONQUERY's records against what the exchanges showed was done: the transaction a filter names by its
 * reference ("It identifies the transaction"; a SUBSCRIPTION's: "The SUBSCRIPTION reference is needed for later
 * queries"), a stored card's state after an update answered Ok (the Card store table), a subscription's first
 * payment after its amount was updated (it keeps the amount it was taken with). A field a record leaves out is the
 * query's shape ("not shown"), not judged.
 */
function queryShowsWhatWasDone(ctx: AnswerContext, view: AnswerView, out: Out): void {
  const part = view.parts[0];
  if (!part || !ok(part) || !Array.isArray(part.records)) return;
  const records = part.records.filter((r): r is ResponsePart => typeof r === 'object' && r !== null && !Array.isArray(r));
  const named = namedByFilter(view.obj);
  const known = ctx.observed.get(named);
  if (named !== undefined && known && records.some((r) => str(r.transactionreference) !== undefined)) {
    const rule = known.type === 'SUBSCRIPTION' ? 'SUB-OWN-REFERENCE' : 'FIELD-TRANSACTIONREFERENCE';
    out.look(rule);
    if (!records.some((r) => r.transactionreference === named))
      out.fail(rule, at(view, part, 'records'), `a TRANSACTIONQUERY of the ${known.type}'s transactionreference returns other transactions, not the ${known.type}: the reference does not identify it`);
  }
  records.forEach((r, j) => {
    const ref = str(r.transactionreference);
    if (ref === undefined) return;
    const first = ctx.memory.firstPaymentAmount(ref);
    if (first !== undefined && str(r.baseamount) !== undefined) {
      out.look('SUB-AMOUNT-UPDATE');
      if (r.baseamount !== first)
        out.fail(
          'SUB-AMOUNT-UPDATE',
          `${at(view, part, 'records')}[${j}].baseamount`,
          'the first payment of a subscription is read back with the amount its SUBSCRIPTION was updated to: "A subscription amount that differs from the first payment"',
        );
    }
    subscriptionReadBack(ctx, view, part, r, j, out);
    const state = ctx.memory.storeState(ref);
    if (state && str(r.transactionactive) !== undefined && ctx.observed.get(ref)?.type === 'STORE') {
      const rule = state.value === '0' ? 'STORE-STATE-DISABLE' : 'STORE-STATE-REENABLE';
      out.look(rule);
      if (r.transactionactive !== state.value)
        out.fail(
          rule,
          `${at(view, part, 'records')}[${j}].transactionactive`,
          `a stored card read back after an update to transactionactive ${state.value} (answered Ok) shows ${String(r.transactionactive)}`,
        );
    }
  });
}

/**
 * A SUBSCRIPTION read back: after an update of its `transactionactive` to 0 answered Ok, it shows 0 ("`transactionactive`
 * set to `0` | `0` Inactive"); made pending, with its AUTH suspended since (settle status 2) and no update of its own
 * state, it is still pending ("Pending | AUTH settled | settlestatus `100` | Active": a suspended AUTH is not settled).
 */
function subscriptionReadBack(ctx: AnswerContext, view: AnswerView, part: ResponsePart, r: ResponsePart, j: number, out: Out): void {
  const ref = str(r.transactionreference);
  const shown = str(r.transactionactive);
  const rec = ctx.observed.get(ref);
  if (rec?.type !== 'SUBSCRIPTION' || shown === undefined) return;
  const where = `${at(view, part, 'records')}[${j}].transactionactive`;
  const updated = ctx.memory.subscriptionState(rec.transactionreference);
  if (updated === '0') {
    out.look('SUB-STATE-DEACTIVATE');
    if (shown !== '0')
      out.fail(
        'SUB-STATE-DEACTIVATE',
        where,
        `a subscription read back after an update to transactionactive 0 (answered Ok) shows ${shown}: "| Active | TRANSACTIONUPDATE ... | \`transactionactive\` set to \`0\` | \`0\` Inactive |"`,
      );
  } else if (updated === undefined && rec.transactionactive === '2' && ctx.memory.isSuspended(rec.parent)) {
    out.look('SUB-STATE-PENDING-TO-ACTIVE');
    if (shown === '1')
      out.fail(
        'SUB-STATE-PENDING-TO-ACTIVE',
        where,
        'a pending subscription whose AUTH was suspended (settle status 2), so never settled, is read back active: "Pending | AUTH settled | settlestatus `100` | Active"',
      );
  }
}

/** Where a part's field is, counted across the request objects as the answer lists its parts. */
const at = (view: AnswerView, part: ResponsePart, field?: string): string => `response[${view.offset + view.parts.indexOf(part)}]${field ? `.${field}` : ''}`;

/** The part of a type among a request object's parts. */
const partOf = (view: AnswerView, type: string): ResponsePart | undefined => view.parts.find((p) => p.requesttypedescription === type);

/**
 * The rule of a one-type row of the Request types table whose "Response parts" cell says its part carries
 * `parenttransactionreference` ("Risk decision after a payment": "1 RISKDEC part carrying
 * `parenttransactionreference`"), when the view's request is of that row; read from the row rule's quote, so that a
 * row the catalogue quotes so is found without a list here.
 */
function rowCarryingParent(view: AnswerView): string | undefined {
  const row = view.row;
  if (!row || row.requesttypes.length !== 1) return undefined;
  let found = carriesParent.get(row.id);
  if (found === undefined) {
    const rule = ROW_RULES[row.id]?.rule;
    const cells = (rule ? (defaultRuleIndex().rules.get(rule)?.quote ?? '') : '')
      .split('|')
      .map((c) => c.trim())
      .filter((c) => c !== '');
    found = rule !== undefined && cells.length >= 4 && cells[cells.length - 1].includes('`parenttransactionreference`') ? rule : '';
    carriesParent.set(row.id, found);
  }
  return found === '' ? undefined : found;
}
const carriesParent = new Map<string, string>();

/** The row of the request object a part (by its place in the answer) answers. */
function rowOfPart(ctx: AnswerContext, i: number): OperationRow | undefined {
  return ctx.views.find((v) => i >= v.offset && i < v.offset + Math.max(1, v.types.length))?.row;
}

/** The document's checks of the answer that validate makes (schemas, echoes, the XML block). */
function documentChecks(ctx: AnswerContext, out: Out): void {
  out.look('TRANSPORT-RESPONSE-BODY', 'ERR-PART-FIELDS', 'ENV-RESPONSE-ONE-PART-PER-TYPE', 'ENV-SECRAND', 'ENV-REQUESTREFERENCE');
  out.look(ctx.format === 'json' ? 'VER-JSON' : 'VER-XML');
  if (ctx.format === 'json') out.look('FIELD-STRINGS');
  if (ctx.requested.length > 1) out.look('ENV-ORDER');
  const index = defaultRuleIndex();
  const parts = Array.isArray(ctx.envelope.response) ? (ctx.envelope.response as unknown[]) : [];
  for (const p of parts) {
    if (typeof p !== 'object' || p === null) continue;
    const part = p as ResponsePart;
    for (const f in part) if (Object.prototype.hasOwnProperty.call(part, f)) out.lookForm(f);
    if (typeof part.errorcode === 'string' && index.rules.has(`ERR-${part.errorcode}`)) out.look(`ERR-${part.errorcode}`);
  }
  for (const p of ctx.problems) out.fail(xmlProblemRule(p), 'responseblock', p);
  // A refusal of the whole call (every part failed, fewer or more of them than asked: one ERROR part, as public facts
  // show) is not held to the requested types: the answer to a refused call is not fixed by the document.
  const failed = parts.length > 0 && parts.every((p) => typeof p === 'object' && p !== null && str((p as ResponsePart).errorcode) !== '0');
  const foreign = parts.some((p) => typeof p === 'object' && p !== null && !(REQUEST_TYPES as readonly unknown[]).includes((p as ResponsePart).requesttypedescription));
  const refusedWhole = failed && (parts.length !== ctx.requested.length || foreign);
  const violations = causeFindings(validateResponseEnvelope(ctx.raw, ctx.requested.length > 0 && !refusedWhole ? ctx.requested : undefined, ctx.format));
  for (const v of violations) {
    const m = /^response\[(\d+)\]/.exec(v.field);
    const i = m ? Number(m[1]) : undefined;
    const part = i === undefined ? undefined : (parts[i] as ResponsePart | undefined);
    const partType = typeof part?.requesttypedescription === 'string' ? part.requesttypedescription : undefined;
    const leaf = v.field.split('.').pop() ?? '';
    const rules = rulesForViolation(v, index, {
      partType,
      requestedType: i === undefined ? undefined : ctx.requested[i],
      requestedTypes: ctx.requested,
      format: ctx.format,
      value: part?.[leaf],
    });
    for (const rule of rules) out.fail(rule.split(':')[0], v.field, v.message, v.severity);
    // A part labelled otherwise than the type asked for: the row that says what its part is labelled speaks for it too
    // (AC-SHAPE: "1 part shaped as an AUTH part, with `requesttypedescription` `ACCOUNTCHECK`").
    const row = i === undefined ? undefined : rowOfPart(ctx, i);
    const rowRule = row ? ROW_RULES[row.id]?.rule : undefined;
    if (leaf === 'requesttypedescription' && rowRule && index.rules.get(rowRule)?.quote.includes('`requesttypedescription`')) {
      for (const rule of rulesForViolation(v, index, { partType, requestedType: ctx.requested[i!], requestedTypes: ctx.requested, format: ctx.format, tags: [rowRule] }))
        out.fail(rule.split(':')[0], v.field, v.message, v.severity);
    }
    // A field of the envelope missing breaks the Transport table's response body as well as its own sentence.
    if (v.rule === 'required' && i === undefined) out.fail('TRANSPORT-RESPONSE-BODY', v.field, v.message, v.severity);
  }
  // One request object answered by every part (most exchanges): the answer as it came is its parts as read, the same
  // places, and the contract gate's echo invariant asked the same of it (validate holds the result).
  const whole = ctx.views.length === 1 && ctx.views[0].offset === 0 && ctx.views[0].parts.length === parts.length;
  for (const view of ctx.views) {
    if (!view.obj) continue;
    if (view.parts.some(ok)) out.look('FIELD-ECHO');
    for (const v of echoViolations(view.obj, whole ? ctx.raw : { response: view.parts }, ctx.format)) out.fail('FIELD-ECHO', v.field, v.message, v.severity);
  }
}

/** The document's XML locations of the security results and the fraud-control fields ("In XML they sit at ..."). */
const XML_BLOCKS: Readonly<Record<string, { rule: string; leaves: readonly string[] }>> = {
  security: { rule: 'XML-SECURITY-PATHS', leaves: ['address', 'postcode', 'securitycode'] },
  fraudcontrol: { rule: 'XML-FRAUDCONTROL-PATHS', leaves: ['shieldstatuscode', 'recommendedaction', 'reference', 'responsecode', 'categoryflag', 'categorymessage'] },
};

/** Every string `maskedpan` nested in a value, with its path under `path`. */
function nestedMasks(v: unknown, path: string, found: [string, string][] = [], depth = 0): [string, string][] {
  if (depth > 8 || typeof v !== 'object' || v === null) return found;
  if (Array.isArray(v)) v.forEach((x, i) => nestedMasks(x, `${path}[${i}]`, found, depth + 1));
  else
    for (const [k, x] of Object.entries(v)) {
      if (k === 'maskedpan' && typeof x === 'string' && x !== '') found.push([`${path}.${k}`, x]);
      else nestedMasks(x, `${path}.${k}`, found, depth + 1);
    }
  return found;
}

/** The suite's invariant of a resumed subscription's number (it exists: the registry is the suite's). */
const RESUMED = ANSWER_INVARIANTS.find((i) => i.name === 'subscription-number')!;

/** The rules of a value the document refuses for the request's type: a fixed value outside its set, an amount of 0. */
const REFUSED_VALUE_RULES: readonly string[] = ['FIELD-ACCOUNTTYPE-THREEDQUERY', 'FIELD-ACCOUNTTYPE-PAYMENTS', 'FIELD-BASEAMOUNT-POSITIVE'];

const SESSION_CHECKS: readonly SessionCheck[] = [
  {
    name: 'one-masked-form',
    rules: ['FIELD-MASKEDPAN'],
    quote: 'Responses return a masked form in `maskedpan`, with the middle digits replaced by `#`.',
    // One card, one masked form: as long as the number sent, and the same number sent again (in JSON or in XML)
    // comes back masked the same way.
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const pan = str(view.obj?.pan);
        if (pan === undefined) continue;
        for (const p of view.parts) {
          const masked = str(p.maskedpan);
          if (masked === undefined || !masked.includes('#')) continue;
          out.look('FIELD-MASKEDPAN');
          // The middle digits "replaced by #": replaced, not taken out, so the masked form is as long as the number.
          if (masked.length !== pan.length)
            out.fail(
              'FIELD-MASKEDPAN',
              at(view, p, 'maskedpan'),
              `maskedpan has ${masked.length} characters for a card number of ${pan.length} digits: the middle digits are replaced by "#", not taken out`,
            );
          const before = ctx.memory.maskedBefore(pan, masked);
          if (before !== undefined && before !== masked)
            out.fail(
              'FIELD-MASKEDPAN',
              at(view, p, 'maskedpan'),
              `the same card number comes back masked another way than before (${masked.length} characters, ${masked.indexOf('#')} digits kept first; before ${before.indexOf('#')})`,
            );
        }
      }
    },
  },
  {
    name: 'masked-everywhere',
    rules: ['FIELD-MASKEDPAN'],
    quote: 'Responses return a masked form in `maskedpan`, with the middle digits replaced by `#`.',
    // The sentence holds wherever an answer carries `maskedpan`: the schemas read a part's own field, this the ones
    // nested in it (the records a TRANSACTIONQUERY finds).
    run: (ctx, out) => {
      for (const view of ctx.views) {
        for (const p of view.parts) {
          for (const k in p) {
            const v = p[k];
            if (typeof v !== 'object' || v === null) continue;
            for (const [path, masked] of nestedMasks(v, k)) {
              out.look('FIELD-MASKEDPAN');
              if (!isMaskedForm(masked))
                out.fail('FIELD-MASKEDPAN', `${at(view, p)}.${path}`, `a maskedpan in the ${String(p.requesttypedescription)} part is not the card number with its middle digits replaced by "#"`);
            }
          }
        }
      }
    },
  },
  {
    name: 'security-results-in-place',
    rules: ['XML-SECURITY-PATHS'],
    quote: 'In XML they sit at `/security/address`, `/security/postcode` and `/security/securitycode`.',
    // The same data (card, premise, postcode, country, site; none inherited) checked in JSON and in XML: the
    // document places each result at its own element, so an XML form that holds the address result at
    // /security/postcode and the postcode result at /security/address shows as the two forms' results exchanged.
    // One such pair could be a bank that checks the same data differently from one request to the next: named only
    // when two data sets or more show the exchange, no data set shows the forms agreeing or differing otherwise,
    // and no form ever answered the same data with other results than before (such a bank is not compared at all).
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const o = view.obj;
        // The data the bank was given are the request's own: no parent, cache token or md to inherit others from.
        if (!o || str(o.pan) === undefined || str(o.parenttransactionreference) !== undefined || str(o.cachetoken) !== undefined || str(o.md) !== undefined) continue;
        for (const p of view.parts) {
          const address = str(p.securityresponseaddress);
          const postcode = str(p.securityresponsepostcode);
          if (address === undefined || postcode === undefined) continue;
          const rest = `${text(o.billingpremise)}\u0000${text(o.billingpostcode)}\u0000${text(o.billingcountryiso2a)}\u0000${text(o.sitereference)}`;
          const t = ctx.memory.securityResults(text(o.pan), rest, ctx.format, address, postcode);
          if (t.here === 'none') continue;
          out.look('XML-SECURITY-PATHS');
          if (ctx.format === 'xml' && t.here === 'swapped' && !t.varied && t.swapped >= 2 && t.alike === 0 && t.other === 0)
            out.fail(
              'XML-SECURITY-PATHS',
              at(view, p, 'securityresponseaddress'),
              `the address and postcode results are exchanged between the JSON and the XML answers to the same data, for each of ${t.swapped} data sets answered in both forms: the XML form does not hold them at /security/address and /security/postcode where the document places them`,
            );
        }
      }
    },
  },
  {
    name: 'xml-locations',
    rules: ['XML-SECURITY-PATHS', 'XML-FRAUDCONTROL-PATHS'],
    quote: 'In XML they sit at `/security/address`, `/security/postcode` and `/security/securitycode`.',
    // An element the mapping does not know, under a block of the document (`<fraudcontrol><status>`), or holding
    // the leaves of one elsewhere (`<checks><address>`): the value is not where the document places it.
    run: (ctx, out) => {
      if (ctx.format !== 'xml') return;
      for (const view of ctx.views) {
        for (const p of view.parts) {
          if (p.requesttypedescription === 'RISKDEC') out.look('XML-FRAUDCONTROL-PATHS');
          for (const k in p) {
            if (Object.prototype.hasOwnProperty.call(p, k) && k.startsWith('securityresponse')) {
              out.look('XML-SECURITY-PATHS');
              break;
            }
          }
          for (const k in p) {
            if (!Object.prototype.hasOwnProperty.call(p, k) || FIELD[k]?.response !== undefined) continue;
            const v = p[k];
            const [block, ...rest] = k.split('/');
            if (rest.length > 0 && XML_BLOCKS[block]) {
              out.fail(
                XML_BLOCKS[block].rule,
                at(view, p, k),
                `the ${String(p.requesttypedescription)} part has an element <${block}><${rest.join('><').slice(0, 40)}> where the document places none`,
              );
              continue;
            }
            if (typeof v !== 'object' || v === null) continue;
            for (const [name, b] of Object.entries(XML_BLOCKS)) {
              const misplaced = Object.keys(v).filter((leaf) => b.leaves.includes(leaf));
              if (misplaced.length > 0 && k !== name)
                out.fail(
                  b.rule,
                  at(view, p, k),
                  `the ${String(p.requesttypedescription)} part has ${misplaced.join(', ')} under <${k.slice(0, 40)}>, not under <${name}> where the document places them`,
                );
            }
          }
        }
      }
    },
  },
  {
    name: 'subscription-recur',
    rules: ['SUB-RECUR'],
    quote: 'In a response, the SUBSCRIPTION part carries `RECUR`.',
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const sub = partOf(view, 'SUBSCRIPTION');
        if (!sub || !ok(sub)) continue;
        out.look('SUB-RECUR');
        if (sub.accounttypedescription !== 'RECUR') out.fail('SUB-RECUR', at(view, sub, 'accounttypedescription'), 'the SUBSCRIPTION part does not carry accounttypedescription RECUR');
      }
    },
  },
  {
    // The suite's answer invariant itself (src/rules/answers.ts `subscription-number`), run on each request object and
    // its parts: one reading of the sentence for the suite and the proxy.
    name: 'subscription-number',
    rules: ['SUB-NUMBER-RESUME'],
    quote: 'To resume a former subscription, send the next number (for example `4` after 3 payments).',
    run: (ctx, out) => {
      for (const view of ctx.views) {
        if (!view.obj) continue;
        const answer: Answer = { envelope: { response: view.parts }, format: ctx.format, request: view.obj };
        // Looked at where the invariant applies (a resume sent, a part that numbers it), as a run counts it.
        if (!view.parts.some((p) => RESUMED.looksAt!(p, answer))) continue;
        out.look('SUB-NUMBER-RESUME');
        for (const f of RESUMED.find(answer)) {
          // The invariant says which part (its place in `view.parts`, the list it was given).
          const part = f.partIndex === undefined ? undefined : view.parts[f.partIndex];
          out.fail(f.rule, part ? at(view, part, f.field) : `response[${view.offset}].${f.field ?? ''}`, f.line.replace(/^response\[\d+\]\.\w+ /, `${f.field ?? 'the field'} `));
        }
      }
    },
  },
  {
    name: 'payment-timing',
    rules: ['FIELD-TIMESTAMP', 'FIELD-SETTLEDUEDATE'],
    quote: '| `transactionstartedtimestamp` | Format `YYYY-MM-DD HH:MM:SS`. |',
    // The part of a payment the bank authorised: when it started and when it settles (presenceRuleOf's reading).
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const a = partOf(view, 'AUTH');
        if (!a || !ok(a)) continue;
        out.look('FIELD-TIMESTAMP', 'FIELD-SETTLEDUEDATE');
        if (!has(a, 'transactionstartedtimestamp')) out.fail('FIELD-TIMESTAMP', at(view, a, 'transactionstartedtimestamp'), 'an authorised AUTH part lacks transactionstartedtimestamp');
        if (!has(a, 'settleduedate')) out.fail('FIELD-SETTLEDUEDATE', at(view, a, 'settleduedate'), 'an authorised AUTH part lacks settleduedate');
      }
    },
  },
  {
    name: 'bank-contacted',
    rules: ['AUTH-BANK-CONTACTED'],
    quote: '| `authcode`, `acquirerresponsecode` | Bank authorisation code and bank response code; present when the bank was contacted. |',
    // An AUTH the bank authorised (errorcode 0) was put to the bank.
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const a = partOf(view, 'AUTH');
        if (!a || !ok(a)) continue;
        out.look('AUTH-BANK-CONTACTED');
        for (const f of ['authcode', 'acquirerresponsecode'])
          if (!has(a, f)) out.fail('AUTH-BANK-CONTACTED', at(view, a, f), `an AUTH the bank authorised (errorcode 0) lacks ${f}: "present when the bank was contacted"`);
      }
    },
  },
  {
    name: 'store-state-follows-update',
    rules: ['STORE-STATE-DISABLE', 'STORE-STATE-REENABLE'],
    quote: '| `0` | TRANSACTIONUPDATE | value `1` | `1` | |',
    // The Card store table's transitions, seen from the requests that name an observed STORE after an update of its
    // transactionactive was answered Ok: disabled "for future requests", a child is not run; enabled again, a child is
    // not refused for its parent (errordata naming parenttransactionreference, public-facts.md, as above).
    run: (ctx, out) => {
      for (const view of ctx.views) {
        if (view.types.join() !== 'TRANSACTIONUPDATE' || !view.parts.every(ok) || view.parts.length === 0) continue;
        const value = (view.obj?.updates as { transactionactive?: unknown } | undefined)?.transactionactive;
        if (value !== '0' && value !== '1') continue;
        for (const ref of filterReferences(view.obj?.filter)) if (ref !== undefined && ctx.observed.get(ref)?.type === 'STORE') ctx.memory.storeUpdated(ref, value);
      }
      for (const view of ctx.views) {
        const named = str(view.obj?.parenttransactionreference);
        const state = named === undefined || view.parent?.type !== 'STORE' ? undefined : ctx.memory.storeState(named);
        const first = view.parts[0];
        if (!state || !first || view.types.some((t) => t === 'TRANSACTIONUPDATE' || t === 'TRANSACTIONQUERY')) continue;
        if (state.value === '0') {
          out.look('STORE-STATE-DISABLE');
          if (view.parts.every(ok))
            out.fail('STORE-STATE-DISABLE', at(view, first, 'errorcode'), 'a request on a stored card an update disabled (transactionactive 0) is run: "`0` disabled for future requests"');
        } else if (state.disabledBefore) {
          out.look('STORE-STATE-REENABLE');
          if (first.errorcode !== '0' && errorData(first).some((d) => /parenttransactionreference/i.test(d)))
            out.fail(
              'STORE-STATE-REENABLE',
              at(view, first, 'errorcode'),
              'a request on a stored card an update enabled again (transactionactive 1, answered Ok) is refused for its parent: "`0` | TRANSACTIONUPDATE | value `1` | `1`"',
            );
        }
      }
    },
  },
  {
    name: 'follow-ups-hold',
    rules: [
      'SUB-AMOUNT-UPDATE',
      'FIELD-BASEAMOUNT-POSITIVE',
      'SUB-OWN-REFERENCE',
      'FIELD-TRANSACTIONREFERENCE',
      'STORE-STATE-DISABLE',
      'STORE-STATE-REENABLE',
      'SUB-STATE-DEACTIVATE',
      'SUB-STATE-PENDING-TO-ACTIVE',
    ],
    quote: 'then sending a TRANSACTIONUPDATE with the SUBSCRIPTION reference and the new `baseamount`',
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const kind = view.types.join();
        if (kind === 'TRANSACTIONUPDATE') amountUpdateHolds(ctx, view, out);
        else if (kind === 'TRANSACTIONQUERY') queryShowsWhatWasDone(ctx, view, out);
      }
    },
  },
  {
    name: 'reference-names-the-transaction',
    rules: ['FIELD-TRANSACTIONREFERENCE', '3DS-NEXT-N', '3DS-NEXT-U', 'INHERIT-PARENT'],
    quote: 'It identifies the transaction and is the value used as `parenttransactionreference` later.',
    // A reference the gateway answered for a transaction it made, refused as an invalid field when a child names it.
    run: (ctx, out) => {
      for (const view of ctx.views) {
        if (view.types.join() === 'TRANSACTIONUPDATE') {
          for (const ref of filterReferences(view.obj?.filter)) if (ref !== undefined) ctx.memory.markUpdated(ref);
        }
      }
      if (ctx.clientErrors.size > 0) return;
      for (const view of ctx.views) {
        const named = str(view.obj?.parenttransactionreference);
        const parent = named === undefined || ctx.memory.wasUpdated(named) ? undefined : view.parent;
        const first = view.parts[0];
        // A payment the bank declined (70000) was made and answered a reference: "A later request inherits details
        // ... from an earlier one when it carries that earlier request's `transactionreference`".
        const declined = parent?.errorcode === '70000' && (parent.type === 'AUTH' || parent.type === 'ACCOUNTCHECK');
        if (!parent || (parent.errorcode !== '0' && !declined) || !first || view.types.some((t) => t === 'TRANSACTIONUPDATE' || t === 'TRANSACTIONQUERY')) continue;
        // The AUTH a THREEDQUERY of N or U tells the merchant to send next, its transactionreference as parent: refused
        // for that parent, the sentence broken is the one that says to send it (one fault, its most specific rule).
        const enrolled = parent.type === 'THREEDQUERY' && view.types.includes('AUTH') ? parent.threeds?.enrolled : undefined;
        const rule = enrolled === 'N' || enrolled === 'U' ? `3DS-NEXT-${enrolled}` : declined ? 'INHERIT-PARENT' : 'FIELD-TRANSACTIONREFERENCE';
        out.look(rule);
        const data = errorData(first);
        // Refused naming the parent (errordata, public-facts.md: `20004` "Missing parent", `30000`). A 30000 that names
        // nothing is not read as the parent's: a child may be refused for what it inherits (an AUTH on an ACCOUNTCHECK
        // of 0), and errordata is not the document's to require.
        if (first.errorcode !== '0' && data.some((d) => /parenttransactionreference/i.test(d)))
          out.fail(
            rule,
            at(view, first, 'errorcode'),
            rule === 'FIELD-TRANSACTIONREFERENCE'
              ? `a request naming the transactionreference of the ${parent.type} answered before is refused for its parenttransactionreference: the reference does not identify the transaction`
              : `an AUTH naming a THREEDQUERY answered enrolled ${enrolled} is refused for its parenttransactionreference: "send AUTH with \`parenttransactionreference\`"`,
          );
      }
    },
  },
  {
    name: 'secrand-varies',
    rules: ['ENV-SECRAND'],
    quote: '| Response | `secrand` | string | Random string of varying length. |',
    // A short random string may repeat by chance; one of eight characters or more answered twice within eight answers
    // is no random string.
    run: (ctx, out) => {
      const s = str(ctx.envelope.secrand);
      if (s === undefined) return;
      out.look('ENV-SECRAND');
      if (ctx.memory.secrandSeen(s) && s.length >= 8) out.fail('ENV-SECRAND', 'secrand', 'secrand is the same as in an answer a moment before: "Random string of varying length"');
    },
  },
  {
    name: 'parent-echoed',
    rules: ['INHERIT-PARENT-ECHO', 'RISKDEC-AFTER-PAYMENT', 'RISKDEC-AFTER-3DS-AUTH'],
    quote: '| `parenttransactionreference` | Present when the response part was based on an earlier request. |',
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const sent = str(view.obj?.parenttransactionreference);
        const first = view.parts[0];
        if (sent === undefined || !first || !ok(first) || view.types.some((t) => t === 'TRANSACTIONUPDATE' || t === 'TRANSACTIONQUERY')) continue;
        // The row whose own answer carries the parent ("1 RISKDEC part carrying `parenttransactionreference`") speaks
        // for its part before the general sentence: one fault, one cause, the specific one.
        const rule = (afterThreeDsAuth(ctx, view) ? 'RISKDEC-AFTER-3DS-AUTH' : undefined) ?? rowCarryingParent(view) ?? 'INHERIT-PARENT-ECHO';
        out.look(rule);
        const got = str(first.parenttransactionreference);
        if (got === undefined)
          out.fail(
            rule,
            at(view, first, 'parenttransactionreference'),
            `the ${String(first.requesttypedescription)} part was based on the earlier request the request named, but carries no parenttransactionreference`,
          );
        else if (got !== sent)
          out.fail(rule, at(view, first, 'parenttransactionreference'), `the ${String(first.requesttypedescription)} part carries another parenttransactionreference than the one the request named`);
      }
    },
  },
  {
    name: 'combined-riskdec-linked',
    rules: ['RISKDEC-FIRST', 'RISKDEC-LAST'],
    quote: "the AUTH part's `parenttransactionreference` is the RISKDEC's `transactionreference`",
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const key = view.types.join(',');
        if (key !== 'RISKDEC,AUTH' && key !== 'AUTH,RISKDEC') continue;
        const [first, second] = view.parts;
        const ref = str(first?.transactionreference);
        if (!first || !second || ref === undefined || !ok(second)) continue;
        const rule = key === 'RISKDEC,AUTH' ? 'RISKDEC-FIRST' : 'RISKDEC-LAST';
        out.look(rule);
        if (str(second.parenttransactionreference) !== ref)
          out.fail(
            rule,
            at(view, second, 'parenttransactionreference'),
            `the ${String(second.requesttypedescription)} part of ${key} does not carry the ${String(first.requesttypedescription)} part's transactionreference in parenttransactionreference`,
          );
      }
    },
  },
  {
    name: 'subscription-own-reference',
    rules: ['SUB-OWN-REFERENCE'],
    quote: 'In a combined AUTH and SUBSCRIPTION response, each part has its own reference.',
    run: (ctx, out) => {
      for (const view of ctx.views) {
        if (view.types.join(',') !== 'AUTH,SUBSCRIPTION') continue;
        const auth = partOf(view, 'AUTH');
        const sub = partOf(view, 'SUBSCRIPTION');
        const a = str(auth?.transactionreference);
        if (!sub || a === undefined || str(sub.transactionreference) === undefined) continue;
        out.look('SUB-OWN-REFERENCE');
        if (str(sub.transactionreference) === a)
          out.fail('SUB-OWN-REFERENCE', at(view, sub, 'transactionreference'), 'the SUBSCRIPTION part carries the AUTH part\'s transactionreference: "each part has its own reference"');
      }
    },
  },
  {
    name: 'subscription-part-reports',
    rules: ['SUB-AUTH-FIRST-PAYMENT', 'SUB-TRANSACTIONACTIVE-VALUES'],
    quote: 'Check `transactionactive`, the timing fields and the amount in the SUBSCRIPTION part.',
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const sub = partOf(view, 'SUBSCRIPTION');
        if (!sub || !ok(sub)) continue;
        out.look('SUB-AUTH-FIRST-PAYMENT');
        const missing = ['transactionactive', 'subscriptionunit', 'subscriptionfrequency', 'baseamount'].filter((f) => !has(sub, f));
        if (missing.length > 0)
          out.fail('SUB-AUTH-FIRST-PAYMENT', at(view, sub), `the SUBSCRIPTION part lacks ${missing.join(', ')}: "Check transactionactive, the timing fields and the amount in the SUBSCRIPTION part"`);
        const sent = str(view.obj?.transactionactive);
        const got = str(sub.transactionactive);
        if (got === undefined) continue;
        out.look('SUB-TRANSACTIONACTIVE-VALUES');
        const expected = sent ?? '2';
        if (['0', '1', '2'].includes(expected) && got !== expected)
          out.fail(
            'SUB-TRANSACTIONACTIVE-VALUES',
            at(view, sub, 'transactionactive'),
            `the SUBSCRIPTION part answers transactionactive ${JSON.stringify(got.slice(0, 3))} for a subscription ${sent === undefined ? 'sent without transactionactive ("`2` pending (default)")' : `sent with transactionactive ${expected}`}`,
          );
      }
    },
  },
  {
    name: 'threedquery-enrolment',
    rules: ['3DS-QUERY-RESPONSE', '3DS-ONLY-ENROLLED', '3DS-ACSURL-ONLY-ENROLLED', '3DS-PAREQ-ONLY-ENROLLED'],
    quote: '1 part with `enrolled`, `xid`, and for enrolled cards `acsurl`, `md`, `pareq`',
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const q = partOf(view, 'THREEDQUERY');
        if (!q || !ok(q)) continue;
        out.look('3DS-QUERY-RESPONSE');
        for (const f of ['enrolled', 'xid']) if (!has(q, f)) out.fail('3DS-QUERY-RESPONSE', at(view, q, f), `the THREEDQUERY part lacks ${f}`);
        if (q.enrolled === 'Y') {
          for (const f of ['acsurl', 'md', 'pareq']) if (!has(q, f)) out.fail('3DS-QUERY-RESPONSE', at(view, q, f), `the THREEDQUERY part of an enrolled card (enrolled Y) lacks ${f}`);
        } else if (q.enrolled === 'N' || q.enrolled === 'U') {
          out.look('3DS-ONLY-ENROLLED', '3DS-ACSURL-ONLY-ENROLLED', '3DS-PAREQ-ONLY-ENROLLED');
          const rule: Record<string, string> = { md: '3DS-ONLY-ENROLLED', acsurl: '3DS-ACSURL-ONLY-ENROLLED', pareq: '3DS-PAREQ-ONLY-ENROLLED' };
          for (const f of ['md', 'acsurl', 'pareq'])
            if (has(q, f)) out.fail(rule[f], at(view, q, f), `the THREEDQUERY part returns ${f} for a card not enrolled (enrolled ${String(q.enrolled)}): it is returned only for enrolled cards`);
        }
      }
    },
  },
  {
    name: 'auth-after-3ds',
    rules: ['3DS-AUTH-ENROLLED', '3DS-AUTH-NOT-ENROLLED', '3DS-STATUS', '3DS-CAVV-ECI', '3DS-60022-SETTLE', 'ERR-60022'],
    quote: '1 AUTH part with `enrolled`, `xid`, `status`, `cavv`, `eci`',
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const auth = partOf(view, 'AUTH');
        if (!auth || !view.obj) continue;
        const code = str(auth.errorcode);
        if (code === '60022') {
          out.look('3DS-60022-SETTLE', 'ERR-60022');
          if (str(auth.settlestatus) !== undefined && auth.settlestatus !== '3')
            out.fail('3DS-60022-SETTLE', at(view, auth, 'settlestatus'), 'an AUTH answered 60022 (not authenticated) must have settlestatus 3');
          // Both rows say the acquirer is not contacted; an authorisation code says more, that the bank authorised,
          // which only the Errors row rules out ("No funds are transferred"). A bank response code alone is the
          // acquirer contacted, the settlement row's effect of the transaction ("The acquirer is not contacted").
          if (has(auth, 'authcode')) out.fail('ERR-60022', at(view, auth, 'authcode'), 'an AUTH answered 60022 carries authcode: "The acquirer was not contacted. No funds are transferred."');
          else if (has(auth, 'acquirerresponsecode'))
            out.fail('3DS-60022-SETTLE', at(view, auth, 'acquirerresponsecode'), 'an AUTH answered 60022 carries acquirerresponsecode: "The acquirer is not contacted"');
          if (str(auth.errormessage) !== undefined && auth.errormessage !== 'Unauthenticated')
            out.fail('ERR-60022', at(view, auth, 'errormessage'), 'an AUTH answered 60022 must have errormessage "Unauthenticated"');
        }
        const threeDs = view.row?.id === 'auth-3ds-enrolled' || view.row?.id === 'subscription-enrolled';
        const q = view.parent?.type === 'THREEDQUERY' ? view.parent : undefined;
        if (threeDs && (code === '0' || code === '70000' || code === '60022')) {
          out.look('3DS-AUTH-ENROLLED', '3DS-CAVV-ECI', '3DS-STATUS');
          // A field of the row's list that a sentence of its own requires ("`status`: Returned if enrolled") is named
          // by that sentence, the specific one, rather than by the row that lists it (one fault, one cause).
          // A 60022 to an md and a pares no THREEDQUERY seen issued: the target knows no enrolment check to tell the
          // `enrolled` and `xid` of; `status` N is still its to say (the 60022 row).
          const unknownQuery = code === '60022' && q === undefined;
          for (const f of unknownQuery ? ['status'] : ['enrolled', 'xid', 'status'])
            if (!has(auth, f)) out.fail(presenceRuleOf('AUTH', f) ?? '3DS-AUTH-ENROLLED', at(view, auth, f), `the AUTH after 3-D Secure of an enrolled card lacks ${f}`);
          if (q?.threeds) {
            if (has(auth, 'enrolled') && auth.enrolled !== q.threeds.enrolled)
              out.fail('3DS-AUTH-ENROLLED', at(view, auth, 'enrolled'), 'the AUTH after 3-D Secure answers another enrolled than its THREEDQUERY');
            if (has(auth, 'xid') && q.threeds.xid !== '' && auth.xid !== q.threeds.xid)
              out.fail('3DS-AUTH-ENROLLED', at(view, auth, 'xid'), 'the AUTH after 3-D Secure answers another xid than its THREEDQUERY');
            for (const f of ['baseamount', 'currencyiso3a']) {
              if (str(view.obj[f]) === undefined && has(auth, f) && q.fields[f] !== undefined && auth[f] !== q.fields[f])
                out.fail('3DS-AUTH-ENROLLED', at(view, auth, f), `the AUTH after 3-D Secure answers another ${f} than the THREEDQUERY's: "all other data is inherited from the THREEDQUERY"`);
            }
          }
          const status = str(auth.status);
          // Status Y without what authentication returns: the cavv or eci is missing, or the status is not what the
          // ACS answered (an attempt or a failure reported as Y). The answer cannot tell which: both rules are named.
          if (status === 'Y' && code === '0')
            for (const f of ['cavv', 'eci'])
              if (!has(auth, f)) {
                out.fail('3DS-CAVV-ECI', at(view, auth, f), `the AUTH of an authenticated customer (status Y) lacks ${f}`);
                out.fail(
                  '3DS-STATUS',
                  at(view, auth, 'status'),
                  `the AUTH answers status Y (authenticated) without ${f}, which authentication returns: the status is not the ACS's outcome, or ${f} is missing`,
                );
              }
          // An attempt (A) may carry an ECI (the reference gateway's reading, docs/gateway.md); a CAVV only authentication.
          if (status !== undefined && status !== 'Y')
            for (const f of status === 'A' ? ['cavv'] : ['cavv', 'eci'])
              if (has(auth, f))
                out.fail('3DS-CAVV-ECI', at(view, auth, f), `the AUTH returns ${f} for a customer not authenticated (status ${status.slice(0, 1)}): it is returned if enrolled and authenticated`);
        }
        if (!threeDs && q?.threeds && (q.threeds.enrolled === 'N' || q.threeds.enrolled === 'U') && code !== undefined) {
          out.look('3DS-AUTH-NOT-ENROLLED', '3DS-STATUS', '3DS-CAVV-ECI');
          if (code === '0' && !has(auth, 'enrolled')) out.fail('3DS-AUTH-NOT-ENROLLED', at(view, auth, 'enrolled'), 'the AUTH after the THREEDQUERY of a card not enrolled or unknown lacks enrolled');
          // The card's enrolment is what its THREEDQUERY found, as in the enrolled row above: U is not N.
          else if (has(auth, 'enrolled') && auth.enrolled !== q.threeds.enrolled)
            out.fail('3DS-AUTH-NOT-ENROLLED', at(view, auth, 'enrolled'), `the AUTH after the THREEDQUERY answers enrolled ${String(auth.enrolled)}, its THREEDQUERY ${q.threeds.enrolled}`);
          if (has(auth, 'status'))
            out.fail('3DS-STATUS', at(view, auth, 'status'), `the AUTH after the THREEDQUERY of a card not enrolled (enrolled ${q.threeds.enrolled}) returns status: it is returned if enrolled`);
          for (const f of ['cavv', 'eci']) if (has(auth, f)) out.fail('3DS-CAVV-ECI', at(view, auth, f), `the AUTH of a card not enrolled returns ${f}: it is returned if enrolled and authenticated`);
        }
      }
    },
  },
  {
    name: 'changed-md-pares-not-authenticated',
    rules: ['3DS-MD-PARES-UNMODIFIED'],
    quote: 'The ACS return values `md` and `pares` must be submitted in full and unmodified.',
    // An md that is the issued one but for letter case or a surrounding space, or a pares other than the one the
    // ACS was seen returning, is another value: answered errorcode 0 with status Y, the gateway authenticated it.
    // A pares whose ACS round trip went by unseen is taken as the ACS's (observed.ts): never held against either side.
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const auth = partOf(view, 'AUTH');
        const md = str(view.obj?.md);
        const pares = str(view.obj?.pares);
        if (!auth || (md === undefined && pares === undefined)) continue;
        const issued = (md === undefined ? undefined : (ctx.observed.threeDs(md, undefined) ?? ctx.observed.threeDsLike(md)))?.threeds;
        if (!issued) continue;
        out.look('3DS-MD-PARES-UNMODIFIED');
        const changed = md !== undefined && issued.md !== undefined && md !== issued.md ? 'md' : pares !== undefined && issued.pares !== undefined && pares !== issued.pares ? 'pares' : undefined;
        if (changed && auth.errorcode === '0' && auth.status === 'Y')
          out.fail(
            '3DS-MD-PARES-UNMODIFIED',
            at(view, auth, 'status'),
            `the AUTH answers errorcode "0" with status "Y" (authenticated) to a changed ${changed}: only the values the ACS returned, in full and unmodified, authenticate`,
          );
      }
    },
  },
  {
    name: 'store-without-bank',
    rules: ['STORE-NO-BANK'],
    quote: 'The acquiring bank is not contacted.',
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const s = partOf(view, 'STORE');
        if (!s) continue;
        out.look('STORE-NO-BANK');
        for (const f of ['authcode', 'acquirerresponsecode']) if (has(s, f)) out.fail('STORE-NO-BANK', at(view, s, f), `the STORE part carries ${f}: "The acquiring bank is not contacted"`);
      }
    },
  },
  {
    // The same walk as the kit's answer invariant of every run (src/rules/answers.ts `no-security-code`).
    name: 'no-security-code',
    rules: ['STORE-NO-BANK'],
    quote: 'The security code is never stored.',
    run: (ctx, out) => {
      out.look('STORE-NO-BANK');
      for (const view of ctx.views) {
        for (const p of view.parts) {
          const found = securityCodePaths(p);
          if (found.length === 0) continue;
          const field = found[0].split(/[.[]/)[0];
          out.fail('STORE-NO-BANK', at(view, p, field), `the ${String(p.requesttypedescription)} part carries a security code at ${found.join(', ')}: "The security code is never stored"`);
        }
      }
    },
  },
  {
    name: 'riskdec-answers',
    rules: ['RISKDEC-CATEGORYFLAG', 'RISKDEC-SHIELD-VALUES', 'RISKDEC-REFERENCE-UNIQUE', 'RISKDEC-SUSPEND-BEFORE-AUTH'],
    quote: '| `rulecategoryflag` | Alphanumeric, 255 | Identifies the condition that caused `DENY` or `CHALLENGE`. |',
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const r = partOf(view, 'RISKDEC');
        if (!r || !ok(r)) continue;
        const shield = str(r.fraudcontrolshieldstatuscode);
        const ref = str(r.fraudcontrolreference);
        if (ref !== undefined) {
          out.look('RISKDEC-REFERENCE-UNIQUE');
          if (ctx.memory.fraudReferenceSeen(ref))
            out.fail('RISKDEC-REFERENCE-UNIQUE', at(view, r, 'fraudcontrolreference'), 'the RISKDEC part answers a fraudcontrolreference an earlier check had: "Unique reference of the check"');
        }
        if (shield === 'CHALLENGE' || shield === 'DENY') {
          out.look('RISKDEC-CATEGORYFLAG');
          if (!has(r, 'rulecategoryflag'))
            out.fail('RISKDEC-CATEGORYFLAG', at(view, r, 'rulecategoryflag'), `a RISKDEC of ${shield} lacks rulecategoryflag, which identifies the condition that caused it`);
          const auth = view.types.join(',') === 'RISKDEC,AUTH' ? partOf(view, 'AUTH') : undefined;
          if (auth && ok(auth) && str(auth.settlestatus) !== undefined) {
            out.look('RISKDEC-SUSPEND-BEFORE-AUTH');
            if (auth.settlestatus !== '2')
              out.fail(
                'RISKDEC-SUSPEND-BEFORE-AUTH',
                at(view, auth, 'settlestatus'),
                `the AUTH after a RISKDEC of ${shield} is not suspended (settlestatus 2): "Authorised transactions are automatically suspended"`,
              );
          }
        }
        const before = view.types.join(',') === 'AUTH,RISKDEC' ? partOf(view, 'AUTH') : undefined;
        const parent = view.row?.id === 'riskdec-after-payment' ? view.parent : before ? { type: 'AUTH', errorcode: str(before.errorcode) ?? '' } : undefined;
        if (parent?.type === 'AUTH' && parent.errorcode !== '0' && parent.errorcode !== '' && shield !== undefined) {
          out.look('RISKDEC-SHIELD-VALUES');
          if (shield !== 'NOSCORE')
            out.fail(
              'RISKDEC-SHIELD-VALUES',
              at(view, r, 'fraudcontrolshieldstatuscode'),
              `the RISKDEC after a declined AUTH answers ${shield.slice(0, 10)}: NOSCORE is "the parent AUTH was declined before checks ran"`,
            );
        }
      }
    },
  },
  {
    name: 'accountcheck-validates',
    rules: ['AC-VALIDATES'],
    quote: '`ACCOUNTCHECK`: validates address, postcode and security code without reserving funds.',
    // "Not checked" for a postcode may be right (it is validated only in some countries); every check answered not
    // checked, while the data were sent, is an account check that validates nothing.
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const a = partOf(view, 'ACCOUNTCHECK');
        if (!a || !ok(a) || !view.obj) continue;
        const results = ['securityresponseaddress', 'securityresponsepostcode', 'securityresponsesecuritycode'].map((f) => str(a[f])).filter((v) => v !== undefined);
        const sent = ['billingpremise', 'billingpostcode', 'securitycode'].some((f) => str(view.obj![f]) !== undefined);
        if (results.length === 0 || !sent) continue;
        out.look('AC-VALIDATES');
        if (results.length === 3 && results.every((v) => v === '1'))
          out.fail('AC-VALIDATES', at(view, a), 'the ACCOUNTCHECK answers every security check "not checked" (1), though address, postcode or security code were sent');
      }
    },
  },
  {
    name: 'not-given-is-0',
    rules: ['SEC-RESULT-0'],
    quote: '| `0` | Not given: the bank was not given the data for the check. |',
    // Only where nothing could have given the bank the data: no card by cache token, no parent, nothing sent.
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const o = view.obj;
        if (!o || str(o.cachetoken) !== undefined || str(o.parenttransactionreference) !== undefined || str(o.md) !== undefined || str(o.pan) === undefined) continue;
        for (const p of view.parts) {
          if (!ok(p) || (p.requesttypedescription !== 'AUTH' && p.requesttypedescription !== 'ACCOUNTCHECK')) continue;
          const pairs: [string, string][] = [
            ['securityresponsesecuritycode', 'securitycode'],
            ['securityresponseaddress', 'billingpremise'],
            ['securityresponsepostcode', 'billingpostcode'],
          ];
          for (const [result, field] of pairs) {
            if (str(o[field]) !== undefined || str(p[result]) === undefined) continue;
            out.look('SEC-RESULT-0');
            if (p[result] !== '0')
              out.fail(
                'SEC-RESULT-0',
                at(view, p, result),
                `${result} is ${JSON.stringify(String(p[result]).slice(0, 2))} though no ${field} was given: "0 Not given: the bank was not given the data for the check"`,
              );
          }
        }
      }
    },
  },
  {
    name: 'stored-code-not-kept',
    rules: ['STORE-KEEPS-CARD'],
    quote: 'The stored card number and expiry date are kept. The security code is not.',
    // A payment on a stored card that sends no security code (and no cache token or md that could carry one): the
    // STORE kept none to give the bank, so the bank cannot have matched it or found it not matching.
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const o = view.obj;
        if (!o || view.parent?.type !== 'STORE' || str(o.securitycode) !== undefined || str(o.cachetoken) !== undefined || str(o.md) !== undefined) continue;
        for (const p of view.parts) {
          const result = str(p.securityresponsesecuritycode);
          if (result === undefined || (p.requesttypedescription !== 'AUTH' && p.requesttypedescription !== 'ACCOUNTCHECK')) continue;
          out.look('STORE-KEEPS-CARD');
          if (result === '2' || result === '4')
            out.fail(
              'STORE-KEEPS-CARD',
              at(view, p, 'securityresponsesecuritycode'),
              `securityresponsesecuritycode is ${result} (${result === '2' ? 'matched' : 'not matched'}) for a payment on a stored card sent without a security code: "The security code is not [kept]"`,
            );
        }
      }
    },
  },
  {
    name: 'inherited-data-given',
    rules: ['AC-INHERITED', 'INHERIT-CHILD', 'SUB-ENROLLED', '3DS-AUTH-ENROLLED'],
    quote: 'Fields sent in an ACCOUNTCHECK are inherited by its child requests.',
    // A premise or postcode the child did not send but its observed parent had (own or inherited) is the child's by
    // inheritance, so the bank was given it: a result of 0 ("Not given") says the child did not inherit it.
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const o = view.obj;
        const parent = view.parent;
        // "AUTH after 3-D Secure, enrolled card: `md`, `pares` only; all other data is inherited from the THREEDQUERY".
        const afterAcs = str(o?.md) !== undefined && parent?.type === 'THREEDQUERY';
        if (!o || !parent || parent.errorcode !== '0' || (str(o.parenttransactionreference) === undefined && !afterAcs)) continue;
        const rule = afterAcs ? (view.types.includes('SUBSCRIPTION') ? 'SUB-ENROLLED' : '3DS-AUTH-ENROLLED') : parent.type === 'ACCOUNTCHECK' ? 'AC-INHERITED' : 'INHERIT-CHILD';
        for (const p of view.parts) {
          if (!ok(p) || (p.requesttypedescription !== 'AUTH' && p.requesttypedescription !== 'ACCOUNTCHECK')) continue;
          for (const [result, field] of [
            ['securityresponseaddress', 'billingpremise'],
            ['securityresponsepostcode', 'billingpostcode'],
          ] as const) {
            if (str(o[field]) !== undefined || str(parent.fields[field]) === undefined || !passedOn(field, parent.type) || str(p[result]) === undefined) continue;
            const from = afterAcs ? rule : sourceOf(ctx, parent, field) === 'ACCOUNTCHECK' ? 'AC-INHERITED' : rule;
            out.look(from);
            if (p[result] === '0') out.fail(from, at(view, p, result), `${result} is 0 (not given) though the ${parent.type} parent had ${field}, which its child inherits`);
          }
        }
      }
    },
  },
  {
    name: 'success-is-ok',
    rules: ['ERR-NONZERO-FAILED'],
    quote: 'A non-zero code in a part means that part failed.',
    // errorcode 0 with the message of another outcome: the code is the suspect (validate names the message's rule).
    run: (ctx, out) => {
      for (const view of ctx.views) {
        for (const p of view.parts) {
          if (!ok(p) || typeof p.errormessage !== 'string') continue;
          out.look('ERR-NONZERO-FAILED');
          if (p.errormessage.trim().toLowerCase() !== 'ok')
            out.fail(
              'ERR-NONZERO-FAILED',
              at(view, p, 'errorcode'),
              `the ${String(p.requesttypedescription)} part answers errorcode 0 with the message of another outcome: a part that failed has a non-zero code`,
            );
        }
      }
    },
  },
  {
    name: 'invalid-threedquery-is-30000',
    rules: ['ERR-30000'],
    quote: '| `30000` | THREEDQUERY | Invalid field. |',
    run: (ctx, out) => {
      if (ctx.clientErrors.size === 0) return;
      for (const view of ctx.views) {
        const q = partOf(view, 'THREEDQUERY');
        const code = str(q?.errorcode);
        if (!q || code === undefined || code === '0' || view.types.length !== 1) continue;
        out.look('ERR-30000');
        if (code !== '30000') out.fail('ERR-30000', at(view, q, 'errorcode'), `a THREEDQUERY with an invalid field is answered ${JSON.stringify(code.slice(0, 8))}, not 30000 (Invalid field)`);
      }
    },
  },
  {
    name: 'refused-value-accepted',
    rules: REFUSED_VALUE_RULES,
    quote: '`ECOM` or `MOTO` for payments; `ECOM` only for THREEDQUERY; `CARDSTORE` for STORE; `FRAUDCONTROL` for RISKDEC.',
    // A value the document refuses for the request's type (a fixed value outside its set, an amount of zero where
    // only ACCOUNTCHECK allows it) is the client's fault; answered errorcode 0, it is the gateway's too, under the
    // same sentence: the gateway ran a request the document does not let it run.
    run: (ctx, out) => {
      if (ctx.clientErrors.size === 0 || !ctx.clientFindings) return;
      for (const view of ctx.views) {
        const row = view.row;
        const obj = view.obj;
        if (!row || !obj || view.parts.length === 0 || !view.parts.every(ok)) continue;
        const refused = new Map<string, string>();
        for (const [field, allowed] of Object.entries(row.fixed ?? {})) {
          const v = str(obj[field]);
          if (v !== undefined && !allowed.includes(v)) refused.set(field, `${field} ${JSON.stringify(v.slice(0, 20))} is not one the document allows in "${row.title}"`);
        }
        const amount = str(obj.baseamount);
        if (!row.zeroAmount && amount !== undefined && /^0+$/.test(amount)) refused.set('baseamount', 'baseamount 0: "It must be greater than zero, except that ACCOUNTCHECK allows `0`"');
        for (const f of ctx.clientFindings) {
          // A value not sent but inherited (rule 4): the request side read it in the parent, under the same sentence.
          const m = /^request\[(\d+)\]\.(\w+)$/.exec(f.field);
          if (!m || Number(m[1]) !== view.index || obj[m[2]] !== undefined || f.severity !== 'error' || !REFUSED_VALUE_RULES.includes(f.rule)) continue;
          refused.set(m[2], `${m[2]} is not sent and the value the parent passes on is one the document refuses in "${row.title}"`);
        }
        if (refused.size === 0) continue;
        for (const f of ctx.clientFindings) {
          const m = /^request\[(\d+)\]\.(\w+)$/.exec(f.field);
          const why = m && Number(m[1]) === view.index ? refused.get(m[2]) : undefined;
          if (f.severity !== 'error' || why === undefined) continue;
          out.fail(f.rule, at(view, view.parts[0], 'errorcode'), `the request is answered errorcode 0 though ${why}: the gateway ran a request the document refuses`);
        }
      }
    },
  },
  {
    name: 'allowed-zero-refused',
    rules: ['FIELD-BASEAMOUNT-POSITIVE'],
    quote: 'It must be greater than zero, except that ACCOUNTCHECK allows `0`.',
    // The exception the sentence makes, refused: an amount of zero in a request whose row allows it, the request side
    // finding nothing wrong with the amount, answered with errordata (public-facts.md) naming baseamount.
    run: (ctx, out) => {
      for (const view of ctx.views) {
        const amount = str(view.obj?.baseamount);
        const first = view.parts[0];
        if (!view.row?.zeroAmount || amount === undefined || !/^0{1,13}$/.test(amount) || !first || ok(first)) continue;
        const mine = `request[${view.index}].baseamount`;
        if (ctx.clientFindings?.some((f) => f.field === mine)) continue;
        out.look('FIELD-BASEAMOUNT-POSITIVE');
        if (errorData(first).some((d) => /^baseamount$/i.test(d.trim())))
          out.fail('FIELD-BASEAMOUNT-POSITIVE', at(view, first, 'errorcode'), `a ${view.types.join('+')} of baseamount 0 is refused naming baseamount: "except that ACCOUNTCHECK allows \`0\`"`);
      }
    },
  },
  {
    name: 'no-full-card-number',
    rules: ['FIELD-MASKEDPAN', 'STORE-QUERY-MASKED'],
    quote: 'Responses return a masked form in `maskedpan`, with the middle digits replaced by `#`.',
    // A value that gives back what the merchant sent in a field of its own (an orderreference of digits) is not a card.
    run: (ctx, out) => {
      // Built only for a value that holds a card number: most answers have none.
      let own: Set<string> | undefined;
      const isOwn = (v: string): boolean => (own ??= new Set(ctx.views.flatMap((x) => Object.values(x.obj ?? {}).filter((y): y is string => typeof y === 'string')))).has(v);
      for (const view of ctx.views) {
        const query = view.types.length === 1 && view.types[0] === 'TRANSACTIONQUERY';
        const rule = query ? 'STORE-QUERY-MASKED' : 'FIELD-MASKEDPAN';
        out.look(rule);
        for (const p of view.parts) {
          for (const k in p) {
            if (!Object.prototype.hasOwnProperty.call(p, k)) continue;
            const v = p[k];
            // A card number has twelve digits at least: a shorter value (most) holds none.
            const text = typeof v === 'string' ? (v.length < 12 ? '' : v) : typeof v === 'object' && v !== null ? JSON.stringify(v) : '';
            if (!(digits(text) >= 12 && mayHoldCardNumber(text) && findCardNumbers(text).length > 0 && !(typeof v === 'string' && k !== 'maskedpan' && k !== 'pan' && isOwn(v)))) continue;
            out.fail(rule, at(view, p, k), `the ${String(p.requesttypedescription)} part carries a full card number in ${k}${query ? ': "the card number is masked in the response"' : ''}`);
          }
        }
      }
    },
  },
];

/** Every answer check on one exchange. */
/**
 * The suite's answer invariants the proxy reads its own way, with what it observed before this exchange: the
 * schemas and the echoes (documentChecks), full card numbers and security codes (`masked-everywhere`, the
 * security-code walk), a resumed subscription's number (`RESUMED`, above), the parent given back (`parent-echoed`,
 * which names the row that says its part carries it before the general sentence). Every other invariant, one
 * added later included, runs here too: each holds a sentence wherever it applies.
 */
export const INVARIANTS_READ_HERE: ReadonlySet<string> = new Set(['schema', 'echoed', 'no-full-pan', 'no-security-code', 'subscription-number', 'parent-echo']);
const TAKEN_INVARIANTS = ANSWER_INVARIANTS.filter((i) => !INVARIANTS_READ_HERE.has(i.name));

/**
 * The suite's invariants on the answer as every reader reads it (an empty or null value is not returned), with the
 * request object where one was sent: each one's rule looked at where it applies, what it finds named against the
 * gateway.
 */
function suiteInvariants(ctx: AnswerContext, out: Out): void {
  const view = ctx.views.length === 1 ? ctx.views[0] : undefined;
  const answer: Answer = {
    envelope: ctx.envelope,
    format: ctx.format,
    ...(view && view.types.length > 0 && view.parts.length > 0 ? { requested: view.types } : {}),
    ...(view?.obj ? { request: view.obj } : {}),
  };
  const parts = Array.isArray(ctx.envelope.response) ? (ctx.envelope.response as readonly ResponsePart[]) : [];
  for (const inv of TAKEN_INVARIANTS) {
    if (inv.looksAt === undefined ? parts.length > 0 : parts.some((p) => inv.looksAt!(p, answer))) out.look(inv.rule);
  }
  for (const f of answerFindings(answer, TAKEN_INVARIANTS)) {
    const field = f.partIndex !== undefined ? `response[${f.partIndex}]${f.field ? `.${f.field}` : ''}` : (f.field ?? 'response');
    out.fail(f.rule, field, f.line);
  }
}

export function checkAnswer(ctx: AnswerContext, looked: LookedRules): AnswerResult {
  const out = new Out(looked);
  documentChecks(ctx, out);
  suiteInvariants(ctx, out);
  try {
    for (const check of SESSION_CHECKS) check.run(ctx, out);
  } finally {
    ctx.memory.forgetCard();
  }
  if (out.findings.length === 0) return out;
  // One finding per rule and field: validate and a session check may both see a missing field.
  const seen = new Set<string>();
  const findings = out.findings.filter((f) => {
    const key = `${f.rule}\u0000${f.field}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { findings };
}

/** The names, rules and quotes of the session checks (docs, tests). */
export const ANSWER_CHECKS: readonly { name: string; rules: readonly string[]; quote: string }[] = SESSION_CHECKS.map(({ name, rules, quote }) => ({ name, rules, quote }));
