/**
 * Progress of a run, read from cucumber's messages as they happen. On a terminal: a dot per scenario (`.` passed,
 * `F` failed, `-` skipped). Without one (CI logs, a pipe): one line per feature when its last scenario finishes,
 * with its counts, so that a log shows the run moving without a line per scenario.
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

  /**
   * @param out where progress goes; nothing is written when absent
   * @param terminal dots (a terminal) or a line per feature
   */
  constructor(
    private readonly out: { write(s: string): unknown } | undefined,
    private readonly terminal: boolean,
  ) {}

  /** Starts the progress of one format's run (`JSON`, `XML`: the lines say which). */
  begin(label: string): void {
    this.label = label;
    this.features = new Map();
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
      this.featureOfCase.set(m.testCase.id, f);
    } else if (m.testCaseStarted) {
      const f = this.featureOfCase.get(m.testCaseStarted.testCaseId);
      if (f) this.featureOfStarted.set(m.testCaseStarted.id, f);
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
      if (this.terminal) this.dot(outcome);
      else if (f && f.passed + f.failed + f.skipped >= f.planned) this.line(f);
    }
  };

  /** Ends one format's run: the rest of the dots' line, or the features that did not finish. */
  end(): void {
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
    this.out.write(`${this.label ? `${this.label} ` : ''}${f.name}: ${f.passed} passed, ${f.failed} failed, ${f.skipped} skipped${unfinished}\n`);
  }
}
