/**
 * The JSON run's calls of each scenario, kept in this process for the XML run that follows it, so that each step's
 * two answers are compared (src/wire/twins.ts) without a request more: `cardspec run --format both` and the
 * self-check run the formats one after the other in one process. With `--parallel` the runs' workers are other
 * processes and nothing is compared (the formats' own checks still run).
 *
 * A scenario is known by its target, feature file, name and step texts, and its occurrence among scenarios with
 * the same (an outline's examples that read alike), so that the two runs name it alike. The JSON run's start
 * forgets what an earlier pair of runs kept, and the XML run's end forgets its pair's: a run of another target, or
 * of one format only, is never compared with a run it was not paired with.
 */
import type { Format } from '../wire/types';
import type { TwinCall } from '../wire/twins';

/** The form whose run is kept, and the form whose run compares with it. */
export const FIRST: Format = 'json';
export const SECOND: Format = 'xml';

/** One call of a scenario, or `undefined` for one that is not compared (no answer, a refusal the document leaves open). */
export type KeptCall = TwinCall | undefined;

const kept = new Map<string, readonly KeptCall[]>();
const seen = new Map<string, number>();

/** A run of `format` starts. */
export function runStarts(format: Format): void {
  seen.clear();
  if (format === FIRST) kept.clear();
}

/** A run of `format` ended. */
export function runEnds(format: Format): void {
  seen.clear();
  if (format === SECOND) kept.clear();
}

/** The key of a scenario of this run (the same for its twin in the other run). */
export function scenarioKey(baseUrl: string, uri: string, name: string, steps: readonly string[]): string {
  const base = JSON.stringify([baseUrl, uri, name, steps]);
  const n = (seen.get(base) ?? 0) + 1;
  seen.set(base, n);
  return `${base}#${n}`;
}

export function keep(key: string, calls: readonly KeptCall[]): void {
  kept.set(key, calls);
}

/** The first run's calls of the scenario, when that run made it. */
export function twinOf(key: string): readonly KeptCall[] | undefined {
  return kept.get(key);
}
