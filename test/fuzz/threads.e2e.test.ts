/**
 * Detection on threads (src/fuzz/threads.ts): a seed gives the same cases, so the same verdicts, whatever the
 * number of threads; a failure found on a thread is shrunk and replayed like one found on the main thread; and the
 * failure limit holds for the whole run, not per thread.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { autoThreads, AUTO_THREADS_MIN_RUNS } from '../../src/cli/fuzz';
import { ranges } from '../../src/fuzz/threads';
import { findCardNumbers } from '../../src/redact';
import { fuzz, replayArgs } from './run';
import { panLeakInAuth } from './variants';

/** The oracle table and the case counts of a report: what must not depend on the number of threads. */
function verdicts(report: string): string[] {
  const lines = report.split('\n');
  const start = lines.findIndex((l) => l.startsWith('Oracle '));
  const end = lines.findIndex((l) => l.startsWith('(valid/invalid/open cases)'));
  assert.ok(start >= 0 && end > start, `no oracle table in:\n${report}`);
  return lines.slice(start, end + 1).filter((l) => !l.startsWith('(threads)'));
}

// The time limits below are guards against a run that never ends, not a speed asked of the machine: the file took
// 100 s at load 21 on two cores.
describe('fuzzing on threads', () => {
  it('cuts a run into contiguous ranges that cover it once', () => {
    assert.deepEqual(ranges(0, 10, 3), [
      { start: 0, count: 4 },
      { start: 4, count: 3 },
      { start: 7, count: 3 },
    ]);
    assert.deepEqual(ranges(0, 1, 4), [{ start: 0, count: 1 }]);
  });

  it('judges the same cases the same way on one thread and on three', { timeout: 600_000 }, async () => {
    const args = ['--seed', '424242', '--runs', '600', '--property', 'requests', '--format', 'both'];
    const one = await fuzz([...args, '--threads', '1']);
    const three = await fuzz([...args, '--threads', '3']);
    assert.equal(one.code, 0, one.out + one.err);
    assert.equal(three.code, 0, three.out + three.err);
    assert.deepEqual(verdicts(three.out), verdicts(one.out));
    assert.match(three.out, /600 sent +600 sent/);
    assert.match(three.out, /^\(threads\) +3 +3$/m, 'the run did not use its threads');
    assert.doesNotMatch(one.out, /^\(threads\)/m);
  });

  it('shrinks and replays a failure found on a thread, and stops the whole run at the failure limit', { timeout: 600_000 }, async () => {
    const gw = await panLeakInAuth();
    try {
      const first = await fuzz(['--target', gw.url, '--seed', '20260105', '--runs', '3000', '--threads', '2', '--property', 'requests', '--max-failures', '5', '--shrink-steps', '150']);
      assert.equal(first.code, 1, first.out + first.err);
      assert.match(first.out, /FAILED no-full-pan \(FIELD-MASKEDPAN\)/);
      assert.match(first.out, /shrunk in [0-9]+ step/);
      assert.match(first.out, /^\(threads\) +2$/m);
      // Every AUTH answer leaks: the limit of 5 failing cases stops both threads long before 3,000 requests.
      assert.match(first.out, /stopped early: [0-9]+ cases failed \(the limit of --max-failures\)/);
      const sent = Number(/([0-9]+) sent/.exec(first.out)?.[1]);
      assert.ok(sent < 1000, `${sent} requests sent after the limit was reached`);
      assert.deepEqual(findCardNumbers(first.out + first.err), []);

      const again = await fuzz(replayArgs(first.out));
      assert.equal(again.code, 1, again.out + again.err);
      assert.match(again.out, /FAILED no-full-pan/);
    } finally {
      await gw.close();
    }
  });

  it('uses threads by default only where they pay: long runs, no rate limit, no replay', () => {
    assert.equal(autoThreads(AUTO_THREADS_MIN_RUNS - 1, false), 1);
    assert.equal(autoThreads(AUTO_THREADS_MIN_RUNS, true), 1);
    const n = autoThreads(AUTO_THREADS_MIN_RUNS, false);
    assert.ok(n >= 1 && n <= 4, String(n));
  });
});
