/**
 * Scenario results written by hand for the report model's tests (matrix, summary, certificate): one shape, so that a
 * field the model gains is added here once.
 */
import type { ScenarioResult } from '../../src/report/messages';
import type { Format } from '../../src/wire/types';

export function scenarioResult(name: string, format: Format, rules: string[], verdict: ScenarioResult['verdict'], extra: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    format,
    feature: 'F',
    uri: 'f.feature',
    line: name.length,
    name,
    tags: rules.map((r) => `@rule:${r}`),
    rules,
    errorcodes: [],
    types: [],
    requires: [],
    verdict,
    status: verdict.toUpperCase(),
    durationMs: 1,
    attachments: 0,
    ...extra,
  } as ScenarioResult;
}
