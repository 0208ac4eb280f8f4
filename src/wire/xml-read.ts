/**
 * Reading the XML form: a request or response block's text as the JSON envelope (src/wire/types.ts), each field
 * found at its dictionary place (xml-scheme.ts), with the block's structure problems in the document's terms.
 * Parsing goes through fast-xml-parser with every value kept as the exact string sent (md and pares "must be
 * submitted in full, unmodified"), no entity processing by the parser and no DTD at all (entity-expansion guard).
 * Neither parse function ever throws.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { FIELDS, type Direction, type FieldDef } from '../../schemas/fields';
import { redactText } from '../redact';
import { XML_VERSION, type RequestEnvelope, type ResponseEnvelope } from './types';
import { Attr, attrOf, In, scanPlain } from './xml-scan';
import { BLOCK, PART, ROOT, SCHEME, TYPE_ATTR, UPDATES_SCHEME, isObject, toJsonVersion, VERSION_ATTR, type Scheme, type SchemeNode } from './xml-scheme';

const PARSER = new XMLParser({
  preserveOrder: true, // element order matters (request types) and repeated elements must stay apart
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false, // "All values ... are strings": `007` stays `007`, `0` stays `0`
  parseAttributeValue: false,
  trimValues: false, // values are exact; whitespace between elements is ignored below instead
  processEntities: false, // no DTD, no entity expansion: the five XML entities and character references are decoded here
  cdataPropName: '#cdata', // CDATA content is taken as is, never entity-decoded
  commentPropName: '#comment',
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Names are kept as written (`sp:alias`, `xmlns:sp`, `xml:lang`): toTree reads the namespaces (see `localName`).
  removeNSPrefix: false,
  // Element names such as `toString` are safe here: with preserveOrder each name keys its own fresh object.
  onDangerousProperty: (name: string) => name,
});

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five predefined entities and character references; any other `&name;` is left and reported. */
function decode(raw: string, unknown: Set<string>): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z_][A-Za-z0-9._-]*);/g, (m, ref: string) => {
    if (ref.startsWith('#')) {
      const cp = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : m;
    }
    const v = PREDEFINED[ref];
    if (v === undefined) unknown.add(ref);
    return v ?? m;
  });
}

type Raw = Record<string, unknown>;

/**
 * Namespaces in XML: `<sp:responseblock xmlns:sp="...">` is the element `responseblock` in a namespace, as
 * `<responseblock xmlns="...">` is. The document names elements, never a namespace, so both read the same.
 */
const localName = (qname: string): string => qname.slice(qname.indexOf(':') + 1);

/** The XML Schema instance namespace: `xsi:nil`, `xsi:type`, `xsi:schemaLocation` describe the markup, not data. */
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/**
 * Whether an attribute is markup rather than a field: a namespace declaration (`xmlns`, `xmlns:p`), an attribute of
 * the `xml` namespace (`xml:lang`, `xml:space`: Namespaces in XML 3) or of the XML Schema instance namespace (what a
 * schema-bound serializer writes, `xsi:nil="true"` on an unset field). None of them is a field of the document, so
 * none is read as one (nor reported as an unknown field).
 */
function isMarkup(qname: string, scope: ReadonlyMap<string, string>): boolean {
  if (qname === 'xmlns' || qname.startsWith('xmlns:') || qname.startsWith('xml:')) return true;
  const colon = qname.indexOf(':');
  return colon > 0 && scope.get(qname.slice(0, colon)) === XSI;
}

/** The prefixes declared on an element, over those of its ancestors. */
function scopeOf(raw: Record<string, unknown>, outer: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  let scope: Map<string, string> | undefined;
  for (const [k, v] of Object.entries(raw)) {
    if (!k.startsWith('xmlns:')) continue;
    scope ??= new Map(outer);
    scope.set(k.slice(6), String(v));
  }
  return scope ?? outer;
}

const NO_PREFIXES: ReadonlyMap<string, string> = new Map();

function toTree(node: Raw, qname: string, unknownEntities: Set<string>, outer: ReadonlyMap<string, string> = NO_PREFIXES): In {
  const attrsRaw = node[':@'];
  const raw = isObject(attrsRaw) ? attrsRaw : {};
  const scope = scopeOf(raw, outer);
  const el = new In(localName(qname));
  let lastAttr: Attr | undefined;
  const plain = new Set(Object.keys(raw).filter((k) => !k.includes(':')));
  for (const [k, v] of Object.entries(raw)) {
    if (isMarkup(k, scope)) continue;
    // A prefixed attribute reads by its local name (`sp:type` is `type`), unless the element also has that name
    // unprefixed: then the unprefixed one is the document's, and the other keeps its prefix.
    const name = k.includes(':') && !plain.has(localName(k)) ? localName(k) : k;
    const a = new Attr(name, decode(String(v).replace(/[\t\n]/g, ' '), unknownEntities));
    if (lastAttr === undefined) el.firstAttr = a;
    else lastAttr.next = a;
    lastAttr = a;
  }
  let lastChild: In | undefined;
  let text = '';
  const content = node[qname];
  for (const item of Array.isArray(content) ? (content as unknown[]) : []) {
    if (!isObject(item)) continue;
    if ('#text' in item) text += decode(String(item['#text']), unknownEntities);
    else if ('#cdata' in item) text += cdataText(item['#cdata']);
    else if ('#comment' in item) continue;
    else {
      const childName = Object.keys(item).find((k) => k !== ':@');
      if (childName === undefined) continue;
      const child = toTree(item, childName, unknownEntities, scope);
      if (lastChild === undefined) el.firstChild = child;
      else lastChild.next = child;
      lastChild = child;
    }
  }
  el.text = text;
  return el;
}

function cdataText(v: unknown): string {
  if (!Array.isArray(v)) return '';
  return v.map((x) => (isObject(x) && '#text' in x ? String(x['#text']) : '')).join('');
}

/**
 * A value held by the kit's own objects: `__proto__` and friends become plain own properties. `__proto__` is the one
 * accessor of Object.prototype, so every other key is an own property by plain assignment (which is faster).
 */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

const hasContent = (s: string): boolean => s.trim() !== '';

/** An element outside the dictionary, as data: text alone, or an object of `@attrs`, children and `#text`. */
function generic(el: In, skipAttrs = false): unknown {
  if ((skipAttrs || el.firstAttr === undefined) && el.firstChild === undefined) return el.text === '' ? undefined : el.text;
  const since = repeats;
  const acc = newFields();
  let any = false;
  if (!skipAttrs) {
    for (let a: Attr | undefined = el.firstAttr; a !== undefined; a = a.next) {
      if (a.value === '') continue;
      add(acc, `@${a.name}`, a.value);
      any = true;
    }
  }
  for (let c: In | undefined = el.firstChild; c !== undefined; c = c.next) {
    const v = generic(c);
    if (v === undefined) continue;
    add(acc, c.name, v);
    any = true;
  }
  if (hasContent(el.text)) {
    add(acc, '#text', el.text);
    any = true;
  }
  return any ? finish(acc, since) : undefined;
}

/**
 * The fields read so far, as the envelope's object in the making: a value seen once as itself, a value seen more
 * than once as a `Repeated` until `finish`, a list field's values (`addField`) as a list. No list is made for a value
 * seen once (most are), and nothing by a literal (see `In`, src/wire/xml-scan.ts).
 */
type Fields = Record<string, unknown>;

const newFields = (): Fields => Object.create(Object.prototype) as Fields;

const hasOwn = (obj: Fields, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

class Repeated {
  constructor(readonly values: unknown[]) {}
}

/** `Repeated`s made so far: an object made meanwhile is looked through for them by `finish`, any other is not. */
let repeats = 0;

/** `value` (never undefined) read for `key`: a value seen more than once becomes a list, so that none is lost. */
function add(acc: Fields, key: string, value: unknown): void {
  if (!hasOwn(acc, key)) return setOwn(acc, key, value);
  const had = acc[key];
  if (had instanceof Repeated) had.values.push(value);
  else {
    setOwn(acc, key, new Repeated(Array.of(had, value)));
    repeats++;
  }
}

/** The fields as the envelope's object, in the order read: a repeated value as the list of its values. */
function finish(acc: Fields, since: number): Fields {
  if (repeats === since) return acc;
  for (const k in acc) {
    const v = acc[k];
    if (v instanceof Repeated) setOwn(acc, k, v.values);
  }
  return acc;
}

/** The fields whose value is a list however many times they occur (`requesttypedescriptions`, the records). */
const LIST_FIELDS: ReadonlySet<string> = new Set(FIELDS.filter((d) => d.list === true || d.structure === 'records').map((d) => d.name));

/** `add` for a field of the dictionary: a list field's values are a list however many times it occurs. */
function addField(acc: Fields, key: string, value: unknown): void {
  if (!LIST_FIELDS.has(key)) return add(acc, key, value);
  if (hasOwn(acc, key)) (acc[key] as unknown[]).push(value);
  else setOwn(acc, key, Array.of(value));
}

/**
 * Reads the fields below `el` into `acc`. An empty element or attribute means the field is not set (public-facts:
 * real clients send `<county/>` for unset fields), so it is dropped.
 */
function readInto(el: In, scheme: Scheme, node: SchemeNode, acc: Fields): void {
  const here = node.path;
  for (let a: Attr | undefined = el.firstAttr; a !== undefined; a = a.next) {
    if (a.value === '') continue;
    addField(acc, node.attrs.get(a.name) ?? (here !== '' ? `${here}/@${a.name}` : `@${a.name}`), a.value);
  }
  const textField = node.text;
  if (textField !== undefined) {
    const v = el.firstChild !== undefined ? generic(el, true) : el.text === '' ? undefined : el.text;
    if (v !== undefined) addField(acc, textField, v);
    return;
  }
  if (hasContent(el.text)) addField(acc, here !== '' ? here : '#text', el.text);
  for (let c: In | undefined = el.firstChild; c !== undefined; c = c.next) {
    const structure = here === '' ? scheme.structures.get(c.name) : undefined;
    if (structure) {
      const v = readStructure(c, structure);
      if (v !== undefined) addField(acc, structure.name, v);
      continue;
    }
    const below = node.children.get(c.name);
    if (below) {
      readInto(c, scheme, below, acc);
      continue;
    }
    const v = generic(c);
    if (v !== undefined) addField(acc, here !== '' ? `${here}/${c.name}` : c.name, v);
  }
}

function readFields(el: In, scheme: Scheme): Fields {
  const since = repeats;
  const acc = newFields();
  readInto(el, scheme, scheme.tree, acc);
  return finish(acc, since);
}

function readStructure(el: In, def: FieldDef): unknown {
  if (def.structure === 'records') return readFields(el, SCHEME.response);
  if (el.firstChild === undefined) return generic(el);
  if (def.structure === 'updates') {
    const v = readFields(el, UPDATES_SCHEME);
    return Object.keys(v).length ? v : undefined;
  }
  const filter: Record<string, { value: unknown }[]> = {};
  for (let c: In | undefined = el.firstChild; c !== undefined; c = c.next) {
    const v = c.firstChild !== undefined ? generic(c) : c.text === '' ? undefined : c.text;
    if (v === undefined) continue;
    if (!Object.prototype.hasOwnProperty.call(filter, c.name)) setOwn(filter, c.name, []);
    filter[c.name].push({ value: v });
  }
  return Object.keys(filter).length ? filter : undefined;
}

/**
 * A well-formedness error in the document's terms: the element and the line, never the parser's own wording (which
 * prints its internal stack of open tags). Unknown kinds of error say where, and that the text is not XML there.
 */
function wellFormednessProblem(doc: string, err: { code: string; msg: string; line: number; col: number }, lineOffset: number): string {
  const at = (line: number, col?: number): string => `line ${line + lineOffset}${col ? `, column ${col}` : ''}`;
  const where = at(err.line, err.col);
  const m = (re: RegExp): RegExpExecArray | null => re.exec(err.msg);
  let r: RegExpExecArray | null;
  if ((r = m(/^Invalid '\[([\s\S]*)\]' found/))) {
    // The parser's list of the elements still open at the end, outermost first: the innermost is the one to close.
    const open = [...r[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
    const inner = open[open.length - 1] ?? '?';
    return `not well-formed XML: <${inner}>${openedAt(doc, inner, at)} is never closed (the document ends with ${open.map((n) => `<${n}>`).join(', ')} open)`;
  }
  if ((r = m(/^Unclosed tag '([^']*)'/))) return `not well-formed XML: <${r[1]}>${openedAt(doc, r[1], at)} is never closed`;
  if ((r = m(/^Closing tag '([^']*)' doesn't have proper closing/))) return `not well-formed XML at ${where}: the closing tag </${r[1]}> does not end with ">"`;
  if ((r = m(/^Expected closing tag '([^']*)' \(opened in line (\d+), col (\d+)\) instead of closing tag '([^']*)'/))) {
    return `not well-formed XML at ${where}: </${r[4]}> closes <${r[1]}>, opened at ${at(Number(r[2]), Number(r[3]))}`;
  }
  if ((r = m(/^Closing tag '([^']*)' has not been opened/))) return `not well-formed XML at ${where}: </${r[1]}> closes an element that is not open`;
  if ((r = m(/^Tag '([^']*)' is an invalid name/))) return `not well-formed XML at ${where}: <${r[1]}> is not a valid element name`;
  if ((r = m(/^Attribute '([^']*)' is without value/))) return `not well-formed XML at ${where}: the attribute ${r[1]} has no quoted value`;
  if ((r = m(/^Attribute '([^']*)' is repeated/))) return `not well-formed XML at ${where}: the attribute ${r[1]} is given twice`;
  if ((r = m(/^Attributes for '([^']*)' have open quote/))) return `not well-formed XML at ${where}: an attribute of <${r[1]}> has a quote that is never closed`;
  if ((r = m(/^char '(.)' is not expected/))) {
    const c = r[1] === '&' ? '"&" that starts no entity (write &amp;)' : r[1] === '<' ? '"<" that starts no element (write &lt;)' : `character "${r[1]}" that is not allowed here`;
    return `not well-formed XML at ${where}: a ${c}`;
  }
  return `not well-formed XML at ${where}: the text is not XML here (${err.code.replace(/^Invalid/, '').toLowerCase() || 'syntax'})`;
}

/** `, opened at line N` for the last opening of an element, when it can be found in the text. */
function openedAt(doc: string, name: string, at: (line: number, col?: number) => string): string {
  const i = doc.lastIndexOf(`<${name}`);
  if (i < 0) return '';
  const before = doc.slice(0, i);
  const line = (before.match(/\n/g) ?? []).length + 1;
  return ` (opened at ${at(line, i - before.lastIndexOf('\n'))})`;
}

/** What a DTD with declarations of its own gets (contract checks read it as the kit's guard, not the document's rule). */
export const DOCTYPE_PROBLEM = 'a DOCTYPE is not accepted when it declares anything ([...]): the kit does no DTD processing (entity-expansion guard)';

/**
 * A document type declaration in the prolog that declares nothing itself (`<!DOCTYPE requestblock>`, or one naming an
 * external DTD by SYSTEM or PUBLIC identifier, which the kit never fetches) is well-formed XML that defines no entity:
 * it is blanked (line and column numbers kept), so the block reads as without it. One with an internal subset
 * (`[<!ENTITY ...>]`) is left for the DTD guard.
 */
function withoutExternalDoctype(doc: string): string {
  if (!doc.includes('<!DOCTYPE')) return doc;
  const m = /^((?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*)*)(<!DOCTYPE\s+[A-Za-z_:][\w.:-]*(?:\s+(?:SYSTEM\s+(?:"[^"]*"|'[^']*')|PUBLIC\s+(?:"[^"]*"|'[^']*')\s+(?:"[^"]*"|'[^']*')))?\s*>)/.exec(doc);
  if (!m) return doc;
  return doc.slice(0, m[1].length) + m[2].replace(/[^\n]/g, ' ') + doc.slice(m[1].length + m[2].length);
}

/**
 * The well-formedness check, the DTD guard and the tree: `problems` say where it went wrong. `plain: false` skips the
 * fast scanner, so that its test can compare the two readings.
 */
export function parseTree(xml: unknown, plain = true): { root?: In; problems: string[] } {
  if (typeof xml !== 'string') return { problems: ['the body is not text'] };
  // A leading byte-order mark and blank lines are accepted (public-facts: the Ruby gem's body begins with a blank
  // line); line numbers in problems still count from the body's first line.
  const body = xml.replace(/^\uFEFF/, '');
  const lead = /^\s*/.exec(body)?.[0] ?? '';
  const lineOffset = (lead.match(/\n/g) ?? []).length;
  // XML 2.11: a literal CR or CRLF is read as LF.
  const rest = body.slice(lead.length);
  const lf = rest.includes('\r') ? rest.replace(/\r\n?/g, '\n') : rest;
  // Plain XML (nearly every block) is read in one pass; anything else, and every fault, by the full parser below.
  // The scanner reads no `<!` at all, so a block it reads has no DOCTYPE for the lines below to blank or refuse.
  const scanned = plain ? scanPlain(lf) : undefined;
  if (scanned) return { root: scanned, problems: [] };
  const doc = withoutExternalDoctype(lf);
  if (doc === '') return { problems: ['not well-formed XML: the body is empty'] };
  if (/<!DOCTYPE/i.test(doc)) return { problems: [DOCTYPE_PROBLEM] };
  const valid = XMLValidator.validate(doc);
  if (valid !== true) return { problems: [redactText(wellFormednessProblem(doc, valid.err, lineOffset))] };
  let parsed: unknown;
  try {
    parsed = PARSER.parse(doc);
  } catch (e) {
    return { problems: [redactText(`not well-formed XML: ${e instanceof Error ? e.message : String(e)}`)] };
  }
  const unknownEntities = new Set<string>();
  const roots: In[] = [];
  // The parser drops text after the root element and the validator lets it pass, so it is looked for here.
  let strayText = hasContent(doc.slice(doc.lastIndexOf('>') + 1));
  for (const node of Array.isArray(parsed) ? (parsed as unknown[]) : []) {
    if (!isObject(node)) continue;
    if ('#text' in node) strayText ||= hasContent(String(node['#text']));
    else if ('#cdata' in node) strayText = true;
    else if (!('#comment' in node)) {
      const name = Object.keys(node).find((k) => k !== ':@');
      if (name !== undefined) roots.push(toTree(node, name, unknownEntities));
    }
  }
  const problems: string[] = [];
  if (roots.length !== 1) problems.push(`not well-formed XML: ${roots.length} root elements; exactly one is allowed`);
  if (strayText) problems.push('not well-formed XML: text outside the root element');
  for (const name of unknownEntities) problems.push(redactText(`undefined entity &${name}; (only the five XML entities and character references are decoded)`));
  return roots.length === 1 && !strayText ? { root: roots[0], problems } : { problems };
}

/** Root, version and the block's own fields; `onPart` receives each `request`/`response` element in order. */
function readBlock(xml: string, direction: Direction, onPart: (el: In, index: number, problems: string[]) => void): { envelope: Record<string, unknown>; problems: string[]; parts: number } {
  const { root, problems } = parseTree(xml);
  if (!root) return { envelope: {}, problems, parts: 0 };
  const expected = ROOT[direction];
  if (root.name !== expected) {
    const caseOnly = root.name.toLowerCase() === expected ? ' (XML names are case-sensitive)' : '';
    problems.push(redactText(`the root element is <${root.name}>; the document's ${direction} block is <${expected}>${caseOnly}`));
    return { envelope: {}, problems, parts: 0 };
  }
  const block = BLOCK[direction];
  const since = repeats;
  const acc = newFields();
  let version: string | undefined;
  for (let a: Attr | undefined = root.firstAttr; a !== undefined; a = a.next) {
    if (a.name === VERSION_ATTR[direction]) version = a.value;
    else if (a.value !== '') add(acc, block.attrs.get(a.name) ?? `@${a.name}`, a.value);
  }
  if (version === undefined) problems.push(`<${expected}> has no version attribute; the document's is "${XML_VERSION}" (Versioning 2)`);
  else {
    if (version !== XML_VERSION) problems.push(redactText(`<${expected}> version is "${version}"; the document's is "${XML_VERSION}" (Versioning 2)`));
    add(acc, 'version', toJsonVersion(version));
  }
  let parts = 0;
  for (let c: In | undefined = root.firstChild; c !== undefined; c = c.next) {
    if (c.name === PART[direction]) {
      onPart(c, ++parts, problems);
      continue;
    }
    const v = generic(c);
    if (v !== undefined) add(acc, block.elements.get(c.name) ?? c.name, v);
  }
  if (hasContent(root.text)) add(acc, '#text', root.text);
  if (parts === 0) problems.push(`<${expected}> has no <${PART[direction]}> element`);
  return { envelope: finish(acc, since), problems, parts };
}

const deepEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * A request block as a JSON request envelope. Several `request` elements are one request object: their types in
 * element order, the union of their fields (docs/xml.md). Never throws; `problems` lists structure problems.
 */
export function parseRequestBlock(xml: string): { envelope: RequestEnvelope; problems: string[] } {
  // The first request element's fields are the request object, as they are when it is the only one (nearly always);
  // a second one starts their union.
  let first: Fields | undefined;
  let union: Fields | undefined;
  const { envelope, problems, parts } = readBlock(xml, 'request', (el, index, probs) => {
    if (!attrOf(el, TYPE_ATTR.request)) probs.push(`request element ${index} has no ${TYPE_ATTR.request} attribute (the request type)`);
    const fields = readFields(el, SCHEME.request);
    if (first === undefined) {
      first = fields;
      return;
    }
    if (union === undefined) {
      union = newFields();
      setOwn(union, 'requesttypedescriptions', Array.of());
      merge(union, first, 1, probs);
    }
    merge(union, fields, index, probs);
  });
  if (parts > 0 && first !== undefined) envelope[PART.request] = Array.of(union !== undefined ? withTypes(union) : typesFirst(first));
  return { envelope, problems };
}

/** `fields` of request element `index` into the union of those before it. */
function merge(union: Fields, fields: Fields, index: number, probs: string[]): void {
  const types = union.requesttypedescriptions as unknown[];
  for (const k in fields) {
    const v = fields[k];
    if (k === 'requesttypedescriptions') {
      for (const t of v as unknown[]) types.push(t);
    } else if (!hasOwn(union, k)) {
      setOwn(union, k, v);
    } else if (!deepEqual(union[k], v)) {
      // Two request elements disagree: keep both values, so that the field check sees the conflict.
      probs.push(redactText(`request element ${index} gives ${k} a different value from an earlier request element`));
      const had = union[k];
      setOwn(union, k, [...(Array.isArray(had) ? (had as unknown[]) : [had]), ...(Array.isArray(v) ? v : [v])]);
    }
  }
}

/** The union without its request types when no element named one (the key was kept first from the start). */
function withTypes(union: Fields): Fields {
  if ((union.requesttypedescriptions as unknown[]).length === 0) delete union.requesttypedescriptions;
  return union;
}

/** A request object's types come first, as a request object is written; most already do (`type` is read first). */
function typesFirst(fields: Fields): Fields {
  if (!hasOwn(fields, 'requesttypedescriptions')) return fields;
  for (const k in fields) {
    if (k === 'requesttypedescriptions') return fields;
    break;
  }
  const out = newFields();
  setOwn(out, 'requesttypedescriptions', fields.requesttypedescriptions);
  for (const k in fields) if (k !== 'requesttypedescriptions') setOwn(out, k, fields[k]);
  return out;
}

/** A response block as a JSON response envelope: one part per `response` element, in order. Never throws. */
export function parseResponseBlock(xml: string): { envelope: ResponseEnvelope; problems: string[] } {
  const response: Record<string, unknown>[] = [];
  const { envelope, problems, parts } = readBlock(xml, 'response', (el, index, probs) => {
    if (!attrOf(el, TYPE_ATTR.response)) {
      probs.push(`response element ${index} has no ${TYPE_ATTR.response} attribute (requesttypedescription)`);
    }
    response.push(readFields(el, SCHEME.response));
  });
  if (parts > 0) envelope[PART.response] = response;
  return { envelope, problems };
}
