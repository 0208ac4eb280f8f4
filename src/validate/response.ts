/**
 * Response parts and response envelopes: every part against its request type's shape, and the envelope against the
 * request types asked for ("The response holds one part per request type, in the same order").
 */
import { RESPONSE_ENVELOPE_FILE, responsePartFile } from '../../schemas/files';
import { echoedBy, FIELD, REQUEST_TYPES, SECTION, type RequestType } from '../../schemas/fields';
import { ECHOED_FIELDS, OPERATIONS, PART_SHAPES } from '../../schemas/operations';
import type { Format, ResponsePart } from '../wire/types';
import { isUnset, readAnswer } from '../wire/reading';
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
  return checkPart(readAnswer(part), '');
}

/**
 * True when the envelope and every part pass, each part as the request type it names and was asked for. With
 * `unknownTypes`, a part of a type the document does not name (the public XML format's ERROR part) passes too when
 * it passes what every part shares: all `checkPart` checks of it but the warning it always gives.
 */
function passesQuickly(env: unknown, requested: readonly string[] | undefined, unknownTypes = false): boolean {
  if (!isObject(env) || !Array.isArray(env.response)) return false;
  const list: unknown[] = env.response;
  if (requested && list.length !== requested.length) return false;
  if (!passesEnvelopeShell(RESPONSE_ENVELOPE_FILE)(env)) return false;
  for (let i = 0; i < list.length; i++) {
    const part = list[i];
    if (!isObject(part)) return false;
    const declared = part.requesttypedescription;
    if (requested && requested[i] !== declared) return false;
    if (isRequestType(declared)) {
      if (!passes(responsePartFile(declared))(part)) return false;
    } else if (!unknownTypes || checkFor(RESPONSE_ENVELOPE_FILE, '#/$defs/response-part')(part).length > 0) return false;
  }
  return true;
}

/**
 * The envelope and each part. With `requested` (the request's `requesttypedescriptions`), also one part per
 * requested type, in the requested order; a part is checked as the type it names, else as the type requested.
 * `format: 'xml'` for an envelope mapped from a responseblock: see `forFormat`.
 */
export function validateResponseEnvelope(answer: unknown, requested?: readonly string[], format: Format = 'json'): Violation[] {
  const scope = held !== undefined && typeof answer === 'object' && answer !== null ? held : undefined;
  const key = scope ? `${format}\u0000${requested === undefined ? '\u0001' : requested.join('\u0000')}` : '';
  if (scope) for (const e of scope.validated) if (e.answer === answer && e.key === key) return [...e.found];
  // An empty string or null is a value not returned (src/wire/reading.ts `readAnswer`), as in the XML form.
  const env = answerAsHeld(answer);
  // Most answers pass: decide that with yes/no checks first (a fuzz run validates thousands), and gather the
  // violations, with their words, only for an answer that does not.
  const found = passesQuickly(env, requested) ? [] : responseEnvelopeViolations(env, requested, format);
  if (scope && scope.validated.length < HELD_MAX) scope.validated.push({ answer: answer as object, key, found: [...found] });
  return found;
}

/**
 * The answers held unchanged by `withAnswersHeld`: their validations made so far, and each as read. One exchange
 * holds an answer or two: a short list searched by identity is cheaper than a WeakMap made for each (whose
 * ephemerons the collector must trace); past HELD_MAX entries, nothing more is remembered (only work is repeated).
 */
interface Held {
  readonly validated: { readonly answer: object; readonly key: string; readonly found: readonly Violation[] }[];
  readonly reads: { readonly answer: object; readonly read: unknown }[];
  /** `echoViolations` made so far, by the answer and the request object (both held unchanged). */
  readonly echoes: { readonly answer: object; readonly request: object; readonly format: Format; readonly found: readonly Violation[] }[];
}
let held: Held | undefined;
const HELD_MAX = 16;

/**
 * `readAnswer` of an answer: within `withAnswersHeld`, read once however many readers read it (the walk visits
 * every value of the answer).
 */
export function answerAsHeld<T>(answer: T): T {
  if (held === undefined || typeof answer !== 'object' || answer === null) return readAnswer(answer);
  for (const e of held.reads) if (e.answer === answer) return e.read as T;
  const read = readAnswer(answer);
  if (held.reads.length < HELD_MAX) held.reads.push({ answer, read });
  return read;
}

/**
 * Runs `run` with the answers it validates held unchanged: one that several readers validate alike within it (the
 * checking proxy's exchange: the contract gate's answer invariants, then the proxy's own answer checks) is
 * validated once and each is given the same findings. Only for a caller that changes no answer while `run` runs.
 */
export function withAnswersHeld<T>(run: () => T): T {
  const outer = held;
  held = { validated: [], reads: [], echoes: [] };
  try {
    return run();
  } finally {
    held = outer;
  }
}

/**
 * The errors of `validateResponseEnvelope` (its warnings left out), for callers that judge by errors only: an
 * answer whose only findings are warnings (a part of a type the document does not name) is decided by yes/no
 * checks too, without building the warnings' words. The fuzzer meets such answers in about one case in five.
 */
export function responseEnvelopeErrors(answer: unknown, requested?: readonly string[], format: Format = 'json'): Violation[] {
  return readEnvelopeErrors(readAnswer(answer), requested, format);
}

/**
 * `responseEnvelopeErrors` of an answer `readAnswer` has read already (a JSON exchange of src/client/target.ts):
 * reading it again walks the whole answer to find nothing to drop, on every case of a fuzz run.
 */
export function readEnvelopeErrors(env: unknown, requested?: readonly string[], format: Format = 'json'): Violation[] {
  return passesQuickly(env, requested, true) ? [] : responseEnvelopeViolations(env, requested, format).filter((v) => v.severity === 'error');
}

/** `validateResponseEnvelope` without its fast path: every check made and reported (the tests compare the two). */
export function responseEnvelopeViolations(answer: unknown, requested?: readonly string[], format: Format = 'json'): Violation[] {
  const env = readAnswer(answer);
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

/**
 * The answer against the request object it answers: "| `baseamount`, `currencyiso3a`, `orderreference`,
 * `accounttypedescription`, `credentialsonfile` | Echoed from the request. |". A successful part of an operation of
 * the Request types table that carries one of these fields carries the value the request object itself sent; and a
 * part of a type that gives the field back (`ECHOES` of the field dictionary: what the document's examples and
 * sentences show) carries it when the request object sent it.
 * Not checked: a field the request did not send (an empty value is not sent, `isUnset`; inherited from a parent, or
 * set by the service: "If it is omitted, the service tries to set the correct value itself"), a value the part's
 * shape fixes (the SUBSCRIPTION part "carries `RECUR`": checked as fixed), a value sent that the part's own request
 * type does not take (the one `accounttypedescription` of a RISKDEC+AUTH request is the AUTH's `ECOM`, and RISKDEC
 * takes `FRAUDCONTROL`: what the RISKDEC part then carries is not said), the follow-ups (their shapes are not shown),
 * a value that is not a string (a fault of its type, FIELD-STRINGS, not of its echo), a field left out of a part
 * whose type the document does not show giving it back, and, in an XML answer, a field left out whose XML location is
 * cardspec's choice (`credentialsonfile`: a gateway may answer it elsewhere, or not at all, and the document does not
 * say where). The message never quotes a value.
 */
export function echoViolations(request: Readonly<Record<string, unknown>>, answer: unknown, format: Format = 'json'): Violation[] {
  // Held: the checking proxy's exchange asks this of the same answer and request object twice (the contract gate's
  // invariants, then its own answer checks).
  const scope = held !== undefined && typeof answer === 'object' && answer !== null ? held : undefined;
  if (scope) for (const e of scope.echoes) if (e.answer === answer && e.request === request && e.format === format) return [...e.found];
  const found = echoesOf(request, answer, format);
  if (scope && scope.echoes.length < HELD_MAX) scope.echoes.push({ answer: answer as object, request, format, found: [...found] });
  return found;
}

function echoesOf(request: Readonly<Record<string, unknown>>, answer: unknown, format: Format): Violation[] {
  const env = answerAsHeld(answer);
  if (!isObject(env) || !Array.isArray(env.response)) return [];
  const out: Violation[] = [];
  (env.response as unknown[]).forEach((part, i) => {
    if (!isObject(part) || part.errorcode !== '0' || !isRequestType(part.requesttypedescription)) return;
    const type = part.requesttypedescription;
    const shape = PART_SHAPES[type];
    if (shape.quote === 'shape not shown') return;
    for (const field of ECHOED_FIELDS) {
      const sent = request[field];
      if (typeof sent !== 'string' || isUnset(sent) || shape.fixed?.[field] !== undefined || part[field] === sent) continue;
      const taken = valuesTakenBy(type, field);
      if (taken && !taken.includes(sent)) continue;
      const got = part[field];
      if (got === undefined) {
        // A field the part's shape requires in every successful part ("The STORE response holds ... `orderreference`",
        // "the amount in the SUBSCRIPTION part") is missing under that sentence, the schema's: one fault, one cause.
        if (!mustEcho(type, field, format) || shape.requiredOnSuccess.includes(field)) continue;
        out.push(
          violation(`response[${i}].${field}`, 'echo', SECTION.response, `response[${i}].${field} is missing: the ${type} part gives back the ${field} the request sent ("Echoed from the request")`),
        );
        continue;
      }
      if (typeof got !== 'string') continue;
      out.push(violation(`response[${i}].${field}`, 'echo', SECTION.response, `response[${i}].${field} of the ${type} part is not the value the request sent ("Echoed from the request")`));
    }
  });
  return out;
}

/**
 * Whether a successful part of `type` must carry `field` when its request object sent it ("Echoed from the request",
 * in the part types of the field dictionary's `ECHOES`): not in an XML answer for a field whose XML location is
 * cardspec's choice (the document places `credentialsonfile` nowhere in the XML block). The scenario steps that check
 * echoes read it too.
 */
export function mustEcho(type: string, field: string, format: Format = 'json'): boolean {
  return echoedBy(type, field) && !(format === 'xml' && FIELD[field]?.xmlChoice !== undefined);
}

/** The values the rows of one request type alone fix for a field (`accounttypedescription` of RISKDEC: `FRAUDCONTROL`). */
function valuesTakenBy(type: RequestType, field: string): readonly string[] | undefined {
  const values = OPERATIONS.filter((o) => o.requesttypes.length === 1 && o.requesttypes[0] === type).flatMap((o) => o.fixed?.[field] ?? []);
  return values.length > 0 ? values : undefined;
}
