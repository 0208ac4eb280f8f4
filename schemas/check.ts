/**
 * A field's value against the dictionary, without ajv: the reference gateway's request check and the generators
 * use this, the JSON Schemas are generated from the same facts (schemas/build.ts). One function so that the
 * gateway's idea of "invalid field" and the schemas' can never drift apart.
 */
import { FIELD, type Direction, type FieldDef, type FieldSide } from './fields';
import { classRegExp, TYPE_CLASSES, type TypeClass } from './typeclasses';

/** "A masked form in `maskedpan`, with the middle digits replaced by `#`": digits and `#`, at least one `#`. */
export const MASKED_PATTERN = '^[0-9#]*#[0-9#]*$';
const MASKED = new RegExp(MASKED_PATTERN);

/** Is a `maskedpan` value the document's mask (the schemas hold the same pattern)? */
export const isMaskedForm = (v: string): boolean => MASKED.test(v);

/** Why a value is not acceptable, in the document's terms; `null` when it is. */
export type FieldProblem =
  { kind: 'not-a-string'; message: string } | { kind: 'too-short' | 'too-long'; message: string } | { kind: 'bad-characters'; message: string } | { kind: 'not-a-listed-value'; message: string };

/** The pattern enforced for a field: its type class, or printable text where the dictionary says `lenient`. */
export function enforcedPattern(def: FieldDef): RegExp {
  return def.lenient ? classRegExp('alphanumeric-symbols') : classRegExp(def.type);
}

export function sideOf(def: FieldDef, direction: Direction): FieldSide | undefined {
  return def[direction];
}

/** Lengths count characters, not UTF-16 units; the common case (no surrogate pair) costs no allocation. */
function codePointLength(value: string): number {
  let pairs = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return value.length - pairs;
}

/**
 * Checks one scalar value (an item, for list fields) of a known field. `context` is the object the value sits in,
 * for the one conditional rule (`validatedWhen`).
 */
export function checkValue(def: FieldDef, direction: Direction, value: unknown, context?: Record<string, unknown>): FieldProblem | null {
  const side = def[direction];
  if (!side) return null;
  if (typeof value !== 'string') {
    return { kind: 'not-a-string', message: `${def.name} must be a string ("All values in JSON requests and responses are strings")` };
  }
  const len = codePointLength(value);
  if (side.minLength !== undefined && len < side.minLength) {
    return { kind: 'too-short', message: `${def.name} is ${len} characters; the document's minimum is ${side.minLength}` };
  }
  if (side.maxLength !== undefined && len > side.maxLength) {
    return { kind: 'too-long', message: `${def.name} is ${len} characters; the document's maximum is ${side.maxLength}` };
  }
  if (side.values && !side.values.includes(value)) {
    return { kind: 'not-a-listed-value', message: `${def.name} must be one of ${side.values.join(', ')}` };
  }
  const when = def.validatedWhen;
  const classApplies = !when || (context !== undefined && when.values.includes(String(context[when.field] ?? '')));
  if (classApplies && !enforcedPattern(def).test(value)) {
    return { kind: 'bad-characters', message: `${def.name} must be ${TYPE_CLASSES[def.type].notation}` };
  }
  return null;
}

/**
 * The classes whose every value is ASCII (each character one UTF-16 unit). A value that passes such a class has as
 * many characters as units, and one that fails is refused whatever its length: the compiled check compares the
 * units with the lengths and skips the count of characters. test/schemas/ascii-classes.test.ts holds the list true.
 */
export const ASCII_CLASSES: ReadonlySet<TypeClass> = new Set<TypeClass>([
  'alpha',
  'numeric',
  'alphanumeric',
  'alphanumeric-underscore',
  'alphanumeric-hyphens',
  'numeric-symbols',
  'date-month',
  'date',
  'timestamp',
]);

/** A field's rule reduced to one yes/no test, built once per field and direction (the gateway runs it per request). */
export type Accepts = (value: unknown, context: Readonly<Record<string, unknown>>) => boolean;
export interface CompiledField {
  readonly def: FieldDef;
  /** `checkValue(def, direction, value, context) === null`, without building a problem. */
  readonly accepts: Accepts;
}

/** The same rule as `checkValue`, without building a problem: `checkValue` explains only the values this refuses. */
function compile(def: FieldDef, side: FieldSide): Accepts {
  const min = side.minLength ?? 0;
  const max = side.maxLength ?? Infinity;
  const values = side.values ? new Set<string>(side.values) : undefined;
  const pattern = enforcedPattern(def);
  const when = def.validatedWhen;
  // The last value that passed every check, its class included: a merchant sends the same site, currency, account
  // type, card and postcode on call after call, and a string compare costs less than the length and pattern checks.
  // Never a secret: a card number or a security code kept here would outlive its request (principle 4).
  const remember = def.sensitive === undefined;
  // Where the class is tested on every value (no `validatedWhen`) and admits ASCII only, units are characters for
  // every value that can pass: the card number and the security code, never remembered, are read once (by the
  // pattern) rather than twice.
  const unitsAreCharacters = !when && ASCII_CLASSES.has(def.lenient ? 'alphanumeric-symbols' : def.type);
  let lastAccepted: string | undefined;
  return (value, context) => {
    if (typeof value !== 'string') return false;
    if (value === lastAccepted) return true;
    const units = value.length;
    if (unitsAreCharacters) {
      if (units < min || units > max) return false;
    } else if (units > max || (units + 1) >> 1 < min) {
      // A value of L UTF-16 units holds between L/2 and L characters: when both bounds are within the field's
      // lengths the characters need no counting.
      const len = codePointLength(value);
      if (len < min || len > max) return false;
    }
    if (values && !values.has(value)) return false;
    // A value whose class check is conditional passes unchecked where the condition does not hold; where it holds,
    // a value that passed the class check before (`lastAccepted`, above) is accepted either way.
    if (when && !when.values.includes(String(context[when.field] ?? ''))) return true;
    if (!pattern.test(value)) return false;
    if (remember) lastAccepted = value;
    return true;
  };
}

/** The fields `checkFields` checks in one direction, by name, compiled on first use (the dictionary is fixed). */
const CHECKED: Partial<Record<Direction, Map<string, CompiledField>>> = {};
/**
 * The compiled check of every field `checkFields` checks in one direction (not the structured follow-up fields),
 * by name: for callers that walk an object once and check each value as they meet it (the gateway's request check).
 */
export function fieldChecks(direction: Direction): ReadonlyMap<string, CompiledField> {
  return checkedFields(direction);
}
function checkedFields(direction: Direction): Map<string, CompiledField> {
  let map = CHECKED[direction];
  if (!map) {
    map = new Map();
    for (const name of Object.keys(FIELD)) {
      const def = FIELD[name];
      const side = def[direction];
      if (side && !def.structure) map.set(name, { def, accepts: compile(def, side) });
    }
    CHECKED[direction] = map;
  }
  return map;
}

/**
 * Checks every known field of an object (a request object or a response part). Unknown fields pass: the document
 * says the full field list is not shown. Structured follow-up fields (`filter`, `updates`, `records`) are checked
 * by their owners, not here. Each value first meets its field's compiled test; only a refused one is explained.
 */
export function checkFields(obj: Record<string, unknown>, direction: Direction): { field: string; problem: FieldProblem }[] {
  const out: { field: string; problem: FieldProblem }[] = [];
  const checked = checkedFields(direction);
  for (const name of Object.keys(obj)) {
    // Unknown names (and structured fields) are not in the map: they pass, as the dictionary's reading says.
    const field = checked.get(name);
    if (!field) continue;
    const { def, accepts } = field;
    const value = obj[name];
    if (def.list) {
      if (!Array.isArray(value)) {
        out.push({ field: name, problem: { kind: 'not-a-string', message: `${name} must be a list of strings` } });
        continue;
      }
      for (const item of value) {
        if (accepts(item, obj)) continue;
        const p = checkValue(def, direction, item, obj);
        if (p) {
          out.push({ field: name, problem: p });
          break;
        }
      }
      continue;
    }
    if (accepts(value, obj)) continue;
    const p = checkValue(def, direction, value, obj);
    if (p) out.push({ field: name, problem: p });
  }
  return out;
}
