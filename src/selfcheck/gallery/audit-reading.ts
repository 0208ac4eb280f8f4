/**
 * One reading of answers (audit R1). A value not returned may come as nothing, as an empty string or as `null`
 * (many gateways and PHP code write `"md": ""` for what they have no value for); an empty XML element is already
 * read as not set, and requests are read so: every reader reads an answer's empty values as not returned
 * (src/wire/reading.ts `readAnswer`). The faulty variants show that this reading hides no fault: a field a
 * sentence requires, returned empty, is missing and fails on that sentence's rule. And a code of the Errors table
 * spelt otherwise (`00000` for `0`) is its row's fault alone, not the fault of every check that reads the part.
 */
import { ENVELOPE_FIELDS, fieldsFor } from '../../../schemas/fields';
import type { ResponsePart } from '../../wire/types';
import type { Variant } from '../types';
import { benign, faulty, isObject, isType, succeeded, without } from './helpers';

/** Every response field of the dictionary (the envelope's own aside). */
const PART_FIELDS = fieldsFor('response')
  .map((d) => d.name)
  .filter((n) => !ENVELOPE_FIELDS.has(n));

/** The part with `empty` for every field of the dictionary it does not carry, in its records too. */
function filled(p: ResponsePart, empty: '' | null): ResponsePart {
  const out: Record<string, unknown> = { ...p };
  for (const f of PART_FIELDS) if (out[f] === undefined) out[f] = empty;
  if (Array.isArray(p.records)) out.records = p.records.map((r) => (isObject(r) ? filled(r as ResponsePart, empty) : r));
  return out as ResponsePart;
}

/** Parts with a code written `to` where the reference writes `from`. */
const recoded = (from: string, to: string) => ({ mutate: { part: (p: ResponsePart) => (p.errorcode === from ? { ...p, errorcode: to } : p) } });

export const AUDIT_READING: readonly Variant[] = [
  benign({
    name: 'answers-empty-for-absent',
    area: 'fields',
    what: 'writes every field it has no value for as an empty string ("md": "", "cavv": "", "authcode": "", ...), in JSON (an empty XML element is read as not set already)',
    formats: ['json'],
    allowedBy:
      'the kit reads an empty value as not sent in a request (public facts: PHP clients send empty strings, XML clients empty elements) and an empty XML element of an answer as not returned; the document gives the field no other value, so "" is the same answer as the field left out',
    build: () => ({ mutate: { part: (p) => filled(p, '') } }),
  }),
  benign({
    name: 'answers-null-for-absent',
    area: 'fields',
    what: 'writes every field it has no value for as null, in JSON (a JSON serializer of unset properties)',
    formats: ['json'],
    allowedBy: 'null is "not sent" in a request (src/wire/reading.ts isUnset) and so "not returned" in an answer: no value, so no value that is not a string',
    build: () => ({ mutate: { part: (p) => filled(p, null) } }),
  }),

  // ---- empty is missing: a required field returned empty fails where its absence fails --------------------------
  faulty({
    name: 'enrolled-md-pareq-empty',
    area: 'types',
    rule: '3DS-QUERY-RESPONSE',
    what: 'answers an enrolled card\'s THREEDQUERY with "md": "" and "pareq": ""',
    build: () => ({ mutate: { part: (p) => (isType(p, 'THREEDQUERY') && p.enrolled === 'Y' ? { ...p, md: '', pareq: '' } : p) } }),
  }),
  faulty({
    name: 'authenticated-cavv-empty',
    area: 'types',
    rule: '3DS-CAVV-ECI',
    what: 'answers "cavv": "" in an AUTH whose customer authenticated',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.status === 'Y' ? { ...p, cavv: '' } : p) } }),
  }),
  faulty({
    name: 'auth-authcode-null',
    area: 'types',
    rule: 'AUTH-BANK-CONTACTED',
    what: 'answers "authcode": null in an AUTH the bank authorised (JSON: XML has no null)',
    formats: ['json'],
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && succeeded(p) ? { ...p, authcode: null } : p) } }),
  }),
  faulty({
    name: 'success-errorcode-empty',
    area: 'errors',
    rule: 'ERR-PART-FIELDS',
    what: 'answers a successful part with "errorcode": ""',
    build: () => recoded('0', ''),
  }),

  // ---- a code of the Errors table spelt otherwise: its row, once ------------------------------------------------
  faulty({
    name: 'success-coded-00000',
    area: 'errors',
    rule: 'ERR-0',
    what: 'writes the success code as "00000" (errormessage "Ok")',
    build: () => recoded('0', '00000'),
  }),
  faulty({
    name: 'success-coded-space-0',
    area: 'errors',
    rule: 'ERR-0',
    what: 'writes the success code as " 0" (a leading space)',
    build: () => recoded('0', ' 0'),
  }),
  faulty({
    name: 'success-coded-0-point-0',
    area: 'errors',
    rule: 'ERR-0',
    what: 'writes the success code as "0.0"',
    build: () => recoded('0', '0.0'),
  }),
  faulty({
    name: 'decline-coded-070000',
    area: 'errors',
    rule: 'ERR-70000',
    what: 'writes the code of a declined payment as "070000"',
    build: () => recoded('70000', '070000'),
  }),
  // ---- a value outside its list, by a space or a letter's case: the list's rule, not also its length and type ----
  faulty({
    name: 'status-with-trailing-space',
    area: 'types',
    rule: '3DS-STATUS',
    what: 'answers status "Y " (a trailing space) after the ACS',
    build: () => ({ mutate: { part: (p) => (isType(p, 'AUTH') && p.status === 'Y' ? { ...p, status: 'Y ' } : p) } }),
  }),
  faulty({
    name: 'transactionactive-with-leading-space',
    area: 'types',
    rule: 'SUB-TRANSACTIONACTIVE-VALUES',
    what: 'answers transactionactive " 1" (a leading space) in the SUBSCRIPTION part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'SUBSCRIPTION') && typeof p.transactionactive === 'string' ? { ...p, transactionactive: ` ${p.transactionactive}` } : p) } }),
  }),
  // ---- a part's missing field: the sentence that requires it, not every tag of every scenario that met it ------
  faulty({
    name: 'subscription-without-accounttypedescription',
    area: 'types',
    rule: 'SUB-RECUR',
    what: 'leaves accounttypedescription (RECUR) out of the SUBSCRIPTION part',
    build: () => ({ mutate: { part: (p) => (isType(p, 'SUBSCRIPTION') ? without(p, 'accounttypedescription') : p) } }),
  }),
];
