/**
 * generators/record.ts: a record drawn field by field and built once. It must draw required fields always and
 * optional ones sometimes, give the same objects for a seed, and shrink the way fast-check's record does: an
 * optional field left out first, then a value shrunk, each candidate with a context that shrinks on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fieldRecord, LEFT_OUT, type RecordField } from '../../generators/record';

const FIELDS: RecordField[] = [
  { name: 'a', arb: fc.integer({ min: 0, max: 1000 }), required: true },
  { name: 'b', arb: fc.integer({ min: 0, max: 1000 }), required: false },
  { name: 'c', arb: fc.constantFrom('x', 'y'), required: false },
];
const record = fieldRecord(FIELDS, (values) => {
  const out: Record<string, unknown> = {};
  values.forEach((v, i) => {
    if (v !== LEFT_OUT) out[FIELDS[i].name] = v;
  });
  return out;
});

describe('field records', () => {
  it('draw required fields always, optional ones about five times in six, the same for a seed', () => {
    const samples = fc.sample(record, { seed: 42, numRuns: 600 });
    assert.ok(samples.every((s) => typeof s.a === 'number'));
    const withB = samples.filter((s) => 'b' in s).length;
    assert.ok(withB > 440 && withB < 560, `b present in ${withB} of 600`);
    assert.ok(samples.some((s) => !('c' in s)) && samples.some((s) => s.c === 'y'));
    assert.deepEqual(fc.sample(record, { seed: 42, numRuns: 600 }), samples);
  });

  it('shrink a failure to its smallest: optional fields left out, values shrunk', () => {
    // Fails whenever a >= 10: the smallest counterexample is {a: 10}, with no optional field.
    const out = fc.check(
      fc.property(record, (r) => (r.a as number) < 10),
      { seed: 7, numRuns: 200 },
    );
    assert.equal(out.failed, true);
    assert.deepEqual(out.counterexample?.[0], { a: 10 });
    assert.ok(out.numShrinks > 0);
  });

  it('replay a failure from its path', () => {
    const first = fc.check(
      fc.property(record, (r) => !('b' in r) || (r.b as number) < 500),
      { seed: 3, numRuns: 200 },
    );
    assert.equal(first.failed, true);
    const again = fc.check(
      fc.property(record, (r) => !('b' in r) || (r.b as number) < 500),
      { seed: 3, path: first.counterexamplePath ?? '', numRuns: 1 },
    );
    assert.deepEqual(again.counterexample, first.counterexample);
    assert.deepEqual(first.counterexample?.[0], { a: 0, b: 500 });
  });

  it('cannot shrink an object it did not draw', () => {
    assert.equal(record.canShrinkWithoutContext({ a: 1 }), false);
    assert.equal([...record.shrink({ a: 1 }, undefined)].length, 0);
  });
});
