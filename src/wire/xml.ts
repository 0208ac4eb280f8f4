/**
 * The XML form of the interface (Endpoints > Transport: "The same operations are also offered as an XML request
 * block (root `requestblock` with a `version` attribute) ... The response root is `responseblock`") mapped to and
 * from the JSON form of src/wire/types.ts, so that every check in the kit is written once, against JSON.
 *
 * Where each field sits comes from the dictionary only (`FieldDef.request.xml` / `FieldDef.response.xml`,
 * schemas/fields.ts); this file knows the path grammar, not the fields. The mapping is lossless for the JSON that
 * real clients send (string values, one request object); docs/xml.md lists what XML cannot carry (value types,
 * empty strings, null, keys that are not XML names).
 *
 * Building goes through xmlbuilder2 (escaping is its job, never ours); parsing goes through fast-xml-parser with
 * every value kept as the exact string sent (md and pares "must be submitted in full, unmodified"), no entity
 * processing by the parser and no DTD at all (entity-expansion guard). Neither parse function ever throws.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { create } from 'xmlbuilder2';
import { FIELD, FIELDS, type Direction, type FieldDef } from '../../schemas/fields';
import { redactText } from '../redact';
import { decodeXmlLenient } from './encoding';
import { jsonVersionInXml, xmlVersionInJson } from './reading';
import { XML_VERSION, type RequestEnvelope, type ResponseEnvelope } from './types';

// ---- the path grammar of the dictionary ------------------------------------------------------------------------

/** A dictionary XML path: the elements below the request/response element, and the attribute, if any. */
interface Location {
  readonly elements: readonly string[];
  /** Set for `a/@x`; unset for `a/b` and `a/b/.` (the text of `b`). */
  readonly attr?: string;
}

function locate(path: string): Location {
  const segs = path.split('/');
  const last = segs[segs.length - 1];
  if (last.startsWith('@')) return { elements: segs.slice(0, -1), attr: last.slice(1) };
  if (last === '.') return { elements: segs.slice(0, -1) };
  return { elements: segs };
}

/** Everything one direction needs to place and find fields below one element (request, response, updates, record). */
interface Scheme {
  /** Field name -> where it goes. Aliases (`billingprefix`) included, so that building places them. */
  readonly place: ReadonlyMap<string, Location>;
  /** Element path (`billing/amount`) -> the field held in its text; canonical names win over aliases. */
  readonly textAt: ReadonlyMap<string, string>;
  /** `elementpath@attr` (`billing/amount@currencycode`, `@type`) -> field. */
  readonly attrAt: ReadonlyMap<string, string>;
  /** Every element path the dictionary uses, prefixes included: the parser descends only into these. */
  readonly elementPaths: ReadonlySet<string>;
  /** Top-level element name -> the follow-up structure (`filter`, `updates`, `record`). */
  readonly structures: ReadonlyMap<string, FieldDef>;
  /** The same, by field name -> element name. */
  readonly structureAt: ReadonlyMap<string, string>;
}

const attrKey = (elements: readonly string[], attr: string): string => `${elements.join('/')}@${attr}`;

function makeScheme(entries: readonly (readonly [FieldDef, string])[]): Scheme {
  const place = new Map<string, Location>();
  const textAt = new Map<string, string>();
  const attrAt = new Map<string, string>();
  const elementPaths = new Set<string>();
  const structures = new Map<string, FieldDef>();
  const structureAt = new Map<string, string>();
  // Canonical fields first, so that a shared path (`billing/name/prefix`) parses to the canonical name.
  const ordered = [...entries.filter(([d]) => !d.aliasOf), ...entries.filter(([d]) => d.aliasOf)];
  for (const [def, xml] of ordered) {
    if (xml.startsWith('../')) continue; // on the block, not below the request/response element
    if (def.structure) {
      structures.set(xml, def);
      structureAt.set(def.name, xml);
      continue;
    }
    const loc = locate(xml);
    place.set(def.name, loc);
    for (let i = 1; i <= loc.elements.length; i++) elementPaths.add(loc.elements.slice(0, i).join('/'));
    if (loc.attr !== undefined) {
      const k = attrKey(loc.elements, loc.attr);
      if (!attrAt.has(k)) attrAt.set(k, def.name);
    } else {
      const k = loc.elements.join('/');
      if (!textAt.has(k)) textAt.set(k, def.name);
    }
  }
  return { place, textAt, attrAt, elementPaths, structures, structureAt };
}

const sideEntries = (direction: Direction): (readonly [FieldDef, string])[] =>
  FIELDS.flatMap((d) => {
    const side = d[direction];
    return side ? [[d, side.xml] as const] : [];
  });

const SCHEME: Readonly<Record<Direction, Scheme>> = {
  request: makeScheme(sideEntries('request')),
  response: makeScheme(sideEntries('response')),
};

/**
 * `updates` holds "the fields to change" (public-facts.md), each at its own dictionary path below `updates`: the
 * request path where the field has one, else its response path (`settleduedate`).
 */
const UPDATES_SCHEME = makeScheme(
  FIELDS.flatMap((d) => {
    const side = d.request ?? d.response;
    return side && !d.structure ? [[d, side.xml] as const] : [];
  }),
);

/** Envelope fields that sit on the block (`../alias`, `../@version`, `../requestreference`, `../secrand`). */
function blockFields(direction: Direction): { elements: Map<string, string>; attrs: Map<string, string> } {
  const elements = new Map<string, string>();
  const attrs = new Map<string, string>();
  for (const [def, xml] of sideEntries(direction)) {
    if (!xml.startsWith('../')) continue;
    const rest = xml.slice(3);
    if (rest.startsWith('@')) attrs.set(rest.slice(1), def.name);
    else elements.set(rest, def.name);
  }
  return { elements, attrs };
}

const BLOCK = { request: blockFields('request'), response: blockFields('response') } as const;
/** The block attribute that holds the `version` field (`../@version`). */
const versionAttr = (direction: Direction): string => [...BLOCK[direction].attrs].find(([, f]) => f === 'version')?.[0] ?? 'version';

const ROOT = { request: 'requestblock', response: 'responseblock' } as const;
const PART = { request: 'request', response: 'response' } as const;
/** The attribute that names the request type on a `request` / `response` element (both fields sit at `@type`). */
const TYPE_ATTR = {
  request: locate(FIELD.requesttypedescriptions.request?.xml ?? '@type').attr ?? 'type',
  response: locate(FIELD.requesttypedescription.response?.xml ?? '@type').attr ?? 'type',
} as const;

/**
 * Versioning 1 and 2: the JSON envelope says `1.00` where the XML block says `3.67`; they are the same fact in two
 * forms. Any other block version maps to a JSON-form value that is not `1.00` (a block saying `1.00` is not a
 * 3.67 block), so that one check of the JSON form refuses it: src/wire/reading.ts holds the mapping.
 */
const toXmlVersion = jsonVersionInXml;
const toJsonVersion = xmlVersionInJson;

// ---- building --------------------------------------------------------------------------------------------------

/** The tree built before xmlbuilder2 serializes it. */
class Out {
  readonly attrs = new Map<string, string>();
  readonly children: Out[] = [];
  text = '';
  constructor(readonly name: string) {}

  append(name: string): Out {
    const el = new Out(name);
    this.children.push(el);
    return el;
  }

  /** The last child of that name, or a new one: groups (`billing`, `operation`) are shared by their fields. */
  child(name: string): Out {
    for (let i = this.children.length - 1; i >= 0; i--) if (this.children[i].name === name) return this.children[i];
    return this.append(name);
  }

  /** The element for one more value at `name`: an element holding only attributes so far is reused. */
  leaf(name: string): Out {
    for (let i = this.children.length - 1; i >= 0; i--) {
      const c = this.children[i];
      if (c.name === name) return c.text === '' && c.children.length === 0 ? c : this.append(name);
    }
    return this.append(name);
  }

  path(elements: readonly string[]): Out {
    return elements.reduce<Out>((el, seg) => el.child(seg), this);
  }
}

/** XML names as the kit writes them (no namespaces): keys that are not such names have no XML form. */
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** A JSON key that spells a dictionary-style path (`customer/ip`, `@foo`, `billing/amount/@x`): the parser's form for unknown nested data. */
function pathKey(key: string): Location | undefined {
  if (!key.includes('/') && !key.startsWith('@')) return undefined;
  const loc = locate(key);
  const ok = loc.elements.every((s) => NAME.test(s)) && (loc.attr === undefined || NAME.test(loc.attr));
  return ok && (loc.elements.length > 0 || loc.attr !== undefined) ? loc : undefined;
}

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Free-form data (an unknown field's object or list value): `@x` keys are attributes, `#text` the text. */
function fillGeneric(el: Out, value: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(value)) {
    if (k === '#text') {
      const s = scalar(v);
      if (s !== undefined) el.text += s;
    } else if (k.startsWith('@')) {
      const s = scalar(Array.isArray(v) ? v[0] : v);
      if (s !== undefined && NAME.test(k.slice(1))) el.attrs.set(k.slice(1), s);
    } else if (NAME.test(k)) {
      appendGeneric(el, k, v);
    }
  }
}

function appendGeneric(parent: Out, name: string, value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) appendGeneric(parent, name, item);
    return;
  }
  if (isObject(value)) {
    fillGeneric(parent.append(name), value);
    return;
  }
  const s = scalar(value);
  if (s !== undefined) parent.append(name).text = s;
}

/** One value at a location; lists repeat the element, null and undefined mean "not set" and place nothing. */
function placeValue(el: Out, loc: Location, value: unknown): void {
  if (loc.attr !== undefined) {
    // An attribute cannot repeat: of a list, the first item is all XML can carry.
    const s = scalar(Array.isArray(value) ? value[0] : value);
    if (s !== undefined) el.path(loc.elements).attrs.set(loc.attr, s);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) placeValue(el, loc, item);
    return;
  }
  if (value === null || value === undefined) return;
  const parent = el.path(loc.elements.slice(0, -1));
  const name = loc.elements[loc.elements.length - 1];
  if (name === undefined) {
    // A text path with no element (`.` alone) is the element's own text.
    const s = scalar(value);
    if (s !== undefined) el.text += s;
    return;
  }
  const target = parent.leaf(name);
  if (isObject(value)) fillGeneric(target, value);
  else target.text = scalar(value) ?? '';
}

/** The fields of one object (a request, a response part, a record, `updates`) below `el`. */
function fill(el: Out, obj: Record<string, unknown>, scheme: Scheme, skip?: string): void {
  for (const [key, value] of Object.entries(obj)) {
    if (key === skip) continue;
    const structure = scheme.structureAt.get(key);
    if (structure !== undefined) {
      placeStructure(el, structure, FIELD[key], value);
      continue;
    }
    const loc = scheme.place.get(key) ?? pathKey(key);
    if (loc) placeValue(el, loc, value);
    else if (NAME.test(key)) appendGeneric(el, key, value);
    // Any other key has no XML form (docs/xml.md).
  }
}

function placeStructure(el: Out, name: string, def: FieldDef, value: unknown): void {
  if (def.structure === 'filter' && isObject(value)) {
    // Public shape: `{"transactionreference":[{"value":"1-2-345"}]}` <-> `filter/transactionreference`, repeating.
    const filter = el.append(name);
    for (const [k, list] of Object.entries(value)) {
      if (!NAME.test(k)) continue;
      for (const item of Array.isArray(list) ? list : [list]) {
        const s = scalar(isObject(item) ? item.value : item);
        if (s !== undefined) filter.append(k).text = s;
      }
    }
  } else if (def.structure === 'updates' && isObject(value)) {
    fill(el.append(name), value, UPDATES_SCHEME);
  } else if (def.structure === 'records' && (Array.isArray(value) || isObject(value))) {
    for (const rec of Array.isArray(value) ? value : [value]) {
      const r = el.append(name);
      if (isObject(rec)) fill(r, rec, SCHEME.response);
    }
  } else {
    appendGeneric(el, name, value);
  }
}

function typesOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map(scalar).filter((s): s is string => s !== undefined);
}

function fillBlock(root: Out, env: Record<string, unknown>, direction: Direction, parts: (value: unknown) => void): void {
  const block = BLOCK[direction];
  const blockAttr = (field: string) => [...block.attrs].find(([, f]) => f === field)?.[0];
  const blockEl = (field: string) => [...block.elements].find(([, f]) => f === field)?.[0];
  for (const [key, value] of Object.entries(env)) {
    if (key === PART[direction]) {
      parts(value);
      continue;
    }
    const attr = blockAttr(key);
    if (attr !== undefined) {
      const s = scalar(value);
      if (s !== undefined) root.attrs.set(attr, key === 'version' ? toXmlVersion(s) : s);
      continue;
    }
    const name = blockEl(key) ?? (NAME.test(key) ? key : undefined);
    if (name !== undefined) appendGeneric(root, name, value);
    else if (key.startsWith('@') && NAME.test(key.slice(1))) {
      const s = scalar(value);
      if (s !== undefined) root.attrs.set(key.slice(1), s);
    }
  }
}

/** Characters XML 1.0 cannot carry; xmlbuilder2 replaces them with U+FFFD. */
const BUILD_OPTIONS = { version: '1.0', encoding: 'utf-8', invalidCharReplacement: '\uFFFD' } as const;

/**
 * xmlbuilder2 escapes `<`, `>`, `"` and `&`, except an `&` that already starts a reference (`&name;`, `&#65;`):
 * a value `&A;` would go out unescaped and come back different. Its `&` is therefore written as `&amp;` first,
 * which the builder then leaves alone; every other character is the builder's job.
 */
const ampersands = (value: string): string => value.replace(/&/g, '&amp;');

function serialize(root: Out): string {
  const doc = create(BUILD_OPTIONS);
  const emit = (parent: ReturnType<typeof create>, el: Out): void => {
    const attrs = Object.fromEntries([...el.attrs].map(([k, v]) => [k, ampersands(v)]));
    const node = parent.ele(el.name, attrs);
    if (el.text !== '') node.txt(ampersands(el.text));
    for (const c of el.children) emit(node, c);
  };
  emit(doc, root);
  // xmlbuilder2 writes CR, LF and TAB literally; an XML parser normalizes literal CR (in text) and all three (in
  // attributes), so they go out as character references and every value arrives as it was sent. The compact
  // serialization has no whitespace of its own outside values, so this touches values only.
  return doc.end({ prettyPrint: false }).replace(/\r/g, '&#xD;').replace(/\n/g, '&#xA;').replace(/\t/g, '&#x9;');
}

/**
 * The request block of a JSON request envelope. Several request types in one call give one `request` element per
 * type, in order, each with its `type`; the fields go in the first (cardspec's choice, docs/xml.md).
 */
export function buildRequestBlock(env: RequestEnvelope): string {
  const root = new Out(ROOT.request);
  fillBlock(root, isObject(env) ? env : {}, 'request', (value) => {
    const objects = Array.isArray(value) ? value : [value];
    for (const obj of objects) {
      if (!isObject(obj)) continue;
      const types = typesOf(obj.requesttypedescriptions);
      const first = root.append(PART.request);
      if (types.length > 0) first.attrs.set(TYPE_ATTR.request, types[0]);
      fill(first, obj, SCHEME.request, 'requesttypedescriptions');
      for (const t of types.slice(1)) root.append(PART.request).attrs.set(TYPE_ATTR.request, t);
    }
  });
  return serialize(root);
}

/** The response block of a JSON response envelope: one `response` element per part, in order. */
export function buildResponseBlock(env: ResponseEnvelope): string {
  const root = new Out(ROOT.response);
  fillBlock(root, isObject(env) ? env : {}, 'response', (value) => {
    for (const part of Array.isArray(value) ? value : [value]) {
      const el = root.append(PART.response);
      if (isObject(part)) fill(el, part, SCHEME.response);
    }
  });
  return serialize(root);
}

// ---- parsing ---------------------------------------------------------------------------------------------------

/** One parsed element: attributes and text already decoded. */
interface In {
  readonly name: string;
  readonly attrs: readonly (readonly [string, string])[];
  readonly children: readonly In[];
  /** All text and CDATA directly inside, concatenated (whitespace between child elements included). */
  readonly text: string;
}

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
  const attrs: [string, string][] = [];
  const plain = new Set(Object.keys(raw).filter((k) => !k.includes(':')));
  for (const [k, v] of Object.entries(raw)) {
    if (isMarkup(k, scope)) continue;
    // A prefixed attribute reads by its local name (`sp:type` is `type`), unless the element also has that name
    // unprefixed: then the unprefixed one is the document's, and the other keeps its prefix.
    const name = k.includes(':') && !plain.has(localName(k)) ? localName(k) : k;
    attrs.push([name, decode(String(v).replace(/[\t\n]/g, ' '), unknownEntities)]);
  }
  const children: In[] = [];
  let text = '';
  const content = node[qname];
  for (const item of Array.isArray(content) ? (content as unknown[]) : []) {
    if (!isObject(item)) continue;
    if ('#text' in item) text += decode(String(item['#text']), unknownEntities);
    else if ('#cdata' in item) text += cdataText(item['#cdata']);
    else if ('#comment' in item) continue;
    else {
      const childName = Object.keys(item).find((k) => k !== ':@');
      if (childName !== undefined) children.push(toTree(item, childName, unknownEntities, scope));
    }
  }
  return { name: localName(qname), attrs, children, text };
}

function cdataText(v: unknown): string {
  if (!Array.isArray(v)) return '';
  return v.map((x) => (isObject(x) && '#text' in x ? String(x['#text']) : '')).join('');
}

/** A value held by the kit's own objects: `__proto__` and friends become plain own properties. */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

const hasContent = (s: string): boolean => s.trim() !== '';

/** An element outside the dictionary, as data: text alone, or an object of `@attrs`, children and `#text`. */
function generic(el: In, skipAttrs = false): unknown {
  if ((skipAttrs || el.attrs.length === 0) && el.children.length === 0) return el.text === '' ? undefined : el.text;
  const acc = new Map<string, unknown[]>();
  if (!skipAttrs) for (const [k, v] of el.attrs) if (v !== '') add(acc, `@${k}`, v);
  for (const c of el.children) {
    const v = generic(c);
    if (v !== undefined) add(acc, c.name, v);
  }
  if (hasContent(el.text)) add(acc, '#text', el.text);
  return acc.size === 0 ? undefined : finish(acc, () => false);
}

function add(acc: Map<string, unknown[]>, key: string, value: unknown): void {
  const list = acc.get(key);
  if (list) list.push(value);
  else acc.set(key, [value]);
}

/** One value stays a value; a value seen more than once becomes a list, so a repeated element is never lost. */
function finish(acc: Map<string, unknown[]>, isList: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, vs] of acc) setOwn(out, k, isList(k) || vs.length > 1 ? vs : vs[0]);
  return out;
}

function isListField(key: string): boolean {
  const def = FIELD[key];
  return def !== undefined && (def.list === true || def.structure === 'records');
}

/**
 * Reads the fields below `el` into `acc`. An empty element or attribute means the field is not set (public-facts:
 * real clients send `<county/>` for unset fields), so it is dropped.
 */
function readInto(el: In, scheme: Scheme, rel: readonly string[], acc: Map<string, unknown[]>): void {
  const here = rel.join('/');
  for (const [a, v] of el.attrs) {
    if (v === '') continue;
    add(acc, scheme.attrAt.get(attrKey(rel, a)) ?? (rel.length ? `${here}/@${a}` : `@${a}`), v);
  }
  const textField = rel.length ? scheme.textAt.get(here) : undefined;
  if (textField !== undefined) {
    const v = el.children.length ? generic(el, true) : el.text === '' ? undefined : el.text;
    if (v !== undefined) add(acc, textField, v);
    return;
  }
  if (hasContent(el.text)) add(acc, rel.length ? here : '#text', el.text);
  for (const c of el.children) {
    const structure = rel.length === 0 ? scheme.structures.get(c.name) : undefined;
    if (structure) {
      const v = readStructure(c, structure);
      if (v !== undefined) add(acc, structure.name, v);
      continue;
    }
    const path = [...rel, c.name];
    if (scheme.elementPaths.has(path.join('/'))) {
      readInto(c, scheme, path, acc);
      continue;
    }
    const v = generic(c);
    if (v !== undefined) add(acc, rel.length ? path.join('/') : c.name, v);
  }
}

function readFields(el: In, scheme: Scheme): Record<string, unknown> {
  const acc = new Map<string, unknown[]>();
  readInto(el, scheme, [], acc);
  return finish(acc, isListField);
}

function readStructure(el: In, def: FieldDef): unknown {
  if (def.structure === 'records') return readFields(el, SCHEME.response);
  if (el.children.length === 0) return generic(el);
  if (def.structure === 'updates') {
    const v = readFields(el, UPDATES_SCHEME);
    return Object.keys(v).length ? v : undefined;
  }
  const filter: Record<string, { value: unknown }[]> = {};
  for (const c of el.children) {
    const v = c.children.length ? generic(c) : c.text === '' ? undefined : c.text;
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
  const m = /^((?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*)*)(<!DOCTYPE\s+[A-Za-z_:][\w.:-]*(?:\s+(?:SYSTEM\s+(?:"[^"]*"|'[^']*')|PUBLIC\s+(?:"[^"]*"|'[^']*')\s+(?:"[^"]*"|'[^']*')))?\s*>)/.exec(doc);
  if (!m) return doc;
  return doc.slice(0, m[1].length) + m[2].replace(/[^\n]/g, ' ') + doc.slice(m[1].length + m[2].length);
}

/** The well-formedness check, the DTD guard and the tree: `problems` say where it went wrong. */
function parseTree(xml: unknown): { root?: In; problems: string[] } {
  if (typeof xml !== 'string') return { problems: ['the body is not text'] };
  // A leading byte-order mark and blank lines are accepted (public-facts: the Ruby gem's body begins with a blank
  // line); line numbers in problems still count from the body's first line.
  const body = xml.replace(/^\uFEFF/, '');
  const lead = /^\s*/.exec(body)?.[0] ?? '';
  const lineOffset = (lead.match(/\n/g) ?? []).length;
  // XML 2.11: a literal CR or CRLF is read as LF.
  const doc = withoutExternalDoctype(body.slice(lead.length).replace(/\r\n?/g, '\n'));
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
  const acc = new Map<string, unknown[]>();
  let version: string | undefined;
  for (const [a, v] of root.attrs) {
    if (a === versionAttr(direction)) version = v;
    else if (v !== '') add(acc, block.attrs.get(a) ?? `@${a}`, v);
  }
  if (version === undefined) problems.push(`<${expected}> has no version attribute; the document's is "${XML_VERSION}" (Versioning 2)`);
  else {
    if (version !== XML_VERSION) problems.push(redactText(`<${expected}> version is "${version}"; the document's is "${XML_VERSION}" (Versioning 2)`));
    add(acc, 'version', toJsonVersion(version));
  }
  let parts = 0;
  for (const c of root.children) {
    if (c.name === PART[direction]) {
      onPart(c, ++parts, problems);
      continue;
    }
    const v = generic(c);
    if (v !== undefined) add(acc, block.elements.get(c.name) ?? c.name, v);
  }
  if (hasContent(root.text)) add(acc, '#text', root.text);
  if (parts === 0) problems.push(`<${expected}> has no <${PART[direction]}> element`);
  return { envelope: finish(acc, () => false), problems, parts };
}

const deepEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * A request block as a JSON request envelope. Several `request` elements are one request object: their types in
 * element order, the union of their fields (docs/xml.md). Never throws; `problems` lists structure problems.
 */
export function parseRequestBlock(xml: string): { envelope: RequestEnvelope; problems: string[] } {
  const merged: Record<string, unknown> = {};
  const types: unknown[] = [];
  const { envelope, problems, parts } = readBlock(xml, 'request', (el, index, probs) => {
    const type = el.attrs.find(([a]) => a === TYPE_ATTR.request)?.[1];
    if (!type) probs.push(`request element ${index} has no ${TYPE_ATTR.request} attribute (the request type)`);
    const fields = readFields(el, SCHEME.request);
    for (const [k, v] of Object.entries(fields)) {
      if (k === 'requesttypedescriptions') {
        types.push(...(v as unknown[]));
      } else if (!Object.prototype.hasOwnProperty.call(merged, k)) {
        setOwn(merged, k, v);
      } else if (!deepEqual(merged[k], v)) {
        // Two request elements disagree: keep both values, so that the field check sees the conflict.
        probs.push(redactText(`request element ${index} gives ${k} a different value from an earlier request element`));
        setOwn(merged, k, [...(Array.isArray(merged[k]) ? (merged[k] as unknown[]) : [merged[k]]), ...(Array.isArray(v) ? v : [v])]);
      }
    }
  });
  if (parts > 0) {
    const request: Record<string, unknown> = types.length ? { requesttypedescriptions: types } : {};
    for (const [k, v] of Object.entries(merged)) setOwn(request, k, v);
    envelope[PART.request] = [request];
  }
  return { envelope, problems };
}

/** A response block as a JSON response envelope: one part per `response` element, in order. Never throws. */
export function parseResponseBlock(xml: string): { envelope: ResponseEnvelope; problems: string[] } {
  const response: Record<string, unknown>[] = [];
  const { envelope, problems, parts } = readBlock(xml, 'response', (el, index, probs) => {
    if (!el.attrs.some(([a, v]) => a === TYPE_ATTR.response && v !== '')) {
      probs.push(`response element ${index} has no ${TYPE_ATTR.response} attribute (requesttypedescription)`);
    }
    response.push(readFields(el, SCHEME.response));
  });
  if (parts > 0) envelope[PART.response] = response;
  return { envelope, problems };
}

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
