/**
 * Progress of a run, read from cucumber's messages as they happen. On a terminal: a dot per scenario (`.` passed,
 * `F` failed, `-` skipped). Without one (CI logs, a pipe): one line per feature when its last scenario finishes,
 * with its counts, and between them a status line at least every 10 s (scenarios done of the format's total,
 * failures so far, the feature in progress, the time left at the pace so far), so that a log never falls silent
 * through a long feature (the field boundary phase is one feature of 648 scenarios) or a slow target.
 */
import type { Envelope } from '@cucumber/messages';

/** Cucumber's step statuses from best to worst: a scenario takes its worst step's. */
const RANK = ['UNKNOWN', 'PASSED', 'SKIPPED', 'PENDING', 'UNDEFINED', 'AMBIGUOUS', 'FAILED'];

interface FeatureCount {
  readonly name: string;
  planned: number;
  passed: number;
  failed: number;
  skipped: number;
  printed: boolean;
}

type Outcome = 'passed' | 'failed' | 'skipped';

/** Time as the progress sees it: injected by tests, so that no test waits on the wall clock. */
export interface ProgressClock {
  now(): number;
  /** Calls `tick` about every `ms`; returns what stops it. */
  every(ms: number, tick: () => void): () => void;
}

const REAL_CLOCK: ProgressClock = {
  now: () => Date.now(),
  every: (ms, tick) => {
    const t = setInterval(tick, ms);
    // The status line never keeps a finished run's process alive.
    t.unref();
    return () => clearInterval(t);
  },
};

/** The promise: a line at least this often. */
export const STATUS_EVERY_MS = 10_000;
/** How often the need for one is looked at. */
const LOOK_EVERY_MS = 1_000;
/**
 * A status line is written after this much silence: less than the promise by the look interval and a margin for a
 * busy event loop (the built-in target answers in this process; under load a timer fires a second or more late).
 */
const QUIET_MS = STATUS_EVERY_MS - 2 * LOOK_EVERY_MS;

function outcomeOf(status: string): Outcome {
  return status === 'PASSED' ? 'passed' : status === 'SKIPPED' ? 'skipped' : 'failed';
}

export class Progress {
  private readonly worst = new Map<string, string>();
  private dots = 0;
  private label = '';
  private readonly featureOfUri = new Map<string, string>();
  private readonly uriOfPickle = new Map<string, string>();
  private readonly featureOfCase = new Map<string, FeatureCount>();
  private readonly featureOfStarted = new Map<string, FeatureCount>();
  private features = new Map<string, FeatureCount>();
  private planned = 0;
  private done = 0;
  private failed = 0;
  private startedAt = 0;
  private lastWrite = 0;
  private current: string | undefined;
  private stopTicking: (() => void) | undefined;

  /**
   * @param out where progress goes; nothing is written when absent
   * @param terminal dots (a terminal) or a line per feature and a status line at least every 10 s
   * @param clock the time (tests give their own)
   */
  constructor(
    private readonly out: { write(s: string): unknown } | undefined,
    private readonly terminal: boolean,
    private readonly clock: ProgressClock = REAL_CLOCK,
  ) {}

  /** Starts the progress of one format's run (`JSON`, `XML`: the lines say which). */
  begin(label: string): void {
    this.label = label;
    this.features = new Map();
    this.planned = this.done = this.failed = 0;
    this.current = undefined;
    this.startedAt = this.lastWrite = this.clock.now();
    this.stopTicking?.();
    this.stopTicking = this.terminal || !this.out ? undefined : this.clock.every(LOOK_EVERY_MS, () => this.tick());
  }

  /** Writes the status line when nothing was written for QUIET_MS. */
  tick(): void {
    if (this.terminal || !this.out) return;
    const now = this.clock.now();
    if (now - this.lastWrite < QUIET_MS) return;
    const elapsed = now - this.startedAt;
    const left = this.planned - this.done;
    const eta = this.done > 0 && left > 0 ? `, about ${formatSeconds((elapsed / this.done) * left)} left` : '';
    this.write(
      `${this.label ? `${this.label} ` : ''}... ${this.done} of ${this.planned} scenarios done, ${this.failed} failed${this.current ? `; now: ${this.current}` : ''}; ${formatSeconds(elapsed)} so far${eta}\n`,
    );
  }

  private write(s: string): void {
    this.lastWrite = this.clock.now();
    this.out?.write(s);
  }

  onMessage = (m: Envelope): void => {
    if (m.gherkinDocument?.uri && m.gherkinDocument.feature) {
      this.featureOfUri.set(m.gherkinDocument.uri, m.gherkinDocument.feature.name);
    } else if (m.pickle) {
      this.uriOfPickle.set(m.pickle.id, m.pickle.uri);
    } else if (m.testCase) {
      const uri = this.uriOfPickle.get(m.testCase.pickleId) ?? '';
      const name = this.featureOfUri.get(uri) ?? uri;
      let f = this.features.get(name);
      if (!f) this.features.set(name, (f = { name, planned: 0, passed: 0, failed: 0, skipped: 0, printed: false }));
      f.planned += 1;
      this.planned += 1;
      this.featureOfCase.set(m.testCase.id, f);
    } else if (m.testCaseStarted) {
      const f = this.featureOfCase.get(m.testCaseStarted.testCaseId);
      if (f) this.featureOfStarted.set(m.testCaseStarted.id, f);
      if (f) this.current = f.name;
    } else if (m.testStepFinished) {
      const id = m.testStepFinished.testCaseStartedId;
      const s = m.testStepFinished.testStepResult.status;
      const prev = this.worst.get(id);
      if (!prev || RANK.indexOf(s) > RANK.indexOf(prev)) this.worst.set(id, s);
    } else if (m.testCaseFinished && !m.testCaseFinished.willBeRetried) {
      const id = m.testCaseFinished.testCaseStartedId;
      const outcome = outcomeOf(this.worst.get(id) ?? 'UNKNOWN');
      this.worst.delete(id);
      const f = this.featureOfStarted.get(id);
      if (f) f[outcome] += 1;
      this.done += 1;
      if (outcome === 'failed') this.failed += 1;
      if (this.terminal) this.dot(outcome);
      else if (f && f.passed + f.failed + f.skipped >= f.planned) this.line(f);
    }
  };

  /** Ends one format's run: the rest of the dots' line, or the features that did not finish. */
  end(): void {
    this.stopTicking?.();
    this.stopTicking = undefined;
    if (this.terminal) {
      if (this.out && this.dots % 80 !== 0) this.out.write('\n');
      this.dots = 0;
      return;
    }
    for (const f of this.features.values()) if (!f.printed && f.passed + f.failed + f.skipped > 0) this.line(f);
  }

  private dot(outcome: Outcome): void {
    if (!this.out) return;
    this.out.write(outcome === 'passed' ? '.' : outcome === 'skipped' ? '-' : 'F');
    if (++this.dots % 80 === 0) this.out.write('\n');
  }

  private line(f: FeatureCount): void {
    f.printed = true;
    if (!this.out) return;
    const done = f.passed + f.failed + f.skipped;
    const unfinished = done < f.planned ? `, ${f.planned - done} not run` : '';
    this.write(`${this.label ? `${this.label} ` : ''}${f.name}: ${f.passed} passed, ${f.failed} failed, ${f.skipped} skipped${unfinished}\n`);
  }
}

function formatSeconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
