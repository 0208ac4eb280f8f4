/**
 * Several runs' reports into one: CI shards (`--shard 1/3` ...) and parallel workers each write a reports folder;
 * the merged matrix and summary are recomputed from the union of their scenario results (summary.json carries
 * them) and the union of their catalogues (matrix.json), never by adding up percentages.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactText } from '../redact';
import type { Format } from '../wire/types';
import type { CatalogueRule, RuleStatus } from '../rules/catalogue';
import type { ScenarioResult, Verdict } from './messages';
import { buildMatrix, buildSummary, scenarioKey, type Matrix, type RunMeta, type Summary } from './model';
import type { Waiver } from './waivers';
import { byText } from '../order';

export interface RunReports {
  readonly dir: string;
  readonly summary: Summary;
  readonly matrix?: Matrix;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
}

/** Reads a reports folder's summary.json (and matrix.json); a problem in plain words when it cannot. */
export function readRunReports(dir: string): RunReports | { readonly problem: string } {
  const summaryFile = path.join(dir, 'summary.json');
  let summary: unknown;
  try {
    summary = readJson(summaryFile);
  } catch (e) {
    return { problem: redactText(`${summaryFile}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : `not readable JSON (${(e as Error).message})`}`) };
  }
  if (!isRecord(summary) || summary.kind !== 'cardspec-certification-summary' || !Array.isArray(summary.scenarios) || !isRecord(summary.meta)) {
    return { problem: redactText(`${summaryFile} is not a cardspec certification summary`) };
  }
  let matrix: Matrix | undefined;
  try {
    const m = readJson(path.join(dir, 'matrix.json'));
    if (isRecord(m) && m.kind === 'cardspec-traceability-matrix' && Array.isArray(m.rules)) matrix = m as unknown as Matrix;
  } catch {
    matrix = undefined;
  }
  return { dir, summary: summary as unknown as Summary, ...(matrix ? { matrix } : {}) };
}

const WORST: readonly Verdict[] = ['skipped', 'passed', 'failed'];
const FORMAT_ORDER: readonly Format[] = ['json', 'xml'];

function unique(values: readonly (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => !!v))];
}

/** A reports folder as the merged reports name it: relative to where the command runs, never the machine's path. */
function shown(dir: string, cwd: string): string {
  return path.isAbsolute(dir) ? path.relative(cwd, dir) || '.' : dir;
}

/** `cwd`: the folder the command runs in (its io's), which the merged reports name the folders relative to. */
export function mergeRuns(given: readonly RunReports[], cwd: string = process.cwd()): { matrix: Matrix; summary: Summary } {
  const runs = given.map((r) => ({ ...r, dir: shown(r.dir, cwd) }));
  // The catalogue: the union of the runs' rules, the first run's wording winning.
  const rules = new Map<string, CatalogueRule>();
  for (const r of runs) {
    for (const row of r.matrix?.rules ?? []) {
      if (!rules.has(row.id))
        rules.set(row.id, {
          id: row.id,
          section: row.section,
          quote: row.quote,
          status: row.status as RuleStatus,
          ...(row.why ? { why: row.why } : {}),
          ...(row.formats ? { formats: row.formats } : {}),
          ...(row.scope ? { scope: row.scope } : {}),
        });
    }
  }
  // A scenario run by two runs (a re-run) keeps its worse verdict: a failure is never hidden by a later pass.
  const scenarios = new Map<string, ScenarioResult>();
  for (const r of runs) {
    for (const s of r.summary.scenarios) {
      const key = `${s.format}\u0000${scenarioKey(s)}`;
      const prev = scenarios.get(key);
      if (!prev || WORST.indexOf(s.verdict) > WORST.indexOf(prev.verdict)) scenarios.set(key, s);
    }
  }
  const metas = runs.map((r) => r.summary.meta);
  const formats = FORMAT_ORDER.filter((f) => metas.some((m) => m.formats.includes(f)));
  const meta: RunMeta = {
    target: unique(metas.map((m) => m.target)).join(', '),
    profile: unique(metas.map((m) => m.profile)).join(', '),
    formats,
    kitVersion: unique(metas.map((m) => m.kitVersion)).join(', '),
    interfaceVersions: metas[0]?.interfaceVersions ?? { json: '', xml: '' },
    startedAt: unique(metas.map((m) => m.startedAt)).sort()[0],
    finishedAt: unique(metas.map((m) => m.finishedAt))
      .sort()
      .at(-1),
    // The shards together are the whole run: the merged meta has neither shard nor tags (its scope is the whole
    // catalogue); a run that was narrowed makes the merge INCOMPLETE (missingParts), never a smaller scope.
  };
  const list = [...scenarios.values()].sort((a, b) => byText(a.uri, b.uri) || a.line - b.line || byText(a.format, b.format));
  const problems = unique([
    `merged from ${runs.length} run(s): ${runs.map((r) => r.dir).join(', ')}`,
    ...runs.flatMap((r) => r.summary.problems.filter((p) => !p.includes('is not in the rule catalogue'))),
    ...(runs.some((r) => !r.matrix) ? ['a run without matrix.json: its rules are missing from the merged catalogue'] : []),
  ]);
  const incomplete = unique([
    ...runs.flatMap((r) => r.summary.incompleteBecause.filter((i) => !(r.summary.meta.shard && /no scenario results/.test(i))).map((i) => `${r.dir}: ${i}`)),
    ...formats.filter((f) => !list.some((s) => s.format === f)).map((f) => `${f}: no scenario results`),
    ...missingParts(runs, formats),
  ]);
  // The waivers of every shard (each shard is run with the same file; a difference is shown, never hidden).
  const waivers = new Map<string, Waiver>();
  for (const r of runs) for (const w of r.summary.waivers ?? []) if (!waivers.has(`${w.kind}:${w.id}`)) waivers.set(`${w.kind}:${w.id}`, w);
  const matrix = buildMatrix(meta, [...rules.values()], list, [...waivers.values()]);
  return { matrix, summary: buildSummary(meta, matrix, list, problems, incomplete, { limitedByTags: false }) };
}

/**
 * What the merged runs lack of one whole run: a run narrowed by --tags, a shard of an i/n split that is not among
 * them, a format one run did not run. Each makes the merge INCOMPLETE, named, since the merge certifies the whole
 * suite; a whole run among them (neither sharded nor narrowed, in every format) stands for the whole by itself.
 */
export function missingParts(runs: readonly Pick<RunReports, 'dir' | 'summary'>[], formats: readonly Format[]): string[] {
  const whole = runs.some((r) => !r.summary.meta.shard && !r.summary.meta.tags && formats.every((f) => r.summary.meta.formats.includes(f)));
  if (whole) return [];
  const out: string[] = [];
  for (const r of runs) {
    const m = r.summary.meta;
    if (m.tags) out.push(`${r.dir} was narrowed by --tags "${m.tags}": the scenarios it left out were not run`);
    const lacking = formats.filter((f) => !m.formats.includes(f));
    if (lacking.length) out.push(`${r.dir} ran ${m.formats.map((f) => f.toUpperCase()).join(' and ') || 'no format'}, not ${lacking.map((f) => f.toUpperCase()).join(' and ')}`);
  }
  const shards = runs.map((r) => r.summary.meta.shard).filter((x): x is string => !!x);
  const totals = unique(shards.map((x) => x.split('/')[1]));
  if (totals.length > 1) out.push(`shards of different splits (${totals.map((t) => `of ${t}`).join(', ')}): their scenarios do not add up to one run`);
  else if (totals.length === 1) {
    const n = Number(totals[0]);
    const have = new Set(shards.map((x) => Number(x.split('/')[0])));
    const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !have.has(i));
    if (missing.length) out.push(`shard ${missing.map((i) => `${i}/${n}`).join(', ')} missing: no reports folder of it was given`);
  }
  return out;
}
