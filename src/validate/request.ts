/**
 * Request objects and request envelopes against the row of the Request types table they belong to.
 */
import { REQUEST_ENVELOPE_FILE, requestRowFile } from '../../schemas/files';
import { checkValue } from '../../schemas/check';
import { FIELD, REQUEST_TYPES, SECTION } from '../../schemas/fields';
import type { OperationRow } from '../../schemas/operations';
import type { Format, RequestObject } from '../wire/types';
import {
  passedOn,
  requiredStanding,
  SDK_REQUEST_FIELDS,
  subscriptionFaults,
  selectRow as readingSelectRow,
  isUnset,
  unknownEnvelopeFields,
  unknownRequestFields,
  withoutUnset,
  type ParentFacts,
} from '../wire/reading';
import { checkFor, passesEnvelopeShell, schemaRoot } from './schemas';
import { dedupe, forFormat, joinPath, toViolations, typeNames, violation, type Violation } from './violations';

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const sent = (obj: RequestObject, field: string): boolean => !isUnset(obj[field]);

/**
 * What a reader knows of the parent a request object names: the contract and the differential tests give the
 * gateway's ledger (`ParentFacts`, or undefined when there is no such parent); `cardspec validate` knows nothing
 * ('unknown'), so a required field a parent could pass on is then a warning, never an error.
 */
export interface ReadingContext {
  parentOf?(obj: RequestObject): ParentFacts | undefined;
}

/** Which row of the Request types table a request object is (the one reading: src/wire/reading.ts). */
export function selectRow(obj: RequestObject, parent?: ParentFacts): OperationRow | undefined {
  const types = obj.requesttypedescriptions;
  if (!Array.isArray(types) || !types.every((t): t is string => typeof t === 'string')) return undefined;
  return readingSelectRow(types, (f) => sent(obj, f), parent);
}

/** A request object against one given row (the mutation tests and `validateRequestObject` use this). */
export function validateAgainstRow(obj: RequestObject, row: OperationRow, prefix = '', parent: ParentFacts | undefined | 'unknown' = 'unknown'): Violation[] {
  return againstRow(obj, row, prefix, parent).violations;
}

/** What a row found, and whether the object passed the row's schema (and with it the envelope's `request-object`). */
interface RowReading {
  readonly violations: Violation[];
  readonly schemaPassed: boolean;
}

function againstRow(obj: RequestObject, row: OperationRow, prefix: string, parent: ParentFacts | undefined | 'unknown'): RowReading {
  const file = requestRowFile(row.id);
  const errors = checkFor(file)(obj);
  const out = inheritance(toViolations(errors, { prefix, subject: `"${row.title}"`, section: row.section }), obj, prefix, parent, row.only === true);
  // A card number is sent with its expiry date, whichever other way the row would take the card (as the gateway reads it).
  if (
    typeof obj.pan === 'string' &&
    obj.pan !== '' &&
    checkValue(FIELD.pan, 'request', obj.pan) === null &&
    !sent(obj, 'expirydate') &&
    !out.some((v) => v.field === joinPath(prefix, ['expirydate']))
  ) {
    const at = joinPath(prefix, ['expirydate']);
    out.push(violation(at, 'required', row.section, `${at} is missing: pan is sent, and a card number goes with its expiry date`));
  }
  // A row's fixed value holds for the value in effect: one the request does not send but inherits too (rule 4).
  if (parent !== 'unknown' && parent !== undefined) {
    for (const [field, values] of Object.entries(row.fixed ?? {})) {
      const inherited = parent.fields[field];
      if (sent(obj, field) || !passedOn(field, parent.type) || inherited === undefined || values.includes(inherited)) continue;
      const at = joinPath(prefix, [field]);
      out.push(violation(at, 'fixed', row.section, `${at} is not sent and the parent passes on a value that is not ${values.join(' or ')}, the value "${row.title}" takes`));
    }
    // The amount in effect too, where the row needs one (the gateway reads it so): an AUTH on an ACCOUNTCHECK of 0.
    const amount = parent.fields.baseamount;
    if (!row.zeroAmount && row.required.includes('baseamount') && !sent(obj, 'baseamount') && amount !== undefined && /^0+$/.test(amount) && passedOn('baseamount', parent.type)) {
      const at = joinPath(prefix, ['baseamount']);
      out.push(
        violation(
          at,
          'amount-above-zero',
          row.section,
          `${at} is not sent and the parent passes on 0: it must be greater than zero in "${row.title}" ("It must be greater than zero, except that ACCOUNTCHECK allows 0")`,
        ),
      );
    }
  }
  if (row.only) out.push(...beyondTheRow(obj, row, prefix, parent));
  const recommended = schemaRoot(file)['x-recommended'];
  if (Array.isArray(recommended)) {
    for (const field of recommended) {
      if (typeof field === 'string' && !sent(obj, field)) {
        const meaning = FIELD[field]?.meaning;
        out.push(violation(joinPath(prefix, [field]), 'recommended', row.section, `${field} is not sent; it is recommended in "${row.title}"${meaning ? ` (${meaning})` : ''}`, 'warning'));
      }
    }
  }
  return { violations: dedupe(out), schemaPassed: errors.length === 0 };
}

/** The card as a request sends it. */
const CARD_FIELDS: ReadonlySet<string> = new Set(['pan', 'expirydate', 'securitycode', 'cachetoken']);

/**
 * Fields of the document a row whose cell says "only" does not send (`md`, `pares` only; `sitereference`,
 * `parenttransactionreference` only): a response field, the card, or a value other than the one the parent passes on,
 * is an error ("all other data is inherited from the THREEDQUERY"). The same value sent again, a field the parent lacked
 * (rule 4: "Extra fields may be added to the child that the parent lacked") or a parent that cannot be seen is a
 * warning. A field of no table is the unknown-field warning's, and the SDKs' extras are not reported.
 */
function beyondTheRow(obj: RequestObject, row: OperationRow, prefix: string, parent: ParentFacts | undefined | 'unknown'): Violation[] {
  const listed = new Set<string>(['requesttypedescriptions', ...row.required, ...(row.recommended ?? []), ...(row.optional ?? [])]);
  const out: Violation[] = [];
  const only = `"${row.title}" sends ${row.required.join(' and ')} only`;
  for (const field of Object.keys(obj)) {
    const def = FIELD[field];
    if (listed.has(field) || !def || SDK_REQUEST_FIELDS.has(field) || !sent(obj, field)) continue;
    const at = joinPath(prefix, [field]);
    if (def.request === undefined) {
      out.push(violation(at, 'not-in-row', row.section, `${at} is a response field of the document, not sent in a request: ${only}`));
      continue;
    }
    if (CARD_FIELDS.has(field)) {
      // Both rows follow a THREEDQUERY, whose row takes the card (a cache token, or a stored card's reference).
      out.push(violation(at, 'not-in-row', row.section, `${at} is sent: ${only}; the card is the THREEDQUERY's, inherited ("all other data is inherited from the THREEDQUERY")`));
      continue;
    }
    const inherited = parent !== 'unknown' && parent !== undefined && passedOn(field, parent.type) ? parent.fields[field] : undefined;
    if (inherited !== undefined && !isUnset(inherited) && inherited !== obj[field]) {
      out.push(violation(at, 'not-in-row', row.section, `${at} is sent with a value other than the one the parent passes on: ${only}, and all other data is inherited`));
    } else {
      const why =
        inherited !== undefined
          ? 'it repeats the value the parent passes on'
          : parent === 'unknown' || parent === undefined
            ? 'the parent cannot be seen here'
            : 'the parent lacked it ("Extra fields may be added to the child that the parent lacked")';
      out.push(violation(at, 'not-in-row', row.section, `${at} is sent: ${only} (${why})`, 'warning'));
    }
  }
  return out;
}

/**
 * Required fields a parent may pass on (rule 4, src/wire/reading.ts `requiredStanding`): dropped when the
 * parent has them, a warning when the parent cannot be seen, kept when it lacks them; kept always under a row that
 * names every field it sends (`exact`: "... only").
 */
function inheritance(violations: Violation[], obj: RequestObject, prefix: string, parent: ParentFacts | undefined | 'unknown', exact: boolean): Violation[] {
  const out: Violation[] = [];
  for (const v of violations) {
    if (v.rule === 'card-source') {
      // Each way of sending the card, less what was sent of it: the fields still missing, as the gateway names them.
      const ways = v.field
        .slice(prefix.length)
        .split('|')
        .map((w) =>
          w
            .split('+')
            .filter((f) => !sent(obj, f))
            .join('+'),
        );
      out.push({ ...v, field: prefix + ways.join('|') });
      continue;
    }
    if (v.rule !== 'required') {
      out.push(v);
      continue;
    }
    const name = v.field.slice(prefix.length);
    // A row that lists `pan`/`expirydate` takes the card from a cache token as well, as the gateway reads it
    // (docs/gateway.md, the request check 5: "any of the three sources satisfies it").
    if ((name === 'pan' || name === 'expirydate') && sent(obj, 'cachetoken')) continue;
    const standing = requiredStanding(name, (f) => sent(obj, f), parent, exact);
    if (standing === 'present') continue;
    if (standing === 'missing') out.push(v);
    else out.push({ ...v, severity: 'warning', message: `${v.message}; not sent, so it must be inherited from the parent this request names (the parent cannot be seen here)` });
  }
  return out;
}

/** What can be said of a request object that no row of the table describes. */
function noRow(obj: Record<string, unknown>, prefix: string): Violation[] {
  const out = toViolations(checkFor(REQUEST_ENVELOPE_FILE, '#/$defs/request-object')(obj), { prefix, subject: 'a request object', section: SECTION.what });
  const types = obj.requesttypedescriptions;
  const field = joinPath(prefix, ['requesttypedescriptions']);
  if (!Array.isArray(types) || !types.every((t) => typeof t === 'string')) return out;
  const unknown = types.filter((t) => !(REQUEST_TYPES as readonly string[]).includes(t));
  if (types.length === 0) {
    out.push(violation(field, 'request-type', SECTION.what, `${field} names no request type ("The request object names one or more request types")`));
  } else if (unknown.length) {
    out.push(violation(field, 'request-type', SECTION.what, `${field} holds ${typeNames(unknown)}: not a request type of the document (${REQUEST_TYPES.join(', ')})`));
  } else if (types.includes('SUBSCRIPTION')) {
    out.push(violation(field, 'request-type', SECTION.what, `SUBSCRIPTION "is submitted combined with AUTH as ["AUTH","SUBSCRIPTION"]"; ${field} is [${typeNames(types)}]`));
  } else {
    // Every reader refuses a combination the table does not list (src/wire/reading.ts `selectRow`).
    out.push(violation(field, 'no-row', SECTION.requestTypes, `no row of the Request types table sends [${typeNames(types)}]; only the fields were checked against the dictionary`));
  }
  return out;
}

export function checkRequestObject(raw: unknown, prefix: string, context: ReadingContext = {}): Violation[] {
  return readRequestObject(raw, prefix, context).violations;
}

/**
 * A request object's violations, and whether it passed its row's schema as the envelope holds it: then it passes
 * the envelope's `request-object` too (every row schema holds every check of it), and the envelope's check need
 * not look at it again.
 */
function readRequestObject(raw: unknown, prefix: string, context: ReadingContext): RowReading {
  if (!isObject(raw)) {
    const field = joinPath(prefix, []);
    return { violations: [violation(field, 'type', SECTION.what, `${field || 'the request object'} must be an object (a request object)`)], schemaPassed: false };
  }
  // Empty strings and null are "not sent" (src/wire/reading.ts `isUnset`), as the gateway reads them.
  let obj: RequestObject = withoutUnset(raw);
  const extra: Violation[] = [];
  // A lone `requesttypedescription` string is read as a list of one, as the gateway reads it; with the list too, it
  // is refused (public facts: 60040).
  const singular = obj.requesttypedescription;
  if (singular !== undefined) {
    const { requesttypedescription: _s, ...rest } = obj;
    const at = joinPath(prefix, ['requesttypedescription']);
    if (obj.requesttypedescriptions !== undefined) {
      extra.push(violation(at, 'request-type', SECTION.what, `${at} and ${joinPath(prefix, ['requesttypedescriptions'])} are both sent: name the request types once, in requesttypedescriptions`));
      obj = rest;
    } else if (typeof singular === 'string') {
      extra.push(violation(at, 'request-type', SECTION.what, `${at} names the request type; the document names the types in requesttypedescriptions (read here as a list of one)`, 'warning'));
      obj = { ...rest, requesttypedescriptions: [singular] };
    } else {
      extra.push(violation(at, 'type', SECTION.what, `${at} must be a request type name, a string`));
      obj = rest;
    }
  }
  for (const f of unknownRequestFields(obj)) {
    const at = joinPath(prefix, [f]);
    // A response field of the tables (`pareq`, `enrolled`) is the document's, but not a request field.
    const what = FIELD[f] ? `a response field of the document's tables (${FIELD[f].section}), not a request field` : "not a field of the document's tables";
    extra.push(violation(at, 'unknown-field', SECTION.common, `${at} is ${what}: accepted and passed on, not checked ("The full list of fields accepted in an AUTH request: not shown")`, 'warning'));
  }
  const parent = context.parentOf ? context.parentOf(obj) : 'unknown';
  const row = selectRow(obj, parent === 'unknown' ? undefined : parent);
  const types = obj.requesttypedescriptions;
  if (row && Array.isArray(types) && types.includes('SUBSCRIPTION')) extra.push(...subscriptionViolations(obj, prefix));
  if (!row) return { violations: dedupe([...extra, ...noRow(obj, prefix)]), schemaPassed: false };
  const read = againstRow(obj, row, prefix, parent);
  // Read as the envelope holds it only when nothing was changed for the reading (a lone `requesttypedescription`).
  return { violations: dedupe([...extra, ...read.violations]), schemaPassed: read.schemaPassed && singular === undefined };
}

/**
 * Subscription values (src/wire/reading.ts `subscriptionFaults`): a documented rule is an error; a value the
 * reference gateway refuses by its own documented choice, where the document says "not shown", a warning.
 */
function subscriptionViolations(obj: RequestObject, prefix: string): Violation[] {
  const value = (f: string): string | undefined => (typeof obj[f] === 'string' ? (obj[f] as string) : undefined);
  return subscriptionFaults(value).map((fault) => {
    const at = joinPath(prefix, [fault.field]);
    return fault.kind === 'rule'
      ? violation(at, 'subscription-value', SECTION.subscription, `${at} ${fault.why}`)
      : violation(at, 'subscription-choice', SECTION.subscription, `${at} ${fault.why}; not an error here`, 'warning');
  });
}

export function validateRequestObject(obj: RequestObject): Violation[] {
  return checkRequestObject(obj, '');
}

/**
 * The envelope (`alias`, `version`, one request object) and each request object against its row. `format: 'xml'`
 * for an envelope mapped from a requestblock: see `forFormat`.
 */
/** Request objects of one envelope checked one by one; beyond them, counted. */
const OBJECTS_CHECKED = 10;

export function validateRequestEnvelope(raw: unknown, format: Format = 'json', context: ReadingContext = {}): Violation[] {
  return readEnvelope(raw, format, context, true);
}

/** `validateRequestEnvelope` without its fast path: the envelope's items checked again (the tests compare the two). */
export function requestEnvelopeViolations(raw: unknown, format: Format = 'json', context: ReadingContext = {}): Violation[] {
  return readEnvelope(raw, format, context, false);
}

function readEnvelope(raw: unknown, format: Format, context: ReadingContext, fast: boolean): Violation[] {
  // Unset values are "not sent" at every level the envelope's schema sees (src/wire/reading.ts `isUnset`).
  const top = isObject(raw) ? withoutUnset(raw) : raw;
  const env = isObject(top) && Array.isArray(top.request) ? { ...top, request: top.request.map((o: unknown) => (isObject(o) ? withoutUnset(o) : o)) } : top;
  // The envelope's own checks see the first objects only (the rest are counted below); the count is the real one.
  const long = isObject(env) && Array.isArray(env.request) && env.request.length > OBJECTS_CHECKED ? env.request.length : 0;
  const shell = long ? { ...(env as Record<string, unknown>), request: (env as { request: unknown[] }).request.slice(0, OBJECTS_CHECKED) } : env;
  const objects: Violation[] = [];
  // Whether every object the envelope's check sees passed its row's schema (so passes the envelope's items).
  let itemsPass = isObject(env) && Array.isArray(env.request);
  if (isObject(env)) {
    for (const f of unknownEnvelopeFields(env)) {
      objects.push(violation(f, 'unknown-field', SECTION.envelope, `${f} is not a field of the envelope {alias, version, request}: accepted, not checked`, 'warning'));
    }
    if (Array.isArray(env.request)) {
      // "One request object per call": the envelope's finding says so once; of a list far longer, the first few
      // objects are checked and the rest counted, so that a runaway client's body is reported in bounded time.
      const list: unknown[] = env.request;
      const checked = Math.min(list.length, OBJECTS_CHECKED);
      for (let i = 0; i < checked; i++) {
        const read = readRequestObject(list[i], `request[${i}].`, context);
        objects.push(...read.violations);
        itemsPass &&= read.schemaPassed;
      }
      if (list.length > checked) {
        objects.push(
          violation(
            `request[${checked}..${list.length - 1}]`,
            'not-checked',
            SECTION.envelope,
            `${list.length - checked} more request objects were not checked: "One request object per call"`,
            'warning',
          ),
        );
      }
    }
  }
  // Most envelopes pass: their objects were checked against their rows above, which hold every check of the
  // envelope's items, so a yes/no check of the envelope without its items decides; the words only when it fails.
  const envelope =
    fast && itemsPass && passesEnvelopeShell(REQUEST_ENVELOPE_FILE, 'request')(shell)
      ? []
      : forFormat(toViolations(checkFor(REQUEST_ENVELOPE_FILE)(shell), { prefix: '', subject: 'the request envelope', section: SECTION.transport }), format, 'request').map((v) =>
          long && v.rule === 'one-request-object' ? { ...v, message: `request holds ${long} request objects: "One request object per call"` } : v,
        );
  return dedupe([...envelope, ...objects]);
}
