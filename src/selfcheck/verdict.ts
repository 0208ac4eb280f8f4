/**
 * The verdicts, as a user of the kit sees them: a faulty variant is caught when the rule it breaks, or a per-field
 * row of it (`FIELD-LENGTHS:pan` for FIELD-LENGTHS), fails in a run of the suite, whichever scenario carried the
 * failure (./run-variant.ts runs the whole suite when the rule's own scenarios miss it); a failure under another
 * rule does not count. A benign variant must pass everything (every scenario, and the fuzz run). A kit problem (a
 * step without a definition) is neither a catch nor a pass. The score counts both, and the fuzz run alone: what
 * fuzzing adds, with no scenario.
 */
import { redactText } from '../redact';
import type { ScenarioOutcome, Variant, VariantRun, VariantVerdict } from './types';

/** `features/auth.feature:12 [json]`: where a scenario is, and in which run. */
export const placeOf = (s: Pick<ScenarioOutcome, 'uri' | 'line' | 'format'>): string => `${s.uri}:${s.line} [${s.format}]`;

/**
 * The scenarios that catch a faulty variant: failed on its rule (a failed check of that rule; for a result
 * without check records, a failed scenario tagged with it).
 */
export function catchers(rule: string, scenarios: readonly ScenarioOutcome[]): ScenarioOutcome[] {
  return scenarios.filter((s) => s.verdict === 'failed' && !s.kitProblem && onRule(rule, s.broken ?? s.rules));
}

/** A rule or one of its per-field rows (`FIELD-LENGTHS:billingemail` is FIELD-LENGTHS). */
const onRule = (rule: string, ids: readonly string[]): boolean => ids.some((id) => id === rule || id.startsWith(`${rule}:`));

export function verdictOf(variant: Variant, run: VariantRun): VariantVerdict {
  const base = {
    name: variant.name,
    kind: variant.kind,
    area: variant.area,
    what: variant.what,
    scenariosRun: run.scenarios.length,
    ...(run.reached !== undefined ? { reached: run.reached } : {}),
    durationMs: run.durationMs,
  };
  const fuzz = run.fuzz?.ran ? run.fuzz : undefined;
  const problems = run.problems.length > 0 ? ` (${run.problems[0]})` : '';

  if (variant.kind === 'faulty') {
    const caught = catchers(variant.rule, run.scenarios);
    const fuzzRules = fuzz ? [...new Set(fuzz.failures.map((f) => f.rule))] : [];
    const failedElsewhere = run.scenarios.filter((s) => s.verdict === 'failed' && !onRule(variant.rule, s.broken ?? s.rules));
    let note: string;
    if (caught.length > 0) note = caught[0].why ?? 'failed';
    else if (run.census === 'unreached') note = 'its change reached no answer in the census run of the whole suite (both formats): no scenario builds that context';
    else if (run.scenarios.length === 0) note = `no scenario ${run.wholeSuite ? 'of the suite' : `tagged @rule:${variant.rule}`} ran${problems}`;
    else if (failedElsewhere.length > 0)
      note = `failed only on other rules${run.wholeSuite ? ' in the whole suite' : ''} (${[...new Set(failedElsewhere.flatMap((s) => s.broken ?? s.rules))].slice(0, 4).join(', ')}): ${placeOf(failedElsewhere[0])}`;
    else if (run.wholeSuite) note = `the whole suite passed (${run.scenarios.length} scenario runs): a gap in the suite${problems}`;
    else note = `${run.scenarios.length} scenario(s) tagged @rule:${variant.rule} passed: a gap in the suite${problems}`;
    return {
      ...base,
      rule: variant.rule,
      ok: caught.length > 0,
      caughtBy: caught.map(placeOf),
      ...(caught.length > 0 ? { catcherName: caught[0].name } : {}),
      note: redactText(note),
      fuzzOk: fuzz ? fuzzRules.includes(variant.rule) : undefined,
      fuzzRules,
    };
  }

  const bad = run.scenarios.filter((s) => s.verdict === 'failed' || s.kitProblem);
  const fuzzFailures = fuzz?.failures ?? [];
  let note: string;
  if (run.scenarios.length === 0) note = `no scenario ran${problems}`;
  else if (bad.length > 0) note = `${bad.length} scenario(s) failed; first ${placeOf(bad[0])}: ${bad[0].why ?? ''}`;
  else if (run.problems.length > 0) note = `a problem outside the scenarios: ${run.problems[0]}`;
  else if (fuzzFailures.length > 0) note = `the fuzz run failed (${fuzzFailures[0].rule}): ${fuzzFailures[0].what}`;
  else note = `passed ${run.scenarios.filter((s) => s.verdict === 'passed').length} scenario(s)`;
  const ok = run.scenarios.length > 0 && bad.length === 0 && run.problems.length === 0 && fuzzFailures.length === 0;
  return {
    ...base,
    ok,
    caughtBy: [],
    note: redactText(note),
    fuzzOk: fuzz ? fuzzFailures.length === 0 : undefined,
    fuzzRules: [...new Set(fuzzFailures.map((f) => f.rule))],
  };
}

export interface Score {
  readonly faulty: { readonly caught: number; readonly total: number };
  readonly benign: { readonly passed: number; readonly total: number };
  /** The fuzz run alone; absent when it ran for no variant. */
  readonly fuzz?: {
    readonly faulty: { readonly caught: number; readonly flagged: number; readonly total: number };
    readonly benign: { readonly passed: number; readonly total: number };
  };
}

export function scoreOf(verdicts: readonly VariantVerdict[]): Score {
  const faulty = verdicts.filter((v) => v.kind === 'faulty');
  const benign = verdicts.filter((v) => v.kind === 'benign');
  const fuzzed = verdicts.filter((v) => v.fuzzOk !== undefined);
  const fuzzFaulty = fuzzed.filter((v) => v.kind === 'faulty');
  const fuzzBenign = fuzzed.filter((v) => v.kind === 'benign');
  return {
    faulty: { caught: faulty.filter((v) => v.ok).length, total: faulty.length },
    benign: { passed: benign.filter((v) => v.ok).length, total: benign.length },
    ...(fuzzed.length > 0
      ? {
          fuzz: {
            faulty: { caught: fuzzFaulty.filter((v) => v.fuzzOk).length, flagged: fuzzFaulty.filter((v) => v.fuzzRules.length > 0).length, total: fuzzFaulty.length },
            benign: { passed: fuzzBenign.filter((v) => v.fuzzOk).length, total: fuzzBenign.length },
          },
        }
      : {}),
  };
}

/** The self-check passes when every faulty variant is caught and every benign one passes. */
export const passed = (verdicts: readonly VariantVerdict[]): boolean => verdicts.length > 0 && verdicts.every((v) => v.ok);
