/**
 * Request objects and request envelopes against the row of the Request types table they belong to.
 */
import { REQUEST_ENVELOPE_FILE, requestRowFile } from '../../schemas/files';
import { FIELD, REQUEST_TYPES, SECTION } from '../../schemas/fields';
import { OPERATION, rowsFor, type OperationRow } from '../../schemas/operations';
import type { Format, RequestObject } from '../wire/types';
import { checkFor, schemaRoot } from './schemas';
import { dedupe, forFormat, joinPath, toViolations, typeName, violation, type Violation } from './violations';

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const sent = (obj: RequestObject, field: string): boolean => obj[field] !== undefined;

/**
 * "AUTH ... `sitereference`, `parenttransactionreference` only": an AUTH that also sends any field the ordinary
 * AUTH needs and the not-enrolled row does not (an amount, a card) is the ordinary AUTH.
 */
const ORDINARY_AUTH_FIELDS = [...OPERATION.auth.required, ...(OPERATION.auth.cardSource ?? []).flat()].filter(
  (f) => !OPERATION['auth-3ds-not-enrolled'].required.includes(f),
);

/** Which row of the Request types table a request object is: by `requesttypedescriptions`, then by its fields. */
export function selectRow(obj: RequestObject): OperationRow | undefined {
  const types = obj.requesttypedescriptions;
  if (!Array.isArray(types) || !types.every((t): t is string => typeof t === 'string')) return undefined;
  const rows = rowsFor(types);
  if (rows.length <= 1) return rows[0];
  switch (types.join(',')) {
    case 'AUTH':
      if (sent(obj, 'md') || sent(obj, 'pares')) return OPERATION['auth-3ds-enrolled'];
      if (sent(obj, 'parenttransactionreference') && !ORDINARY_AUTH_FIELDS.some((f) => sent(obj, f))) return OPERATION['auth-3ds-not-enrolled'];
      return OPERATION.auth;
    case 'AUTH,SUBSCRIPTION':
      if (sent(obj, 'md') || sent(obj, 'pares')) return OPERATION['subscription-enrolled'];
      if (sent(obj, 'pan')) return OPERATION['subscription-no-3ds'];
      if (sent(obj, 'parenttransactionreference')) return OPERATION['subscription-not-enrolled'];
      // Nothing says where the card comes from: the row that asks for the card in full names what is missing.
      return OPERATION['subscription-no-3ds'];
    case 'RISKDEC':
      return sent(obj, 'pan') ? OPERATION['riskdec-card'] : OPERATION['riskdec-after-payment'];
    default:
      return rows[0];
  }
}

/** A request object against one given row (the mutation tests and `validateRequestObject` use this). */
export function validateAgainstRow(obj: RequestObject, row: OperationRow, prefix = ''): Violation[] {
  const file = requestRowFile(row.id);
  const out = toViolations(checkFor(file)(obj), { prefix, subject: `"${row.title}"`, section: row.section });
  const recommended = schemaRoot(file)['x-recommended'];
  if (Array.isArray(recommended)) {
    for (const field of recommended) {
      if (typeof field === 'string' && !sent(obj, field)) {
        const meaning = FIELD[field]?.meaning;
        out.push(
          violation(joinPath(prefix, [field]), 'recommended', row.section, `${field} is not sent; it is recommended in "${row.title}"${meaning ? ` (${meaning})` : ''}`, 'warning'),
        );
      }
    }
  }
  return dedupe(out);
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
    out.push(violation(field, 'request-type', SECTION.what, `${field} holds ${unknown.map(typeName).join(', ')}: not a request type of the document (${REQUEST_TYPES.join(', ')})`));
  } else if (types.includes('SUBSCRIPTION')) {
    out.push(violation(field, 'request-type', SECTION.what, `SUBSCRIPTION "is submitted combined with AUTH as ["AUTH","SUBSCRIPTION"]"; ${field} is [${types.map(typeName).join(', ')}]`));
  } else {
    out.push(
      violation(field, 'no-row', SECTION.requestTypes, `no row of the Request types table sends [${types.map(typeName).join(', ')}]; only the fields were checked against the dictionary`, 'warning'),
    );
  }
  return out;
}

export function checkRequestObject(obj: unknown, prefix: string): Violation[] {
  if (!isObject(obj)) {
    const field = joinPath(prefix, []);
    return [violation(field, 'type', SECTION.what, `${field || 'the request object'} must be an object (a request object)`)];
  }
  const row = selectRow(obj);
  return dedupe(row ? validateAgainstRow(obj, row, prefix) : noRow(obj, prefix));
}

export function validateRequestObject(obj: RequestObject): Violation[] {
  return checkRequestObject(obj, '');
}

/**
 * The envelope (`alias`, `version`, one request object) and each request object against its row. `format: 'xml'`
 * for an envelope mapped from a requestblock: see `forFormat`.
 */
export function validateRequestEnvelope(env: unknown, format: Format = 'json'): Violation[] {
  const envelope = forFormat(
    toViolations(checkFor(REQUEST_ENVELOPE_FILE)(env), { prefix: '', subject: 'the request envelope', section: SECTION.transport }),
    format,
    'request',
  );
  const objects: Violation[] = [];
  if (isObject(env) && Array.isArray(env.request)) env.request.forEach((o, i) => objects.push(...checkRequestObject(o, `request[${i}].`)));
  return dedupe([...envelope, ...objects]);
}
