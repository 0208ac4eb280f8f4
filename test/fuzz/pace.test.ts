/** The bounds of a fuzz run, with an injected clock: no real time passes in these tests. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Deadline, RateLimiter, Slots, type PaceClock } from '../../src/fuzz/pace';
import { checkSafety, isTestSite } from '../../src/fuzz/safety';

/** A clock that moves only when something sleeps on it. */
function fakeClock(): PaceClock & { slept: number[] } {
  let now = 1000;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe('slots', () => {
  it('never lets more than the size in at once, and serves waiters in order', async () => {
    const slots = new Slots(2);
    const order: number[] = [];
    let inside = 0;
    let most = 0;
    await Promise.all(
      [0, 1, 2, 3, 4].map(async (i) => {
        await slots.acquire();
        inside++;
        most = Math.max(most, inside);
        order.push(i);
        await Promise.resolve();
        inside--;
        slots.release();
      }),
    );
    assert.equal(most, 2);
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
    assert.equal(slots.inUse, 0);
    assert.throws(() => new Slots(0), /at least 1/);
  });
});

describe('rate', () => {
  it('spreads starts evenly at the rate asked', async () => {
    const clock = fakeClock();
    const rate = new RateLimiter(4, clock);
    for (let i = 0; i < 5; i++) await rate.take();
    assert.deepEqual(clock.slept, [250, 250, 250, 250]);
    assert.equal(clock.now(), 2000);
    assert.throws(() => new RateLimiter(0, clock), /above 0/);
  });

  it('does not save up: an idle spell gives no burst afterwards', async () => {
    const clock = fakeClock();
    const rate = new RateLimiter(10, clock);
    await rate.take();
    await clock.sleep(5000);
    clock.slept.length = 0;
    await rate.take();
    await rate.take();
    assert.deepEqual(clock.slept, [100]);
  });
});

describe('deadline', () => {
  it('passes at its time', async () => {
    const clock = fakeClock();
    const d = Deadline.after(300, clock);
    assert.equal(d.passed, false);
    assert.equal(d.remainingMs, 300);
    await clock.sleep(300);
    assert.equal(d.passed, true);
    assert.equal(d.remainingMs, 0);
  });
});

describe('safety', () => {
  it('only test sites, unless --allow-live', () => {
    assert.equal(isTestSite('test_site12345'), true);
    assert.equal(isTestSite('site12345'), false);
    assert.match(checkSafety('live_site', false) ?? '', /not a test site.*--allow-live/);
    assert.equal(checkSafety('live_site', true), undefined);
    assert.equal(checkSafety('test_x', false), undefined);
  });
});
