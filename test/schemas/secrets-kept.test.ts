/**
 * The compiled field checks (`fieldChecks`, the gateway's hot path) remember the last value each field accepted, to
 * spare the pattern on the next call with the same value. A card number or a security code must not be remembered:
 * it would stay in the process's memory until the next request of that field replaced it, after the run's last
 * request for as long as the process lives (principle 4). Seen from outside: a remembered value is accepted again
 * without its pattern being tested.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldChecks } from '../../schemas/check';
import { FIELDS } from '../../schemas/fields';

/** How many times a regular expression was tested against `value` while `run` ran. */
function patternTests(value: string, run: () => void): number {
  const original = RegExp.prototype.test;
  let n = 0;
  RegExp.prototype.test = function (this: RegExp, s: string): boolean {
    if (s === value) n++;
    return original.call(this, s);
  };
  try {
    run();
  } finally {
    RegExp.prototype.test = original;
  }
  return n;
}

const SAMPLE: Record<string, string> = { pan: '4111111111111111', securitycode: '123' };

test('a card number or a security code is checked afresh each time: no check remembers one', () => {
  const sensitive = FIELDS.filter((f) => f.sensitive === 'pan' || f.sensitive === 'securitycode');
  assert.deepEqual(sensitive.map((f) => f.name).sort(), ['pan', 'securitycode']);
  for (const f of sensitive) {
    const check = fieldChecks('request').get(f.name)!;
    const value = SAMPLE[f.name];
    assert.equal(check.accepts(value, {}), true);
    assert.equal(
      patternTests(value, () => check.accepts(value, {})),
      1,
      `${f.name}: the value accepted before was accepted again without its pattern: it was kept`,
    );
  }
});

test('a field that is no secret is remembered (so that the test above can tell)', () => {
  const check = fieldChecks('request').get('sitereference')!;
  assert.equal(check.accepts('test_site12345', {}), true);
  assert.equal(
    patternTests('test_site12345', () => check.accepts('test_site12345', {})),
    0,
  );
});
