/**
 * Where each field of the XML form sits, read from the dictionary (`FieldDef.request.xml` / `FieldDef.response.xml`,
 * schemas/fields.ts) once at load: the path grammar, the per-direction schemes that building (xml-build.ts) and
 * reading (xml-read.ts) share, the block's own fields, and the version mapping. This file knows the grammar, not the
 * fields.
 */
import { FIELDS, FIELD, type Direction, type FieldDef } from '../../schemas/fields';
import { jsonVersionInXml, xmlVersionInJson } from './reading';

/** A dictionary XML path: the elements below the request/response element, and the attribute, if any. */
export interface Location {
  readonly elements: readonly string[];
  /** Set for `a/@x`; unset for `a/b` and `a/b/.` (the text of `b`). */
  readonly attr?: string;
}

export function locate(path: string): Location {
  const segs = path.split('/');
  const last = segs[segs.length - 1];
  if (last.startsWith('@')) return { elements: segs.slice(0, -1), attr: last.slice(1) };
  if (last === '.') return { elements: segs.slice(0, -1) };
  return { elements: segs };
}

/** Everything one direction needs to place and find fields below one element (request, response, updates, record). */
export interface Scheme {
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
  /** The same paths as `textAt`, `attrAt` and `elementPaths`, as a tree that reading walks element by element. */
  readonly tree: SchemeNode;
}

/** One element path of a scheme: what its text and attributes hold, and the element paths below it. */
export interface SchemeNode {
  /** `billing/amount`; '' for the request/response element itself. */
  readonly path: string;
  /** The field held in the element's text (`textAt`). */
  readonly text?: string;
  /** Attribute name -> field (`attrAt`). */
  readonly attrs: ReadonlyMap<string, string>;
  /** Child element name -> its node, for the paths of `elementPaths` only. */
  readonly children: ReadonlyMap<string, SchemeNode>;
}

function schemeTree(textAt: ReadonlyMap<string, string>, attrAt: ReadonlyMap<string, string>, elementPaths: ReadonlySet<string>): SchemeNode {
  const node = (path: string): SchemeNode => {
    const attrs = new Map<string, string>();
    for (const [k, field] of attrAt) if (k.slice(0, k.lastIndexOf('@')) === path) attrs.set(k.slice(k.lastIndexOf('@') + 1), field);
    const children = new Map<string, SchemeNode>();
    for (const p of elementPaths) {
      const name = path === '' ? p : p.startsWith(path + '/') ? p.slice(path.length + 1) : undefined;
      if (name !== undefined && !name.includes('/')) children.set(name, node(p));
    }
    return { path, text: path === '' ? undefined : textAt.get(path), attrs, children };
  };
  return node('');
}

export const attrKey = (elements: readonly string[], attr: string): string => `${elements.join('/')}@${attr}`;

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
  return { place, textAt, attrAt, elementPaths, structures, structureAt, tree: schemeTree(textAt, attrAt, elementPaths) };
}

const sideEntries = (direction: Direction): (readonly [FieldDef, string])[] =>
  FIELDS.flatMap((d) => {
    const side = d[direction];
    return side ? [[d, side.xml] as const] : [];
  });

export const SCHEME: Readonly<Record<Direction, Scheme>> = {
  request: makeScheme(sideEntries('request')),
  response: makeScheme(sideEntries('response')),
};

/**
 * `updates` holds "the fields to change" (public-facts.md), each at its own dictionary path below `updates`: the
 * request path where the field has one, else its response path (`settleduedate`).
 */
export const UPDATES_SCHEME = makeScheme(
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

export const BLOCK = { request: blockFields('request'), response: blockFields('response') } as const;
/** The block attribute that holds the `version` field (`../@version`). */
const versionAttr = (direction: Direction): string => [...BLOCK[direction].attrs].find(([, f]) => f === 'version')?.[0] ?? 'version';
export const VERSION_ATTR: Readonly<Record<Direction, string>> = { request: versionAttr('request'), response: versionAttr('response') };

export const ROOT = { request: 'requestblock', response: 'responseblock' } as const;
export const PART = { request: 'request', response: 'response' } as const;
/** The attribute that names the request type on a `request` / `response` element (both fields sit at `@type`). */
export const TYPE_ATTR = {
  request: locate(FIELD.requesttypedescriptions.request?.xml ?? '@type').attr ?? 'type',
  response: locate(FIELD.requesttypedescription.response?.xml ?? '@type').attr ?? 'type',
} as const;

/**
 * Versioning 1 and 2: the JSON envelope says `1.00` where the XML block says `3.67`; they are the same fact in two
 * forms. Any other block version maps to a JSON-form value that is not `1.00` (a block saying `1.00` is not a
 * 3.67 block), so that one check of the JSON form refuses it: src/wire/reading.ts holds the mapping.
 */
export const toXmlVersion = jsonVersionInXml;
export const toJsonVersion = xmlVersionInJson;

/** A JSON object (not a list, not null): what both directions hold fields in. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
