/**
 * The compiled field checks compare a value's UTF-16 units with the lengths, without counting its characters, where
 * the field's class admits ASCII only (`ASCII_CLASSES`): a value that passes such a class has one unit per
 * character, and one that fails is refused whatever its length. This holds only while every class of the list truly
 * admits nothing but ASCII, and it must leave every verdict as `checkValue` gives it: the card number, the security
 * code and the expiry (checked in full on every request, never remembered) above all.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ASCII_CLASSES, checkValue, fieldChecks } from '../../schemas/check';
import type { Direction, FieldDef } from '../../schemas/fields';
import { classRegExp, TYPE_CLASSES } from '../../schemas/typeclasses';

/** Characters outside ASCII that look like what the classes admit: other digits, spaces, a slash, letters. */
const STRANGERS = ['٣', '０', '߀', '𝟙', '\u00a0', '\u2007', '\u3000', '／', 'é', 'Ａ', '😀', '\ud800', '\udc00', '\u0085', '\u2028'];

/** Regular-expression pieces that can match a character outside ASCII. */
const WIDE = ['[^', '\\s', '\\S', '\\W', '\\D', '.', '\\u', '\\x', '\\p', '\\P', '\\c'];

describe('the classes whose values are ASCII only', () => {
  it('spell their pattern in ASCII, with nothing that matches a wider character', () => {
    for (const type of ASCII_CLASSES) {
      const { pattern } = TYPE_CLASSES[type];
      assert.match(pattern, /^[\x20-\x7e]*$/, `${type}: ${pattern}`);
      for (const piece of WIDE) assert.equal(pattern.includes(piece), false, `${type}: ${pattern} holds ${piece}`);
    }
  });

  it('refuse every value with a character outside ASCII in it', () => {
    for (const type of ASCII_CLASSES) {
      const re = classRegExp(type);
      const ascii = fc.string({ unit: fc.constantFrom(...(TYPE_CLASSES[type].alphabet || '0123456789/-: ').split('')), maxLength: 24 });
      fc.assert(
        fc.property(ascii, fc.constantFrom(...STRANGERS), fc.nat(), (text, stranger, at) => {
          const i = text.length === 0 ? 0 : at % (text.length + 1);
          const value = text.slice(0, i) + stranger + text.slice(i);
          assert.equal(re.test(value), false, `${type}: ${JSON.stringify(value)}`);
        }),
        { numRuns: 500, seed: 20261128 },
      );
    }
  });
});

/** Values of a field near its lengths: the class's characters, now and then a stranger, ASCII letters and spaces. */
function valuesNear(def: FieldDef, min: number, max: number): fc.Arbitrary<unknown> {
  const own = (TYPE_CLASSES[def.type].alphabet || '0123456789/-: ').split('');
  const unit = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: fc.constantFrom(...STRANGERS, ' ', 'a', '/', '-', '\u0000') });
  const top = Number.isFinite(max) ? max + 3 : min + 40;
  const near = fc.array(unit, { minLength: Math.max(0, min - 3), maxLength: top }).map((units) => units.join(''));
  const digits = fc.stringMatching(new RegExp(`^[0-9]{${Math.max(0, min - 2)},${top}}$`));
  const monthYear = fc.tuple(fc.integer({ min: -1, max: 13 }), fc.integer({ min: 0, max: 99999 })).map(([m, y]) => `${String(m).padStart(2, '0')}/${y}`);
  const odd = fc.constantFrom<unknown>('', ' ', undefined, null, 4111111111111111, ['123'], '4111 1111 1111 1111', '411111111111111１', '𝟙𝟚𝟛', '12/2031 ', '１2/2031');
  return fc.oneof(near, digits, monthYear, odd);
}

describe('the compiled checks of the fields of those classes', () => {
  for (const direction of ['request', 'response'] as Direction[]) {
    it(`give checkValue's verdict for every value (${direction})`, () => {
      for (const [name, { def, accepts }] of fieldChecks(direction)) {
        const side = def[direction]!;
        if (!ASCII_CLASSES.has(def.lenient ? 'alphanumeric-symbols' : def.type)) continue;
        const secret = def.sensitive !== undefined || name === 'expirydate';
        const context = fc.record({ billingcountryiso2a: fc.constantFrom('GB', 'US', 'FR', '') });
        fc.assert(
          fc.property(valuesNear(def, side.minLength ?? 0, side.maxLength ?? Infinity), context, (value, ctx) => {
            const expected = checkValue(def, direction, value, ctx) === null;
            assert.equal(accepts(value, ctx), expected, `${name}: ${JSON.stringify(value)}`);
            assert.equal(accepts(value, ctx), expected, `${name}: ${JSON.stringify(value)}, twice`);
          }),
          { numRuns: secret ? 3000 : 300, seed: 20261128 },
        );
      }
    });
  }

  it('the card number, security code and expiry at and past their lengths', () => {
    const checks = fieldChecks('request');
    const verdicts = (name: string, values: string[]) => values.map((v) => checks.get(name)!.accepts(v, {}));
    const pan = ['4'.repeat(11), '4'.repeat(12), '4'.repeat(19), '4'.repeat(20), '4'.repeat(17) + '𝟙', '4'.repeat(11) + '٣', ''];
    assert.deepEqual(verdicts('pan', pan), [false, true, true, false, false, false, false]);
    assert.deepEqual(verdicts('securitycode', ['12', '123', '1234', '12345', '12٣', '𝟙𝟚', '1 3']), [false, true, true, false, false, false, false]);
    assert.deepEqual(verdicts('expirydate', ['12/2031', '13/2031', '00/2031', '1/2031', '12/20311', '１2/2031']), [true, false, false, false, false, false]);
    for (const [name, values] of [
      ['pan', pan],
      ['securitycode', ['12', '123', '12٣']],
    ] as const) {
      for (const v of values) assert.equal(checks.get(name)!.accepts(v, {}), checkValue(checks.get(name)!.def, 'request', v) === null, `${name}: ${v}`);
    }
  });
});
