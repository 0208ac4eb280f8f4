/**
 * The reports of a run, written after cucumber finishes (and after a crash of the target, too). `cardspec run`
 * calls `cucumberFormats` before a run (extra cucumber formatters, e.g. Allure) and `writeReports` after it.
 * Owned by the reports work (JUnit, Allure, traceability matrix, certification summary); this first version only
 * names the files that exist.
 */
import type { Format } from '../wire/types';

export interface FormatRun {
  readonly format: Format;
  /** Cucumber messages (NDJSON) of this format's run. */
  readonly messages: string;
}

export interface RunArtifacts {
  readonly reportsDir: string;
  readonly runs: readonly FormatRun[];
  /** What was tested: base URL or `builtin`, profile name or path, kit version. */
  readonly target: string;
  readonly profile: string;
  readonly startedAt: string;
  readonly finishedAt: string;
}

/** Extra `format` entries for cucumber's configuration, for one format's run. */
export function cucumberFormats(_reportsDir: string, _format: Format): string[] {
  return [];
}

/** Writes every report of the run under `reportsDir`; returns the paths written. */
export async function writeReports(artifacts: RunArtifacts): Promise<string[]> {
  return artifacts.runs.map((r) => r.messages);
}
