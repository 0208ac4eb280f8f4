/**
 * The XML form of the interface (Endpoints > Transport: "The same operations are also offered as an XML request
 * block (root `requestblock` with a `version` attribute) ... The response root is `responseblock`") mapped to and
 * from the JSON form of src/wire/types.ts, so that every check in the kit is written once, against JSON.
 *
 * Where each field sits comes from the dictionary only (`FieldDef.request.xml` / `FieldDef.response.xml`,
 * schemas/fields.ts). The mapping is lossless for the JSON that real clients send (string values, one request
 * object); docs/xml.md lists what XML cannot carry (value types, empty strings, null, keys that are not XML names).
 *
 * This file is the API; the work is in three rooms: xml-scheme.ts (where each field sits, built once from the
 * dictionary), xml-build.ts (JSON envelope -> block) and xml-read.ts (block -> JSON envelope and structure problems).
 */
import { decodeXmlLenient } from './encoding';
import { ROOT } from './xml-scheme';

export { buildRequestBlock, buildResponseBlock } from './xml-build';
export { DOCTYPE_PROBLEM, parseRequestBlock, parseResponseBlock } from './xml-read';

// ---- bytes to text ---------------------------------------------------------------------------------------------

/**
 * An XML body's bytes as text, the way XML 1.0 (4.3.3, Appendix F) and RFC 7303 (3.2) say to read them: a
 * byte-order mark decides; else the content type's `charset`; else the `encoding` of the XML declaration (UTF-16
 * without a mark is recognised by its first `<`); else UTF-8. The document fixes no encoding, and every XML
 * processor must read UTF-16 as well as UTF-8, so a target answering `text/xml; charset=UTF-16` or
 * `<?xml version="1.0" encoding="ISO-8859-1"?>` is read, not refused. An encoding the platform does not know is
 * read as UTF-8 (where the answer is ASCII, that is exact; otherwise the values that differ show where). The one
 * detection of the encoding is src/wire/encoding.ts, which reads requests too (strictly: `readXmlBytes`).
 */
export function decodeXmlBody(bytes: Uint8Array, contentType?: string): string {
  return decodeXmlLenient(bytes, contentType);
}

/**
 * Which block a body holds, by its root element name alone (no well-formedness check): for routing and for
 * `cardspec validate`, which then parses and reports problems.
 */
export function detectXmlKind(xml: string): 'request' | 'response' | undefined {
  if (typeof xml !== 'string') return undefined;
  const m = /^\uFEFF?\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*<([A-Za-z_][A-Za-z0-9_.:-]*)/.exec(xml);
  if (!m) return undefined;
  const local = m[1].slice(m[1].indexOf(':') + 1); // a namespace prefix is not part of the name (see PARSER)
  if (local === ROOT.request) return 'request';
  if (local === ROOT.response) return 'response';
  return undefined;
}
