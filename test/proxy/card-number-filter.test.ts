/**
 * The answer checks' quick filter before the card-number patterns (src/proxy/answers.ts `mayHoldCardNumber`): it
 * may only leave out texts in which `findCardNumbers` finds nothing, or the check "no full card number" would miss
 * one. Texts made of digits, separators and character references, where card numbers and near misses are common.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { mayHoldCardNumber } from '../../src/proxy/answers';
import { findCardNumbers } from '../../src/redact';

const pieces = fc.constantFrom(
  '4111',
  '1111',
  '4',
  '0',
  '9',
  '12',
  ' ',
  '-',
  ':',
  '/',
  'a',
  'x',
  '&#52;',
  '&#x34;',
  '&#',
  ';',
  '5555555555554444',
  '4111 1111 1111 1111',
  '3782-822463-10005',
  '2026-01-05 09:00:00',
);
const texts = fc.array(pieces, { maxLength: 24 }).map((a) => a.join(''));

describe('the quick filter before the card-number patterns', () => {
  it('passes every text in which a card number is found', () => {
    fc.assert(
      fc.property(texts, (t) => findCardNumbers(t).length === 0 || mayHoldCardNumber(t)),
      { numRuns: 20000, seed: 27 },
    );
  });

  it('leaves out a timestamp and short values, and passes card numbers in any form', () => {
    for (const t of ['2026-01-05 09:00:00', '411111######1111', '12-9-1003', '1050']) assert.equal(mayHoldCardNumber(t), false, t);
    for (const t of ['4111111111111111', '4111 1111 1111 1111', '3782-822463-10005', '&#52;111111111111111']) {
      assert.ok(findCardNumbers(t).length > 0, t);
      assert.equal(mayHoldCardNumber(t), true, t);
    }
  });
});
