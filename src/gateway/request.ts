/**
 * The request check: one request object in, either a PreparedRequest (types, operation row, own and inherited
 * fields, parent, card) or the error every part answers. It is the dictionary-derived check: field values go
 * through the compiled checks of schemas/check.ts as read.ts reads them (and `checkFields` names the fields at fault
 * when any is), and required, fixed, forbidden and card-source rules come from the row of schemas/operations.ts.
 * Nothing here writes to the ledger, so a refused request stores nothing.
 */
import { REQUEST_TYPES, type RequestType } from '../../schemas/fields';
import { checkFields, fieldChecks, type CompiledField } from '../../schemas/check';
import type { OperationRow } from '../../schemas/operations';
import type { SiteInfo } from './config';
import { ERR, type ErrorSpec } from './errors';
import { securityResult } from './parts';
import { normalise, NOT_INHERITED, type Normalised } from './read';
import { isRowCombination, requiredStanding, subscriptionFaults, selectRow as rowOf, threeDsPairFaults, type ParentFacts } from '../wire/reading';
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

/** Request types that work on a card: the card comes from `pan`, a `cachetoken` or the parent. */
const CARD_TYPES: ReadonlySet<RequestType> = new Set(['AUTH', 'THREEDQUERY', 'ACCOUNTCHECK', 'STORE', 'RISKDEC']);

const KNOWN_TYPES: ReadonlySet<string> = new Set(REQUEST_TYPES);
/** The dictionary's check of one item of `requesttypedescriptions` (looked up once). */
let typesChecker: CompiledField | undefined;
const typesCheck = (): CompiledField => (typesChecker ??= fieldChecks('request').get('requesttypedescriptions')!);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const fail = (types: readonly string[], error: ErrorSpec, errordata?: readonly string[], extra?: Fields): CheckResult => ({
  ok: false,
  types,
  error,
  errordata,
  extra,
});

/** Whether every item of a list is a string. */
function allStrings(list: readonly unknown[]): boolean {
  for (const t of list) if (typeof t !== 'string') return false;
  return true;
}

/** The request types named, or why they cannot be read. */
function readTypes(n: Normalised): { types: string[] } | { error: ErrorSpec; types: string[]; errordata: string[] } {
  const list = n.types;
  const listed = Array.isArray(list) && allStrings(list) ? (list as string[]) : undefined;
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

/** The row of the "Request types" table that this request object is: the one reading of src/wire/reading.ts. */
export function selectRow(types: readonly string[], own: Fields, parent: TxRecord | undefined): OperationRow | undefined {
  return rowOf(types, (f) => own[f] !== undefined, parent ? { type: parent.type, fields: parent.fields } : undefined);
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

/**
 * What a child inherits of its parent's fields: a record's fields are inheritable fields already (the request check
 * made them), so most are copied whole, in one allocation; fields that hold anything a child must not inherit go
 * field by field.
 */
function inheritedFrom(parent: TxRecord): Record<string, string> {
  const f = parent.fields;
  const noAccountType = parent.type === 'STORE' || parent.type === 'RISKDEC';
  for (const k of Object.keys(f)) if (NOT_INHERITED.has(k) || (noAccountType && k === 'accounttypedescription')) return inheritInto({}, f, parent.type);
  return { ...f };
}

/** Whether `s` is one or more `0` and nothing else (`/^0+$/`, without a regular expression made and run per AUTH). */
function allZeros(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== 48) return false;
  return true;
}

/** Whether every request type is one the document names. */
function allKnown(names: readonly string[]): boolean {
  for (const t of names) if (!KNOWN_TYPES.has(t)) return false;
  return true;
}

/** Whether a site is the caller's and configured. */
function canUse(env: CallEnv, sitereference: string): boolean {
  return env.ctx.user.sites.includes(sitereference) && env.runtime.config.sites.has(sitereference);
}

/** Whether one of the request types works on a card. */
function needsCard(types: readonly RequestType[]): boolean {
  for (const t of types) if (CARD_TYPES.has(t)) return true;
  return false;
}

export function prepareRequest(raw: unknown, uow: UnitOfWork, env: CallEnv): CheckResult {
  if (!isObject(raw)) return fail([], ERR.invalidField, ['request']);
  const n = normalise(raw);
  const read = readTypes(n);
  if ('error' in read) return fail(read.types, read.error, read.errordata);
  const names = read.types;

  // "Invalid requesttype" (public facts: 60018) for a type the document does not name.
  if (!allKnown(names)) return fail(names, ERR.invalidRequesttype, [...new Set(names.filter((t) => !KNOWN_TYPES.has(t)))]);
  const types = names as RequestType[];

  // Every value a string, every known field within its type, length and listed values. The walk above found
  // whether anything is wrong; only then are the fields at fault named, in the order `checkFields` gives.
  let typesOk = true;
  for (const t of types) if (!typesCheck().accepts(t, n.own)) typesOk = false;
  if (n.wrongType || !typesOk || n.invalid) {
    const problems = new Set<string>(n.wrongType);
    if (!typesOk) problems.add('requesttypedescriptions');
    for (const p of checkFields(n.own, 'request')) problems.add(p.field);
    return fail(types, ERR.invalidField, [...problems]);
  }

  // A combination of types that is no row of the table is refused before anything is looked up (one reading).
  if (!isRowCombination(types)) return fail(types, ERR.invalidField, ['requesttypedescriptions']);

  const rt = env.runtime;
  const own: Fields = n.own;
  const followUp = types.length === 1 && (types[0] === 'TRANSACTIONUPDATE' || types[0] === 'TRANSACTIONQUERY');

  // The parent: by `md`/`pares` for an AUTH after 3-D Secure, else by `parenttransactionreference`.
  let parent: TxRecord | undefined;
  let threeds: PreparedRequest['threeds'];
  if (!followUp && (own.md !== undefined || own.pares !== undefined)) {
    const missing = ['md', 'pares'].filter((f) => own[f] === undefined);
    if (missing.length > 0) return fail(types, ERR.invalidField, missing);
    const query = rt.ledger.threeDsBy(own.md, own.pares);
    if (!query || !canUse(env, query.sitereference) || query.type !== 'THREEDQUERY') {
      // "An AUTH whose `pares` or `md` was modified does not authenticate": nothing to attach it to, so nothing is stored.
      return fail(types, ERR.unauthenticated, undefined, { status: 'N', settlestatus: '3' });
    }
    const t = query.threeds!;
    threeds = { query, intact: threeDsPairFaults(t, own.md, own.pares, t.used === true).length === 0 };
    parent = query;
  } else if (!followUp && own.parenttransactionreference !== undefined) {
    parent = uow.get(own.parenttransactionreference);
    if (!parent || !canUse(env, parent.sitereference)) return fail(types, ERR.missingParent, ['parenttransactionreference']);
  }

  const row = selectRow(types, own, parent);
  if (!row) return fail(types, ERR.invalidField, ['requesttypedescriptions']);

  // "A later request inherits details (card, billing, delivery, other submitted fields) from an earlier one."
  const fields: Record<string, string> = parent ? inheritInto(inheritedFrom(parent), n.inheritable) : n.inheritable;

  if (followUp) {
    return {
      ok: true,
      prepared: { types, row, own, fields, securitycodeResult: '0', filter: n.filter, updates: n.updates },
    };
  }

  // The fields at fault, each once; a list only once one is found.
  let bad: string[] | undefined;
  const add = (f: string): void => {
    if (!bad) bad = [f];
    else if (!bad.includes(f)) bad.push(f);
  };

  // The site: configured, the caller's, and with the features its request types need ("Card store and
  // fraud-control features must be enabled on the account by the provider").
  let site: SiteInfo | undefined;
  if (fields.sitereference !== undefined) {
    site = canUse(env, fields.sitereference) ? rt.config.sites.get(fields.sitereference) : undefined;
    if (!site) return fail(types, ERR.invalidField, ['sitereference']);
    // The configuration's own string, so that every record of a site shares one.
    fields.sitereference = site.config.sitereference;
    if ((types.includes('STORE') && !site.config.cardstore) || (types.includes('RISKDEC') && !site.config.fraudcontrol)) {
      return fail(types, ERR.invalidField, ['requesttypedescriptions']);
    }
  }

  const forbidden = row.forbidden;
  if (forbidden) for (const f of forbidden) if (own[f] !== undefined) add(f);

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

  // Sent, or inherited from the parent (rule 4): `fields` holds both, so it stands for the parent here.
  const sent = (f: string): boolean => own[f] !== undefined;
  const facts: ParentFacts | undefined = parent ? { type: parent.type, fields } : undefined;
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
              : // Sent is present whatever the parent (requiredStanding's first answer), without a call per field.
                own[f] !== undefined || requiredStanding(f, sent, facts, row.only) === 'present';
    if (!present) add(f);
  }
  if (!card && needsCard(types) && !bad?.includes('expirydate') && !bad?.includes('cachetoken')) {
    // The card's fields that were not sent (one reading with validate, which names what is missing).
    for (const f of row.cardSource?.[0] ?? ['pan', 'expirydate']) if (own[f] === undefined) add(f);
  }
  const fixed = row.fixed;
  if (fixed) {
    // The row's own keys (a table entry, no inherited ones): walked without making a list of them per request.
    for (const f in fixed) {
      const v = fields[f];
      if (v !== undefined && !fixed[f].includes(v)) add(f);
    }
  }
  // "It must be greater than zero, except that ACCOUNTCHECK allows `0`."
  // Checked where the amount matters: sent, or required by the row (a STORE may inherit an ACCOUNTCHECK's `0`).
  const amountMatters = own.baseamount !== undefined || row.required.includes('baseamount');
  if (amountMatters && fields.baseamount !== undefined && allZeros(fields.baseamount) && !row.zeroAmount) add('baseamount');
  // Documented rules and the gateway's documented choices alike: it refuses both (src/wire/reading.ts).
  if (types.includes('SUBSCRIPTION')) for (const f of subscriptionFaults((k) => fields[k])) add(f.field);
  if (bad || !site) return fail(types, ERR.invalidField, bad ?? ['sitereference']);

  return { ok: true, prepared: { types, row, own, fields, site, parent, card, securitycodeResult, threeds } };
}
