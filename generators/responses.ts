/**
 * Valid response parts, by request type, following PART_SHAPES (schemas/operations.ts): the fields a successful
 * part must carry, the conditional ones exactly when their case holds ("for enrolled cards `acsurl`, `md`,
 * `pareq`"), fixed values, and some of the common response fields. Values come from the dictionary through
 * ./values; masked card numbers are masked test cards (src/redact.ts's `maskPan`), never random digits.
 */
import fc from 'fast-check';
import { ENVELOPE_FIELDS, FIELD, FIELDS, SECTION, type RequestType } from '../schemas/fields';
import { PART_SHAPES, type OperationRow } from '../schemas/operations';
import { maskPan } from '../src/redact';
import type { TestCard } from '../src/testdata';
import type { ResponseEnvelope, ResponsePart } from '../src/wire/types';
import { rowOf, testCard } from './requests';
import { fieldValue, nonZeroCode, positiveAmount } from './values';

/** Errors table: "`0` | any | Successful; `errormessage` is `Ok`." */
export const SUCCESS = { errorcode: '0', errormessage: 'Ok' } as const;

const responseFieldsOf = (section: string): string[] => FIELDS.filter((d) => d.section === section && d.response && !d.structure && !d.list && !ENVELOPE_FIELDS.has(d.name)).map((d) => d.name);

/**
 * Fields any part may carry: the "Common response fields" table and the request fields it says are echoed.
 * `requesttypedescription`, `errorcode` and `errormessage` are set by the generator itself.
 */
const COMMON = [...responseFieldsOf(SECTION.response), ...responseFieldsOf(SECTION.common)].filter((n) => !['requesttypedescription', 'accounttypedescription'].includes(n));

/** Fields some types carry beyond COMMON, each with the document's reason. */
const EXTRAS: Partial<Record<RequestType, readonly string[]>> = {
  // "ACCOUNTCHECK: validates address, postcode and security code"; AUTH carries the same security check results.
  AUTH: responseFieldsOf(SECTION.security),
  ACCOUNTCHECK: responseFieldsOf(SECTION.security),
  // "also `threedversion` on some accounts"
  THREEDQUERY: ['threedversion'],
  RISKDEC: responseFieldsOf(SECTION.riskdec),
  // "Check `transactionactive`, the timing fields and the amount in the SUBSCRIPTION part."
  SUBSCRIPTION: responseFieldsOf(SECTION.subscription),
};

/** Values that stand for a card: masked and named after one test card, so that a part is coherent. */
function partFieldArb(name: string, card: TestCard): fc.Arbitrary<string> {
  switch (name) {
    case 'maskedpan':
      return fc.constant(maskPan(card.pan));
    case 'paymenttypedescription':
      return fc.constant(card.scheme);
    case 'baseamount':
      return positiveAmount('response');
  }
  return fieldValue(name, 'response');
}

/** The follow-up answers have no documented shape; TRANSACTIONQUERY's is the public one: `found` and `records`. */
function queryFields(): fc.Arbitrary<Record<string, unknown>> {
  return fc.array(successPart('STORE'), { minLength: 0, maxLength: 2 }).map((records) => (records.length > 0 ? { found: String(records.length), records } : { found: '0' }));
}

/** A successful part (errorcode `0`) of a request type. */
export function successPart(type: RequestType): fc.Arbitrary<ResponsePart> {
  const shape = PART_SHAPES[type];
  if (type === 'TRANSACTIONQUERY') return queryFields().map((q) => ({ requesttypedescription: type, ...SUCCESS, ...q }));
  if (type === 'TRANSACTIONUPDATE') return fc.constant({ requesttypedescription: type, ...SUCCESS });
  const conditional = shape.conditional ?? [];
  const conditionalOnly = new Set(conditional.flatMap((c) => c.require).filter((n) => !shape.requiredOnSuccess.includes(n)));
  const optional = [...conditional.flatMap((c) => Object.keys(c.when)), ...COMMON, ...(EXTRAS[type] ?? [])].filter((n) => !shape.requiredOnSuccess.includes(n) && !conditionalOnly.has(n));
  return testCard.chain((card) => {
    const arb = (name: string): fc.Arbitrary<string> => {
      const fixed = shape.fixed?.[name];
      return fixed ? fc.constantFrom(...fixed) : partFieldArb(name, card);
    };
    // The part's own type is set below, not drawn (the STORE sentence lists `requesttypedescription` among its fields).
    const drawn = (n: string): boolean => n !== 'requesttypedescription';
    const model: Record<string, fc.Arbitrary<string>> = {};
    for (const n of [...shape.requiredOnSuccess, ...optional].filter(drawn)) model[n] = arb(n);
    const condModel: Record<string, fc.Arbitrary<string>> = {};
    for (const n of conditionalOnly) condModel[n] = arb(n);
    return fc.tuple(fc.record(model, { noNullPrototype: true, requiredKeys: shape.requiredOnSuccess.filter(drawn) }), fc.record(condModel, { noNullPrototype: true })).map(([fields, condValues]) => {
      const part: ResponsePart = { requesttypedescription: type, ...SUCCESS, ...fields };
      // A conditional field is present exactly when its case holds ("returned only for enrolled cards").
      for (const c of conditional) {
        if (Object.entries(c.when).every(([k, v]) => part[k] === v)) {
          for (const n of c.require) if (part[n] === undefined) part[n] = (condValues as Record<string, string>)[n];
        }
      }
      return part;
    });
  });
}

/** A failed part: a non-zero `errorcode`, an `errormessage`, and sometimes `errordata` naming request fields. */
export function errorPart(type: RequestType): fc.Arbitrary<ResponsePart> {
  const fieldNames = FIELDS.filter((d) => d.request && !ENVELOPE_FIELDS.has(d.name)).map((d) => d.name);
  return fc.record(
    {
      requesttypedescription: fc.constant(type),
      errorcode: nonZeroCode(),
      errormessage: fieldValue('errormessage', 'response'),
      errordata: fc.array(fc.constantFrom(...fieldNames), { minLength: 1, maxLength: 2 }),
    },
    { noNullPrototype: true, requiredKeys: ['requesttypedescription', 'errorcode', 'errormessage'] },
  );
}

/** Mostly successful parts, sometimes failed ones. */
export function responsePart(type: RequestType): fc.Arbitrary<ResponsePart> {
  return fc.oneof({ arbitrary: successPart(type), weight: 4 }, { arbitrary: errorPart(type), weight: 1 });
}

/** One part per request type, in order ("The response holds one part per request type, in the same order"). */
export function responseParts(types: readonly RequestType[]): fc.Arbitrary<ResponsePart[]> {
  return fc.tuple(...types.map((t) => responsePart(t)));
}

/** `{requestreference, version, response: [...], secrand}` for a row (by row or id) or a list of request types. */
export function responseEnvelope(target: OperationRow | string | readonly RequestType[]): fc.Arbitrary<ResponseEnvelope> {
  const types = Array.isArray(target) ? (target as readonly RequestType[]) : rowOf(target as OperationRow | string).requesttypes;
  const version = FIELD.version.response?.values ?? [];
  return fc.record(
    {
      requestreference: fieldValue('requestreference', 'response'),
      version: fc.constantFrom(...version),
      response: responseParts(types),
      secrand: fieldValue('secrand', 'response'),
    },
    { noNullPrototype: true },
  );
}
