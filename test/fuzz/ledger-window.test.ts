/**
 * The built-in target a fuzz run starts keeps the fuzzer's ledger window (issue 19; docs/gateway.md "What the ledger
 * keeps"): a run of millions of cases holds at most twice that many transactions. And a window far narrower than the
 * run drops records under the fuzzer without any case or model failing: nothing the fuzzer still names is dropped.
 * Counted, not timed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_MAX_RECORDS } from '../../src/gateway';
import { BUILTIN_MAX_RECORDS, PROPERTIES, planFor, runFuzz, type FuzzResult } from '../../src/fuzz';
import { builtinConnection } from '../../src/client/connection';

const quiet = { out: { write: (): void => undefined }, tty: false };

const summary = (r: FuzzResult): string => `${r.text}\n${JSON.stringify(r.builtinLedgers)}`;

describe("the fuzzer's built-in target", () => {
  it('runs with the fuzzer’s ledger window, smaller than the gateway’s default, for every property it starts', async () => {
    const r = await runFuzz(planFor(builtinConnection(), { formats: ['json'], properties: ['requests', 'card-store'], runs: 20, modelRuns: 2, seed: 19 }), quiet);
    assert.equal(r.exitCode, 0, summary(r));
    assert.ok(BUILTIN_MAX_RECORDS < DEFAULT_MAX_RECORDS);
    assert.equal(r.builtinLedgers.length, 2, summary(r));
    for (const stats of r.builtinLedgers) assert.equal(stats.maxRecords, BUILTIN_MAX_RECORDS, summary(r));
  });

  it('with a window of 20 transactions, every property drops what it no longer names and still passes', async () => {
    const window = 20;
    const r = await runFuzz(planFor(builtinConnection(), { formats: ['json'], properties: PROPERTIES, runs: 400, modelRuns: 6, seed: 1919, builtinMaxRecords: window }), quiet);
    assert.equal(r.exitCode, 0, summary(r));
    assert.equal(r.builtinLedgers.length, PROPERTIES.length, summary(r));
    for (const stats of r.builtinLedgers) {
      assert.equal(stats.maxRecords, window);
      assert.ok(stats.records <= 2 * window, `at most twice the window is held: ${JSON.stringify(stats)}`);
    }
    const requests = r.builtinLedgers[0];
    assert.ok(requests.dropped > 0, `the request cases pushed records out: ${JSON.stringify(requests)}`);
  });
});
