/**
 * Progress without a terminal is one line per feature, written when the feature's last scenario finishes (whatever
 * order the scenarios of several features finish in, as with --parallel); on a terminal, a dot per scenario.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Envelope } from '@cucumber/messages';
import { Progress, STATUS_EVERY_MS, type ProgressClock } from '../../src/suite/progress';

/** The messages cucumber sends for scenarios of two features, with the verdicts given, finishing interleaved. */
function messages(): Envelope[] {
  const out: Envelope[] = [];
  const feature = (uri: string, name: string): void => void out.push({ gherkinDocument: { uri, feature: { name } } } as unknown as Envelope);
  feature('features/a.feature', 'Alpha');
  feature('features/b.feature', 'Beta');
  const cases: [string, string, string][] = [
    ['a1', 'features/a.feature', 'PASSED'],
    ['b1', 'features/b.feature', 'FAILED'],
    ['a2', 'features/a.feature', 'SKIPPED'],
    ['b2', 'features/b.feature', 'PASSED'],
    ['a3', 'features/a.feature', 'PASSED'],
  ];
  for (const [id, uri] of cases) out.push({ pickle: { id: `p-${id}`, uri } } as unknown as Envelope);
  for (const [id] of cases) out.push({ testCase: { id: `t-${id}`, pickleId: `p-${id}` } } as unknown as Envelope);
  for (const [id, , status] of cases) {
    out.push({ testCaseStarted: { id: `s-${id}`, testCaseId: `t-${id}` } } as unknown as Envelope);
    out.push({ testStepFinished: { testCaseStartedId: `s-${id}`, testStepResult: { status: 'PASSED' } } } as unknown as Envelope);
    out.push({ testStepFinished: { testCaseStartedId: `s-${id}`, testStepResult: { status } } } as unknown as Envelope);
    out.push({ testCaseFinished: { testCaseStartedId: `s-${id}`, willBeRetried: false } } as unknown as Envelope);
  }
  return out;
}

function capture(terminal: boolean, stopAfter?: number): string {
  let text = '';
  const progress = new Progress({ write: (s: string) => (text += s) }, terminal);
  progress.begin('JSON');
  const all = messages();
  const upTo = stopAfter === undefined ? all.length : all.findIndex((m, i) => i > 0 && m.testCaseFinished && --stopAfter! === 0) + 1;
  for (const m of all.slice(0, upTo)) progress.onMessage(m);
  progress.end();
  return text;
}

describe('progress', () => {
  it('without a terminal: one line per feature, when its last scenario finishes', () => {
    assert.equal(capture(false), 'JSON Beta: 1 passed, 1 failed, 0 skipped\nJSON Alpha: 2 passed, 0 failed, 1 skipped\n');
  });

  it('without a terminal: a run that ends early still names the features it started, and what it did not run', () => {
    assert.equal(capture(false, 3), 'JSON Alpha: 1 passed, 0 failed, 1 skipped, 1 not run\nJSON Beta: 0 passed, 1 failed, 0 skipped, 1 not run\n');
  });

  it('without a terminal: a status line when nothing was written for 10 s (done of total, failures, feature, time left)', () => {
    let now = 0;
    let ticks: (() => void) | undefined;
    const clock: ProgressClock = { now: () => now, every: (_ms, tick) => ((ticks = tick), () => (ticks = undefined)) };
    let text = '';
    const progress = new Progress({ write: (s: string) => (text += s) }, false, clock);
    progress.begin('JSON');
    const all = messages();
    // Up to the second scenario's end: a1 passed, b1 failed, nothing finished a feature yet.
    const second = all.findIndex((m) => m.testCaseFinished?.testCaseStartedId === 's-b1');
    for (const m of all.slice(0, second + 1)) progress.onMessage(m);
    now = 5_000;
    ticks?.();
    assert.equal(text, '', 'nothing yet: less than 10 s since the start');
    now = STATUS_EVERY_MS + 2_000;
    ticks?.();
    assert.equal(text, 'JSON ... 2 of 5 scenarios done, 1 failed; now: Beta; 12 s so far, about 18 s left\n');
    now += 5_000;
    ticks?.();
    assert.equal(String(text).split('\n').length, 2, 'not again within 10 s');
    progress.end();
    assert.equal(ticks, undefined, 'end stops the ticking');
  });

  it('on a terminal: no status line, a dot per scenario', () => {
    let now = 0;
    let ticks: (() => void) | undefined;
    const clock: ProgressClock = { now: () => now, every: (_ms, tick) => ((ticks = tick), () => undefined) };
    let text = '';
    const progress = new Progress({ write: (s: string) => (text += s) }, true, clock);
    progress.begin('JSON');
    now = 60_000;
    ticks?.();
    progress.tick();
    assert.equal(text, '');
  });

  it('on a terminal: a dot per scenario', () => {
    assert.equal(capture(true), '.F-..\n');
  });
});
