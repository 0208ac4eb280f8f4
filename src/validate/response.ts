/**
 * Response parts and response envelopes: every part against its request type's shape, and the envelope against the
 * request types asked for ("The response holds one part per request type, in the same order").
 */
import { RESPONSE_ENVELOPE_FILE, responsePartFile } from '../../schemas/files';
import { REQUEST_TYPES, SECTION, type RequestType } from '../../schemas/fields';
import type { Format, ResponsePart } from '../wire/types';
import { isObject } from './request';
import { checkFor, passes, passesEnvelopeShell, schemaRoot } from './schemas';
import { dedupe, forFormat, joinPath, toViolations, typeName, violation, type Violation } from './violations';

const isRequestType = (t: unknown): t is RequestType => typeof t === 'string' && (REQUEST_TYPES as readonly string[]).includes(t);

/** A part as the given request type (or as the type it names). */
export function checkPart(part: unknown, prefix: string, expected?: string): Violation[] {
  if (!isObject(part)) {
    const field = joinPath(prefix, []);
    return [violation(field, 'type', SECTION.envelope, `${field || 'the part'} must be an object (a response part)`)];
  }
  const declared = part.requesttypedescription;
  const type = isRequestType(declared) ? declared : isRequestType(expected) ? expected : undefined;
  if (type) {
    const file = responsePartFile(type);
    const section = String(schemaRoot(file)['x-section'] ?? SECTION.response);
    return dedupe(toViolations(checkFor(file)(part), { prefix, subject: `a ${type} part`, section }));
  }
  const out = toViolations(checkFor(RESPONSE_ENVELOPE_FILE, '#/$defs/response-part')(part), { prefix, subject: 'a response part', section: SECTION.response });
  const field = joinPath(prefix, ['requesttypedescription']);
  const why = declared === undefined ? `${field} is missing` : `${field} is ${typeName(declared)}, not a request type of the document`;
  // A part of an unknown type is not against the document (the ERROR part of the public XML format is one): only
  // the checks every part shares are made, and the gap is said.
  out.push(violation(field, 'request-type', SECTION.response, `${why}; only the checks common to every part were made`, 'warning'));
  return dedupe(out);
}

export function validateResponsePart(part: ResponsePart): Violation[] {
  return checkPart(part, '');
}

/** True when the envelope and every part pass, each part as the request type it names and was asked for. */
function passesQuickly(env: unknown, requested: readonly string[] | undefined): boolean {
  if (!isObject(env) || !Array.isArray(env.response)) return false;
  const list: unknown[] = env.response;
  if (requested && list.length !== requested.length) return false;
  if (!passesEnvelopeShell(RESPONSE_ENVELOPE_FILE)(env)) return false;
  for (let i = 0; i < list.length; i++) {
    const part = list[i];
    if (!isObject(part)) return false;
    const declared = part.requesttypedescription;
    if (!isRequestType(declared) || (requested && requested[i] !== declared)) return false;
    if (!passes(responsePartFile(declared))(part)) return false;
  }
  return true;
}

/**
 * The envelope and each part. With `requested` (the request's `requesttypedescriptions`), also one part per
 * requested type, in the requested order; a part is checked as the type it names, else as the type requested.
 * `format: 'xml'` for an envelope mapped from a responseblock: see `forFormat`.
 */
export function validateResponseEnvelope(env: unknown, requested?: readonly string[], format: Format = 'json'): Violation[] {
  // Most answers pass: decide that with yes/no checks first (a fuzz run validates thousands), and gather the
  // violations, with their words, only for an answer that does not.
  return passesQuickly(env, requested) ? [] : responseEnvelopeViolations(env, requested, format);
}

/** `validateResponseEnvelope` without its fast path: every check made and reported (the tests compare the two). */
export function responseEnvelopeViolations(env: unknown, requested?: readonly string[], format: Format = 'json'): Violation[] {
  const envelope = forFormat(toViolations(checkFor(RESPONSE_ENVELOPE_FILE)(env), { prefix: '', subject: 'the response envelope', section: SECTION.transport }), format, 'response');
  const parts: Violation[] = [];
  if (isObject(env) && Array.isArray(env.response)) {
    const list: unknown[] = env.response;
    if (requested && list.length !== requested.length) {
      parts.push(
        violation(
          'response',
          'one-part-per-type',
          SECTION.what,
          `response holds ${list.length} part(s) for ${requested.length} requested type(s) (${requested.map(typeName).join(', ')}): "The response holds one part per request type, in the same order"`,
        ),
      );
    }
    list.forEach((part, i) => {
      const expected = requested?.[i];
      const declared = isObject(part) ? part.requesttypedescription : undefined;
      if (expected !== undefined && declared !== undefined && declared !== expected) {
        parts.push(
          violation(
            `response[${i}].requesttypedescription`,
            'part-order',
            SECTION.what,
            `part ${i + 1} is ${typeName(declared)} where ${typeName(expected)} was requested: the parts follow the order of requesttypedescriptions (${requested!.map(typeName).join(', ')})`,
          ),
        );
      }
      parts.push(...checkPart(part, `response[${i}].`, expected));
    });
  }
  return dedupe([...envelope, ...parts]);
}
