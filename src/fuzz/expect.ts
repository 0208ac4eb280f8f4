/**
 * What the document lets the kit expect of the answer to one generated request, decided from the request as it
 * reaches the target (the JSON envelope sent, or what the XML block maps back to), never from what the generator
 * meant: a JSON number written to XML arrives as text, an empty value means "not set".
 *
 * - `valid`: every field passes the field dictionary (schemas/check.ts) and the row of the "Request types" table
 *   (required fields, card source, fixed values, amount above zero), and every value that names something names
 *   what the target gave this run (site, cache token, parent). The request must not be refused for an invalid field.
 * - `invalid`: a field breaks the dictionary or the row. The request must be refused (no part with errorcode `0`).
 * - `refused`: request types the document does not name, or SUBSCRIPTION not sent as `["AUTH","SUBSCRIPTION"]`.
 * - `open`: anything the document leaves "not shown" (a combination of types not in the table, an envelope that is
 *   not `{alias, version, request:[one object]}`, the follow-up shapes, an amount a bank may find too large, ...).
 *   Only the oracles that hold for every answer apply. Each `open` says why, for the report.
 */
import { checkFields } from '../../schemas/check';
import { FIELD, REQUEST_TYPES } from '../../schemas/fields';
import { rowsFor, type OperationRow } from '../../schemas/operations';
import { selectRow } from '../validate';
import { JSON_VERSION, type RequestEnvelope, type RequestObject } from '../wire/types';

export type Expectation =
  | { readonly kind: 'valid'; readonly row: OperationRow }
  | { readonly kind: 'invalid'; readonly fields: readonly string[]; readonly why: string; readonly rule: string }
  | { readonly kind: 'refused'; readonly fields: readonly string[]; readonly why: string; readonly rule: string }
  | { readonly kind: 'open'; readonly why: string };

export interface CaseExpectation {
  readonly expectation: Expectation;
  /** The request types the answer must hold one part each of, in order; absent where the document does not say. */
  readonly parts?: readonly string[];
  /** The request object as the target sees it (empty and null values dropped), when there is one. */
  readonly request?: RequestObject;
}

/** What this run's target gave: the values that name something in it. */
export interface ExpectContext {
  readonly alias: string;
  readonly site: string;
  readonly currency?: string;
  readonly cards: readonly { readonly pan: string }[];
  readonly cachetokens: readonly string[];
  /** Transactions the target made this run, with the request object each was made of (what a child inherits). */
  readonly parents: ReadonlyMap<string, RequestObject>;
}

/**
 * "`baseamount` has at most 13 digits, and the maximum can be lower depending on the acquiring bank": an amount of
 * up to 9 digits is one the kit expects a test site to take (cardspec's choice, docs/fuzz.md); 10 to 13 digits
 * may be refused or taken.
 */
export const AMOUNT_DIGITS_EXPECTED = 9;

/**
 * The rule of each row of the Request types table (features/rules.yaml), for a request that misses what its row
 * requires. The ordinary AUTH is read from rule 1 of "Rules tied to the operations".
 */
export const ROW_RULES: Readonly<Record<string, string>> = {
  threedquery: '3DS-QUERY-RESPONSE',
  'auth-3ds-enrolled': '3DS-AUTH-ENROLLED',
  'auth-3ds-not-enrolled': '3DS-AUTH-NOT-ENROLLED',
  'subscription-enrolled': 'SUB-ENROLLED',
  'subscription-not-enrolled': 'SUB-NOT-ENROLLED',
  'subscription-no-3ds': 'SUB-NO-3DS',
  auth: '3DS-FALLBACK-AUTH',
  accountcheck: 'AC-SHAPE',
  store: 'STORE-SHAPE',
  'riskdec-card': 'RISKDEC-CARD',
  'riskdec-after-payment': 'RISKDEC-AFTER-PAYMENT',
  'riskdec-then-auth': 'RISKDEC-FIRST',
  'auth-then-riskdec': 'RISKDEC-LAST',
  transactionupdate: 'STORE-FOLLOWUP-SHAPES',
  transactionquery: 'STORE-FOLLOWUP-SHAPES',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Empty and null values count as not sent (public-facts.md: XML clients send empty elements for unset fields).
 * An object that sends none (most) is given back as it is, not copied: nothing here or after changes it.
 */
export function sentFields(obj: Record<string, unknown>): RequestObject {
  let unset = false;
  for (const k in obj) {
    const v = obj[k];
    if (v === '' || v === null || v === undefined) {
      unset = true;
      break;
    }
  }
  if (!unset) return obj;
  const out: RequestObject = {};
  for (const k in obj) {
    if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
    const v = obj[k];
    if (v !== '' && v !== null && v !== undefined) out[k] = v;
  }
  return out;
}

const RULE_OF_PROBLEM: Readonly<Record<string, string>> = {
  'not-a-string': 'FIELD-STRINGS',
  'too-short': 'LIMIT-FIELD-LENGTHS',
  'too-long': 'LIMIT-FIELD-LENGTHS',
  'bad-characters': 'FIELD-LENGTHS',
  'not-a-listed-value': 'FIELD-LENGTHS',
};

const invalid = (fields: readonly string[], why: string, rule: string, parts?: readonly string[], request?: RequestObject): CaseExpectation => ({
  expectation: { kind: 'invalid', fields: [...new Set(fields)], why, rule },
  parts,
  request,
});
const open = (why: string, parts?: readonly string[], request?: RequestObject): CaseExpectation => ({ expectation: { kind: 'open', why }, parts, request });

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['alias', 'version', 'request']);

/** The expectation for one request envelope as it reaches the target. */
export function expectFor(envelope: RequestEnvelope, ctx: ExpectContext): CaseExpectation {
  if (!isObject(envelope)) return open('the body is not an envelope object');
  const extra = Object.keys(envelope).filter((k) => !ENVELOPE_KEYS.has(k));
  const list = envelope.request;
  if (!Array.isArray(list) || list.length !== 1 || !isObject(list[0])) {
    return open('the envelope does not hold one request object ("the shape of a response to a malformed request: not shown")');
  }
  if (envelope.alias !== ctx.alias) return open("the envelope's alias is not the account's (the answer to it is not shown)");
  if (envelope.version !== JSON_VERSION) return open("the envelope's version is not 1.00 (the answer to it is not shown)");
  const obj = sentFields(list[0]);
  const withExtras = (e: CaseExpectation): CaseExpectation =>
    extra.length > 0 && e.expectation.kind === 'valid' ? open(`the envelope carries fields the document does not name (${extra.join(', ')})`, e.parts, e.request) : e;
  return withExtras(expectObject(obj, ctx));
}

function expectObject(obj: RequestObject, ctx: ExpectContext): CaseExpectation {
  const rawTypes = obj.requesttypedescriptions;
  if (rawTypes === undefined) {
    return invalid(['requesttypedescriptions'], 'the request object names no request type', 'ENV-TYPES-NAMED', undefined, obj);
  }
  if (!Array.isArray(rawTypes) || rawTypes.length === 0 || !rawTypes.every((t) => typeof t === 'string')) {
    return invalid(['requesttypedescriptions'], 'requesttypedescriptions is not a list of request type names', 'FIELD-STRINGS', undefined, obj);
  }
  const types = rawTypes as string[];
  const known = REQUEST_TYPES as readonly string[];
  const unknown = types.filter((t) => !known.includes(t));
  if (unknown.length > 0) {
    return {
      // A target may name the unknown type itself rather than the field (public-facts.md: "60018 invalid request type").
      expectation: { kind: 'refused', fields: ['requesttypedescriptions', ...unknown], why: 'a request type the document does not name', rule: 'ENV-TYPES-NAMED' },
      request: obj,
    };
  }
  if (types.includes('SUBSCRIPTION') && types.join(',') !== 'AUTH,SUBSCRIPTION') {
    return {
      expectation: { kind: 'refused', fields: ['requesttypedescriptions'], why: 'SUBSCRIPTION "is submitted combined with AUTH as ["AUTH","SUBSCRIPTION"]"', rule: 'SUB-REQUIRES-AUTH' },
      request: obj,
    };
  }
  const row = selectRow(obj);
  if (!row) return open(`no row of the Request types table sends [${types.join(', ')}]`, undefined, obj);
  if (row.publicShape) return open(`${row.title}: "shape not shown" (the public shape is cardspec's choice)`, undefined, obj);
  const parts = types;

  // The field dictionary.
  const problems = checkFields(obj, 'request');
  if (problems.length > 0) {
    const first = problems[0];
    return invalid(
      problems.map((p) => p.field),
      `${first.problem.message}`,
      RULE_OF_PROBLEM[first.problem.kind] ?? 'FIELD-LENGTHS',
      parts,
      obj,
    );
  }

  // "A later request inherits details (card, billing, delivery, other submitted fields) from an earlier one": the
  // row's rules hold for the request with what it inherits from a parent the kit knows; after an ACS exchange
  // (`md`, `pares`) the inherited data is the THREEDQUERY's, which the kit does not track.
  const parentRequest = typeof obj.parenttransactionreference === 'string' ? ctx.parents.get(obj.parenttransactionreference) : undefined;
  const acsLinked = obj.md !== undefined || obj.pares !== undefined;
  // The request with what it inherits, read field by field rather than copied (`obj` holds no undefined value).
  const fromParent = parentRequest ? inherited(parentRequest) : undefined;
  const merged = (f: string): unknown => {
    const v = obj[f];
    return v !== undefined || !fromParent ? v : fromParent[f];
  };

  // The row: fixed values, the amount, required fields and the card source.
  const bad: string[] = [];
  let why = '';
  let rule = '';
  const note = (fields: readonly string[], w: string, r: string): void => {
    bad.push(...fields);
    if (!why) {
      why = w;
      rule = r;
    }
  };
  const fixed = row.fixed ?? {};
  for (const f in fixed) {
    const values = fixed[f];
    const v = merged(f);
    if (v !== undefined && !values.includes(String(v)))
      note(
        [f],
        `${f} must be ${values.join(' or ')} in "${row.title}"`,
        f === 'accounttypedescription' && row.requesttypes.includes('THREEDQUERY') ? 'FIELD-ACCOUNTTYPE-THREEDQUERY' : 'FIELD-ACCOUNTTYPE-PAYMENTS',
      );
  }
  const amount = merged('baseamount');
  if (typeof amount === 'string' && /^0+$/.test(amount) && !row.zeroAmount) note(['baseamount'], '"It must be greater than zero, except that ACCOUNTCHECK allows `0`"', 'FIELD-BASEAMOUNT-POSITIVE');
  const links = ['parenttransactionreference', 'md', 'pares'];
  // A row whose cell ends in "only" names every field its request sends: none of them is left to a parent or to the
  // ACS exchange (the one reading of src/wire/reading.ts `requiredStanding`, `exact`).
  const missing = row.required.filter((f) => (row.only ? obj[f] === undefined : merged(f) === undefined && (!acsLinked || links.includes(f))));
  const sources = row.cardSource ?? [];
  const sourceFields = sourceFieldsOf(row);
  // Rows of the same request types differ by what links or carries the card (RISKDEC on card data or after a
  // payment): with neither sent, what is missing may be named after any of them.
  // (Worked out only when something is missing: most requests miss nothing.)
  const siblings = (): string[] => rowsFor(types).flatMap((r) => [...r.required.filter((f) => merged(f) === undefined), ...(r.cardSource ?? []).flat()]);
  if (missing.length > 0)
    note(
      [...missing, ...siblings(), ...(missing.some((f) => sourceFields.includes(f)) ? sourceFields : [])],
      `${missing.join(', ')} not sent; "${row.title}" requires it`,
      ROW_RULES[row.id] ?? 'TRANSPORT-REQUEST-BODY',
    );
  if (!acsLinked && sources.length > 0 && !sources.some((set) => set.every((f) => obj[f] !== undefined))) {
    note([...sourceFields, ...siblings()], `no card: "${row.title}" needs ${sources.map((s) => s.join('+')).join(' or ')}`, ROW_RULES[row.id] ?? 'TRANSPORT-REQUEST-BODY');
  }
  // A card is its number and its expiry together ("`pan`, `expirydate`"): half of a card source is no card,
  // unless a parent or another source supplies the card (then what the half means is not shown).
  const halfCard: string[] = [];
  for (const set of sources) {
    const sent = set.filter((f) => obj[f] !== undefined);
    if (sent.length === 0 || sent.length === set.length) continue;
    const absent = set.filter((f) => obj[f] === undefined);
    const otherCard = sources.some((other) => other !== set && other.every((f) => obj[f] !== undefined));
    if (parentRequest || acsLinked || otherCard) halfCard.push(`${sent.join(', ')} sent without ${absent.join(', ')} beside another card source (what it means is not shown)`);
    else note(absent, `${sent.join(', ')} sent without ${absent.join(', ')}`, ROW_RULES[row.id] ?? 'TRANSPORT-REQUEST-BODY');
  }
  if (bad.length > 0) return invalid(bad, why, rule, parts, obj);
  if (halfCard.length > 0) return open(halfCard[0], parts, obj);

  // What the kit cannot call valid, though nothing in it is invalid.
  const reason = openReason(obj, row, ctx);
  if (reason !== undefined) return open(reason, parts, obj);
  return { expectation: { kind: 'valid', row }, parts, request: obj };
}

/** The fields of a row's card sources, worked out once per row (rows are constants of schemas/operations.ts). */
function sourceFieldsOf(row: OperationRow): readonly string[] {
  let fields = SOURCE_FIELDS.get(row);
  if (!fields) {
    fields = (row.cardSource ?? []).flat();
    SOURCE_FIELDS.set(row, fields);
  }
  return fields;
}

const SOURCE_FIELDS = new Map<OperationRow, readonly string[]>();

/**
 * What a child inherits of its parent's request: everything but the request types, the parent's own link and the
 * card fields, which travel as one card (a child that sends a card number sends its own card, expiry included).
 * Worked out once per parent request object: a run's parents are few and never change, and cases name them often.
 */
function inherited(parent: RequestObject): RequestObject {
  let rest = INHERITED.get(parent);
  if (!rest) {
    const { requesttypedescriptions: _t, parenttransactionreference: _p, pan: _n, expirydate: _e, securitycode: _s, cachetoken: _c, ...fields } = sentFields(parent);
    rest = fields;
    INHERITED.set(parent, rest);
  }
  return rest;
}

const INHERITED = new WeakMap<RequestObject, RequestObject>();

/** The dictionary's request fields by name, in a Map: looked up for every field of every case. */
const REQUEST_FIELD: ReadonlyMap<string, (typeof FIELD)[string]> = new Map(Object.entries(FIELD).filter(([, def]) => def.request !== undefined));

/** The first reason the kit cannot call the request valid, though nothing in it is invalid (undefined: none). */
function openReason(obj: RequestObject, row: OperationRow, ctx: ExpectContext): string | undefined {
  for (const f of row.forbidden ?? []) if (obj[f] !== undefined) return `${f} is sent in "${row.title}": the answer to it is not shown`;
  for (const k in obj) {
    if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
    const def = REQUEST_FIELD.get(k);
    if (!def) return `${k} is not a field of the document ("The full list of fields accepted ... not shown")`;
    if (def.aliasOf) return `${k} is the STORE example's spelling of ${def.aliasOf} (cardspec never fails a target on it)`;
    if (def.examples && !def.examples.includes(String(obj[k]))) return `${k} other than ${def.examples.join(', ')}: "Allowed values ... other than those in the examples: not shown"`;
  }
  if (obj.sitereference !== undefined && obj.sitereference !== ctx.site) return "the site is not the profile's (a target knows only its own sites)";
  if (obj.cachetoken !== undefined && !ctx.cachetokens.includes(String(obj.cachetoken))) return 'the cache token is not one the target issued';
  if (obj.parenttransactionreference !== undefined && !ctx.parents.has(String(obj.parenttransactionreference))) return 'the parent is not a transaction the target made';
  if (obj.md !== undefined || obj.pares !== undefined) return 'md and pares are not values an ACS issued this run';
  if (obj.currencyiso3a !== undefined && ctx.currency !== undefined && obj.currencyiso3a !== ctx.currency) return "the currency is not the profile's (three letters are not necessarily a currency)";
  if (obj.pan !== undefined && !ctx.cards.some((c) => c.pan === obj.pan)) return "the card number is not one of the profile's test cards";
  const amount = obj.baseamount;
  if (typeof amount === 'string' && amount.length > AMOUNT_DIGITS_EXPECTED) return `an amount of ${amount.length} digits ("the maximum can be lower depending on the acquiring bank")`;
  for (const f of ZERO_NOT_A_SCHEDULE) {
    const v = obj[f];
    if (typeof v === 'string' && /^0+$/.test(v)) return `${f} 0 (payment numbers start at 1; a zero interval is not a schedule)`;
  }
  const country = FIELD.billingpostcode?.validatedWhen;
  if (country && obj[country.field] !== undefined && !country.values.includes(String(obj[country.field]))) {
    return `${country.field} is not one of the countries the document names (two letters are not necessarily a country)`;
  }
  return undefined;
}

const ZERO_NOT_A_SCHEDULE = ['subscriptionnumber', 'subscriptionfrequency'];
