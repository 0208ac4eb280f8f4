/**
 * One fuzz case: a request of a row of the "Request types" table, valid in the target's context
 * (generators/context.ts), then sometimes changed: one mutation of the request (generators/mutations.ts) or one
 * change of the envelope around it. A case is plain data, so the counterexample a failure reports is exactly what
 * was sent, and fast-check can shrink it.
 */
import fc from 'fast-check';
import { mutatedRequest, type Mutation } from '../../generators/mutations';
import { requestInContext, rowsInContext, type RequestContext } from '../../generators/context';
import { xmlRequestBody, xmlStyle, PLAIN_XML, type XmlStyle } from '../../generators/xml';
import type { OperationRow } from '../../schemas/operations';
import { JSON_VERSION, type Format, type RequestEnvelope, type RequestObject } from '../wire/types';

/** Changes of the envelope itself (`{alias, version, request:[ {request object} ]}`). */
export type EnvelopeChange =
  | { readonly kind: 'version'; readonly value: unknown }
  | { readonly kind: 'alias'; readonly value: unknown }
  | { readonly kind: 'no-alias' }
  | { readonly kind: 'request-not-a-list' }
  | { readonly kind: 'two-requests' }
  | { readonly kind: 'no-request' }
  | { readonly kind: 'sdk-extras' };

export interface FuzzCase {
  /** The operation row the request was made for. */
  readonly row: string;
  /** The request object, mutation applied. */
  readonly request: RequestObject;
  readonly mutation?: Mutation;
  readonly envelopeChange?: EnvelopeChange;
  /** XML only: how the block is laid out. */
  readonly xml?: XmlStyle;
}

export interface CaseOptions {
  readonly context: RequestContext;
  readonly alias: string;
  readonly format: Format;
  /** The rows to draw from (default: every row the context can fill). */
  readonly rows?: readonly OperationRow[];
}

/** The envelope of a case, in its JSON form. */
export function envelopeOf(c: FuzzCase, alias: string): RequestEnvelope {
  const env: Record<string, unknown> = { alias, version: JSON_VERSION, request: [c.request] };
  const change = c.envelopeChange;
  if (!change) return env;
  switch (change.kind) {
    case 'version':
      return { ...env, version: change.value };
    case 'alias':
      return { ...env, alias: change.value };
    case 'no-alias': {
      const { alias: _a, ...rest } = env;
      return rest;
    }
    case 'request-not-a-list':
      return { ...env, request: c.request };
    case 'two-requests':
      return { ...env, request: [c.request, c.request] };
    case 'no-request': {
      const { request: _r, ...rest } = env;
      return rest;
    }
    case 'sdk-extras':
      // What the official SDKs add (public-facts.md): `libraryversion`, and `requestreference`/`versioninfo`.
      return { ...env, libraryversion: 'cardspec_fuzz', request: [{ ...c.request, requestreference: 'Acardspec1', versioninfo: 'cardspec::fuzz' }] };
  }
}

/** The body a case sends, in a format (from its envelope, when the caller has it already). */
export function bodyOf(c: FuzzCase, alias: string, format: Format, env: RequestEnvelope = envelopeOf(c, alias)): string {
  return format === 'json' ? JSON.stringify(env) : xmlRequestBody(env, c.xml ?? PLAIN_XML);
}

const envelopeChange: fc.Arbitrary<EnvelopeChange> = fc.oneof(
  fc.constantFrom('1.0', '2.00', '3.67', '').map((value): EnvelopeChange => ({ kind: 'version', value })),
  fc.constantFrom<EnvelopeChange>(
    { kind: 'version', value: 1 },
    { kind: 'no-alias' },
    { kind: 'alias', value: 'someone-else@example.test' },
    { kind: 'request-not-a-list' },
    { kind: 'two-requests' },
    { kind: 'no-request' },
    { kind: 'sdk-extras' },
  ),
);

/**
 * Cases of every row: about two in five valid, half with one mutation, one in ten with a changed envelope. In the
 * XML form no wrong JSON types are generated (XML carries text only) and the block is sometimes laid out the way
 * real XML clients write it.
 */
export function caseArbitrary(opts: CaseOptions): fc.Arbitrary<FuzzCase> {
  const rows = opts.rows ?? rowsInContext(opts.context);
  if (rows.length === 0) throw new Error('fuzz: the target context can fill no row of the Request types table');
  const cards = opts.context.cards;
  const layout: fc.Arbitrary<XmlStyle | undefined> = opts.format === 'xml' ? fc.oneof({ arbitrary: fc.constant(PLAIN_XML), weight: 3 }, { arbitrary: xmlStyle, weight: 1 }) : fc.constant(undefined);
  // One arbitrary per row, built once: no `chain`, so fast-check shrinks every part of a case.
  const perRow = rows.map((row) => {
    const request = requestInContext(row, opts.context);
    const valid = request.map((req): FuzzCase => ({ row: row.id, request: req }));
    const mutated = mutatedRequest(row, request, { cards, jsonTypes: opts.format === 'json' }).map(({ mutated: req, mutation }): FuzzCase => ({ row: row.id, request: req, mutation }));
    const changed = fc.tuple(request, envelopeChange).map(([req, change]): FuzzCase => ({ row: row.id, request: req, envelopeChange: change }));
    return fc.oneof({ arbitrary: valid, weight: 8 }, { arbitrary: mutated, weight: 10 }, { arbitrary: changed, weight: 2 });
  });
  return fc.tuple(fc.oneof(...perRow), layout).map(([c, xml]) => (xml ? { ...c, xml } : c));
}
