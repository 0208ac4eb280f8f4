/**
 * One reading of the document, for every point where the reference gateway (what it refuses), `cardspec validate`
 * (what it reports) and the contract recorder (`serve --contract`, what it records against a client) must agree.
 * Each decision is taken here once, with the sentence it rests on, and the three readers call it; docs/gateway.md
 * ("Decisions") lists them. test/differential/ holds the three readers to it, request by request.
 *
 * This module is on the gateway's hot path: it loads no schema validator and allocates nothing for a request that
 * is fine.
 */
import { FIELD } from '../../schemas/fields';
import { OPERATION, rowsFor, type OperationRow } from '../../schemas/operations';
import { parseTimestamp } from '../calendar';
import { JSON_VERSION, XML_VERSION, type Format } from './types';

// ---- the envelope ----------------------------------------------------------------------------------------------

/**
 * Request objects in one call. "The body holds a list with one request object" (What the service does 1) and
 * "`request` ... One request object per call" (Envelope) say it twice; "the maximum number of request objects per
 * call: not shown" (Limits) leaves nothing to choose beyond that. So: exactly one, in all three readers.
 */
export const REQUEST_OBJECTS_PER_CALL = 1;

/**
 * The envelope's `version`. JSON: "The JSON envelope carries `version` with the value `1.00`" (Versioning 1). XML:
 * "The XML request and response blocks carry a `version` attribute with the value `3.67`" (Versioning 2): only
 * `3.67` is documented, so a block of any other version (`1.00` included) is refused, reported and recorded.
 * src/wire/xml.ts maps the block's `3.67` to the JSON form's `1.00` and anything else to a value that is not `1.00`
 * (`xmlVersionInJson`), so that the JSON-form check below decides both forms.
 */
export const VERSION: Readonly<Record<Format, string>> = { json: JSON_VERSION, xml: XML_VERSION };

export const acceptsVersion = (jsonFormVersion: unknown): boolean => jsonFormVersion === JSON_VERSION;

/** The JSON form of a block's `version` attribute: `3.67` is `1.00`; any other value stays visibly other. */
export function xmlVersionInJson(blockVersion: string): string {
  return blockVersion === XML_VERSION ? JSON_VERSION : `${XML_OTHER_PREFIX}${blockVersion}`;
}

/** The block's `version` attribute of a JSON-form version (the inverse of `xmlVersionInJson`). */
export function jsonVersionInXml(version: string): string {
  if (version === JSON_VERSION) return XML_VERSION;
  return version.startsWith(XML_OTHER_PREFIX) ? version.slice(XML_OTHER_PREFIX.length) : version;
}

const XML_OTHER_PREFIX = 'requestblock ';

/** Envelope fields at fault, as the gateway answers them (`alias` against the caller's account is the gateway's). */
export function envelopeFaults(envelope: Readonly<Record<string, unknown>>): ('version' | 'request')[] | undefined {
  let bad: ('version' | 'request')[] | undefined;
  if (!acceptsVersion(envelope.version)) (bad ??= []).push('version');
  const list = envelope.request;
  if (!Array.isArray(list) || list.length !== REQUEST_OBJECTS_PER_CALL) (bad ??= []).push('request');
  return bad;
}

// ---- values ------------------------------------------------------------------------------------------------------

/**
 * The `transactionreference` values a follow-up's `filter` names, each entry's `value` as written (`undefined` where
 * it is no string): one reading of the filter for the contract gate and the proxy, which take the first, the only one
 * or every one of them.
 */
export function filterReferences(filter: unknown): (string | undefined)[] {
  const refs = typeof filter === 'object' && filter !== null ? (filter as { transactionreference?: unknown }).transactionreference : undefined;
  if (!Array.isArray(refs)) return [];
  return refs.map((r: unknown) => {
    const value = typeof r === 'object' && r !== null ? (r as { value?: unknown }).value : undefined;
    return typeof value === 'string' ? value : undefined;
  });
}

/**
 * "Not sent": an empty string, `null`, or nothing. Real XML clients send empty elements for unset fields
 * (`<county></county>`, public-facts.md) and PHP clients empty strings; src/wire/xml.ts drops empty elements and
 * attributes, and every reader drops these values before it checks anything.
 */
export const isUnset = (v: unknown): boolean => v === '' || v === null || v === undefined;

/** The object without its unset values (a copy only when there is one). */
export function withoutUnset<T extends Record<string, unknown>>(obj: T): T {
  let copy: Record<string, unknown> | undefined;
  for (const k of Object.keys(obj)) {
    if (!isUnset(obj[k])) continue;
    copy ??= { ...obj };
    delete copy[k];
  }
  return (copy ?? obj) as T;
}

/**
 * An answer as every reader reads it: a value that is "not sent" in a request (`isUnset`: an empty string, `null`)
 * is "not returned" in an answer, at every depth (the parts, a query's records). The XML form already reads so
 * (src/wire/xml.ts drops empty elements), and many gateways write `"md": ""` for what they have no value for: one
 * reading of one document, whichever form it came in. A field the document requires is then missing, and fails on
 * the rule that requires it (`"errorcode": ""` on ERR-PART-FIELDS, an enrolled card's `"md": ""` on its row), never
 * on the field's length or form. List items keep their places (a part of `null` is still no part). The same value
 * when nothing is unset.
 */
export function readAnswer<T>(value: T): T {
  // Loops that make nothing (no list of keys, no closure): every answer of a fuzz run and of the proxy is walked
  // here whole, and most hold nothing to drop.
  if (Array.isArray(value)) {
    const list: unknown[] = value;
    let copy: unknown[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      const read = readAnswer(item);
      if (read === item) continue;
      copy ??= [...list];
      copy[i] = read;
    }
    return (copy ?? value) as T;
  }
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  // `for...in` with the own-property test visits what Object.keys lists, in its order.
  for (const k in obj) {
    if (!Object.prototype.hasOwnProperty.call(obj, k)) continue;
    const v = obj[k];
    if (isUnset(v)) {
      copy ??= { ...obj };
      delete copy[k];
      continue;
    }
    const read = readAnswer(v);
    if (read === v) continue;
    copy ??= { ...obj };
    copy[k] = read;
  }
  return (copy ?? value) as T;
}

// ---- fields the dictionary does not know -------------------------------------------------------------------------

/**
 * A field the dictionary does not know is accepted and not checked, whatever its value, in JSON and in XML alike
 * ("The full list of fields accepted in an AUTH request: not shown"). The gateway passes it on (and a child inherits
 * it when it is a string); validate and the contract report it as a warning. Unknown XML elements reach the readers
 * as unknown fields (`customer/foo`, or an object for nested elements), so they are never treated worse than unknown
 * JSON.
 */
export const isKnownRequestField = (name: string): boolean => FIELD[name]?.request !== undefined || READ_APART.has(name);

/** Keys every reader reads apart from the dictionary's request fields. */
const READ_APART: ReadonlySet<string> = new Set(['requesttypedescription']);

/**
 * What the official SDKs add (public-facts.md, "What real SDKs send"): `libraryversion` on the envelope,
 * `requestreference` and `versioninfo` on each request object. Known from public facts, passed through, and not
 * reported as unknown.
 */
export const SDK_ENVELOPE_FIELDS: ReadonlySet<string> = new Set(['libraryversion']);
export const SDK_REQUEST_FIELDS: ReadonlySet<string> = new Set(['requestreference', 'versioninfo']);

/** The fields of a request object that are neither the dictionary's nor the SDKs' (reported as warnings). */
export function unknownRequestFields(obj: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(obj)) if (!isKnownRequestField(k) && !SDK_REQUEST_FIELDS.has(k) && !isUnset(obj[k])) out.push(k);
  return out;
}

/** The envelope's own fields besides `alias`, `version`, `request` and the SDKs' `libraryversion`. */
export function unknownEnvelopeFields(envelope: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(envelope).filter((k) => k !== 'alias' && k !== 'version' && k !== 'request' && !SDK_ENVELOPE_FIELDS.has(k) && !isUnset(envelope[k]));
}

// ---- the row of the Request types table ----------------------------------------------------------------------------

/** What the readers know of a request's parent: the gateway and the contract from the ledger; validate, nothing. */
export interface ParentFacts {
  readonly type: string;
  /** The parent's effective fields, which a child inherits (rule 4). */
  readonly fields: Readonly<Record<string, string>>;
}

/**
 * "AUTH ... `sitereference`, `parenttransactionreference` only": without the ledger, an AUTH that also sends a
 * field the ordinary AUTH needs and the not-enrolled row does not (an amount, a card) is read as the ordinary AUTH.
 */
const ORDINARY_AUTH_FIELDS = [...OPERATION.auth.required, ...(OPERATION.auth.cardSource ?? []).flat()].filter((f) => !OPERATION['auth-3ds-not-enrolled'].required.includes(f));

/**
 * The row a request object is, by its types and the fields it sends; `undefined` when the combination of types is
 * no row of the table (every reader refuses it, naming `requesttypedescriptions`: the table lists the operations,
 * and "SUBSCRIPTION ... is submitted combined with `AUTH` as `["AUTH","SUBSCRIPTION"]`").
 *
 * - AUTH: `md`/`pares` sent is "AUTH after 3-D Secure, enrolled card"; a THREEDQUERY parent is "card not enrolled
 *   or unknown" (without the ledger: a parent named and none of the ordinary AUTH's own fields); else the ordinary
 *   AUTH of rule 1.
 * - AUTH+SUBSCRIPTION: `md`/`pares` sent is "enrolled card"; a parent named is "card not enrolled"; else "without
 *   3-D Secure".
 * - RISKDEC: a parent named is "Risk decision after a payment"; else "Risk decision on card data".
 */
export function selectRow(types: readonly string[], sent: (field: string) => boolean, parent?: ParentFacts): OperationRow | undefined {
  const key = types.length === 1 ? types[0] : types.join(',');
  const threeDs = sent('md') || sent('pares');
  const hasParent = sent('parenttransactionreference');
  switch (key) {
    case 'AUTH':
      if (threeDs) return OPERATION['auth-3ds-enrolled'];
      if (parent) return OPERATION[parent.type === 'THREEDQUERY' ? 'auth-3ds-not-enrolled' : 'auth'];
      return hasParent && !ORDINARY_AUTH_FIELDS.some(sent) ? OPERATION['auth-3ds-not-enrolled'] : OPERATION.auth;
    case 'AUTH,SUBSCRIPTION':
      return OPERATION[threeDs ? 'subscription-enrolled' : hasParent ? 'subscription-not-enrolled' : 'subscription-no-3ds'];
    case 'RISKDEC':
      return OPERATION[hasParent ? 'riskdec-after-payment' : 'riskdec-card'];
    default:
      return firstRowFor(types);
  }
}

/** Whether some row of the table sends these types: decided before anything is looked up in the ledger. */
export const isRowCombination = (types: readonly string[]): boolean => firstRowFor(types) !== undefined;

/** The first row of a list of types, remembered per list (the table is fixed; the lists a caller may make up are not). */
const FIRST_ROWS = new Map<string, OperationRow | undefined>();
function firstRowFor(types: readonly string[]): OperationRow | undefined {
  const key = types.length === 1 ? types[0] : JSON.stringify(types);
  if (FIRST_ROWS.has(key)) return FIRST_ROWS.get(key);
  const row = rowsFor(types)[0];
  if (FIRST_ROWS.size < 256) FIRST_ROWS.set(key, row);
  return row;
}

// ---- required fields and inheritance ------------------------------------------------------------------------------

/**
 * Fields that belong to one call and are never inherited ("A later request inherits details (card, billing,
 * delivery, other submitted fields) from an earlier one"): the request's own types and references, the card as
 * sent, the 3-D Secure return values and the SDKs' per-call extras.
 */
export const NOT_INHERITED: ReadonlySet<string> = new Set([
  'requesttypedescriptions',
  'requesttypedescription',
  'parenttransactionreference',
  'pan',
  'expirydate',
  'securitycode',
  'cachetoken',
  'md',
  'pares',
  'requestreference',
  'versioninfo',
  'settlestatus',
  'transactionactive',
]);

/**
 * How a row's required field stands when the request does not send it. A request that names a parent ("A later
 * request inherits details ... when it carries that earlier request's `transactionreference` in
 * `parenttransactionreference`"; after 3-D Secure, "all other data is inherited from the THREEDQUERY") may have it
 * from the parent: `missing` when the parent is known and lacks it too, `maybe-inherited` when the reader cannot see
 * the parent (validate: a warning, never an error), `present` when it is sent or inherited.
 */
export type RequiredStanding = 'present' | 'missing' | 'maybe-inherited';

/** Whether a parent passes a field on: not a field of one call, and no account type from a STORE or RISKDEC parent. */
export function passedOn(field: string, parentType: string): boolean {
  if (NOT_INHERITED.has(field)) return false;
  // `CARDSTORE` and `FRAUDCONTROL` are not payment account types: a payment names its own.
  return !(field === 'accounttypedescription' && (parentType === 'STORE' || parentType === 'RISKDEC'));
}

/** The facts a child reads of a parent record (its type and effective fields). */
export const parentFacts = (type: string, fields: Readonly<Record<string, string>>): ParentFacts => ({ type, fields });

/**
 * `exact`: a row whose cell ends in "only" (`sitereference`, `parenttransactionreference` only) names every field the
 * request sends, so none of them is left to the parent; the other rows' fields may come from it (rule 4).
 */
export function requiredStanding(field: string, sent: (field: string) => boolean, parent: ParentFacts | undefined | 'unknown', exact = false): RequiredStanding {
  if (sent(field)) return 'present';
  if (exact || NOT_INHERITED.has(field)) return 'missing';
  const namesParent = sent('parenttransactionreference') || sent('md') || sent('pares');
  if (!namesParent) return 'missing';
  if (parent === 'unknown') return 'maybe-inherited';
  return parent !== undefined && passedOn(field, parent.type) && !isUnset(parent.fields[field]) ? 'present' : 'missing';
}

// ---- 3-D Secure return values ---------------------------------------------------------------------------------------

/** What the gateway issued for a THREEDQUERY (the ledger's `ThreeDsState`, as far as this decision reads it). */
export interface IssuedPair {
  readonly md?: string;
  readonly pares?: string;
  readonly used?: boolean;
}

/**
 * "The ACS return values `md` and `pares` must be submitted in full and unmodified": the fields at fault, empty when
 * the pair is the one issued and unused. A pair authenticates one AUTH only (cardspec's choice, docs/gateway.md):
 * `usedBefore` says it already did. The gateway answers a fault `60022` (not authenticated); the contract records
 * it under 3DS-MD-PARES-UNMODIFIED. Validate cannot see what was issued.
 */
export function threeDsPairFaults(issued: IssuedPair | undefined, md: string | undefined, pares: string | undefined, usedBefore: boolean): ('md' | 'pares')[] {
  if (!issued) return ['md'];
  const out: ('md' | 'pares')[] = [];
  if (md === undefined || md !== issued.md) out.push('md');
  if (pares === undefined || issued.pares === undefined || pares !== issued.pares) out.push('pares');
  if (out.length === 0 && usedBefore) out.push('md');
  return out;
}

// ---- subscription values -------------------------------------------------------------------------------------------

/**
 * Subscription values the reference gateway's engine schedules. `rule`: the document states it, and every reader
 * refuses or reports it as an error. `choice`: the document does not show it, and the gateway's documented choice
 * (docs/gateway.md) refuses it; validate and the contract report a warning that says so, never an error ("Where the
 * document says not shown, the kit never fails a target").
 */
export interface SubscriptionFault {
  readonly field: string;
  readonly kind: 'rule' | 'choice';
  /** The rule of features/rules.yaml the fault is read against. */
  readonly rule: string;
  readonly why: string;
}

/** The gateway's values beyond the examples (`RECURRING`, `MONTH`): "other than those in the examples: not shown". */
export const SUBSCRIPTION_TYPES = ['RECURRING', 'INSTALLMENT'] as const;
export const SUBSCRIPTION_UNITS = ['DAY', 'MONTH'] as const;

/** The fields on which a fault is the kit's choice, not the document's rule: a gateway refusal there is a warning elsewhere. */
export const SUBSCRIPTION_CHOICE_FIELDS: ReadonlySet<string> = new Set(['subscriptiontype', 'subscriptionunit', 'subscriptionfrequency']);

/** The rule of features/rules.yaml each subscription field's fault is read against. */
export const SUBSCRIPTION_RULE: Readonly<Record<string, string>> = {
  subscriptiontype: 'FIELD-SUBSCRIPTION-VALUES',
  subscriptionunit: 'FIELD-SUBSCRIPTION-VALUES',
  subscriptionfrequency: 'SUB-FREQUENCY',
  subscriptionnumber: 'SUB-NUMBER-START',
  subscriptionbegindate: 'SUB-BEGINDATE',
};

const isPositiveInteger = (v: string): boolean => /^[0-9]+$/.test(v) && Number(v) >= 1;

/**
 * The subscription fields at fault, of the values in effect (`value(field)`: a string or undefined when not sent).
 * - `subscriptiontype`, `subscriptionunit`: the document shows `RECURRING` and `MONTH` and says other values are
 *   "not shown"; the gateway also takes INSTALLMENT and DAY (docs/gateway.md): anything else is its choice to refuse.
 * - `subscriptionfrequency` below 1: "Number of units between payments" does not say zero is refused: a choice
 *   (the engine cannot schedule payments zero units apart).
 * - `subscriptionnumber` below 1: "It starts at `1` for a new subscription", and a resumed one sends the next number.
 * - `subscriptionbegindate` not a calendar date: its type is "Date YYYY-MM-DD" ("Date of the scheduled payments' start").
 */
export function subscriptionFaults(value: (field: string) => string | undefined): SubscriptionFault[] {
  const out: SubscriptionFault[] = [];
  const t = value('subscriptiontype');
  if (t !== undefined && !(SUBSCRIPTION_TYPES as readonly string[]).includes(t))
    out.push({
      field: 'subscriptiontype',
      kind: 'choice',
      rule: 'FIELD-SUBSCRIPTION-VALUES',
      why: `is "${t}": the document shows only RECURRING; the reference gateway takes RECURRING or INSTALLMENT and refuses other values (docs/gateway.md); other values are not shown`,
    });
  const u = value('subscriptionunit');
  if (u !== undefined && !(SUBSCRIPTION_UNITS as readonly string[]).includes(u))
    out.push({
      field: 'subscriptionunit',
      kind: 'choice',
      rule: 'FIELD-SUBSCRIPTION-VALUES',
      why: `is "${u}": the document shows only MONTH; the reference gateway takes DAY or MONTH and refuses other values (docs/gateway.md); other values are not shown`,
    });
  const f = value('subscriptionfrequency');
  if (f !== undefined && !isPositiveInteger(f))
    out.push({
      field: 'subscriptionfrequency',
      kind: 'choice',
      rule: 'SUB-FREQUENCY',
      why: `is "${f}": the reference gateway refuses fewer than 1 unit between payments (docs/gateway.md); the document does not say`,
    });
  const n = value('subscriptionnumber');
  if (n !== undefined && !isPositiveInteger(n)) out.push({ field: 'subscriptionnumber', kind: 'rule', rule: 'SUB-NUMBER-START', why: `is "${n}": "It starts at \`1\` for a new subscription"` });
  const b = value('subscriptionbegindate');
  if (b !== undefined && parseTimestamp(b) === undefined) out.push({ field: 'subscriptionbegindate', kind: 'rule', rule: 'SUB-BEGINDATE', why: `is "${b}", not a calendar date (Date YYYY-MM-DD)` });
  return out;
}

// ---- which fields a finding names ------------------------------------------------------------------------------------

/**
 * The fields of a request object a validator finding names, as the gateway's `errordata` would name them:
 * `request[0].billingtown` is `billingtown`, an item (`requesttypedescriptions[1]`) or a member (`filter.x`) is its
 * field, and a missing card (`pan+expirydate|cachetoken|...`) is the first way of sending it (`pan`, `expirydate`),
 * as the gateway names it.
 */
export function findingFields(field: string): string[] {
  const bare = field.replace(/^request\[\d+\]\.?/, '');
  if (bare.includes('|')) return bare.split('|')[0].split('+');
  const name = /^[^.[]*/.exec(bare)?.[0] ?? bare;
  return name === '' ? [] : name.split('+');
}
