/**
 * The generated gallery: mutation operators derived from the field dictionary, the Request types table, the Errors
 * table and the state tables, each applied through the gateway's `mutate` hook. Nothing here is written per variant:
 * - per request-field constraint (every "refused" case of the boundary phase, grouped by field, kind and rule): a
 *   gateway that stops enforcing it, taking the value as if it were a valid one;
 * - per response field of each row (every field the row's answer carries): the field dropped, and the field in a
 *   wrong form (outside its class, list, length or format);
 * - per transition of the state tables: the transition skipped or landing in another state;
 * - per code of the Errors table: the code answered as each other code of the table;
 * - each answer mutant again in one context only (./contexts.ts: one format, separate or combined, with or without
 *   a parent).
 * A mutant the document cannot tell from the reference carries `equivalent`: why (it must then survive).
 */
import { FIELD, type FieldDef } from '../../../schemas/fields';
import { ECHOED_FIELDS, OPERATION, rowsFor } from '../../../schemas/operations';
import { classRegExp } from '../../../schemas/typeclasses';
import { boundaryCases, sampleValue, type BoundaryCase } from '../../boundary/cases';
import { responseCases, type ResponseCase } from '../../boundary/responses';
import { BUILTIN_PROFILE } from '../../client/profile';
import { buildRequest } from '../../client/requests';
import { requestTypesOf } from '../../wire/json';
import { mustEcho } from '../../validate';
import type { Area } from '../types';
import { contextMutants } from './contexts';
import { TRANSITIONS } from './transitions';
import type { GeneratedVariant } from './variant';

export type { GeneratedVariant, Operator } from './variant';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The valid value the suite sends for a field in the rows of these request types (the default request), else a sample. */
function validValue(field: string, types: readonly string[]): string {
  for (const row of rowsFor(types)) {
    const req = buildRequest(row, { profile: BUILTIN_PROFILE, site: BUILTIN_PROFILE.sites.main, today: '2026-01-05', orderreference: 'cardspec-gen' }, { card: BUILTIN_PROFILE.cards.authorised! });
    const v = req[field];
    if (typeof v === 'string') return v;
  }
  const fixed = rowsFor(types)[0]?.fixed?.[field];
  return fixed?.[0] ?? sampleValue(FIELD[field]);
}

/** The kind of constraint a refused case checks, from its label (ties a mutant to the cases that kill it). */
function kindOf(c: BoundaryCase): string {
  if (c.label.startsWith('one longer')) return 'max-length';
  if (c.label.startsWith('one shorter')) return 'min-length';
  if (c.label.startsWith('left out')) return `required-${c.row}`;
  const m = /^with (a |an )?([a-z ]+?) \(/.exec(c.label);
  if (m) return `class-${slug(m[2])}`;
  if (c.label.includes('characters before the @')) return 'email-local-part';
  if (c.label.startsWith('of 0')) return 'zero';
  if (c.label.includes('listed')) return 'values';
  return 'format';
}

/** Whether a value breaks the constraint of a kind (the mutant's trigger: general, not the kit's own values). */
function breaks(kind: string, def: FieldDef, value: string, types: readonly string[]): boolean {
  const side = def.request!;
  const len = [...value].length;
  if (kind === 'max-length') return side.maxLength !== undefined && len > side.maxLength;
  if (kind === 'min-length') return side.minLength !== undefined && len < side.minLength;
  if (kind === 'zero') return /^0+$/.test(value);
  if (kind === 'email-local-part') return value.includes('@') && value.indexOf('@') > 64;
  if (kind === 'values') {
    const allowed = rowsFor(types)[0]?.fixed?.[def.name] ?? side.values ?? [];
    return !allowed.includes(value);
  }
  if (kind.startsWith('class-')) {
    const own = classRegExp(def.type);
    return [...value].some((ch) => !own.test(ch) && KIND_TEST[kind]?.test(ch));
  }
  if (kind === 'format') return !classRegExp(def.type).test(value);
  return false;
}

const KIND_TEST: Readonly<Record<string, RegExp>> = {
  'class-letter': /^[A-Za-z]$/,
  'class-digit': /^[0-9]$/,
  'class-space': /^ $/,
  'class-underscore': /^_$/,
  'class-hyphen': /^-$/,
  // Control characters are what these two classes are about.
  // eslint-disable-next-line no-control-regex
  'class-symbol': /^[^A-Za-z0-9 _\-\u0000-\u001f]$/,
  // eslint-disable-next-line no-control-regex
  'class-control-character': /^[\u0000-\u001f\u007f]$/,
};

const areaOf = (rule: string): Area => (rule.startsWith('SUB-') || rule.startsWith('STORE-STATE') ? 'states' : rule.startsWith('ERR-') ? 'errors' : 'fields');

function requestConstraintMutants(): GeneratedVariant[] {
  const groups = new Map<string, BoundaryCase[]>();
  for (const c of boundaryCases()) {
    if (c.expect !== 'refuses') continue;
    const key = `${c.field}|${kindOf(c)}|${c.rule}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const out: GeneratedVariant[] = [];
  for (const [key, cases] of groups) {
    const [field, kind, rule] = key.split('|');
    const def = FIELD[field];
    const rows = [...new Set(cases.map((c) => c.row))];
    const rowTypes = rows.map((r) => OPERATION[r].requesttypes.join(','));
    const required = kind.startsWith('required-');
    out.push({
      kind: 'faulty',
      operator: 'request-constraint',
      name: `gen-takes-${slug(field)}-${slug(kind)}${required || ['FIELD-LENGTHS', 'FIELD-TYPES'].includes(rule.split(':')[0]) ? '' : `-${slug(rule.split(':')[0])}`}`,
      area: areaOf(rule),
      rule,
      what: required ? `takes a ${OPERATION[rows[0]].title} without ${field}` : `stops enforcing ${field}'s ${kind.replace(/-/g, ' ')} (${rows.join(', ')}): takes the value as a valid one`,
      build: () => ({
        mutate: {
          request: (r) => {
            if (!isObject(r)) return r;
            const types = requestTypesOf(r);
            if (!rowTypes.includes(types.join(','))) return r;
            const v = r[field];
            if (required) return v === undefined ? { ...r, [field]: validValue(field, types) } : r;
            if (typeof v !== 'string' || !breaks(kind, def, v, types)) return r;
            // Taken as if it were a valid value (a postcode's country stays as sent).
            return { ...r, [field]: validValue(field, types) };
          },
        },
      }),
    });
  }
  return out;
}

/** The rule that requires a field in a part (src/boundary/responses.ts, the same reading the phase checks), or why none does. */
function presenceOf(c: ResponseCase): { rule: string } | { equivalent: string } {
  if (c.presence) return { rule: c.presence };
  if (ECHOED_FIELDS.includes(c.field))
    return {
      equivalent: `"Echoed from the request" does not show a ${c.type} part giving ${c.field} back (the field dictionary's ECHOES: the document's examples leave it out): carried, it is the value sent; left out, no fault`,
    };
  return { equivalent: `no sentence of the document requires ${c.field} in a ${c.type} part (the Common response fields give no part that must hold it)` };
}

/** A value of the field's response side that breaks its documented form, or why none can. */
function wrongForm(def: FieldDef, value: string): { value: string; how: string } | { equivalent: string } {
  const side = def.response!;
  if (side.values) return { value: 'Z', how: 'an unlisted value' };
  if (def.type === 'date') return { value: value.replace(/-/g, '/'), how: 'written with slashes' };
  if (def.type === 'timestamp') return { value: value.replace(/^(\d{4})-(\d{2})-(\d{2})/, '$3/$2/$1'), how: 'written day first' };
  if (def.type === 'url') return { value: 'acs.example.test/acs', how: 'not a URL' };
  if (def.type === 'date-month') return { value: '13/2031', how: 'month 13' };
  if (def.type === 'email') return { value: value.replace('@', ''), how: 'without an @' };
  if (!def.lenient && def.type === 'numeric') return { value: `${value.slice(0, -1)}A`, how: 'a letter in a Numeric field' };
  if (!def.lenient && def.type === 'alpha') return { value: `${value.slice(0, -1)}9`, how: 'a digit in an Alpha field' };
  if (!def.lenient && (def.type === 'alphanumeric' || def.type === 'alphanumeric-hyphens' || def.type === 'alphanumeric-underscore'))
    return { value: `${value.slice(0, -1)}#`, how: `a "#" in an ${def.type} field` };
  if (side.maxLength !== undefined) return { value: 'A'.repeat(side.maxLength + 1), how: `one longer than ${side.maxLength}` };
  return { equivalent: `${def.name} is ${def.lenient ? 'checked only as printable text' : 'text of no defined length'} (${def.section}): no value of another form exists that the document refuses` };
}

function responseMutants(): GeneratedVariant[] {
  const out: GeneratedVariant[] = [];
  for (const c of responseCases()) {
    const row = OPERATION[c.row];
    const types = row.requesttypes.join(',');
    const def = FIELD[c.field];
    const on = (change: (p: Record<string, unknown>) => Record<string, unknown>) => () => ({
      mutate: {
        part: (p: Record<string, unknown>, ctx: { requesttypes: readonly string[] }) =>
          ctx.requesttypes.join(',') === types && p.requesttypedescription === c.type && p[c.field] !== undefined ? change(p) : p,
      },
    });
    const presence = presenceOf(c);
    // An echo whose XML location is cardspec's choice is required of the JSON answer only (`mustEcho`): left out of
    // the XML answer, it is no fault, so the mutant is judged in JSON.
    const jsonOnly = 'rule' in presence && presence.rule.startsWith('FIELD-ECHO:') && mustEcho(c.type, c.field, 'json') && !mustEcho(c.type, c.field, 'xml');
    out.push({
      kind: 'faulty',
      operator: 'response-dropped',
      name: `gen-drops-${slug(c.row)}-${slug(c.type)}-${slug(c.field)}`,
      area: 'fields',
      rule: 'rule' in presence ? presence.rule : c.rule,
      what: `leaves ${c.field} out of the ${c.type} part of "${row.title}"${jsonOnly ? ' (JSON only: the document places it nowhere in the XML block)' : ''}`,
      ...(jsonOnly ? { formats: ['json' as const] } : {}),
      ...('equivalent' in presence ? { equivalent: presence.equivalent } : {}),
      build: on((p) => {
        const q = { ...p };
        delete q[c.field];
        return q;
      }),
    });
    const sample = def.response?.values?.[0] ?? 'x';
    const wrong = wrongForm(def, sample);
    out.push({
      kind: 'faulty',
      operator: 'response-format',
      name: `gen-misforms-${slug(c.row)}-${slug(c.type)}-${slug(c.field)}`,
      area: 'fields',
      rule: c.rule,
      what: `answers ${c.field} in the ${c.type} part of "${row.title}" ${'how' in wrong ? wrong.how : 'otherwise'}`,
      ...('equivalent' in wrong ? { equivalent: wrong.equivalent } : {}),
      build: on((p) => {
        const w = wrongForm(def, String(p[c.field]));
        return 'value' in w ? { ...p, [c.field]: w.value } : { ...p, [c.field]: `${String(p[c.field])} ` };
      }),
    });
  }
  return out;
}

/** The codes of the Errors table (the catalogue's ERR-<code> rules). */
export const ERROR_CODES = ['0', '30000', '60031', '60022', '70000', '60025', '60107', '99999'] as const;

function errorMutants(): GeneratedVariant[] {
  const out: GeneratedVariant[] = [];
  for (const code of ERROR_CODES) {
    for (const other of ERROR_CODES) {
      if (other === code) continue;
      out.push({
        kind: 'faulty',
        operator: 'error-code',
        name: `gen-code-${code}-as-${other}`,
        area: 'errors',
        rule: `ERR-${code}`,
        what: `answers errorcode ${other} where the document's trigger gives ${code}`,
        build: () => ({ mutate: { part: (p) => (p.errorcode === code ? { ...p, errorcode: other } : p) } }),
      });
    }
  }
  return out;
}

let cached: GeneratedVariant[] | undefined;

/** Every generated variant, in a stable order. */
export function generatedGallery(): GeneratedVariant[] {
  cached ??= [...requestConstraintMutants(), ...responseMutants(), ...TRANSITIONS, ...errorMutants()];
  return cached;
}

let contextCached: GeneratedVariant[] | undefined;

/** The answer mutants of the generated gallery again, each in one context only (./contexts.ts), in a stable order. */
export function contextGallery(): GeneratedVariant[] {
  contextCached ??= contextMutants(generatedGallery());
  return contextCached;
}

let byName: Map<string, GeneratedVariant> | undefined;
export function generatedNamed(name: string): GeneratedVariant | undefined {
  byName ??= new Map([...generatedGallery(), ...contextGallery()].map((v) => [v.name, v]));
  return byName.get(name);
}
