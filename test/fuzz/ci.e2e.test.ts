/**
 * CI: the reference gateway fuzzed clean with a fixed seed: 10,000 generated requests across JSON and XML, and every
 * stateful model in both forms. A failure here prints the shrunk counterexample and its replay command.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { findCardNumbers } from '../../src/redact';
import { fuzz } from './run';

const SEED = '20260105';

// The time limits are guards against a run that never ends, not a speed asked of the machine: at load 18 on two
// cores the run took 75 s, and a run cut by --max-time sends fewer than 5,000 and fails below.
it('the reference gateway fuzzes clean: 5,000 JSON and 5,000 XML requests, and the models', { timeout: 720_000 }, async () => {
  const r = await fuzz(['--seed', SEED, '--runs', '5000', '--format', 'both', '--property', 'all', '--model-runs', '15', '--max-time', '600']);
  assert.equal(r.code, 0, `cardspec fuzz did not come back clean:\n${r.out}${r.err}`);
  assert.equal(r.out.match(/\b5000 sent\b/g)?.length, 2, 'both forms must send all 5,000 requests (no early stop)');
  // Every oracle of the request fuzzer was exercised in both forms.
  for (const name of ['valid-not-refused', 'invalid-refused', 'unknown-type-refused', 'one-part-per-type', 'no-full-pan']) {
    const row = r.out.split('\n').find((l) => l.startsWith(name + ' '));
    assert.ok(row, name);
    const counts = [...row.matchAll(/([0-9]+)\/0\b/g)].map((m) => Number(m[1]));
    assert.equal(counts.length, 2, row);
    for (const n of counts) assert.ok(n > 300, `${name} checked only ${n} answers: ${row}`);
  }
  for (const model of ['card-store', 'inheritance', 'subscriptions', 'riskdec', 'followups']) {
    for (const format of ['json', 'xml']) assert.match(r.out, new RegExp(`^${model} +${format} +15 +[0-9]+ +ok$`, 'm'), `${model} ${format}`);
  }
  assert.deepEqual(findCardNumbers(r.out + r.err), []);
});
