/**
 * Whole JSON envelopes (Endpoints > Transport: `{alias, version, request:[ {request object} ]}` and
 * `{requestreference, version, response:[ {part}, ... ], secrand}`), built from ./requests and ./responses.
 */
import fc from 'fast-check';
import { FIELD } from '../schemas/fields';
import { OPERATIONS, type OperationRow } from '../schemas/operations';
import type { RequestEnvelope, RequestObject, ResponseEnvelope } from '../src/wire/types';
import { requestFor, rowOf, type RequestOptions } from './requests';
import { responseEnvelope } from './responses';
import { classString, fieldValue } from './values';

/**
 * What the official SDKs add beyond the document (public-facts.md): `libraryversion` on the envelope,
 * `requestreference` and `versioninfo` on each request object. Unknown to the dictionary, they must pass through
 * every mapping untouched, which is why the generators sometimes add them.
 */
export const SDK_ENVELOPE_EXTRAS = ['libraryversion'] as const;
export const SDK_REQUEST_EXTRAS = ['requestreference', 'versioninfo'] as const;

export interface EnvelopeOptions extends RequestOptions {
  /** Sometimes add the SDKs' extra fields (default true). */
  readonly sdkExtras?: boolean;
}

const extraText = classString('alphanumeric-symbols', 1);

function withExtras(names: readonly string[]): fc.Arbitrary<Partial<Record<string, string>>> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const n of names) model[n] = extraText;
  return fc.record(model, { noNullPrototype: true, requiredKeys: [] });
}

/** The request envelope of one row's request (by row or id). */
export function requestEnvelope(row: OperationRow | string, options: EnvelopeOptions = {}): fc.Arbitrary<RequestEnvelope> {
  const extras = options.sdkExtras ?? true;
  const version = FIELD.version.request?.values ?? [];
  return fc
    .tuple(
      fieldValue('alias', 'request'),
      fc.constantFrom(...version),
      requestFor(rowOf(row), options),
      extras ? withExtras(SDK_ENVELOPE_EXTRAS) : fc.constant({}),
      extras ? withExtras(SDK_REQUEST_EXTRAS) : fc.constant({}),
    )
    .map(([alias, v, request, envExtras, reqExtras]): RequestEnvelope => ({
      alias,
      version: v,
      request: [{ ...request, ...reqExtras } as RequestObject],
      ...envExtras,
    }));
}

/** A request envelope of any row, with its row. */
export function anyRequestEnvelope(options: EnvelopeOptions = {}): fc.Arbitrary<{ row: OperationRow; envelope: RequestEnvelope }> {
  return fc.constantFrom(...OPERATIONS).chain((row) => requestEnvelope(row, options).map((envelope) => ({ row, envelope })));
}

/** A request envelope and a response envelope of the same row: one exchange. */
export function exchange(row: OperationRow | string, options: EnvelopeOptions = {}): fc.Arbitrary<{ request: RequestEnvelope; response: ResponseEnvelope }> {
  const r = rowOf(row);
  return fc.record({ request: requestEnvelope(r, options), response: responseEnvelope(r) }, { noNullPrototype: true });
}

export { responseEnvelope };
