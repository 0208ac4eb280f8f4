/**
 * The conformance suite (features/*.feature, steps/) run in this process against one target, with cucumber's JS
 * API and no report files: the self-check runs it dozens of times, and needs only each scenario's verdict and
 * rules. It is `cardspec run` minus the reports (src/cli/run.ts): the same features, steps, world parameters and
 * tag expression per format.
 *
 * A scenario can be left out by its place (`features/auth.feature:12`, the line of the scenario or of an outline's
 * example row): the suite then runs as if that scenario had been removed from the features. That is how the
 * self-check shows a scenario to be the only one catching a variant.
 */
import { Writable } from 'node:stream';
import type { ISupportCodeLibrary } from '@cucumber/cucumber/api';
import type { Envelope } from '@cucumber/messages';
import { redactText, registerSecret } from '../redact';
import { parseMessages, type ScenarioResult } from '../report/messages';
import { BUILTIN_PROFILE } from '../target/profile';
import type { Format } from '../wire/types';
import { SUITE } from '../cli/run';
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

/**
 * Node caches the step modules, so only the first run of a process finds their definitions; later runs are handed
 * the first run's support code library (cucumber's way, as in src/cli/run.ts).
 */
let supportLibrary: ISupportCodeLibrary | undefined;

const KIT_PROBLEMS = new Set(['UNDEFINED', 'AMBIGUOUS', 'PENDING', 'UNFINISHED']);

/** The run's tag expression: the caller's, and never the scenarios of the other format. */
export function tagExpression(tags: string, format: Format): string {
  const others = (['json', 'xml'] as const).filter((f) => f !== format).map((f) => `not @format:${f}`);
  return [tags.trim() ? `(${tags})` : '', ...others].filter(Boolean).join(' and ');
}

function outcomeOf(s: ScenarioResult): ScenarioOutcome {
  const why = (s.error ?? s.reason ?? '').split('\n')[0];
  return {
    format: s.format,
    uri: s.uri,
    line: s.line,
    name: s.name,
    rules: s.rules,
    verdict: s.verdict,
    kitProblem: KIT_PROBLEMS.has(s.status),
    ...(why ? { why: redactText(why.length > 240 ? `${why.slice(0, 237)}...` : why) } : {}),
  };
}

/** `features/x.feature:1:2` paths selecting every planned scenario except the excluded ones. */
function pathsWithout(plan: readonly { uri: string; location: { line: number } }[], exclude: ReadonlySet<string>): string[] {
  const byFile = new Map<string, number[]>();
  for (const p of plan) {
    if (exclude.has(`${p.uri}:${p.location.line}`)) continue;
    const lines = byFile.get(p.uri) ?? [];
    lines.push(p.location.line);
    byFile.set(p.uri, lines);
  }
  return [...byFile].map(([uri, lines]) => `${uri}:${lines.join(':')}`);
}

async function runFormat(req: SuiteRequest, format: Format): Promise<SuiteResult> {
  const { loadConfiguration, loadSources, runCucumber } = await import('@cucumber/cucumber/api');
  const profile = BUILTIN_PROFILE;
  const credentials = profile.credentials!;
  registerSecret(credentials.password);
  const worldParameters = {
    baseUrl: req.baseUrl,
    format,
    user: credentials.user,
    password: credentials.password,
    alias: credentials.alias ?? credentials.user,
    site: profile.sites.main,
    profile,
  };
  const { runConfiguration } = await loadConfiguration(
    {
      file: false,
      provided: {
        paths: [SUITE.features],
        require: [SUITE.steps],
        requireModule: [SUITE.requireModule],
        format: [],
        tags: tagExpression(req.tags, format),
        parallel: 0,
        strict: true,
        publish: false,
        worldParameters: JSON.parse(JSON.stringify(worldParameters)),
      },
    },
    { cwd: SUITE.root },
  );
  let sources = runConfiguration.sources;
  if (req.exclude && req.exclude.length > 0) {
    const { plan } = await loadSources(sources, { cwd: SUITE.root });
    const paths = pathsWithout(plan, new Set(req.exclude));
    // Nothing left to run: as if the features held no such scenario.
    if (paths.length === 0) return { scenarios: [], problems: [] };
    sources = { ...sources, paths };
  }
  const lines: string[] = [];
  const onMessage = (m: Envelope): void => void lines.push(JSON.stringify(m));
  // Cucumber's own console output is not wanted: the verdicts come from the messages.
  const quiet = (): Writable => new Writable({ write: (_c, _e, cb) => cb() });
  try {
    const options = { ...runConfiguration, sources, ...(supportLibrary ? { support: supportLibrary } : {}) };
    const result = await runCucumber(options, { cwd: SUITE.root, stdout: quiet(), stderr: quiet() }, onMessage);
    supportLibrary = result.support;
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
