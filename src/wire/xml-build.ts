/**
 * Building the XML form: a JSON request or response envelope (src/wire/types.ts) as a request or response block,
 * each field at its dictionary place (xml-scheme.ts). Serialising goes through xmlbuilder2 (escaping is its job,
 * never ours).
 */
import type { create } from 'xmlbuilder2';
import { FIELD, type Direction, type FieldDef } from '../../schemas/fields';
import type { RequestEnvelope, ResponseEnvelope } from './types';
import { BLOCK, PART, ROOT, SCHEME, TYPE_ATTR, UPDATES_SCHEME, isObject, locate, toXmlVersion, type Location, type Scheme } from './xml-scheme';

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

/**
 * xmlbuilder2 (and the DOM under it) is loaded by the first XML built: a JSON run loads this module through the
 * client without ever building XML, and loading it took a tenth of a second of such a run's start-up.
 */
let builder: typeof create | undefined;

function serialize(root: Out): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  builder ??= (require('xmlbuilder2') as typeof import('xmlbuilder2')).create;
  const doc = builder(BUILD_OPTIONS);
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
