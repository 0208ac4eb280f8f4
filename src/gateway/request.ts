/**
 * The request check: one request object in, either a PreparedRequest (types, operation row, own and inherited
 * fields, parent, card) or the error every part answers. It is the dictionary-derived check: field values go
 * through `checkFields` / `checkValue` of schemas/check.ts, and required, fixed, forbidden and card-source rules come
 * from the row of schemas/operations.ts. Nothing here writes to the ledger, so a refused request stores nothing.
 */
import { FIELD, REQUEST_TYPES, type RequestType } from '../../schemas/fields';
import { checkFields, checkValue } from '../../schemas/check';
import { OPERATION, rowsFor, type OperationRow } from '../../schemas/operations';
import type { SiteInfo } from './config';
import { ERR, type ErrorSpec } from './errors';
import { parseTimestamp } from './clock';
import { securityResult } from './parts';
import type { UnitOfWork } from './ledger';
import type { CallEnv, CardData, Fields, PreparedRequest, SecurityResult, TxRecord } from './types';

export type CheckResult =
  | { readonly ok: true; readonly prepared: PreparedRequest }
  | {
      readonly ok: false;
      /** The request types to answer, one part each; empty when they could not be read (one `ERROR` part). */
      readonly types: readonly string[];
      readonly error: ErrorSpec;
      readonly errordata?: readonly string[];
      /** Fields the failed parts carry besides the error (60022 of an unknown `md`: `status`, `settlestatus`). */
      readonly extra?: Fields;
    };

/** Fields that belong to one call and are not inherited by a child request. */
const NOT_INHERITED = new Set([
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

/** Request types that work on a card: the card comes from `pan`, a `cachetoken` or the parent. */
const CARD_TYPES: ReadonlySet<RequestType> = new Set(['AUTH', 'THREEDQUERY', 'ACCOUNTCHECK', 'STORE', 'RISKDEC']);

/** Public STPP values; the document shows only `RECURRING` and `MONTH` ("other than those in the examples: not shown"). */
export const SUBSCRIPTION_TYPES = ['RECURRING', 'INSTALLMENT'] as const;
export const SUBSCRIPTION_UNITS = ['DAY', 'MONTH'] as const;

const KNOWN_TYPES: ReadonlySet<string> = new Set(REQUEST_TYPES);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const fail = (types: readonly string[], error: ErrorSpec, errordata?: readonly string[], extra?: Fields): CheckResult => ({
  ok: false,
  types,
  error,
  errordata,
  extra,
});

interface Normalised {
  own: Record<string, string>;
  types?: unknown;
  singular?: unknown;
  filter?: unknown;
  updates?: unknown;
  /** Fields whose JSON type is not a string ("All values in JSON requests and responses are strings"). */
  wrongType: string[];
}

/**
 * Empty and null values count as not sent: real XML clients send empty elements for unset fields, and PHP clients
 * empty strings. An ACS `realPan` is dropped here, before anything could store or echo it.
 */
function normalise(obj: Record<string, unknown>): Normalised {
  const out: Normalised = { own: {}, wrongType: [] };
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (v === null || v === '' || v === undefined) continue;
    if (key.length === 7 && key.toLowerCase() === 'realpan') continue;
    switch (key) {
      case 'requesttypedescriptions':
        out.types = v;
        continue;
      case 'requesttypedescription':
        out.singular = v;
        continue;
      case 'filter':
        out.filter = v;
        continue;
      case 'updates':
        out.updates = v;
        continue;
    }
    if (typeof v === 'string') out.own[key] = v;
    else out.wrongType.push(key);
  }
  return out;
}

/** The request types named, or why they cannot be read. */
function readTypes(n: Normalised): { types: string[] } | { error: ErrorSpec; types: string[]; errordata: string[] } {
  const list = n.types;
  const listed = Array.isArray(list) && list.every((t) => typeof t === 'string') ? (list as string[]) : undefined;
  if (list !== undefined && n.singular !== undefined) {
    return { error: ERR.bothRequesttypeFields, types: listed ?? [], errordata: ['requesttypedescriptions', 'requesttypedescription'] };
  }
  if (list === undefined && n.singular === undefined) return { error: ERR.invalidField, types: [], errordata: ['requesttypedescriptions'] };
  if (list === undefined) {
    if (typeof n.singular !== 'string') return { error: ERR.invalidField, types: [], errordata: ['requesttypedescription'] };
    return { types: [n.singular] };
  }
  if (!listed || listed.length === 0) return { error: ERR.invalidField, types: [], errordata: ['requesttypedescriptions'] };
  return { types: listed };
}

/** The row of the "Request types" table that this request object is, by its types and the fields it carries. */
export function selectRow(types: readonly string[], own: Fields, parent: TxRecord | undefined): OperationRow | undefined {
  const threeDs = own.md !== undefined || own.pares !== undefined;
  switch (types.join(',')) {
    case 'AUTH':
      return OPERATION[threeDs ? 'auth-3ds-enrolled' : parent?.type === 'THREEDQUERY' ? 'auth-3ds-not-enrolled' : 'auth'];
    case 'AUTH,SUBSCRIPTION':
      return OPERATION[threeDs ? 'subscription-enrolled' : own.parenttransactionreference !== undefined ? 'subscription-not-enrolled' : 'subscription-no-3ds'];
    case 'RISKDEC':
      return OPERATION[own.parenttransactionreference !== undefined ? 'riskdec-after-payment' : 'riskdec-card'];
    default:
      return rowsFor(types)[0];
  }
}

/**
 * Copies the inheritable fields of a record or a request into `out` (one object for parent and child, so a child's
 * value overrides its parent's in place). STORE and RISKDEC parents do not pass on their account type.
 */
function inheritInto(out: Record<string, string>, fields: Fields, from?: RequestType): Record<string, string> {
  for (const k of Object.keys(fields)) {
    if (NOT_INHERITED.has(k)) continue;
    if (k === 'accounttypedescription' && (from === 'STORE' || from === 'RISKDEC')) continue;
    out[k] = fields[k];
  }
  return out;
}

const isPositiveInteger = (v: string): boolean => /^[0-9]+$/.test(v) && Number(v) >= 1;

export function prepareRequest(raw: unknown, uow: UnitOfWork, env: CallEnv): CheckResult {
  if (!isObject(raw)) return fail([], ERR.invalidField, ['request']);
  const n = normalise(raw);
  const read = readTypes(n);
  if ('error' in read) return fail(read.types, read.error, read.errordata);
  const names = read.types;

  // "Invalid requesttype" (public facts: 60018) for a type the document does not name.
  if (!names.every((t) => KNOWN_TYPES.has(t))) return fail(names, ERR.invalidRequesttype, names.filter((t) => !KNOWN_TYPES.has(t)));
  const types = names as RequestType[];

  // Every value a string, every known field within its type, length and listed values.
  const problems = new Set<string>(n.wrongType);
  for (const t of types) if (checkValue(FIELD.requesttypedescriptions, 'request', t, n.own)) problems.add('requesttypedescriptions');
  for (const p of checkFields(n.own, 'request')) problems.add(p.field);
  if (problems.size > 0) return fail(types, ERR.invalidField, [...problems]);

  const rt = env.runtime;
  const own: Fields = n.own;
  const followUp = types.length === 1 && (types[0] === 'TRANSACTIONUPDATE' || types[0] === 'TRANSACTIONQUERY');
  const canUse = (sitereference: string): boolean => env.ctx.user.sites.includes(sitereference) && rt.config.sites.has(sitereference);

  // The parent: by `md`/`pares` for an AUTH after 3-D Secure, else by `parenttransactionreference`.
  let parent: TxRecord | undefined;
  let threeds: PreparedRequest['threeds'];
  if (!followUp && (own.md !== undefined || own.pares !== undefined)) {
    const missing = ['md', 'pares'].filter((f) => own[f] === undefined);
    if (missing.length > 0) return fail(types, ERR.invalidField, missing);
    const query = rt.ledger.threeDsBy(own.md, own.pares);
    if (!query || !canUse(query.sitereference) || query.type !== 'THREEDQUERY') {
      // "An AUTH whose `pares` or `md` was modified does not authenticate": nothing to attach it to, so nothing is stored.
      return fail(types, ERR.unauthenticated, undefined, { status: 'N', settlestatus: '3' });
    }
    const t = query.threeds!;
    threeds = { query, intact: t.md === own.md && t.pares !== undefined && t.pares === own.pares && !t.used };
    parent = query;
  } else if (!followUp && own.parenttransactionreference !== undefined) {
    parent = uow.get(own.parenttransactionreference);
    if (!parent || !canUse(parent.sitereference)) return fail(types, ERR.missingParent, ['parenttransactionreference']);
  }

  const row = selectRow(types, own, parent);
  if (!row) return fail(types, ERR.invalidField, ['requesttypedescriptions']);

  // "A later request inherits details (card, billing, delivery, other submitted fields) from an earlier one."
  const fields: Record<string, string> = parent ? inheritInto(inheritInto({}, parent.fields, parent.type), own) : inheritInto({}, own);

  if (followUp) {
    return {
      ok: true,
      prepared: { types, row, own, fields, securitycodeResult: '0', filter: n.filter, updates: n.updates },
    };
  }

  const bad: string[] = [];
  const add = (f: string): void => {
    if (!bad.includes(f)) bad.push(f);
  };

  // The site: configured, the caller's, and with the features its request types need ("Card store and
  // fraud-control features must be enabled on the account by the provider").
  let site: SiteInfo | undefined;
  if (fields.sitereference !== undefined) {
    site = canUse(fields.sitereference) ? rt.config.sites.get(fields.sitereference) : undefined;
    if (!site) return fail(types, ERR.invalidField, ['sitereference']);
    // The configuration's own string, so that every record of a site shares one.
    fields.sitereference = site.config.sitereference;
    if ((types.includes('STORE') && !site.config.cardstore) || (types.includes('RISKDEC') && !site.config.fraudcontrol)) {
      return fail(types, ERR.invalidField, ['requesttypedescriptions']);
    }
  }

  for (const f of row.forbidden ?? []) if (own[f] !== undefined) add(f);

  // The card: sent, from a cache token, or inherited; the security code only as the result of its check.
  let card: CardData | undefined;
  let securitycodeResult: SecurityResult = '0';
  if (own.pan !== undefined) {
    if (own.expirydate === undefined) add('expirydate');
    else card = rt.ledger.card(own.pan, own.expirydate);
  } else if (own.cachetoken !== undefined) {
    const token = rt.ledger.token(own.cachetoken);
    if (!token) add('cachetoken');
    else {
      card = token.card;
      securitycodeResult = token.securitycodeResult;
    }
  } else if (parent?.card) {
    // "Card store: `0` disabled for future requests".
    if (parent.type === 'STORE' && parent.transactionactive === '0') add('parenttransactionreference');
    card = parent.card;
    securitycodeResult = parent.securitycodeResult;
  }
  // A child may add what its parent lacked, or bring it up to date: a stored card with its new expiry date.
  if (card && own.pan === undefined && own.expirydate !== undefined) card = rt.ledger.card(card.pan, own.expirydate);
  if (own.securitycode !== undefined) securitycodeResult = securityResult('securitycode', own.securitycode);

  for (const f of row.required) {
    const present =
      f === 'filter' || f === 'updates'
        ? n[f] !== undefined
        : f === 'md' || f === 'pares'
          ? own[f] !== undefined
          : f === 'parenttransactionreference'
            ? parent !== undefined
            : f === 'pan' || f === 'expirydate'
              ? card !== undefined || own[f] !== undefined
              : fields[f] !== undefined;
    if (!present) add(f);
  }
  if (!card && types.some((t) => CARD_TYPES.has(t)) && !bad.includes('expirydate') && !bad.includes('cachetoken')) {
    for (const f of row.cardSource?.[0] ?? ['pan', 'expirydate']) add(f);
  }
  const fixed = row.fixed;
  if (fixed) {
    for (const f of Object.keys(fixed)) {
      const v = fields[f];
      if (v !== undefined && !fixed[f].includes(v)) add(f);
    }
  }
  // "It must be greater than zero, except that ACCOUNTCHECK allows `0`."
  // Checked where the amount matters: sent, or required by the row (a STORE may inherit an ACCOUNTCHECK's `0`).
  const amountMatters = own.baseamount !== undefined || row.required.includes('baseamount');
  if (amountMatters && fields.baseamount !== undefined && /^0+$/.test(fields.baseamount) && !row.zeroAmount) add('baseamount');
  if (types.includes('SUBSCRIPTION')) for (const f of subscriptionProblems(fields)) add(f);
  if (bad.length > 0 || !site) return fail(types, ERR.invalidField, bad.length > 0 ? bad : ['sitereference']);

  return { ok: true, prepared: { types, row, own, fields, site, parent, card, securitycodeResult, threeds } };
}

/** Subscription values the engine must be able to schedule. */
function subscriptionProblems(fields: Fields): string[] {
  const out: string[] = [];
  const t = fields.subscriptiontype;
  if (t !== undefined && !(SUBSCRIPTION_TYPES as readonly string[]).includes(t)) out.push('subscriptiontype');
  const u = fields.subscriptionunit;
  if (u !== undefined && !(SUBSCRIPTION_UNITS as readonly string[]).includes(u)) out.push('subscriptionunit');
  if (fields.subscriptionfrequency !== undefined && !isPositiveInteger(fields.subscriptionfrequency)) out.push('subscriptionfrequency');
  // "It starts at `1` for a new subscription."
  if (fields.subscriptionnumber !== undefined && !isPositiveInteger(fields.subscriptionnumber)) out.push('subscriptionnumber');
  const b = fields.subscriptionbegindate;
  if (b !== undefined && parseTimestamp(b) === undefined) out.push('subscriptionbegindate');
  return out;
}
