/**
 * The conformance suite (features/*.feature, steps/) run in this process against one target, with cucumber's JS
 * API and no report files: the self-check runs it dozens of times, and needs only each scenario's verdict and
 * rules. It is `cardspec run` minus the reports: the same features, steps and tag expression per format, through
 * the one launcher of cucumber (src/suite).
 *
 * A scenario can be left out by its place (`features/auth.feature:12`, the line of the scenario or of an outline's
 * example row): the suite then runs as if that scenario had been removed from the features. That is how the
 * self-check shows a scenario to be the only one catching a variant.
 */
import type { Envelope } from '@cucumber/messages';
import { redactText, registerSecret } from '../redact';
import { parseEnvelopes, type ScenarioResult } from '../report/messages';
import { isKitProblem, runFeatures } from '../suite';
import { builtinConnection } from '../client/connection';
import type { Format } from '../wire/types';
import type { ScenarioOutcome } from './types';

export interface SuiteRequest {
  readonly baseUrl: string;
  readonly formats: readonly Format[];
  /** A cucumber tag expression; empty for every scenario. */
  readonly tags: string;
  /** Scenarios to leave out, as `<feature file>:<line>`. */
  readonly exclude?: readonly string[];
  /** Only these scenarios, as `<feature file>:<line>` (only their feature files are read). */
  readonly only?: readonly string[];
  /** Told as each scenario starts (its place, its tags): what the census files answers under. */
  readonly onScenario?: (format: Format, place: string, tags: readonly string[]) => void;
  /** Told of each attachment of a scenario (its place, the attachment's text): the answers a scenario read. */
  readonly onAttachment?: (format: Format, place: string, body: string) => void;
}

/**
 * Messages the verdicts never read: the features' text, the step and hook definitions. The rest are kept as objects
 * and read as such (written as JSON and parsed back, they were a sixth of a short run's time).
 */
const UNREAD: readonly (keyof Envelope)[] = ['source', 'stepDefinition', 'hook', 'parameterType', 'undefinedParameterType', 'meta', 'testStepStarted'];

/** Follows the messages of a run to tell which scenario is running (its place, `uri:line`, and tags) and what it attached. */
function scenarioTracker(tell: (place: string, tags: readonly string[]) => void, attached: (place: string, body: string) => void): (m: Envelope) => void {
  const lineOfNode = new Map<string, number>();
  const pickles = new Map<string, { place: string; tags: readonly string[] }>();
  const pickleOfCase = new Map<string, string>();
  const placeOfStart = new Map<string, string>();
  return (m) => {
    if (m.gherkinDocument) {
      for (const child of m.gherkinDocument.feature?.children ?? []) {
        for (const s of [child.scenario, ...(child.rule?.children ?? []).map((c) => c.scenario)]) {
          if (!s) continue;
          lineOfNode.set(s.id, s.location.line);
          for (const ex of s.examples) for (const row of ex.tableBody) lineOfNode.set(row.id, row.location.line);
        }
      }
    } else if (m.pickle) {
      const p = m.pickle;
      // The example row's line for an outline, else the scenario's: the place src/report/messages.ts gives.
      const line =
        p.location?.line ??
        [...p.astNodeIds]
          .reverse()
          .map((id) => lineOfNode.get(id))
          .find((l) => l !== undefined) ??
        0;
      pickles.set(p.id, { place: `${p.uri}:${line}`, tags: p.tags.map((t) => t.name) });
    } else if (m.testCase) pickleOfCase.set(m.testCase.id, m.testCase.pickleId);
    else if (m.testCaseStarted) {
      const p = pickles.get(pickleOfCase.get(m.testCaseStarted.testCaseId) ?? '');
      if (p) {
        placeOfStart.set(m.testCaseStarted.id, p.place);
        tell(p.place, p.tags);
      }
    } else if (m.attachment?.testCaseStartedId) {
      const place = placeOfStart.get(m.attachment.testCaseStartedId);
      if (place) attached(place, m.attachment.body);
    }
  };
}

export interface SuiteResult {
  readonly scenarios: ScenarioOutcome[];
  /** Problems outside the scenarios (cucumber could not run), masked. */
  readonly problems: string[];
}

function outcomeOf(s: ScenarioResult): ScenarioOutcome {
  const why = (s.error ?? s.reason ?? '').split('\n')[0];
  return {
    format: s.format,
    uri: s.uri,
    line: s.line,
    name: s.name,
    rules: s.rules,
    ...(s.broken ? { broken: s.broken } : {}),
    verdict: s.verdict,
    kitProblem: isKitProblem(s.status),
    ...(why ? { why: redactText(why.length > 240 ? `${why.slice(0, 237)}...` : why) } : {}),
  };
}

async function runFormat(req: SuiteRequest, format: Format): Promise<SuiteResult> {
  // The built-in profile's connection, read the way `run` reads it (src/client/connection.ts).
  const conn = builtinConnection();
  registerSecret(conn.password);
  const worldParameters = {
    baseUrl: req.baseUrl,
    format,
    user: conn.user,
    password: conn.password,
    alias: conn.alias,
    site: conn.site,
    profile: conn.profile,
  };
  const kept: Envelope[] = [];
  const track =
    req.onScenario || req.onAttachment
      ? scenarioTracker(
          (place, tags) => req.onScenario?.(format, place, tags),
          (place, body) => req.onAttachment?.(format, place, body),
        )
      : undefined;
  const onMessage = (m: Envelope): void => {
    track?.(m);
    if (!UNREAD.some((k) => m[k] !== undefined)) kept.push(m);
  };
  try {
    const ran = await runFeatures({ format, tags: req.tags, exclude: req.exclude, only: req.only, worldParameters, onMessage });
    // Nothing left to run: as if the features held no such scenario.
    if (ran.empty) return { scenarios: [], problems: [] };
  } catch (e) {
    const parsed = parseEnvelopes(kept, format);
    return { scenarios: parsed.scenarios.map(outcomeOf), problems: [redactText(`${format.toUpperCase()} run: ${(e as Error).message}`)] };
  }
  const parsed = parseEnvelopes(kept, format);
  return { scenarios: parsed.scenarios.map(outcomeOf), problems: parsed.problems.map((p) => redactText(p)) };
}

/** Runs the suite over each format, one after the other (they share the loaded steps). */
export async function runSuite(req: SuiteRequest): Promise<SuiteResult> {
  const scenarios: ScenarioOutcome[] = [];
  const problems: string[] = [];
  for (const format of req.formats) {
    const r = await runFormat(req, format);
    scenarios.push(...r.scenarios);
    problems.push(...r.problems);
  }
  return { scenarios, problems };
}
