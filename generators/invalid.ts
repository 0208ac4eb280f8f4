/**
 * Invalid values of one field side, from the dictionary alone: wrong JSON types where a string is due ("All values
 * in JSON requests and responses are strings, including numbers"), characters outside the field's type class
 * (schemas/typeclasses.ts `outsiders`), and values outside a listed set. Every generated value is kept only if
 * schemas/check.ts refuses it, so "invalid" means what the one field check means, never what this file assumes.
 */
import fc from 'fast-check';
import { checkValue } from '../schemas/check';
import { type Direction, type FieldDef } from '../schemas/fields';
import { TYPE_CLASSES, type TypeClass } from '../schemas/typeclasses';
import { classString, fieldValue, sideFor } from './values';

export type WrongTypeKind = 'number' | 'boolean' | 'null' | 'array' | 'object' | 'string';

export interface WrongType {
  readonly kind: WrongTypeKind;
  readonly value: unknown;
}

/**
 * A value of the wrong JSON type for a field: for a string field a number, a boolean, `null`, a list or an object
 * (a number the way untyped SDKs send one: `"1050"` goes out as `1050`); for a list field (`requesttypedescriptions`)
 * a plain string, a number, `null`, an object, or a list holding a number.
 */
export function wrongJsonType(name: string, direction: Direction, base?: fc.Arbitrary<string>): fc.Arbitrary<WrongType> {
  const { def } = sideFor(name, direction);
  const valid = validBase(def, direction, base);
  const asNumber = valid.map((v) => (/^[0-9]{1,15}$/.test(v) ? Number(v) : v.length));
  const w = (kind: WrongTypeKind, arb: fc.Arbitrary<unknown>): fc.Arbitrary<WrongType> => arb.map((value) => ({ kind, value }));
  if (def.list) {
    return fc.oneof(
      w('string', valid),
      w('number', fc.integer({ min: 0, max: 99 })),
      w('null', fc.constant(null)),
      w(
        'object',
        valid.map((v) => ({ value: v })),
      ),
      w(
        'array',
        fc.integer({ min: 0, max: 99 }).map((n) => [n]),
      ),
    );
  }
  return fc.oneof(
    w('number', asNumber),
    w('boolean', fc.boolean()),
    w('null', fc.constant(null)),
    w(
      'array',
      valid.map((v) => [v]),
    ),
    w(
      'object',
      valid.map((v) => ({ value: v })),
    ),
  );
}

/**
 * Characters outside the class a field is checked against: the documented class's outsiders, or, where the
 * dictionary marks the field `lenient` (an Accept header is "Alphanumeric" but holds `/`), those of printable text.
 */
export function outsiderChars(def: FieldDef): string {
  const enforced: TypeClass = def.lenient ? 'alphanumeric-symbols' : def.type;
  return TYPE_CLASSES[enforced].outsiders;
}

/** Context under which a field's class check applies (`billingpostcode` is checked only for US, GB and CA). */
export function classContext(def: FieldDef): Record<string, string> {
  return def.validatedWhen ? { [def.validatedWhen.field]: def.validatedWhen.values[0] } : {};
}

/**
 * The valid value an invalid one is made from. A card number is never drawn at random (it could be a real
 * customer's): the caller passes the test cards' numbers.
 */
function validBase(def: FieldDef, direction: Direction, base: fc.Arbitrary<string> | undefined): fc.Arbitrary<string> {
  if (base) return base;
  if (def.sensitive === 'pan') throw new Error(`generators: invalid values of '${def.name}' are made from test cards only; pass them as the base`);
  return fieldValue(def.name, direction);
}

/** Printable ASCII and a few control characters: what a format value's character is replaced with. */
const REPLACEMENTS = TYPE_CLASSES.text.alphabet + '\u0000\n';

const insertAt = (value: string, at: number, chars: string): string => {
  const list = [...value];
  const i = list.length === 0 ? 0 : at % (list.length + 1);
  return [...list.slice(0, i), chars, ...list.slice(i)].join('');
};

const replaceAt = (value: string, at: number, char: string): string => {
  const list = [...value];
  if (list.length === 0) return char;
  list[at % list.length] = char;
  return list.join('');
};

/**
 * A value of the right length with one character outside the field's class: an outsider inserted into a valid
 * value (the value is cut back to the maximum so that only the class is wrong), or, for formats (dates, URLs,
 * email addresses), one character replaced. `undefined` where no character is outside (free text).
 */
export function outsiderValue(name: string, direction: Direction, base?: fc.Arbitrary<string>): fc.Arbitrary<string> | undefined {
  const { def, side } = sideFor(name, direction);
  const context = classContext(def);
  const invalid = (v: string): boolean => checkValue(def, direction, v, context) !== null;
  const outsiders = outsiderChars(def);
  const valid = validBase(def, direction, base);
  if (outsiders !== '') {
    const max = side.maxLength;
    return fc
      .tuple(valid, fc.nat(), fc.constantFrom(...outsiders))
      .map(([v, at, c]) => {
        const inserted = insertAt(v, at, c);
        // Keep the length within the side so that the character is the only thing wrong.
        return max !== undefined && [...inserted].length > max ? replaceAt(v, at, c) : inserted;
      })
      .filter(invalid);
  }
  if (TYPE_CLASSES[def.type].alphabet === '' && TYPE_CLASSES[def.type].pattern !== '') {
    return fc
      .tuple(valid, fc.nat(), fc.constantFrom(...REPLACEMENTS))
      .map(([v, at, c]) => replaceAt(v, at, c))
      .filter(invalid);
  }
  return undefined;
}

/** A value of the field's class and length that is not one of its listed values; `undefined` without a list. */
export function outsideListValue(name: string, direction: Direction): fc.Arbitrary<string> | undefined {
  const { def, side } = sideFor(name, direction);
  const values = side.values;
  if (!values || values.length === 0) return undefined;
  const min = Math.max(side.minLength ?? 1, 1);
  const max = Math.max(side.maxLength ?? min, min);
  const type: TypeClass = TYPE_CLASSES[def.type].alphabet === '' ? 'alphanumeric' : def.type;
  return classString(type, min, max).filter((v) => !values.includes(v) && checkValue(def, direction, v) !== null);
}
