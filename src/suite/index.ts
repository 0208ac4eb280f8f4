/**
 * The one place cucumber is started. `cardspec run` (src/cli/run.ts), the self-check (src/selfcheck/suite.ts), the
 * catalogue tests (a dry run over the real features) and the report fixture (its own features and steps) all run
 * features through `runFeatures`, so that the tag expression per format, the support-code cache and the way a bad
 * tag expression is told apart from a broken run are the same for all of them.
 *
 * Cucumber is imported lazily: `cardspec --help` and the commands that never run features do not pay for loading it.
 */
import * as path from 'node:path';
import { Writable } from 'node:stream';
import type { IConfiguration, ISupportCodeLibrary } from '@cucumber/cucumber/api';
import type { Envelope } from '@cucumber/messages';
import type { Format } from '../wire/types';

const ROOT = path.join(__dirname, '..', '..');

/** Where a suite lives: its features, its steps, and what cucumber loads before the steps. */
export interface SuiteFiles {
  /** The directory cucumber runs in (relative paths in the messages are relative to it). */
  readonly root: string;
  readonly features: string;
  readonly steps: string;
  readonly requireModule?: string;
}

/** The conformance suite: features/*.feature and steps/*.ts. */
export const SUITE: SuiteFiles = {
  root: ROOT,
  features: path.join(ROOT, 'features', '*.feature'),
  // The compiled steps where the kit is compiled (bin/typescript.js): the sources would load the TypeScript compiler.
  steps: path.join(ROOT, 'steps', `*${path.extname(__filename)}`),
  requireModule: path.join(ROOT, 'steps', 'register-ts.js'),
};

/** A cucumber formatter: a name (to the run's stdout) or a name and the file it writes. */
export type FormatterSpec = string | readonly [string, string];

export interface FeatureRun {
  /** Default: the conformance suite. */
  readonly suite?: SuiteFiles;
  /** The envelope form of the run: scenarios of the other format (`@format:xml` in a JSON run) never run in it. */
  readonly format?: Format;
  /** The caller's cucumber tag expression; empty or absent for every scenario. */
  readonly tags?: string;
  /** Scenarios to leave out, as `<feature file>:<line>` (a scenario's line, or an outline's example row). */
  readonly exclude?: readonly string[];
  /**
   * Only these scenarios, as `<feature file>:<line>` (relative to the suite's root): only their files are read, so
   * a run of a few scenarios does not parse every feature (the self-check runs thousands of such runs).
   */
  readonly only?: readonly string[];
  /** Handed to every World (JSON only: it crosses process boundaries with `parallel`). */
  readonly worldParameters?: unknown;
  readonly formatters?: readonly FormatterSpec[];
  /** Worker processes; 0 runs in this process. */
  readonly parallel?: number;
  /**
   * `i/n`: only the scenarios of shard i of n. The split is by a hash of the feature file and the scenario's name
   * (`shardOf`), so that it is the same in every format and every process, and a scenario added elsewhere moves no
   * other scenario to another shard.
   */
  readonly shard?: string;
  /**
   * A user's own features and step files (`cardspec run --features DIR --require FILE`), run with the suite's: they
   * use its step library and World. Absolute paths (cucumber resolves relative ones against the suite's root).
   */
  readonly extra?: { readonly features?: readonly string[]; readonly require?: readonly string[] };
  /** Match steps to definitions, run nothing (the catalogue tests). */
  readonly dryRun?: boolean;
  /** Every cucumber message, as it happens. */
  readonly onMessage?: (m: Envelope) => void;
  /** Cucumber's own console (formatters without a file); discarded when absent. */
  readonly stdout?: Writable;
  readonly stderr?: Writable;
}

export interface FeatureRunResult {
  /** Cucumber's own verdict: every scenario that ran passed (never read as the kit's verdict). */
  readonly success: boolean;
  /** Nothing was run: every scenario was excluded. */
  readonly empty: boolean;
}

/** The caller's tag expression is not one cucumber can parse; `detail` is cucumber's reason. */
export class TagExpressionError extends Error {
  constructor(
    readonly tags: string,
    readonly detail: string,
  ) {
    super(`not a valid tag expression: ${detail}`);
    this.name = 'TagExpressionError';
  }
}

// The one list of statuses that are the kit's problem lives beside the reading that produces them.
export { KIT_PROBLEM_STATUSES, isKitProblem } from '../report/messages';

/** The tag expression of a run: the caller's, and never the scenarios of the other format. */
export function tagExpression(tags: string | undefined, format: Format | undefined): string {
  const others = format ? (['json', 'xml'] as const).filter((f) => f !== format).map((f) => `not @format:${f}`) : [];
  return [tags?.trim() ? `(${tags})` : '', ...others].filter(Boolean).join(' and ');
}

/** `i/n` read and checked: 1 <= i <= n <= 1000. */
export function parseShard(text: string): { index: number; total: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const total = m ? Number(m[2]) : NaN;
  if (!m || total < 1 || total > 1000 || index < 1 || index > total) throw new ShardError(text);
  return { index, total };
}

/** A shard that is not `i/n` with 1 <= i <= n. */
export class ShardError extends Error {
  constructor(readonly text: string) {
    super(`--shard must be i/n with 1 <= i <= n <= 1000 (e.g. 2/3), not "${text}"`);
    this.name = 'ShardError';
  }
}

/**
 * The shard (1..total) of a scenario: FNV-1a of its feature file and name. Scenarios of one outline that share a
 * name go together; the formats, processes and machines of a CI matrix agree without talking to each other.
 */
export function shardOf(uri: string, name: string, total: number): number {
  let h = 0x811c9dc5;
  for (const ch of `${uri.replace(/\\/g, '/')}\u0000${name}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % total) + 1;
}

/** `features/x.feature:1:2` paths selecting every planned scenario except the excluded ones. */
export function pathsWithout(plan: readonly { uri: string; location: { line: number } }[], exclude: ReadonlySet<string>): string[] {
  const byFile = new Map<string, number[]>();
  for (const p of plan) {
    if (exclude.has(`${p.uri}:${p.location.line}`)) continue;
    const lines = byFile.get(p.uri) ?? [];
    lines.push(p.location.line);
    byFile.set(p.uri, lines);
  }
  return [...byFile].map(([uri, lines]) => `${uri}:${lines.join(':')}`);
}

/** `features/x.feature:1:2` paths selecting exactly the scenarios at these places (`<file>:<line>`). */
export function pathsOf(places: readonly string[]): string[] {
  const byFile = new Map<string, number[]>();
  for (const place of places) {
    const m = /^(.*):(\d+)$/.exec(place);
    if (!m) continue;
    const lines = byFile.get(m[1]) ?? [];
    lines.push(Number(m[2]));
    byFile.set(m[1], lines);
  }
  return [...byFile].map(([uri, lines]) => `${uri}:${[...new Set(lines)].join(':')}`);
}

/**
 * Node caches the step modules, so only the first run of a process finds their definitions; later runs are handed
 * the first run's support code library (cucumber's way). One library per set of step files: the report fixture's
 * steps are not the suite's.
 */
const supportLibraries = new Map<string, ISupportCodeLibrary>();

const discard = (): Writable => new Writable({ write: (_c, _e, cb) => cb() });

/** Runs the features once, over one format. Rejects with a `TagExpressionError`, or with cucumber's own error. */
export async function runFeatures(run: FeatureRun): Promise<FeatureRunResult> {
  const { loadConfiguration, loadSources, runCucumber } = await import('@cucumber/cucumber/api');
  const suite = run.suite ?? SUITE;
  const requireModule = suite.requireModule ? [suite.requireModule] : [];
  const stdout = run.stdout ?? discard();
  const stderr = run.stderr ?? discard();
  const environment = { cwd: suite.root, stdout, stderr };
  const tags = tagExpression(run.tags, run.format);
  const provided: Partial<IConfiguration> = {
    paths: [suite.features, ...(run.extra?.features ?? [])],
    require: [suite.steps, ...(run.extra?.require ?? [])],
    requireModule,
    format: (run.formatters ?? []).map((f): string | [string, string] => (typeof f === 'string' ? f : [f[0], f[1]])),
    tags,
    parallel: run.parallel ?? 0,
    strict: true,
    publish: false,
    dryRun: run.dryRun ?? false,
  };
  // A plain JSON copy: what the workers of a parallel run receive.
  if (run.worldParameters !== undefined) provided.worldParameters = JSON.parse(JSON.stringify(run.worldParameters)) as IConfiguration['worldParameters'];
  const { runConfiguration } = await loadConfiguration({ file: false, provided }, environment);
  let sources = runConfiguration.sources;
  if (run.only) {
    const paths = pathsOf(run.only);
    if (paths.length === 0) return { success: true, empty: true };
    sources = { ...sources, paths };
  }
  try {
    const shard = run.shard ? parseShard(run.shard) : undefined;
    if ((run.exclude && run.exclude.length > 0) || shard) {
      const { plan } = await loadSources(sources, environment);
      const inShard = shard ? plan.filter((p) => shardOf(p.uri, p.name, shard.total) === shard.index) : plan;
      const paths = pathsWithout(inShard, new Set(run.exclude ?? []));
      // Nothing left to run: as if the features held no such scenario.
      if (paths.length === 0) return { success: true, empty: true };
      sources = { ...sources, paths };
    }
    const key = JSON.stringify([suite.steps, requireModule, run.extra?.require ?? []]);
    const cached = supportLibraries.get(key);
    const options = { ...runConfiguration, sources, ...(cached ? { support: cached } : {}) };
    const result = await runCucumber(options, environment, run.onMessage);
    supportLibraries.set(key, result.support);
    return { success: result.success, empty: false };
  } catch (e) {
    const err = e as Error & { cause?: unknown };
    // Cucumber parses the tag expression only when it filters the scenarios: a bad one is the caller's mistake.
    if (/pickles:filter/.test(err.message)) throw new TagExpressionError(run.tags ?? '', err.cause instanceof Error ? err.cause.message : tags);
    throw e;
  }
}
