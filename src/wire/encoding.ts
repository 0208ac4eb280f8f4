/**
 * A body's bytes as text: the one reading of the character encoding of what crosses the wire, for requests (the
 * gateway's transports, and with them `serve --contract` and `cardspec/nock`) and for answers (the target).
 *
 * - JSON is UTF-8: "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using
 *   UTF-8" (RFC 8259 8.1). A `charset` parameter "really has no effect on compliant recipients" (RFC 8259 11), so it is
 *   not obeyed: the body is read as UTF-8 whatever it says. A leading byte order mark "MAY" be ignored (8.1): it is.
 * - XML says its own encoding (XML 1.0 4.3.3 and Appendix F; RFC 7303 3.2): a byte order mark decides; else the
 *   content type's `charset`; else the `encoding` of the XML declaration (UTF-16 without a mark is recognised by its
 *   first `<`); else UTF-8. Every XML processor reads UTF-8 and UTF-16; this one also reads the encodings of the WHATWG
 *   Encoding standard (ISO-8859-1, windows-1252, Shift_JIS, ...), which is what `TextDecoder` knows.
 *
 * The document fixes no encoding ("a JSON body"; the XML block's encoding is not shown): what is not stated here is
 * a note (a warning of the contract checks), never a refusal; bytes that are not text in the encoding they claim
 * are a problem (the body is not JSON text, or not well-formed XML), said with the byte where it went wrong.
 */
import { isUtf8 } from 'node:buffer';

/** A body read as text, with what the reading noticed; or why it could not be read. */
export type BodyText =
  | { readonly ok: true; readonly text: string; readonly encoding: string; readonly notes: readonly string[] }
  | {
      readonly ok: false;
      /** Set when the encoding is one the kit cannot read at all (an HTTP 415), rather than bytes that do not fit it. */
      readonly unsupported?: boolean;
      readonly problem: string;
    };

/** `charset` of a content type (`text/xml; charset="ISO-8859-1"` -> `iso-8859-1`), lower case. */
export function charsetOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !contentType.includes(';')) return undefined;
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return m ? m[1].toLowerCase() : undefined;
}

const isUtf8Label = (label: string): boolean => /^utf-?8$/i.test(label);

const NO_NOTES: readonly string[] = Object.freeze([]);

/** UTF-16 or UTF-32, by its byte order mark, or by the NULs of UTF-16 around a first ASCII character (`{`, `<`). */
export function wideEncoding(b: Uint8Array): string | undefined {
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) return 'UTF-32LE';
  if (b.length >= 4 && b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) return 'UTF-32BE';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'UTF-16LE';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'UTF-16BE';
  const ascii = (c: number | undefined): boolean => c !== undefined && c >= 0x09 && c < 0x7f;
  if (b.length >= 4 && ascii(b[0]) && b[1] === 0 && ascii(b[2]) && b[3] === 0) return 'UTF-16LE';
  if (b.length >= 4 && b[0] === 0 && ascii(b[1]) && b[2] === 0 && ascii(b[3])) return 'UTF-16BE';
  return undefined;
}

const hasUtf8Bom = (b: Uint8Array): boolean => b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;

/** Where the first byte that is not part of a UTF-8 character is (for the message only: the error path). */
function firstBadUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length;) {
    const c = b[i];
    const n = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
    if (n === 0) return i;
    if (n > 1 && !isUtf8(b.subarray(i, i + n))) return i;
    i += n;
  }
  return b.length;
}

const hex = (byte: number | undefined): string => (byte === undefined ? 'the end' : `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`);

/** The bytes as UTF-8 text, or undefined when they are not UTF-8 (a leading byte order mark is dropped). */
function utf8(b: Uint8Array): string | undefined {
  const buf = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.length);
  const text = buf.toString('utf8', hasUtf8Bom(b) ? 3 : 0);
  // Decoding writes U+FFFD for every byte that is not part of a UTF-8 character, so text without one came from
  // UTF-8 (and the search is free when the text has no character beyond Latin-1, as JSON bodies mostly do); only
  // text with one needs the bytes checked, since U+FFFD may also have been sent as such.
  return text.indexOf('\uFFFD') < 0 || isUtf8(b) ? text : undefined;
}

const UNKNOWN = Symbol('unknown encoding');

/** Decodes with the platform's `TextDecoder` (WHATWG labels); UNKNOWN when it does not know the label. */
function decodeStrict(b: Uint8Array, label: string): string | typeof UNKNOWN | undefined {
  if (isUtf8Label(label)) return utf8(b);
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    return UNKNOWN;
  }
  try {
    return decoder.decode(b);
  } catch {
    return undefined;
  }
}

/**
 * What a JSON body's problems add about its content type's `charset` ('' for none, or UTF-8), remembered per header
 * text: a client sends the same header on every call, and reading it is two regular expressions. Bounded, so odd
 * headers cannot grow it.
 */
const jsonLabels = new Map<string, string>();
function jsonCharsetLabel(contentType: string | undefined): string {
  if (contentType === undefined || !contentType.includes(';')) return '';
  let label = jsonLabels.get(contentType);
  if (label === undefined) {
    const charset = charsetOf(contentType);
    label = charset !== undefined && !isUtf8Label(charset) ? `; its Content-Type says charset=${charset.slice(0, 40)}, which does not change that (RFC 8259 11)` : '';
    if (jsonLabels.size >= 64) jsonLabels.clear();
    jsonLabels.set(contentType, label);
  }
  return label;
}

/**
 * A JSON body's bytes as text (RFC 8259 8.1 and 11). UTF-16 and UTF-32 and bytes that are not UTF-8 are problems (the
 * body is not JSON text between systems); a byte order mark and a `charset` other than UTF-8 are notes.
 */
export function readJsonBytes(bytes: Uint8Array, contentType?: string): BodyText {
  const label = jsonCharsetLabel(contentType);
  const wide = wideEncoding(bytes);
  if (wide !== undefined) return { ok: false, problem: `the body is ${wide} text: JSON between systems is UTF-8 (RFC 8259 8.1)${label}` };
  const text = utf8(bytes);
  if (text === undefined) {
    const at = firstBadUtf8(bytes);
    return { ok: false, problem: `the body is not UTF-8 (byte ${at} is ${hex(bytes[at])}): JSON between systems is UTF-8 (RFC 8259 8.1)${label}` };
  }
  if (label === '' && !hasUtf8Bom(bytes)) return { ok: true, text, encoding: 'utf-8', notes: NO_NOTES };
  const notes: string[] = [];
  if (hasUtf8Bom(bytes)) notes.push('the body begins with a byte order mark, which JSON text between systems does not have (RFC 8259 8.1); it was ignored');
  if (label !== '')
    notes.push(`the Content-Type says charset=${charsetOf(contentType)!.slice(0, 40)}; application/json has no charset parameter and JSON is UTF-8 (RFC 8259 8.1, 11): the body was read as UTF-8`);
  return { ok: true, text, encoding: 'utf-8', notes };
}

/** Where an XML body's encoding comes from, in the order XML 1.0 Appendix F and RFC 7303 give. */
interface XmlEncoding {
  readonly label: string;
  readonly source: 'byte order mark' | 'Content-Type charset' | 'XML declaration' | 'first bytes' | 'default';
}

/** The `encoding` of the XML declaration, when the body starts with one in an ASCII-compatible encoding. */
function declaredEncoding(b: Uint8Array): string | undefined {
  const head = Buffer.from(b.buffer, b.byteOffset, Math.min(b.length, 200)).toString('latin1');
  return /^(?:\uFEFF|\xEF\xBB\xBF)?\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head)?.[1]?.toLowerCase();
}

function xmlEncodingOf(b: Uint8Array, contentType: string | undefined): XmlEncoding {
  if (hasUtf8Bom(b)) return { label: 'utf-8', source: 'byte order mark' };
  if (b[0] === 0xff && b[1] === 0xfe) return { label: b[2] === 0 && b[3] === 0 ? 'utf-32le' : 'utf-16le', source: 'byte order mark' };
  if (b[0] === 0xfe && b[1] === 0xff) return { label: 'utf-16be', source: 'byte order mark' };
  if (b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) return { label: 'utf-32be', source: 'byte order mark' };
  if (b[0] === 0x3c && b[1] === 0x00 && b[2] === 0x3f && b[3] === 0x00) return { label: 'utf-16le', source: 'first bytes' };
  if (b[0] === 0x00 && b[1] === 0x3c && b[2] === 0x00 && b[3] === 0x3f) return { label: 'utf-16be', source: 'first bytes' };
  const charset = charsetOf(contentType);
  if (charset !== undefined) return { label: charset, source: 'Content-Type charset' };
  const declared = declaredEncoding(b);
  if (declared !== undefined) return { label: declared, source: 'XML declaration' };
  return { label: 'utf-8', source: 'default' };
}

/**
 * Bytes that begin as an XML document: `<` after blank space, in UTF-8 (with or without a byte order mark) or in
 * UTF-16 with its byte order mark, or `<?` in UTF-16 without one (XML 1.0 Appendix F: other wide text is not XML).
 */
export function startsAsXml(b: Uint8Array): boolean {
  const enc = xmlEncodingOf(b, undefined);
  if (enc.source === 'first bytes') return true;
  if (enc.source === 'byte order mark' && /^utf-16/.test(enc.label)) return b[2] === 0x3c || b[3] === 0x3c;
  let i = hasUtf8Bom(b) ? 3 : 0;
  while (i < b.length && i < 4096 && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  return b[i] === 0x3c;
}

/** ASCII-compatible first bytes (`<?xm`, or blank space then `<`): a body in an 8-bit encoding, never UTF-16. */
const eightBit = (b: Uint8Array): boolean => b.length >= 2 && b[1] !== 0 && (b[0] === 0x3c || b[0] === 0x20 || b[0] === 0x0a || b[0] === 0x0d || b[0] === 0x09);

/**
 * An XML request body's bytes as text, read strictly: bytes that are not text in the encoding the body claims are a
 * problem (XML 1.0 4.3.3: a fatal error), never replaced in silence. Two common slips of real clients are read all
 * the same, with a note: a body labelled UTF-16 whose bytes are 8-bit (a .NET `StringWriter` writes
 * `encoding="utf-16"` into a body then sent as UTF-8; libxml2 reads it as UTF-8 too), and a `charset` that the bytes
 * do not fit where the XML declaration names an encoding they do fit.
 */
export function readXmlBytes(bytes: Uint8Array, contentType?: string): BodyText {
  const enc = xmlEncodingOf(bytes, contentType);
  const notes: string[] = [];
  let label = enc.label;
  if (/^utf-?16/.test(label) && enc.source !== 'byte order mark' && enc.source !== 'first bytes' && eightBit(bytes)) {
    notes.push(`the ${enc.source} says ${label}, but the body's first bytes are 8-bit text (UTF-16 begins with a byte order mark: XML 1.0 4.3.3); it was read as UTF-8`);
    label = 'utf-8';
  }
  const text = decodeStrict(bytes, label);
  if (text === UNKNOWN || /^utf-?32/.test(label)) {
    return {
      ok: false,
      unsupported: true,
      problem: `the body's encoding "${label.slice(0, 40)}" (from its ${enc.source}) is not one the gateway reads: send UTF-8 or UTF-16 (or an encoding of the WHATWG Encoding standard, such as ISO-8859-1)`,
    };
  }
  if (text !== undefined) return { ok: true, text, encoding: label, notes };
  // The charset does not fit the bytes: the declaration may name the encoding they are in.
  const declared = enc.source === 'Content-Type charset' ? declaredEncoding(bytes) : undefined;
  if (declared !== undefined && declared !== label) {
    const again = decodeStrict(bytes, declared);
    if (typeof again === 'string') {
      notes.push(
        `the Content-Type says charset=${label.slice(0, 40)}, but the body is not ${label.slice(0, 40)} text; it was read as ${declared}, as its XML declaration says (RFC 7303 3.2: the charset parameter is authoritative)`,
      );
      return { ok: true, text: again, encoding: declared, notes };
    }
  }
  const where = isUtf8Label(label) ? ` (byte ${firstBadUtf8(bytes)} is ${hex(bytes[firstBadUtf8(bytes)])})` : '';
  const why = enc.source === 'default' ? 'UTF-8 being the default where no byte order mark, charset or XML declaration names another' : `as its ${enc.source} says`;
  return { ok: false, problem: `not well-formed XML: the body is not ${label.slice(0, 40)} text${where}, ${why} (XML 1.0 4.3.3)` };
}

/**
 * An XML answer's bytes as text, leniently: where the bytes do not fit the encoding (or it is unknown), UTF-8 with
 * replacement characters, so that the values that differ show where (the reading of answers, src/client/target.ts).
 */
export function decodeXmlLenient(bytes: Uint8Array, contentType?: string): string {
  const { label } = xmlEncodingOf(bytes, contentType);
  if (!isUtf8Label(label)) {
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // a label the platform does not know: read as UTF-8 below
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}
