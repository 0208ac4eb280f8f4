/**
 * A failed scenario as it happens, from cucumber's messages: its name and place, the error, and the exchanges the
 * World attached (already masked by the World; masked again here). `cardspec run --bail` stops at the first one and
 * `--verbose` prints each on the console.
 */
import type { Envelope } from '@cucumber/messages';
import { redactText } from '../redact';

export interface FailedScenario {
  /** The feature file and, when known, the scenario's line: `features/auth.feature:20`. */
  readonly uri: string;
  readonly name: string;
  /** The failing step's message, masked. */
  readonly message: string;
  /** Each request/answer exchange of the scenario, as the World attached it (JSON text, masked). */
  readonly exchanges: readonly string[];
}

/** Does this attachment hold an exchange (the World's `Target.attachment`)? */
function isExchange(body: string): boolean {
  if (!body.startsWith('{')) return false;
  try {
    const o = JSON.parse(body) as Record<string, unknown>;
    return typeof o.url === 'string' && ('request' in o || 'response' in o);
  } catch {
    return false;
  }
}

/** An `onMessage` that calls `onFailure` once per scenario that failed (retries aside). */
export function watchFailures(onFailure: (f: FailedScenario) => void): (m: Envelope) => void {
  const pickles = new Map<string, { uri: string; name: string; line?: number }>();
  const caseToPickle = new Map<string, string>();
  const started = new Map<string, { testCaseId: string; failed?: string; exchanges: string[] }>();
  return (m: Envelope) => {
    if (m.pickle) pickles.set(m.pickle.id, { uri: m.pickle.uri, name: m.pickle.name, line: m.pickle.location?.line });
    else if (m.testCase) caseToPickle.set(m.testCase.id, m.testCase.pickleId);
    else if (m.testCaseStarted) started.set(m.testCaseStarted.id, { testCaseId: m.testCaseStarted.testCaseId, exchanges: [] });
    else if (m.attachment && m.attachment.testCaseStartedId) {
      const s = started.get(m.attachment.testCaseStartedId);
      if (s && m.attachment.contentEncoding !== 'BASE64' && isExchange(m.attachment.body)) s.exchanges.push(redactText(m.attachment.body));
    } else if (m.testStepFinished) {
      const s = started.get(m.testStepFinished.testCaseStartedId);
      const r = m.testStepFinished.testStepResult;
      if (s && r.status === 'FAILED' && s.failed === undefined) s.failed = redactText(r.exception?.message ?? r.message ?? 'failed');
    } else if (m.testCaseFinished) {
      const s = started.get(m.testCaseFinished.testCaseStartedId);
      started.delete(m.testCaseFinished.testCaseStartedId);
      if (!s || s.failed === undefined || m.testCaseFinished.willBeRetried) return;
      const pickle = pickles.get(caseToPickle.get(s.testCaseId) ?? '');
      onFailure({ uri: pickle ? `${pickle.uri}${pickle.line ? `:${pickle.line}` : ''}` : '?', name: redactText(pickle?.name ?? '?'), message: s.failed, exchanges: s.exchanges });
    }
  };
}

/** The console text of one failure: where, why, then each exchange. */
export function failureText(f: FailedScenario, format: string): string {
  const lines = [`--- FAILED [${format}] ${f.uri} ${f.name}`, ...f.message.split('\n').map((l) => `    ${l}`)];
  f.exchanges.forEach((x, i) => {
    lines.push(`    exchange ${i + 1} of ${f.exchanges.length}:`, ...x.split('\n').map((l) => `      ${l}`));
  });
  return redactText(lines.join('\n'));
}
