/**
 * The gateway's small parts on their own: the clock's calendar, the configuration check, the request check's row
 * selection and field check.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkFields, checkValue, fieldChecks } from '../../schemas/check';
import { addMonths, addUnits, formatTimestamp, parseTimestamp } from '../../src/calendar';
import { Clock } from '../../src/gateway/clock';
import { checkConfig, ConfigError, resolveConfig } from '../../src/gateway/config';
import { selectRow } from '../../src/gateway/request';
import { DEFAULT_CONFIG } from '../../src/testdata';

describe('clock', () => {
  it('parses only real times and formats them back', () => {
    assert.equal(formatTimestamp(parseTimestamp('2026-01-05 09:00:00')!), '2026-01-05 09:00:00');
    for (const bad of ['2026-02-29 00:00:00', '2026-13-01', '2026-01-05 24:00:00', '2026-1-5', 'soon']) assert.equal(parseTimestamp(bad), undefined, bad);
    assert.equal(formatTimestamp(parseTimestamp('2028-02-29')!), '2028-02-29 00:00:00');
  });

  it('adds days and months from a fixed start, clamping to the end of shorter months', () => {
    assert.equal(addUnits('2026-01-31', 1, 'MONTH'), '2026-02-28');
    assert.equal(addUnits('2026-01-31', 2, 'MONTH'), '2026-03-31');
    assert.equal(addUnits('2026-11-30', 3, 'MONTH'), '2027-02-28');
    assert.equal(addUnits('2026-12-31', 1, 'DAY'), '2027-01-01');
    assert.equal(formatTimestamp(addMonths(parseTimestamp('2026-01-31 10:30:00')!, 1)), '2026-02-28 10:30:00');
  });

  it('a frozen clock stands still and never goes back', () => {
    const c = new Clock();
    assert.equal(c.timestamp(), '2026-01-05 09:00:00');
    assert.equal(c.today(), '2026-01-05');
    c.setTo(parseTimestamp('2026-01-06 00:00:00')!);
    assert.equal(c.timestamp(), '2026-01-06 00:00:00');
    assert.throws(() => c.setTo(parseTimestamp('2026-01-01 00:00:00')!), RangeError);
    assert.throws(() => new Clock('yesterday'), RangeError);
  });
});

describe('configuration', () => {
  it('the built-in configuration is valid and numbers the sites 12, 13, 14', () => {
    const r = resolveConfig(DEFAULT_CONFIG);
    assert.deepEqual(
      [...r.sites.values()].map((s) => s.number),
      [12, 13, 14],
    );
  });

  it('a wrong configuration is refused with what to fix', () => {
    const site = { sitereference: 'test_a', cardstore: true, fraudcontrol: false, mcc: '5969' };
    const user = { username: 'u', password: 'p', alias: 'u', sites: ['test_a'] };
    const cases: [unknown, RegExp][] = [
      [null, /expected an object/],
      [{ users: [user], sites: [] }, /"sites" must be a non-empty list/],
      [{ users: [user], sites: [{ ...site, sitereference: 'bad site!' }] }, /sitereference/],
      [{ users: [user], sites: [site, site] }, /listed twice/],
      [{ users: [user], sites: [{ ...site, mcc: 6012 }] }, /mcc/],
      [{ users: [{ ...user, username: 'a:b' }], sites: [site] }, /must not contain ":"/],
      [{ users: [{ ...user, sites: ['test_b'] }], sites: [site] }, /site test_b is not in "sites"/],
      [{ users: [{ ...user, password: '' }], sites: [site] }, /"password" must be a non-empty string/],
    ];
    for (const [value, message] of cases)
      assert.throws(
        () => checkConfig(value),
        (e: unknown) => e instanceof ConfigError && message.test(e.message),
      );
  });
});

describe('row selection (the "Request types" table)', () => {
  it('picks the row by request types and the fields sent', () => {
    assert.equal(selectRow(['AUTH'], { md: 'x', pares: 'y' }, undefined)?.id, 'auth-3ds-enrolled');
    assert.equal(selectRow(['AUTH'], {}, undefined)?.id, 'auth');
    assert.equal(selectRow(['AUTH', 'SUBSCRIPTION'], { parenttransactionreference: '1-2-3' }, undefined)?.id, 'subscription-not-enrolled');
    assert.equal(selectRow(['AUTH', 'SUBSCRIPTION'], { pan: '4' }, undefined)?.id, 'subscription-no-3ds');
    assert.equal(selectRow(['RISKDEC'], { parenttransactionreference: '1-2-3' }, undefined)?.id, 'riskdec-after-payment');
    assert.equal(selectRow(['RISKDEC', 'AUTH'], {}, undefined)?.id, 'riskdec-then-auth');
    assert.equal(selectRow(['STORE', 'AUTH'], {}, undefined), undefined);
  });
});

describe('the field check the request check uses (schemas/check.ts)', () => {
  it('counts characters, not UTF-16 units, where the units alone cannot decide', () => {
    const astral = '\u{1F600}'; // one character, two UTF-16 units
    const order = fieldChecks('request').get('orderreference')!;
    // 200 characters in 400 units: within the 255 the document allows.
    assert.equal(order.accepts(astral.repeat(200), {}), true);
    assert.deepEqual(checkFields({ orderreference: astral.repeat(200) }, 'request'), []);
    // 256 characters: one too many, whatever the units.
    assert.equal(order.accepts(astral.repeat(256), {}), false);
    assert.equal(checkFields({ orderreference: astral.repeat(256) }, 'request')[0]?.problem.kind, 'too-long');
    // A card number of 12 to 19 digits: 11 is too short, 12 fine.
    const pan = fieldChecks('request').get('pan')!;
    assert.deepEqual([pan.accepts('4'.repeat(11), {}), pan.accepts('4'.repeat(12), {}), pan.accepts('4'.repeat(20), {})], [false, true, false]);
  });

  it('remembers a conditional value only once its class was checked ("Validated only when the country is ...")', () => {
    const postcode = fieldChecks('request').get('billingpostcode')!;
    const odd = 'TE45#6ST'; // `#` is not Alphanumeric
    assert.equal(postcode.accepts(odd, { billingcountryiso2a: 'FR' }), true);
    assert.equal(postcode.accepts(odd, { billingcountryiso2a: 'GB' }), false);
    assert.equal(postcode.accepts('TE45 6ST', { billingcountryiso2a: 'GB' }), true);
    assert.equal(postcode.accepts('TE45 6ST', { billingcountryiso2a: 'US' }), true);
    assert.equal(postcode.accepts(odd, { billingcountryiso2a: 'CA' }), false);
  });

  it('the compiled check accepts exactly what `checkValue` accepts, for every field and any text', () => {
    const printable = fc.string({ unit: fc.constantFrom(...'aZ09 _-+()/@.#\u0000\u001f\u007f\n~é😀'.split('')), maxLength: 40 });
    const anyText = fc.oneof(printable, fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }));
    for (const [name, { def, accepts }] of fieldChecks('request')) {
      fc.assert(
        fc.property(anyText, fc.constantFrom('GB', 'FR', ''), (value, country) => {
          const context = { billingcountryiso2a: country };
          const expected = checkValue(def, 'request', value, context) === null;
          assert.equal(accepts(value, context), expected, `${name}: ${JSON.stringify(value)}`);
          // Again: the check remembers the last value it accepted, which must not change its answer.
          assert.equal(accepts(value, context), expected, `${name}: ${JSON.stringify(value)}, twice`);
        }),
        { numRuns: 300, seed: 20260105 },
      );
    }
  });
});
