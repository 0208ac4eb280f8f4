/**
 * Card numbers the suite makes for itself, and the one reading of "a masked form in `maskedpan`, with the middle
 * digits replaced by `#`", shared by every step that checks a mask.
 */
import { FIELD } from '../../../schemas/fields';

/** The lengths the field table allows a card number: "Numeric, 12-19". */
export function panLengths(): number[] {
  const { minLength = 12, maxLength = 19 } = FIELD.pan.request ?? {};
  return Array.from({ length: maxLength - minLength + 1 }, (_, i) => minLength + i);
}

/** The Luhn check digit of a number's other digits. */
function luhnDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * A Luhn-valid Visa-range card number of `length` digits whose middle digits differ from its ends (so that a mask
 * that kept them, or moved them, shows): `4` then a counting run, then the check digit. No test card of the
 * profiles has this form.
 */
export function panOfLength(length: number): string {
  const body = `4${'2468013579'.repeat(2)}`.slice(0, length - 1);
  return body + luhnDigit(body);
}

/**
 * Whether `masked` is `pan` "with the middle digits replaced by `#`": the same length, a run of `#` in the middle,
 * the card's own digits on either side.
 */
export function masksPan(pan: string, masked: unknown): boolean {
  const m = typeof masked === 'string' ? /^([0-9]+)(#+)([0-9]+)$/.exec(masked) : null;
  return m !== null && (masked as string).length === pan.length && pan.startsWith(m[1]) && pan.endsWith(m[3]);
}
