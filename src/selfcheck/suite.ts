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
import { parseMessages, type ScenarioResult } from '../report/messages';
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
  const lines: string[] = [];
  const onMessage = (m: Envelope): void => void lines.push(JSON.stringify(m));
  try {
    const ran = await runFeatures({ format, tags: req.tags, exclude: req.exclude, worldParameters, onMessage });
    // Nothing left to run: as if the features held no such scenario.
    if (ran.empty) return { scenarios: [], problems: [] };
  } catch (e) {
    const parsed = parseMessages(lines.join('\n'), format);
    return { scenarios: parsed.scenarios.map(outcomeOf), problems: [redactText(`${format.toUpperCase()} run: ${(e as Error).message}`)] };
  }
  const parsed = parseMessages(lines.join('\n'), format);
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
