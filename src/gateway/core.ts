/**
 * The pure core: a request envelope in its JSON form and the caller, in; the response envelope, out. Both
 * transports (JSON and XML, which is mapped to this form by src/wire/xml.ts) and the in-process API call it.
 * Synchronous on purpose: one envelope is one unit of work on the ledger, applied whole or not at all, and no
 * other request can interleave with it.
 *
 * Envelope ("Resources and their fields > Envelope"): `{alias, version, request:[...]}` in,
 * `{requestreference, version, response:[...], secrand}` out, "one [part] per request type, in the order of
 * `requesttypedescriptions`". A problem with the envelope itself is answered with one part of type `ERROR`.
 */
import { JSON_VERSION, type ResponseEnvelope, type ResponsePart } from '../wire/types';
import { requestTypesOf } from '../wire/json';
import { ERR, type ErrorSpec } from './errors';
import { HANDLERS } from './operations';
import { errorPart } from './parts';
import { randomAlnum, randomInt } from './random';
import { prepareRequest } from './request';
import { envelopeFaults, REQUEST_OBJECTS_PER_CALL } from '../wire/reading';
import type { Runtime } from './runtime';
import type { CallContext, CallEnv, MutationContext, OperationInput, PartOutcome } from './types';

/** Request objects one call may carry: "One request object per call" (src/wire/reading.ts). */
export const MAX_REQUEST_OBJECTS = REQUEST_OBJECTS_PER_CALL;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `requesttypedescription` of a failed part: the type as sent when it is a plausible one, else `ERROR`. */
function typeLabel(t: string): string {
  return /^[A-Za-z]{1,20}$/.test(t) ? t : 'ERROR';
}

/** `secrand`: "Random string of varying length" (8 to 32 letters and digits). */
function secrand(): string {
  return randomAlnum(randomInt(8, 32));
}

/** `requestreference`: the caller's `REQUESTREFERENCE` header when sent (real SDKs require the echo), else `A` + random. */
function requestReference(ctx: CallContext): string {
  return ctx.requestReference ?? 'A' + randomAlnum(9);
}

function envelopeOf(ctx: CallContext, parts: ResponsePart[], rt: Runtime, types: readonly string[]): ResponseEnvelope {
  const mutate = rt.mutate;
  let response = parts;
  if (mutate?.part) {
    const out: ResponsePart[] = [];
    parts.forEach((p, index) => {
      const m = mutate.part!(p, { format: ctx.format, requesttypes: types, index });
      if (m !== null) out.push(m);
    });
    response = out;
  }
  let env: ResponseEnvelope = {
    requestreference: requestReference(ctx),
    // The JSON form carries `1.00` for both transports; src/wire/xml.ts writes it as the block's `3.67`.
    version: JSON_VERSION,
    response,
    secrand: secrand(),
  };
  if (mutate?.envelope) env = mutate.envelope(env, { format: ctx.format, requesttypes: types } satisfies MutationContext);
  return env;
}

/** The answer to a body that is not an envelope at all (malformed JSON or XML): one `ERROR` part. */
export function errorEnvelope(rt: Runtime, ctx: CallContext, spec: ErrorSpec, errordata: readonly string[], message?: string): ResponseEnvelope {
  const part = errorPart('ERROR', message ? { code: spec.code, message } : spec, errordata);
  return envelopeOf(ctx, [part], rt, []);
}

/** Envelope fields at fault, in the order the document lists them: `alias` (the caller's), then the one reading's. */
function envelopeProblems(envelope: Record<string, unknown>, ctx: CallContext): string[] | undefined {
  // "`alias`: Identifies the operator account. In the examples it equals the basic-auth user name."
  const aliasBad = envelope.alias !== ctx.user.alias;
  const rest = envelopeFaults(envelope);
  if (!aliasBad) return rest;
  return rest ? ['alias', ...rest] : ['alias'];
}

const NO_TYPES: readonly string[] = [];
const NO_OUTCOMES: readonly PartOutcome[] = Object.freeze([]);

export function processEnvelope(rt: Runtime, envelope: unknown, ctx: CallContext): ResponseEnvelope {
  rt.engine.catchUp();
  if (!isObject(envelope)) return errorEnvelope(rt, ctx, ERR.invalidField, ['request']);
  const bad = envelopeProblems(envelope, ctx);
  if (bad) return errorEnvelope(rt, ctx, ERR.invalidField, bad);

  const sent = envelope.request as unknown[];
  // A variant may change what it reads (the mutation hook); the real gateway reads the objects as sent.
  const rewrite = rt.mutate?.request;
  const objects = rewrite ? sent.map((o, index) => rewrite(o, { format: ctx.format, index })) : sent;
  // The types are read for the mutation hooks and for a 99999 answer only: no work per request without them.
  const types = rt.mutate ? objects.flatMap(requestTypesOf) : NO_TYPES;
  const now = rt.clock.now();
  const timestamp = rt.clock.timestamp();
  const env: CallEnv = { ctx, now, timestamp, date: rt.clock.today(), runtime: rt };
  const uow = rt.ledger.begin();
  try {
    let parts: ResponsePart[];
    if (objects.length === 1) {
      // The usual call: one request object, its parts in a list of the right size (a `[]` pushed to gets room for 16).
      const outcomes = runRequestObject(objects[0], uow, env);
      parts = outcomes.length === 1 ? [outcomes[0].part] : outcomes.map((o) => o.part);
    } else {
      parts = [];
      for (const raw of objects) for (const o of runRequestObject(raw, uow, env)) parts.push(o.part);
    }
    uow.commit();
    return envelopeOf(ctx, parts, rt, types);
  } catch {
    // "`99999` any: Unknown error; needs manual inspection." A bug must not leave half a request stored.
    uow.rollback();
    // Without hooks nothing changes the objects sent, so reading their types now reads what was sent.
    const all = rt.mutate ? types : objects.flatMap(requestTypesOf);
    const parts = all.length > 0 ? all.map((t) => errorPart(typeLabel(t), ERR.unknown)) : [errorPart('ERROR', ERR.unknown)];
    return envelopeOf(ctx, parts, rt, all);
  }
}

/** Runs one request object: the request check, then each request type "in the listed order". */
function runRequestObject(raw: unknown, uow: ReturnType<Runtime['ledger']['begin']>, env: CallEnv): PartOutcome[] {
  const checked = prepareRequest(raw, uow, env);
  if (!checked.ok) {
    const labels = checked.types.length > 0 ? checked.types.map(typeLabel) : ['ERROR'];
    return labels.map((t) => ({ part: errorPart(t, checked.error, checked.errordata, t === 'AUTH' ? checked.extra : undefined) }));
  }
  const prepared = checked.prepared;
  const overrides = env.runtime.mutate?.operations;
  const types = prepared.types;
  if (types.length === 1) {
    // The usual request object: one type, nothing before it, and a list of exactly one (a `[]` that is pushed to
    // starts with room for sixteen).
    const type = types[0];
    const input: OperationInput = { type, index: 0, prepared, previous: NO_OUTCOMES, uow, env };
    const override = overrides?.[type];
    return [override ? override(input, HANDLERS[type]) : HANDLERS[type](input)];
  }
  // Handlers see the parts before their own, so the list grows as they run.
  const outcomes: PartOutcome[] = [];
  for (let index = 0; index < types.length; index++) {
    const type = types[index];
    const input: OperationInput = { type, index, prepared, previous: outcomes, uow, env };
    const handler = HANDLERS[type];
    const override = overrides?.[type];
    outcomes.push(override ? override(input, handler) : handler(input));
  }
  return outcomes;
}
