/**
 * src/fuzz/stream.ts draws a seed's cases without fast-check's runner; `--path n` replays them through fast-check.
 * So case n of the stream must be exactly fast-check's value at path "n" of the seed: for seeds of every kind
 * (negative, beyond 32 bits), for ranges starting anywhere (threads), early and late in a run (the bias grows).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { mutatedRequest } from '../../generators/mutations';
import { requestFor } from '../../generators/requests';
import { OPERATION } from '../../schemas/operations';
import { CaseStream } from '../../src/fuzz/stream';

const ARBITRARIES: Record<string, fc.Arbitrary<unknown>> = {
  'a record of strings, numbers and lists': fc.record({ a: fc.string(), b: fc.integer(), c: fc.array(fc.nat(), { maxLength: 5 }), d: fc.option(fc.boolean()) }),
  "a mutated AUTH request (the kit's own generators)": mutatedRequest(OPERATION.auth, requestFor('auth')),
};

describe('the case stream', () => {
  for (const [name, arb] of Object.entries(ARBITRARIES)) {
    it(`gives fast-check's value at each path: ${name}`, () => {
      for (const seed of [1, 20260105, -7, 2 ** 40 + 3]) {
        for (const start of [0, 1, 63, 1500]) {
          const theirs = fc.sample(arb, { seed, numRuns: 12, ...(start > 0 ? { path: String(start) } : {}) });
          // One at a time, and drawn ahead five at a time within a range of twelve: the same cases.
          for (const stream of [new CaseStream(arb, seed, start), new CaseStream(arb, seed, start, start + 12, 5)]) {
            assert.equal(stream.nextIndex, start);
            const mine = Array.from({ length: 12 }, (_, k) => {
              assert.equal(stream.nextIndex, start + k);
              return stream.next();
            });
            assert.deepEqual(mine, theirs, `seed ${seed}, from case ${start}`);
            assert.equal(stream.nextIndex, start + 12);
          }
          // Refilled while some are still left (detection draws between turns): the same cases, in order.
          const refilled = new CaseStream(arb, seed, start, start + 12, 5);
          const mine = Array.from({ length: 12 }, (_, k) => {
            if (k % 3 === 1) refilled.refill(4);
            assert.equal(refilled.nextIndex, start + k);
            return refilled.next();
          });
          assert.deepEqual(mine, theirs, `seed ${seed}, from case ${start}, refilled`);
          refilled.refill(4);
          assert.throws(() => refilled.next(), /no case past index/);
          assert.throws(() => {
            const bounded = new CaseStream(arb, seed, start, start + 1);
            bounded.next();
            bounded.next();
          }, /no case past index/);
        }
      }
    });
  }
});
