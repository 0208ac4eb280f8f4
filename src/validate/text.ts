/**
 * Text as it comes from a file, a pipe or the wire: JSON or XML, a request or a response, detected from the text.
 * XML is mapped to the JSON form by src/wire/xml.ts and checked with the same schemas, plus the block's own
 * structure problems (root, `version` attribute), so that no rule is written twice.
 *
 * A body that is not an envelope (not JSON, not well-formed XML, JSON of another shape, another root element) is a
 * finding, as the gateway answers it with `30000` and the contract records it: an SDK's or a target's malformed
 * body is what this command is for. Only empty input cannot be validated at all.
 */
import { SECTION } from '../../schemas/fields';
import { readXmlBytes, startsAsXml, wideEncoding } from '../wire/encoding';
import type { ReadingContext } from './request';
import { isObject, validateRequestEnvelope, validateRequestObject } from './request';
import { validateResponseEnvelope, validateResponsePart } from './response';
import { violation, type Violation } from './violations';

export interface TextResult {
  kind: 'request' | 'response';
  format: 'json' | 'xml';
  violations: Violation[];
}

/** Input that cannot be validated at all (empty, too large, or not text in UTF-8). */
export class InputError extends Error {
  override name = 'InputError';
}

/**
 * The most `cardspec validate` reads: a request or a response of the service is a few kilobytes, and an endless pipe
 * (`yes | cardspec validate -`) or a disk image must end with a message, not with the process out of memory.
 */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * Bytes read from a file or a pipe as text. The service's bodies are UTF-8 (a UTF-8 byte order mark is dropped by
 * `validateText`); a UTF-16 or UTF-32 file (a Windows editor, PowerShell's `>`) read as UTF-8 is garbage that would
 * be reported as "not valid JSON", so it is told for what it is, with the way to convert it.
 */
export function decodeInput(bytes: Buffer): string {
  // XML states its encoding (byte order mark, declaration): read it as the gateway reads a request block, so that
  // an ISO-8859-1 or UTF-16 file is checked as what it says, not as UTF-8 garbage.
  if (startsAsXml(bytes)) {
    const read = readXmlBytes(bytes);
    if (read.ok) return read.text;
    throw new InputError(read.problem);
  }
  const wide = wideEncoding(bytes);
  if (wide) throw new InputError(`the input is ${wide} text, not UTF-8 (the service's bodies are UTF-8); convert it first, e.g. iconv -f ${wide} -t UTF-8`);
  return bytes.toString('utf8');
}

export interface TextOptions {
  /** For a response: the request types asked for, so that the parts' number and order are checked too. */
  readonly requested?: readonly string[];
  /** What is known of the parents requests name (the differential tests give the gateway's ledger). */
  readonly context?: ReadingContext;
}

const ENVELOPE_SHAPES = 'a request envelope {alias, version, request:[...]} or a response envelope {requestreference, version, response:[...], secrand}';

const body = (message: string): Violation => violation('body', 'envelope', SECTION.transport, message);

function parseJson(text: string): { value?: unknown; problem?: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    // V8 quotes a piece of the input in its message; the piece could hold card data, so it is left out.
    const reason = String((err as Error).message).replace(/"[\s\S]*"/, 'the input');
    return { problem: `the body is not valid JSON (${reason}), and not XML either (XML starts with "<")` };
  }
}

function validateJson(text: string, options: TextOptions): TextResult {
  const { value, problem } = parseJson(text);
  if (problem !== undefined) return { kind: 'request', format: 'json', violations: [body(problem)] };
  if (isObject(value)) {
    if ('request' in value || ('alias' in value && !('response' in value))) {
      return { kind: 'request', format: 'json', violations: validateRequestEnvelope(value, 'json', options.context) };
    }
    if ('response' in value || 'secrand' in value || 'requestreference' in value) {
      return { kind: 'response', format: 'json', violations: validateResponseEnvelope(value, options.requested) };
    }
    // A bare request object or response part, as a step or a person may hold one.
    if ('requesttypedescriptions' in value) return { kind: 'request', format: 'json', violations: validateRequestObject(value) };
    if ('errorcode' in value || 'requesttypedescription' in value) return { kind: 'response', format: 'json', violations: validateResponsePart(value) };
  }
  // Neither shape: read as the request envelope it most likely meant to be (what a client sends), saying so.
  const what = Array.isArray(value) ? 'a list' : isObject(value) ? 'an object with none of the envelope fields' : `a JSON ${value === null ? 'null' : typeof value}`;
  return {
    kind: options.requested ? 'response' : 'request',
    format: 'json',
    violations: [
      body(`the body is ${what}; expected ${ENVELOPE_SHAPES}`),
      ...(options.requested ? validateResponseEnvelope(value, options.requested) : validateRequestEnvelope(value, 'json', options.context)),
    ],
  };
}

/** The root element's name, past an XML declaration, comments, a doctype and blank lines (real clients send those). */
function xmlRoot(text: string): string | undefined {
  const m = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*<([A-Za-z_][\w.:-]*)/.exec(text);
  return m?.[1];
}

/**
 * The block's problem of request elements that give one field different values (src/wire/xml-read.ts): each carries
 * a request of its own, so what they break is "The body holds a list with one request object", in XML as two request
 * objects are in JSON. The contract's `xml-block` check reads it the same way.
 */
export const SECOND_REQUEST_OBJECT = /^request element \d+ gives (\S+) a different value/;

function structureViolations(root: string, problems: readonly string[]): Violation[] {
  return problems.map((p) => violation(root, SECOND_REQUEST_OBJECT.test(p) ? 'one-request-object' : 'xml-structure', /version/i.test(p) ? SECTION.versioning : SECTION.transport, p));
}

let xmlModule: typeof import('../wire/xml') | undefined;

/** Loaded on first use, not at the top: JSON validation (most uses) need not load the XML parser. Kept, since `require` resolves the path on every call. */
function xmlMapping(): typeof import('../wire/xml') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  xmlModule ??= require('../wire/xml') as typeof import('../wire/xml');
  return xmlModule;
}

function validateXml(text: string, options: TextOptions): TextResult {
  const root = xmlRoot(text);
  // A root that differs in case only (`<requestBlock>`) is still meant as that block: XML names are case-sensitive,
  // so it is a finding about the root, and the kind follows what was meant.
  const meant = root?.toLowerCase();
  const kind: TextResult['kind'] = meant === 'responseblock' || (meant !== 'requestblock' && options.requested) ? 'response' : 'request';
  const xml = xmlMapping();
  const parsed = kind === 'request' ? xml.parseRequestBlock(text) : xml.parseResponseBlock(text);
  const structure = structureViolations(root ?? (kind === 'request' ? 'requestblock' : 'responseblock'), parsed.problems);
  // Nothing could be read from the block (not well-formed, a DOCTYPE, another root): the problems say why.
  if (Object.keys(parsed.envelope).length === 0) {
    return { kind, format: 'xml', violations: structure.length > 0 ? structure : [body('no request or response block could be read')] };
  }
  if (kind === 'request') {
    return { kind, format: 'xml', violations: [...structure, ...validateRequestEnvelope(parsed.envelope, 'xml', options.context)] };
  }
  return { kind, format: 'xml', violations: [...structure, ...validateResponseEnvelope(parsed.envelope, options.requested, 'xml')] };
}

/** Validates a request or a response given as text, JSON or XML; throws `InputError` only when it is empty. */
export function validateText(text: string, options: TextOptions = {}): TextResult {
  const input = text.replace(/^\uFEFF/, '');
  if (input.trim() === '') throw new InputError('the input is empty');
  if (input.trimStart().startsWith('<')) return validateXml(input, options);
  return validateJson(input, options);
}
