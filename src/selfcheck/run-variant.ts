/**
 * One variant through the kit: a fresh instance for the suite, then another fresh instance for the short fuzz run,
 * so that neither sees the other's transactions or clock moves.
 *
 * A faulty variant is judged as a user sees it: caught when its rule (or a per-field row of it) fails in a run of
 * the whole suite, whichever scenario the failure came from (an invariant checked on every answer, a field
 * boundary example). The whole suite costs seconds per variant, the scenarios tagged with the rule tens of
 * milliseconds, so the tagged scenarios run first: a failure on the rule there is a failure of the same scenario
 * in the whole suite (scenarios share no state), and only a variant they do not catch runs the whole suite, on a
 * fresh instance. A benign variant runs the whole suite at once.
 */
import { redactText } from '../redact';
import { runShortFuzz, type ShortFuzz } from './fuzz';
import { startVariant } from './start';
import { runSuite } from './suite';
import type { Focus, FuzzOutcome, ScenarioOutcome, Variant, VariantRun } from './types';
import type { GeneratedVariant } from './mutants/variant';
import { catchers } from './verdict';
import type { Format } from '../wire/types';

export interface VariantRunOptions {
  /** The short fuzz run, or `false` for none. */
  readonly fuzz: ShortFuzz | false;
  /** Scenarios left out (`features/<file>:<line>`). */
  readonly exclude?: readonly string[];
  /**
   * `false`: a faulty variant runs only the scenarios of its rule (the ablation asks whether one of them is needed
   * among them). Default: the whole suite when those do not catch it.
   */
  readonly wholeSuite?: boolean;
  /**
   * The census's scenarios for this mutant (./census.ts): it runs only those, and the whole suite only when they
   * do not kill it; with none, it reached no answer in the whole suite and is not run.
   */
  readonly focus?: Focus;
}

/**
 * How many of a mutant's census scenarios run first, in one format: a kill needs one, and most fall to the first
 * ones, those tagged with its rule (at most FIRST_TAGGED of them) or else the first few.
 */
export const FIRST_FOCUSED = 3;
export const FIRST_TAGGED = 12;

const firstOf = (places: readonly string[], tagged: number): string[] => places.slice(0, Math.max(FIRST_FOCUSED, Math.min(tagged, FIRST_TAGGED)));

export const ALL_FORMATS: readonly Format[] = ['json', 'xml'];

/** The tag expression a faulty variant runs with first: the rule it breaks and its per-field rows; everything for a benign one. */
export const tagsFor = (v: Variant): string => (v.kind === 'faulty' ? `@rule:${v.rule}` : '');

/**
 * Whether a variant not caught by its rule's scenarios runs the whole suite. A generated mutant the document cannot
 * tell from the reference (`equivalent`) does not: it must survive, and a whole suite for each of the 137 of them
 * would cost minutes of CI for no verdict (docs/selfcheck.md).
 */
const widens = (v: Variant, opts: VariantRunOptions): boolean => v.kind === 'faulty' && opts.wholeSuite !== false && !(v as Partial<GeneratedVariant>).equivalent;

interface SuiteOn {
  readonly scenarios: ScenarioOutcome[];
  readonly reached?: number;
}

async function suiteOn(variant: Variant, formats: readonly Format[], tags: string, exclude: readonly string[] | undefined, problems: string[], only?: readonly string[]): Promise<SuiteOn> {
  try {
    const gw = await startVariant(variant);
    try {
      const r = await runSuite({ baseUrl: gw.url, formats, tags, exclude, only });
      problems.push(...r.problems);
      return { scenarios: r.scenarios, ...(gw.reached ? { reached: gw.reached() } : {}) };
    } finally {
      await gw.close();
    }
  } catch (e) {
    problems.push(redactText(`the variant could not be run: ${(e as Error).message.split('\n')[0]}`));
    return { scenarios: [] };
  }
}

/**
 * A mutant on its census scenarios: first the few that come first in the first format where it changed an answer
 * (a kill needs one failure, and most come there), then all of them in both formats on one instance (an XML run is
 * compared with the JSON run of the same scenario, src/suite/twins.ts, so a change in one format can fail the
 * other); a kill ends it. Undefined when they do not kill it (the whole suite then judges it); a run with nothing
 * reached when the census saw it change no answer.
 */
async function runFocused(variant: Variant, focus: Focus, formats: readonly Format[], opts: VariantRunOptions, started: number): Promise<VariantRun | undefined> {
  const left = new Set(opts.exclude ?? []);
  const base = { name: variant.name, tags: '', formats, problems: [] as string[] };
  if (formats.every((f) => focus[f].length === 0)) {
    return { ...base, wholeSuite: true, scenarios: [], reached: 0, census: 'unreached', durationMs: Math.round(performance.now() - started) };
  }
  if (variant.kind !== 'faulty') return undefined;
  const first = formats.find((f) => focus[f].length > 0)!;
  const all = [...new Set(formats.flatMap((f) => focus[f]))];
  const stages: [readonly Format[], string[]][] = [
    [
      [first],
      firstOf(
        focus[first].filter((p) => !left.has(p)),
        focus.tagged?.[first] ?? 0,
      ),
    ],
    [formats, all.filter((p) => !left.has(p))],
  ];
  const scenarios: ScenarioOutcome[] = [];
  const problems: string[] = [];
  let reached = 0;
  for (const [fs, chosen] of stages) {
    if (chosen.length === 0) continue;
    const r = await suiteOn(variant, fs, '', undefined, problems, chosen);
    scenarios.push(...r.scenarios);
    reached += r.reached ?? 0;
    if (catchers(variant.rule, r.scenarios).length > 0) {
      return { ...base, problems, scenarios, reached, census: { focused: scenarios.length }, durationMs: Math.round(performance.now() - started) };
    }
  }
  return undefined;
}

export async function runVariant(variant: Variant, opts: VariantRunOptions): Promise<VariantRun> {
  const started = performance.now();
  const formats = variant.formats ?? ALL_FORMATS;
  // The census speaks of the suite alone: a variant with a fuzz run, or one kept to its rule's scenarios, runs as before.
  const focusing = opts.focus !== undefined && !opts.fuzz && opts.wholeSuite !== false;
  if (focusing) {
    const focused = await runFocused(variant, opts.focus!, formats, opts, started);
    if (focused) return focused;
  }
  // Not killed where the census saw it change answers: judged on the whole suite at once.
  let tags = focusing ? '' : tagsFor(variant);
  const problems: string[] = [];
  let suite = await suiteOn(variant, formats, tags, opts.exclude, problems);
  let wholeSuite = tags === '';
  if (variant.kind === 'faulty' && widens(variant, opts) && catchers(variant.rule, suite.scenarios).length === 0) {
    // Not caught where its rule is tagged: the whole suite, as `cardspec run` would run it against this gateway.
    const whole: string[] = [];
    suite = await suiteOn(variant, formats, '', opts.exclude, whole);
    problems.length = 0;
    problems.push(...whole);
    tags = '';
    wholeSuite = true;
  }
  const { scenarios } = suite;
  let fuzz: FuzzOutcome | undefined;
  if (opts.fuzz) {
    try {
      const gw = await startVariant(variant);
      try {
        fuzz = await runShortFuzz(gw.url, formats, opts.fuzz);
      } finally {
        await gw.close();
      }
    } catch (e) {
      fuzz = { ran: false, failures: [], problems: [redactText(`the fuzz run could not start: ${(e as Error).message.split('\n')[0]}`)], durationMs: 0 };
    }
  }
  return {
    name: variant.name,
    tags,
    wholeSuite,
    formats,
    scenarios,
    problems,
    ...(fuzz ? { fuzz } : {}),
    ...(suite.reached !== undefined ? { reached: suite.reached } : {}),
    durationMs: Math.round(performance.now() - started),
  };
}
