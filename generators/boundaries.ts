/**
 * Boundary values of every field side, from the dictionary alone (schemas/fields.ts, schemas/typeclasses.ts):
 * the empty value, one under the shortest (where a minimum is given), the shortest, the longest and one past the
 * longest ("The number is the maximum length, unless a range is given"). Nothing here spells a length: each comes
 * from the side, and whether a value is acceptable is decided by schemas/check.ts, never assumed.
 *
 * Card numbers are the one exception to "any value of the class": a valid `pan` is only ever one of the cards
 * given (the profile's Luhn-valid test cards); the invalid lengths are built from a test card's own digits (a prefix
 * one under the minimum, digits appended one over the maximum), so no generated number is a real customer's.
 */
import fc from 'fast-check';
import { checkValue } from '../schemas/check';
import { type Direction, type FieldDef, type FieldSide } from '../schemas/fields';
import { TYPE_CLASSES } from '../schemas/typeclasses';
import { classString, fieldValue, formatValue, sideFor } from './values';

export type BoundaryKind = 'empty' | 'below-shortest' | 'shortest' | 'longest' | 'past-longest';

export const BOUNDARY_KINDS: readonly BoundaryKind[] = ['empty', 'below-shortest', 'shortest', 'longest', 'past-longest'];

export interface Boundary {
  readonly field: string;
  readonly kind: BoundaryKind;
  readonly value: string;
}

/** A card to build card-number boundaries from (the profile's test cards). */
export interface CardDigits {
  readonly pan: string;
}

const len = (s: string): number => [...s].length;

/** A character that keeps a value of the class valid when appended (a digit `1` keeps amounts above zero). */
function padChar(def: FieldDef): string {
  const alphabet = TYPE_CLASSES[def.lenient ? 'alphanumeric-symbols' : def.type].alphabet || TYPE_CLASSES.text.alphabet;
  if (alphabet.includes('1')) return '1';
  return alphabet.includes('a') ? 'a' : alphabet[0];
}

/** `value` cut or padded (with a class character) to exactly `n` characters. */
function toLength(def: FieldDef, value: string, n: number): string {
  const chars = [...value];
  if (chars.length >= n) return chars.slice(0, n).join('');
  return value + padChar(def).repeat(n - chars.length);
}

/**
 * The boundary values of one side, as arbitraries by kind. Kinds a side does not have are left out: no
 * `below-shortest` without a minimum over one, no `longest`/`past-longest` without a maximum ("variable").
 */
export function boundaryArbitraries(name: string, direction: Direction, cards: readonly CardDigits[] = []): Partial<Record<BoundaryKind, fc.Arbitrary<string>>> {
  const { def, side } = sideFor(name, direction);
  if (def.sensitive === 'pan') return panBoundaries(def, side, cards);
  const out: Partial<Record<BoundaryKind, fc.Arbitrary<string>>> = { empty: fc.constant('') };
  const min = side.minLength ?? 0;
  const max = side.maxLength;
  const fixedLength = min > 0 && max === min;
  const hasAlphabet = TYPE_CLASSES[def.type].alphabet !== '';

  if (side.values && side.values.length > 0) {
    const sorted = [...side.values].sort((a, b) => len(a) - len(b));
    out.shortest = fc.constant(sorted[0]);
    out.longest = fc.constant(sorted[sorted.length - 1]);
    const longest = sorted[sorted.length - 1];
    out['past-longest'] = fc.constant(max !== undefined ? toLength(def, longest, max + 1) : longest + padChar(def));
    if (min > 1) out['below-shortest'] = fc.constant([...sorted[0]].slice(0, min - 1).join(''));
    return out;
  }

  if (!hasAlphabet || def.examples) {
    // Formats (dates, URLs, email addresses) and example-only values: a valid value stretched or cut.
    const valid = def.examples ? fc.constantFrom(...def.examples) : formatValue(def.type, max).filter((v) => checkValue(def, direction, v) === null);
    out.shortest = valid;
    if (max !== undefined) {
      out.longest = fixedLength ? valid : valid.map((v) => toLength(def, v, max)).filter((v) => checkValue(def, direction, v) === null);
      out['past-longest'] = valid.map((v) => toLength(def, v, max + 1));
    }
    if (min > 1) out['below-shortest'] = valid.map((v) => [...v].slice(0, min - 1).join(''));
    return out;
  }

  const shortest = Math.max(min, 1);
  out.shortest = classString(def.lenient ? 'alphanumeric-symbols' : def.type, shortest, shortest).filter((v) => checkValue(def, direction, v) === null);
  if (max !== undefined) {
    out.longest = fieldValue(name, direction).map((v) => toLength(def, v, max));
    out['past-longest'] = fieldValue(name, direction).map((v) => toLength(def, v, max + 1));
  }
  if (min > 1) out['below-shortest'] = fieldValue(name, direction).map((v) => [...v].slice(0, min - 1).join(''));
  return out;
}

/** Card numbers: the shortest and longest of the given test cards, and invalid lengths made from their digits. */
function panBoundaries(def: FieldDef, side: FieldSide, cards: readonly CardDigits[]): Partial<Record<BoundaryKind, fc.Arbitrary<string>>> {
  const out: Partial<Record<BoundaryKind, fc.Arbitrary<string>>> = { empty: fc.constant('') };
  if (cards.length === 0) return out;
  const sorted = [...cards].map((c) => c.pan).sort((a, b) => a.length - b.length);
  out.shortest = fc.constant(sorted[0]);
  out.longest = fc.constant(sorted[sorted.length - 1]);
  const digits = TYPE_CLASSES[def.type].alphabet;
  if (side.maxLength !== undefined) {
    const over = side.maxLength + 1;
    out['past-longest'] = fc.tuple(fc.constantFrom(...sorted), fc.string({ unit: fc.constantFrom(...digits), minLength: over, maxLength: over })).map(([pan, fill]) => (pan + fill).slice(0, over));
  }
  if (side.minLength !== undefined && side.minLength > 1) {
    const under = side.minLength - 1;
    out['below-shortest'] = fc.constantFrom(...sorted).map((pan) => pan.slice(0, under));
  }
  return out;
}

/** One boundary value of a field side, of any kind it has. */
export function boundaryValue(name: string, direction: Direction, cards: readonly CardDigits[] = []): fc.Arbitrary<Boundary> {
  const arbs = boundaryArbitraries(name, direction, cards);
  const kinds = BOUNDARY_KINDS.filter((k) => arbs[k] !== undefined);
  return fc.oneof(...kinds.map((kind) => arbs[kind]!.map((value): Boundary => ({ field: name, kind, value }))));
}
