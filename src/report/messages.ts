/**
 * Reads one format's cucumber messages (NDJSON) into the scenario results every report is built from. The
 * messages are the run's record; nothing here looks at the wall clock, so the reports of a run can be rebuilt
 * from its messages at any later time with the same content.
 */
import * as fs from 'node:fs';
import type * as messages from '@cucumber/messages';
import { redactText } from '../redact';
import { CHECKS_MEDIA_TYPE, parseChecks, type CheckRecord } from '../rules/checks';
import { contextKey } from '../rules/scope';
import { ADVISORIES_MEDIA_TYPE, type Advisory } from '../rules/advisories';
import type { Format } from '../wire/types';
import { byText } from '../order';

/**
 * Cucumber's statuses that are the kit's problem, not the target's: a step without a definition, two definitions,
 * a pending step, a scenario cut off (`parseMessages` gives each a `kit:` reason). A run, its listing, JUnit and
 * the self-check count such a scenario as not passed; the one list of them.
 */
export const KIT_PROBLEM_STATUSES: ReadonlySet<string> = new Set(['UNDEFINED', 'AMBIGUOUS', 'PENDING', 'UNFINISHED']);

export function isKitProblem(status: string): boolean {
  return KIT_PROBLEM_STATUSES.has(status);
}

/** The three verdicts of a scenario in the reports. */
export type Verdict = 'passed' | 'failed' | 'skipped';

export interface ScenarioResult {
  readonly format: Format;
  /** The feature's name: the flow. */
  readonly feature: string;
  /** The feature file, as cucumber names it (relative to the working folder). */
  readonly uri: string;
  readonly line: number;
  readonly name: string;
  readonly tags: readonly string[];
  /** IDs from `@rule:<ID>` tags. */
  readonly rules: readonly string[];
  /** Codes from `@errorcode:<N>` tags. */
  readonly errorcodes: readonly string[];
  /** Request types from `@type:<TYPE>` tags. */
  readonly types: readonly string[];
  /** Capabilities from `@requires:<capability>` tags. */
  readonly requires: readonly string[];
  readonly verdict: Verdict;
  /** Cucumber's own status of the worst step (PASSED, FAILED, UNDEFINED, ...). */
  readonly status: string;
  /** Why the scenario was skipped (or, for a failure, the failing step), masked. */
  readonly reason?: string;
  /** The SHOULD-level points the scenario met (src/rules/advisories.ts): warnings, failures with `run --strict`. */
  readonly advisories?: readonly Advisory[];
  /** Skipped because its check does not apply to this target (NOT_APPLICABLE_MEDIA_TYPE): the reason says why. */
  readonly notApplicable?: boolean;
  /** The masked error of a failure. */
  readonly error?: string;
  /**
   * The rules a failure broke: those of its failed checks (src/rules/checks.ts); for a failure no check recorded
   * (an error outside a check), the rules its message names in brackets, else the scenario's rules.
   */
  readonly broken?: readonly string[];
  /** The scenario's rules its failure left unchecked: "blocked by" the broken ones. */
  readonly blocked?: readonly string[];
  /** Rules with a passing check in the scenario. */
  readonly checked?: readonly string[];
  /** The failed checks, with field, expected, seen and one masked example exchange. */
  readonly failedChecks?: readonly CheckRecord[];
  /**
   * Per rule checked: the exchanges and contexts it was checked in, as `reachOf` writes them (src/rules/scope.ts).
   * summary.json groups the rules of one text under one key (`groupReached`); `reachedByRule` reads either form.
   */
  readonly reached?: Readonly<Record<string, string>>;
  readonly durationMs: number;
  readonly attachments: number;
  /** ISO 8601 time the scenario started, from its message timestamp. */
  readonly startedAt?: string;
}

/** Where one scenario checked one rule: the exchanges (by index), and per context (its key) the exchanges in it. */
export interface RuleReach {
  /** Every exchange the rule was checked in. */
  readonly calls: readonly number[];
  /** `contextKey` of src/rules/scope.ts -> the exchanges checked in that context. */
  readonly contexts: readonly (readonly [string, readonly number[]])[];
}

/**
 * The checks' rules with the exchanges and contexts they were made in (a check with none adds nothing), each rule's
 * as one short text for summary.json, which holds every scenario: `0,1 json|AUTH|0|pan|16|separate|none||@1 ...`
 * (the exchanges, then each context key with its exchanges). `readReach` reads it back.
 */
export function reachOf(checks: readonly CheckRecord[]): Record<string, string> {
  const by = new Map<string, { calls: Set<number>; contexts: Map<string, Set<number>> }>();
  for (const c of checks) {
    if (c.call === undefined) continue;
    // A check of a field counts for the rule's row of that field too (`FIELD-LENGTHS:pan`), where the matrix has one.
    for (const rule of c.field && !c.rule.includes(':') ? [c.rule, `${c.rule}:${c.field}`] : [c.rule]) {
      const r = by.get(rule) ?? { calls: new Set<number>(), contexts: new Map<string, Set<number>>() };
      r.calls.add(c.call);
      for (const x of c.contexts ?? []) {
        const key = contextKey(x);
        const seen = r.contexts.get(key) ?? new Set<number>();
        seen.add(c.call);
        r.contexts.set(key, seen);
      }
      by.set(rule, r);
    }
  }
  const list = (s: Set<number>): string => [...s].sort((a, b) => a - b).join(',');
  return Object.fromEntries([...by.entries()].map(([rule, r]) => [rule, [list(r.calls), ...[...r.contexts].map(([k, v]) => `${k}@${list(v)}`)].join(' ')]));
}

/** A rule's text of `reachOf`, read back; anything unreadable in it is left out. */
export function readReach(text: string): RuleReach {
  const numbers = (t: string): number[] => {
    const out: number[] = [];
    for (const n of t.split(',')) {
      const v = n === '' ? NaN : Number(n);
      if (Number.isInteger(v) && v >= 0) out.push(v);
    }
    return out;
  };
  const [calls = '', ...rest] = text.split(' ');
  return {
    calls: numbers(calls),
    contexts: rest.flatMap((item) => {
      const at = item.lastIndexOf('@');
      return at > 0 ? [[item.slice(0, at), numbers(item.slice(at + 1))] as const] : [];
    }),
  };
}

/**
 * A scenario's `reached` as summary.json writes it: the rules whose texts are the same share one entry, their IDs
 * joined by a space as its key. The answer invariants check every answer, so a scenario's dozen rules mostly share
 * one text: summary.json held each of them once per rule (1.6 MB of its 3.7 on a full run). Idempotent.
 */
export function groupReached(reached: Readonly<Record<string, string>>): Record<string, string> {
  const rulesOf = new Map<string, string[]>();
  for (const [rule, text] of Object.entries(reachedByRule(reached))) rulesOf.set(text, [...(rulesOf.get(text) ?? []), rule]);
  return Object.fromEntries([...rulesOf].map(([text, rules]) => [rules.join(' '), text]));
}

/** A scenario's `reached`, one entry per rule, from either form (`groupReached`'s, or one rule per key). */
export function reachedByRule(reached: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rules, text] of Object.entries(reached)) {
    if (typeof text !== 'string') continue;
    for (const rule of rules.split(' ')) if (rule !== '') out[rule] = text;
  }
  return out;
}

export interface FormatResults {
  readonly format: Format;
  readonly scenarios: ScenarioResult[];
  /** From `testRunStarted` / `testRunFinished`: ISO 8601, UTC. */
  readonly startedAt?: string;
  readonly finishedAt?: string;
  /** `testRunFinished.success`; undefined when the run did not finish (a crash). */
  readonly success?: boolean;
  /** What could not be read, in plain words (masked). */
  readonly problems: string[];
}

/** The media type a step uses to say why it skipped (`this.attach('...', 'text/x.cardspec.skip-reason')`). */
export const SKIP_REASON_MEDIA_TYPE = 'text/x.cardspec.skip-reason';

/**
 * The media type of a skip because the check does not apply to this target: the document returns the field only on
 * some accounts ("Returned only for accounts with certain acquiring banks") and this one never did. Not a gap in
 * what was checked: such a scenario keeps no verdict from PASSED (src/report/model.ts, uncheckedInScope).
 */
export const NOT_APPLICABLE_MEDIA_TYPE = 'text/x.cardspec.not-applicable';
const LOG_MEDIA_TYPE = 'text/x.cucumber.log+plain';

const STATUS_ORDER = ['UNKNOWN', 'PASSED', 'SKIPPED', 'PENDING', 'UNDEFINED', 'AMBIGUOUS', 'FAILED'];

export function isoOf(ts: messages.Timestamp | undefined): string | undefined {
  if (!ts || typeof ts.seconds !== 'number') return undefined;
  const ms = ts.seconds * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function durationMs(d: messages.Duration | undefined): number {
  if (!d) return 0;
  return d.seconds * 1000 + (d.nanos ?? 0) / 1e6;
}

function tagValues(tags: readonly string[], prefix: string): string[] {
  const out: string[] = [];
  for (const t of tags) if (t.startsWith(prefix) && t.length > prefix.length) out.push(t.slice(prefix.length));
  return [...new Set(out)];
}

/** Reads a messages file; a missing or damaged file gives an empty result with the problem said, never a throw. */
export function readMessagesFile(file: string, format: Format): FormatResults {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return { format, scenarios: [], problems: [redactText(`${format}: no cucumber messages at ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`)] };
  }
  return parseMessages(text, format);
}

export function parseMessages(ndjson: string, format: Format): FormatResults {
  const problems: string[] = [];
  const envelopes: messages.Envelope[] = [];
  const lines = ndjson.split('\n');
  let bad = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (v !== null && typeof v === 'object') envelopes.push(v as messages.Envelope);
      else bad++;
    } catch {
      bad++;
    }
  }
  if (bad > 0) problems.push(`${format}: ${bad} line(s) of the cucumber messages are not JSON and were left out`);
  return parseEnvelopes(envelopes, format, problems);
}

/** The results of a run from its messages as objects (a run in this process: nothing written out and read back). */
export function parseEnvelopes(envelopes: readonly messages.Envelope[], format: Format, problems: string[] = []): FormatResults {
  const lineOfNode = new Map<string, number>();
  const featureOfUri = new Map<string, string>();
  const pickles = new Map<string, messages.Pickle>();
  const testCases = new Map<string, messages.TestCase>();
  const started = new Map<string, messages.TestCaseStarted>();
  const stepResults = new Map<string, { stepId: string; result: messages.TestStepResult }[]>();
  const attachments = new Map<string, messages.Attachment[]>();
  const finished: { started: string; willBeRetried: boolean }[] = [];
  let runStarted: string | undefined;
  let runFinished: string | undefined;
  let success: boolean | undefined;

  for (const env of envelopes) {
    if (env.gherkinDocument) indexDocument(env.gherkinDocument, lineOfNode, featureOfUri);
    else if (env.pickle) pickles.set(env.pickle.id, env.pickle);
    else if (env.testCase) testCases.set(env.testCase.id, env.testCase);
    else if (env.testCaseStarted) started.set(env.testCaseStarted.id, env.testCaseStarted);
    else if (env.testStepFinished) {
      const f = env.testStepFinished;
      const list = stepResults.get(f.testCaseStartedId) ?? [];
      list.push({ stepId: f.testStepId, result: f.testStepResult });
      stepResults.set(f.testCaseStartedId, list);
    } else if (env.attachment?.testCaseStartedId) {
      const list = attachments.get(env.attachment.testCaseStartedId) ?? [];
      list.push(env.attachment);
      attachments.set(env.attachment.testCaseStartedId, list);
    } else if (env.testCaseFinished) finished.push({ started: env.testCaseFinished.testCaseStartedId, willBeRetried: env.testCaseFinished.willBeRetried });
    else if (env.testRunStarted) runStarted = isoOf(env.testRunStarted.timestamp);
    else if (env.testRunFinished) {
      runFinished = isoOf(env.testRunFinished.timestamp);
      success = env.testRunFinished.success;
      if (env.testRunFinished.message) problems.push(redactText(`${format}: cucumber: ${env.testRunFinished.message}`));
    }
  }

  const scenarios: ScenarioResult[] = [];
  const done = new Set(finished.map((f) => f.started));
  for (const f of finished) {
    // A retried attempt is superseded by the next one: only the last attempt is the scenario's result.
    if (f.willBeRetried) continue;
    const result = scenarioOf(f.started);
    if (result) scenarios.push(result);
  }
  // A scenario that started and never finished: the run was cut short (a crash, a timeout of the whole run).
  for (const id of started.keys()) {
    if (done.has(id)) continue;
    const result = scenarioOf(id, 'the run ended before this scenario finished');
    if (result) scenarios.push(result);
  }
  if (runStarted && !runFinished) problems.push(`${format}: the cucumber run did not finish (no testRunFinished message)`);
  scenarios.sort((a, b) => byText(a.uri, b.uri) || a.line - b.line || byText(a.name, b.name));
  return { format, scenarios, startedAt: runStarted, finishedAt: runFinished, success, problems };

  function scenarioOf(startedId: string, unfinished?: string): ScenarioResult | undefined {
    const st = started.get(startedId);
    const tc = st && testCases.get(st.testCaseId);
    const pickle = tc && pickles.get(tc.pickleId);
    if (!st || !tc || !pickle) {
      problems.push(`${format}: a test case in the messages has no scenario (${startedId})`);
      return undefined;
    }
    const tags = pickle.tags.map((t) => t.name);
    const results = stepResults.get(startedId) ?? [];
    const worst = results.reduce<{ stepId: string; result: messages.TestStepResult } | undefined>(
      (w, r) => (!w || STATUS_ORDER.indexOf(r.result.status) > STATUS_ORDER.indexOf(w.result.status) ? r : w),
      undefined,
    );
    const status = unfinished ? 'UNFINISHED' : (worst?.result.status ?? 'UNKNOWN');
    const atts = attachments.get(startedId) ?? [];
    const stepText = (stepId: string): string => {
      const ts = tc.testSteps.find((s) => s.id === stepId);
      if (!ts) return '';
      if (ts.hookId) return 'a hook';
      const ps = pickle.steps.find((s) => s.id === ts.pickleStepId);
      return ps ? `"${ps.text}"` : '';
    };
    let verdict: Verdict;
    let reason: string | undefined;
    let error: string | undefined;
    let notApplicable = false;
    switch (status) {
      case 'PASSED':
        verdict = 'passed';
        break;
      case 'FAILED': {
        verdict = 'failed';
        error = errorText(worst!.result);
        reason = `failed at ${stepText(worst!.stepId)}`;
        break;
      }
      case 'SKIPPED':
        verdict = 'skipped';
        reason = skipReason(atts, tags) ?? 'skipped by a step';
        notApplicable = atts.some((a) => a.mediaType === NOT_APPLICABLE_MEDIA_TYPE);
        break;
      case 'PENDING':
        verdict = 'skipped';
        reason = `kit: step ${stepText(worst!.stepId)} is pending`;
        break;
      case 'UNDEFINED':
        verdict = 'skipped';
        reason = `kit: no step definition for ${stepText(worst!.stepId)}`;
        break;
      case 'AMBIGUOUS':
        verdict = 'skipped';
        reason = `kit: ambiguous step definitions for ${stepText(worst!.stepId)}`;
        break;
      case 'UNFINISHED':
        verdict = 'skipped';
        reason = unfinished;
        break;
      default:
        verdict = 'skipped';
        reason = 'the scenario has no steps';
    }
    const checks = atts.filter((a) => a.mediaType === CHECKS_MEDIA_TYPE && a.contentEncoding !== 'BASE64').flatMap((a) => parseChecks(a.body));
    const advisories = atts.filter((a) => a.mediaType === ADVISORIES_MEDIA_TYPE && a.contentEncoding !== 'BASE64').flatMap((a) => parseAdvisories(a.body));
    const rules = tagValues(tags, '@rule:');
    const failedChecks = checks.filter((c) => !c.ok);
    const broken = verdict === 'failed' ? brokenOf(failedChecks, error ?? '', rules) : [];
    const blocked = verdict === 'failed' ? rules.filter((r) => !broken.includes(r)) : [];
    const checked = [...new Set(checks.filter((c) => c.ok).map((c) => c.rule))];
    const reached = reachOf(checks);
    return {
      format,
      feature: featureOfUri.get(pickle.uri) ?? pickle.uri,
      uri: pickle.uri,
      line: pickle.location?.line ?? lineOf(pickle),
      name: redactText(pickle.name),
      tags,
      rules,
      errorcodes: tagValues(tags, '@errorcode:'),
      types: tagValues(tags, '@type:'),
      requires: tagValues(tags, '@requires:'),
      verdict,
      status,
      ...(reason !== undefined ? { reason: redactText(reason) } : {}),
      ...(notApplicable ? { notApplicable } : {}),
      ...(advisories.length > 0 ? { advisories } : {}),
      ...(error !== undefined ? { error: redactText(cleanMessage(error)) } : {}),
      ...(verdict === 'failed' ? { broken, blocked, failedChecks: failedChecks.map(maskCheck) } : {}),
      ...(checked.length > 0 ? { checked } : {}),
      ...(Object.keys(reached).length > 0 ? { reached } : {}),
      durationMs: Math.round(results.reduce((s, r) => s + durationMs(r.result.duration), 0) * 1000) / 1000,
      attachments: atts.length,
      startedAt: isoOf(st.timestamp),
    };
  }

  function lineOf(pickle: messages.Pickle): number {
    // The example row's line for an outline, else the scenario's.
    for (let i = pickle.astNodeIds.length - 1; i >= 0; i--) {
      const l = lineOfNode.get(pickle.astNodeIds[i]);
      if (l !== undefined) return l;
    }
    return 0;
  }
}

/**
 * The rules a failure broke: its failed checks' rules; without any (an error no check made: a transport failure, a
 * kit error), the rule IDs the message opens with in brackets (`[TRANSPORT-RESPONSE-BODY] ...`), else the
 * scenario's rules.
 */
export function brokenOf(failed: readonly CheckRecord[], error: string, rules: readonly string[]): string[] {
  if (failed.length > 0) return [...new Set(failed.map((c) => c.rule))];
  const m = /^\[([A-Z0-9][A-Za-z0-9:_, -]*)\]/.exec(error.trim());
  if (m) {
    const named = m[1]
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '' && x !== 'no @rule tag');
    if (named.length > 0) return named;
  }
  return [...rules];
}

function maskCheck(c: CheckRecord): CheckRecord {
  const out: Record<string, unknown> = { ...c };
  for (const k of ['message', 'expected', 'seen', 'step', 'exchange'] as const) if (typeof c[k] === 'string') out[k] = redactText(c[k]!);
  return out as unknown as CheckRecord;
}

function indexDocument(doc: messages.GherkinDocument, lineOfNode: Map<string, number>, featureOfUri: Map<string, string>): void {
  if (doc.uri && doc.feature) featureOfUri.set(doc.uri, doc.feature.name);
  const scenario = (s: messages.Scenario): void => {
    lineOfNode.set(s.id, s.location.line);
    for (const ex of s.examples) for (const row of ex.tableBody) lineOfNode.set(row.id, row.location.line);
  };
  for (const child of doc.feature?.children ?? []) {
    if (child.scenario) scenario(child.scenario);
    for (const rc of child.rule?.children ?? []) if (rc.scenario) scenario(rc.scenario);
  }
}

/** The advisories of one attachment; anything else in it is ignored. */
function parseAdvisories(body: string): Advisory[] {
  try {
    const list = (JSON.parse(body) as { advisories?: unknown }).advisories;
    if (!Array.isArray(list)) return [];
    return list.flatMap((a: unknown) => {
      const r = a as { rule?: unknown; message?: unknown };
      return typeof r?.rule === 'string' && typeof r.message === 'string' ? [{ rule: r.rule, message: redactText(r.message) }] : [];
    });
  } catch {
    return [];
  }
}

/**
 * The reason a step gave for skipping: an attachment of type `text/x.cardspec.skip-reason`, or a `this.log()`
 * line beginning with "skip"; else what the `@requires:` tags say the scenario needs.
 */
function skipReason(atts: readonly messages.Attachment[], tags: readonly string[]): string | undefined {
  for (let i = atts.length - 1; i >= 0; i--) {
    const a = atts[i];
    if (a.contentEncoding === 'BASE64') continue;
    if (a.mediaType === SKIP_REASON_MEDIA_TYPE || a.mediaType === NOT_APPLICABLE_MEDIA_TYPE) return a.body.trim();
    if (a.mediaType === LOG_MEDIA_TYPE && /^skip/i.test(a.body.trim())) return a.body.trim().replace(/^skip(ped)?\s*[:-]?\s*/i, '');
  }
  const requires = tagValues(tags, '@requires:');
  return requires.length > 0 ? `skipped by a step; the scenario requires ${requires.join(', ')}` : undefined;
}

/**
 * The error without its stack (the stack is the kit's, not the target's, and names local paths): the exception's
 * message, with its class when that says more than "Error".
 */
function errorText(r: messages.TestStepResult): string {
  const ex = r.exception;
  if (ex?.message) return ex.type && !/^(Error|AssertionError)$/.test(ex.type) && !ex.message.startsWith(ex.type) ? `${ex.type}: ${ex.message}` : ex.message;
  return r.message ?? 'failed without a message';
}

/** ANSI colour codes (from assertion libraries) make no sense in a file. */
function cleanMessage(message: string): string {
  // eslint-disable-next-line no-control-regex
  return message.replace(/\u001b\[[0-9;]*m/g, '').trim();
}
