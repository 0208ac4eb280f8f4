/**
 * Values for the mutation tests, made from the dictionary's type classes and lengths: a valid value for any
 * field, and one value breaking each of its constraints. Nothing here lists a field by name, so a field added to
 * the dictionary gets its mutations without a test being edited.
 */
import type { FieldDef, FieldSide } from '../../schemas/fields';
import { TYPE_CLASSES } from '../../schemas/typeclasses';

/** A character of the field's class to build or pad values with (`1` for digits, so amounts stay above zero). */
function fillChar(def: FieldDef): string {
  const alphabet = TYPE_CLASSES[def.type].alphabet;
  if (alphabet.includes('1')) return '1';
  return alphabet ? alphabet[0] : '0';
}

/** A valid value for format classes, which have no alphabet to draw from. */
const FORMAT_EXAMPLES: Partial<Record<FieldDef['type'], string>> = {
  'date-month': '12/2031',
  date: '2026-01-05',
  timestamp: '2026-01-05 09:00:00',
  url: 'https://merchant.example.test/',
  email: 'test@example.test',
};

/** Values that break the format of a format class. */
const FORMAT_BREAKERS: Partial<Record<FieldDef['type'], string>> = {
  'date-month': '13/2031',
  date: '2026-13-05',
  timestamp: '2026-01-05 25:00:00',
  url: 'ftp://merchant.example.test/',
  email: 'no-at-sign.example.test',
};

const length = (s: string): number => [...s].length;

export function validValue(def: FieldDef, side: FieldSide): string {
  if (side.values) return side.values[0];
  const example = FORMAT_EXAMPLES[def.type];
  if (example !== undefined) return example;
  return fillChar(def).repeat(Math.max(side.minLength ?? 1, 1));
}

/** `value` padded with a character of the class to exactly `to` characters. */
export function lengthened(def: FieldDef, value: string, to: number): string {
  return value + fillChar(def).repeat(Math.max(0, to - length(value)));
}

export function shortened(value: string, to: number): string {
  return [...value].slice(0, to).join('');
}

/** A value of a valid length and class that is not one of the listed values. */
export function outsideList(def: FieldDef, side: FieldSide): string | undefined {
  if (!side.values) return undefined;
  const len = Math.max(side.minLength ?? 1, 1);
  const alphabet = TYPE_CLASSES[def.type].alphabet || '0123456789';
  for (const c of [...alphabet].reverse()) {
    const candidate = c.repeat(len);
    if (!side.values.includes(candidate)) return candidate;
  }
  return undefined;
}

/** A value of valid length holding a character outside the field's class, or breaking its format. */
export function badCharacters(def: FieldDef, side: FieldSide): string | undefined {
  if (def.lenient) return '\u0007' + validValue(def, side).slice(1);
  const breaker = FORMAT_BREAKERS[def.type];
  if (breaker !== undefined) return breaker;
  const outsiders = TYPE_CLASSES[def.type].outsiders;
  if (!outsiders) return undefined;
  const valid = validValue(def, side);
  return outsiders[0] + [...valid].slice(1).join('');
}
