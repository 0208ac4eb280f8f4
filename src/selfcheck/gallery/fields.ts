/**
 * Faulty variants of the fields ("Resources and their fields", "Limits"): lengths, amounts, formats, masks,
 * timestamps, references, postcodes, security check results. Lengths and character classes come from the field
 * dictionary (schemas/fields.ts, schemas/check.ts): no variant retypes one.
 */
import { checkValue } from '../../../schemas/check';
import { FIELD } from '../../../schemas/fields';
import { classRegExp } from '../../../schemas/typeclasses';
import { TEST_CARDS } from '../../testdata';
import { maskPan } from '../../redact';
import type { Variant } from '../types';
import { requestTypesOf } from '../../wire/json';
import { ERR, faulty, isObject, refuse } from './helpers';

const chars = (v: string): string[] => [...v];

/** `2026-01-05 09:00:00` as `05/01/2026 09:00:00`: the same length, another order. */
const dayFirst = (ts: string): string => ts.replace(/^(\d{4})-(\d{2})-(\d{2})/, '$3/$2/$1');

/** The test cards by their masked form: a variant that "forgets to mask" puts the number back. */
const UNMASKED: ReadonlyMap<string, string> = new Map(Object.values(TEST_CARDS).map((c) => [maskPan(c.pan), c.pan]));

/** Changes the request objects that name AUTH (and not ACCOUNTCHECK, which allows what AUTH does not). */
function onAuthRequests(change: (r: Record<string, unknown>) => Record<string, unknown>): (request: unknown) => unknown {
  return (request) => (isObject(request) && requestTypesOf(request).includes('AUTH') ? change(request) : request);
}

export const FIELDS: readonly Variant[] = [
  faulty({
    name: 'maskedpan-stars',
    area: 'fields',
    rule: 'FIELD-MASKEDPAN',
    what: 'masks card numbers with * instead of #',
    build: () => ({ mutate: { part: (p) => (typeof p.maskedpan === 'string' ? { ...p, maskedpan: p.maskedpan.replace(/#/g, '*') } : p) } }),
  }),
  faulty({
    name: 'maskedpan-unmasked',
    area: 'fields',
    rule: 'FIELD-MASKEDPAN',
    what: 'answers the full card number in maskedpan',
    build: () => ({ mutate: { part: (p) => (typeof p.maskedpan === 'string' && UNMASKED.has(p.maskedpan) ? { ...p, maskedpan: UNMASKED.get(p.maskedpan) } : p) } }),
  }),
  faulty({
    name: 'zero-amount-charged',
    area: 'fields',
    rule: 'FIELD-BASEAMOUNT-POSITIVE',
    what: 'reads an AUTH amount of 0 as 1 (a minimum charge) instead of refusing it',
    build: () => ({ mutate: { request: onAuthRequests((r) => (typeof r.baseamount === 'string' && /^0+$/.test(r.baseamount) ? { ...r, baseamount: '1' } : r)) } }),
  }),
  faulty({
    name: 'decimal-amount-read',
    area: 'fields',
    rule: 'FIELD-BASEAMOUNT-MINOR-UNITS',
    what: 'reads 10.50 and 1,050 as 1050 instead of refusing an amount with a decimal point or a comma',
    build: () => ({ mutate: { request: (r) => (isObject(r) && typeof r.baseamount === 'string' ? { ...r, baseamount: r.baseamount.replace(/[.,]/g, '') } : r) } }),
  }),
  faulty({
    name: 'amount-cut-to-limit',
    area: 'fields',
    rule: 'LIMIT-BASEAMOUNT',
    what: 'cuts an amount of more than 13 digits to its first 13 instead of refusing it',
    build: () => {
      const max = FIELD.baseamount.request?.maxLength ?? Infinity;
      return { mutate: { request: (r) => (isObject(r) && typeof r.baseamount === 'string' && r.baseamount.length > max ? { ...r, baseamount: r.baseamount.slice(0, max) } : r) } };
    },
  }),
  faulty({
    name: 'long-values-truncated',
    area: 'fields',
    rule: 'LIMIT-FIELD-LENGTHS',
    what: 'truncates a value longer than its length limit instead of refusing it',
    build: () => ({
      mutate: {
        request: (r) => {
          if (!isObject(r)) return r;
          const out: Record<string, unknown> = { ...r };
          for (const [k, v] of Object.entries(r)) {
            const max = FIELD[k]?.request?.maxLength;
            if (typeof v === 'string' && max !== undefined && chars(v).length > max) out[k] = chars(v).slice(0, max).join('');
          }
          return out;
        },
      },
    }),
  }),
  faulty({
    name: 'maximum-length-exclusive',
    area: 'fields',
    rule: 'FIELD-LENGTHS',
    what: 'refuses a value exactly at its maximum length (reads "the number is the maximum length" as exclusive)',
    build: () => ({
      mutate: {
        operations: {
          AUTH: (input, next) => {
            const at = Object.entries(input.prepared.own).filter(([k, v]) => {
              const side = FIELD[k]?.request;
              return side?.maxLength !== undefined && side.minLength !== side.maxLength && chars(v).length === side.maxLength;
            });
            return at.length > 0
              ? refuse(
                  'AUTH',
                  ERR.invalidField,
                  at.map(([k]) => k),
                )
              : next(input);
          },
        },
      },
    }),
  }),
  faulty({
    name: 'postcode-validated-everywhere',
    area: 'fields',
    rule: 'FIELD-POSTCODE-VALIDATION',
    what: 'validates billingpostcode for every country, not only for the United States, Great Britain and Canada',
    build: () => {
      // The field's class check as it applies to a validated country: the dictionary's own rule, forced on.
      const validated = (postcode: string): boolean =>
        checkValue(FIELD.billingpostcode, 'request', postcode, { [FIELD.billingpostcode.validatedWhen!.field]: FIELD.billingpostcode.validatedWhen!.values[0] }) === null;
      return {
        mutate: {
          operations: {
            AUTH: (input, next) => {
              const postcode = input.prepared.fields.billingpostcode;
              return postcode !== undefined && !validated(postcode) ? refuse('AUTH', ERR.invalidField, ['billingpostcode']) : next(input);
            },
          },
        },
      };
    },
  }),
  faulty({
    name: 'postcode-cleaned',
    area: 'fields',
    rule: 'FIELD-POSTCODE-VALIDATION',
    what: 'drops the characters a postcode may not hold instead of refusing it, whatever the country',
    build: () => {
      const allowed = classRegExp(FIELD.billingpostcode.type);
      return {
        mutate: {
          request: (r) =>
            isObject(r) && typeof r.billingpostcode === 'string'
              ? {
                  ...r,
                  billingpostcode: chars(r.billingpostcode)
                    .filter((c) => allowed.test(c))
                    .join(''),
                }
              : r,
        },
      };
    },
  }),
  faulty({
    name: 'timestamp-day-first',
    area: 'fields',
    rule: 'FIELD-TIMESTAMP',
    what: 'writes transactionstartedtimestamp day first (05/01/2026 09:00:00) instead of YYYY-MM-DD HH:MM:SS',
    build: () => ({ mutate: { part: (p) => (typeof p.transactionstartedtimestamp === 'string' ? { ...p, transactionstartedtimestamp: dayFirst(p.transactionstartedtimestamp) } : p) } }),
  }),
  faulty({
    name: 'settleduedate-slashes',
    area: 'fields',
    rule: 'FIELD-SETTLEDUEDATE',
    what: 'writes settleduedate as YYYY/MM/DD instead of YYYY-MM-DD',
    build: () => ({ mutate: { part: (p) => (typeof p.settleduedate === 'string' ? { ...p, settleduedate: p.settleduedate.replace(/-/g, '/') } : p) } }),
  }),
  faulty({
    name: 'reference-not-the-stored-one',
    area: 'fields',
    rule: 'FIELD-TRANSACTIONREFERENCE',
    what: 'answers a transactionreference other than the one it stored, so a later request cannot use it as its parent',
    build: () => ({ mutate: { part: (p) => (typeof p.transactionreference === 'string' ? { ...p, transactionreference: `R${p.transactionreference}` } : p) } }),
  }),
  faulty({
    name: 'not-matched-as-not-checked',
    area: 'fields',
    rule: 'SEC-RESULT-4',
    what: 'answers a security check that did not match as not checked (1 instead of 4)',
    build: () => ({ mutate: { part: (p) => mapSecurity(p, (v) => (v === '4' ? '1' : v)) } }),
  }),
  faulty({
    name: 'not-given-as-not-checked',
    area: 'fields',
    rule: 'SEC-RESULT-0',
    what: 'answers a security check whose data was not given as not checked (1 instead of 0)',
    build: () => ({ mutate: { part: (p) => mapSecurity(p, (v) => (v === '0' ? '1' : v)) } }),
  }),
  faulty({
    name: 'security-results-two-digits',
    area: 'fields',
    rule: 'SEC-RESULT-DIGIT',
    what: 'answers the security check results with two digits (02) instead of one',
    build: () => ({ mutate: { part: (p) => mapSecurity(p, (v) => `0${v}`) } }),
  }),
];

const SECURITY_FIELDS = ['securityresponseaddress', 'securityresponsepostcode', 'securityresponsesecuritycode'] as const;

function mapSecurity(p: Record<string, unknown>, change: (v: string) => string): Record<string, unknown> {
  const out = { ...p };
  for (const f of SECURITY_FIELDS) if (typeof out[f] === 'string') out[f] = change(out[f] as string);
  return out;
}
