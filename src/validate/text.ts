/**
 * Text as it comes from a file, a pipe or the wire: JSON or XML, a request or a response, detected from the text.
 * XML is mapped to the JSON form by src/wire/xml.ts and checked with the same schemas, plus the block's own
 * structure problems (root, `version` attribute), so that no rule is written twice.
 */
import { SECTION } from '../../schemas/fields';
import { redactText } from '../redact';
import { isObject, validateRequestEnvelope, validateRequestObject } from './request';
import { validateResponseEnvelope, validateResponsePart } from './response';
import { violation, type Violation } from './violations';

export interface TextResult {
  kind: 'request' | 'response';
  format: 'json' | 'xml';
  violations: Violation[];
}

/** Input that cannot be validated at all (not JSON, not XML, neither a request nor a response). */
export class InputError extends Error {
  override name = 'InputError';
}

export interface TextOptions {
  /** For a response: the request types asked for, so that the parts' number and order are checked too. */
  readonly requested?: readonly string[];
}

const ENVELOPE_SHAPES = 'a request envelope {alias, version, request:[...]} or a response envelope {requestreference, version, response:[...], secrand}';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    // V8 quotes a piece of the input in its message; the piece could hold card data, so it is left out.
    const reason = String((err as Error).message).replace(/"[\s\S]*"/, 'the input');
    throw new InputError(`not valid JSON (${reason}), and not XML either (XML starts with "<")`);
  }
}

function validateJson(value: unknown, options: TextOptions): TextResult {
  if (!isObject(value)) throw new InputError(`the JSON is ${Array.isArray(value) ? 'a list' : 'not an object'}; expected ${ENVELOPE_SHAPES}`);
  if ('request' in value || ('alias' in value && !('response' in value))) {
    return { kind: 'request', format: 'json', violations: validateRequestEnvelope(value) };
  }
  if ('response' in value || 'secrand' in value || 'requestreference' in value) {
    return { kind: 'response', format: 'json', violations: validateResponseEnvelope(value, options.requested) };
  }
  // A bare request object or response part, as a step or a person may hold one.
  if ('requesttypedescriptions' in value) return { kind: 'request', format: 'json', violations: validateRequestObject(value) };
  if ('errorcode' in value || 'requesttypedescription' in value) return { kind: 'response', format: 'json', violations: validateResponsePart(value) };
  throw new InputError(`the JSON object has none of the envelope's fields; expected ${ENVELOPE_SHAPES}`);
}

/** The root element's name, past an XML declaration, comments, a doctype and blank lines (real clients send those). */
function xmlRoot(text: string): string | undefined {
  const m = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*<([A-Za-z_][\w.:-]*)/.exec(text);
  return m?.[1];
}

function structureViolations(root: string, problems: readonly string[]): Violation[] {
  return problems.map((p) => violation(root, 'xml-structure', /version/i.test(p) ? SECTION.versioning : SECTION.transport, p));
}

function validateXml(text: string, options: TextOptions): TextResult {
  const root = xmlRoot(text);
  if (root !== 'requestblock' && root !== 'responseblock') {
    throw new InputError(root ? `the XML root is <${root}>; expected <requestblock> or <responseblock>` : 'not well-formed XML: no root element found');
  }
  // Loaded here, not at the top: JSON validation (most uses) need not load the XML parser.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const xml = require('../wire/xml') as typeof import('../wire/xml');
  let parsed: { envelope: Record<string, unknown>; problems: string[] };
  try {
    parsed = root === 'requestblock' ? xml.parseRequestBlock(text) : xml.parseResponseBlock(text);
  } catch (err) {
    throw new InputError(`not well-formed XML (${redactText(String((err as Error).message))})`);
  }
  // Nothing could be read from the block (not well-formed, a DOCTYPE): that is unparseable input, not a finding.
  if (Object.keys(parsed.envelope).length === 0 && parsed.problems.length > 0) throw new InputError(parsed.problems.join('; '));
  const structure = structureViolations(root, parsed.problems);
  if (root === 'requestblock') {
    return { kind: 'request', format: 'xml', violations: [...structure, ...validateRequestEnvelope(parsed.envelope, 'xml')] };
  }
  return { kind: 'response', format: 'xml', violations: [...structure, ...validateResponseEnvelope(parsed.envelope, options.requested, 'xml')] };
}

/** Validates a request or a response given as text, JSON or XML; throws `InputError` when it is neither. */
export function validateText(text: string, options: TextOptions = {}): TextResult {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') throw new InputError('the input is empty');
  if (body.trimStart().startsWith('<')) return validateXml(body, options);
  return validateJson(parseJson(body), options);
}
