/**
 * `cardspec run --list`: what a run would do, by scenario and by rule, without sending a request. Cucumber's dry
 * run matches every step to its definition and runs nothing (no hook, no World, no target); the scenarios it would
 * run are read from its messages like those of a real run, and each is marked with what would skip it: the
 * `@requires:` tags the profile does not meet, read by the same `missingRequirement` the steps use.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { redactText } from '../redact';
import type { CatalogueRule } from '../rules/catalogue';
import type { Waiver } from '../report/waivers';
import { readMessagesFile } from '../report/messages';
import { missingRequirement, type Profile } from '../client/profile';
import type { Format } from '../wire/types';
import { isKitProblem, runFeatures, type SuiteFiles } from '.';
import { byText } from '../order';

export interface PlannedScenario {
  readonly format: Format;
  readonly uri: string;
  readonly line: number;
  readonly name: string;
  readonly rules: readonly string[];
  readonly tags: readonly string[];
  /** Why the run would skip it (the profile lacks what it requires); undefined when it would run. */
  readonly skip?: string;
  /** A step without a definition, or with several: the kit's own problem, told before the run. */
  readonly problem?: string;
}

export interface ListRequest {
  readonly format: Format;
  readonly tags?: string;
  readonly profile: Profile;
  readonly suite?: SuiteFiles;
  /** The user's features and step files (`--features`, `--require`). */
  readonly extra?: { readonly features?: readonly string[]; readonly require?: readonly string[] };
}

/** The scenarios a run of one format would run, in the order it would run them. */
export async function planScenarios(req: ListRequest): Promise<PlannedScenario[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-list-'));
  const messages = path.join(dir, 'messages.ndjson');
  try {
    await runFeatures({ suite: req.suite, extra: req.extra, format: req.format, tags: req.tags, dryRun: true, formatters: [['message', messages]] });
    return readMessagesFile(messages, req.format).scenarios.map((s) => {
      const reasons = s.requires.map((r) => missingRequirement(req.profile, r)).filter((r): r is string => r !== undefined);
      const problem = isKitProblem(s.status) ? s.reason : undefined;
      return {
        format: s.format,
        uri: s.uri,
        line: s.line,
        name: s.name,
        rules: s.rules,
        tags: s.tags,
        ...(reasons.length ? { skip: redactText(reasons.join('; ')) } : {}),
        ...(problem ? { problem } : {}),
      };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The listing: one line per scenario, then per rule of the catalogue how many scenarios would check it. */
export function listText(planned: readonly PlannedScenario[], catalogue: readonly CatalogueRule[], header: string, waivers: readonly Waiver[] = []): string {
  const lines = [header, ''];
  const waivedRule = new Map(waivers.filter((w) => w.kind === 'rule').map((w) => [w.id, w.reason]));
  const waivedTag = waivers.filter((w) => w.kind === 'tag');
  for (const s of planned) {
    const rules = s.rules.length ? `  [${s.rules.map((r) => (waivedRule.has(r) ? `${r} (waived)` : r)).join(' ')}]` : '';
    const tag = waivedTag.find((w) => s.tags.includes(w.id.startsWith('@') ? w.id : `@${w.id}`));
    const note = s.problem ? `  (kit problem: ${s.problem})` : s.skip ? `  (would be skipped: ${s.skip})` : tag ? `  (waived by ${tag.id}: ${tag.reason})` : '';
    lines.push(`${s.format.toUpperCase().padEnd(4)} ${s.uri}:${s.line}  ${s.name}${rules}${note}`);
  }
  const running = planned.filter((s) => !s.skip && !s.problem);
  // One catalogue for --list, the matrix and the summary: a field row (`FIELD-LENGTHS:pan`) counts under its rule.
  const known = new Set(catalogue.map((r) => r.id));
  const ruleOf = (id: string): string => (known.has(id) ? id : known.has(id.split(':')[0]) ? id.split(':')[0] : id);
  const byRule = new Map<string, { run: number; skipped: number; rows: Set<string> }>();
  for (const s of planned) {
    for (const id of new Set(s.rules.map(ruleOf))) {
      const c = byRule.get(id) ?? { run: 0, skipped: 0, rows: new Set<string>() };
      if (s.skip || s.problem) c.skipped += 1;
      else c.run += 1;
      byRule.set(id, c);
    }
    for (const r of s.rules) if (r !== ruleOf(r)) byRule.get(ruleOf(r))?.rows.add(r);
  }
  lines.push(
    '',
    `${planned.length} scenario(s): ${running.length} would run, ${planned.length - running.length} would be skipped.`,
    '',
    `Rules (${byRule.size}): scenarios that would check each (run/skipped)`,
  );
  for (const [id, c] of [...byRule].sort((a, b) => byText(a[0], b[0]))) {
    const waived = waivedRule.get(id);
    const rows = c.rows.size > 0 ? `  (${c.rows.size} field row(s), e.g. ${[...c.rows].sort(byText)[0]})` : '';
    lines.push(`  ${id.padEnd(36)} ${c.run}/${c.skipped}${rows}${known.has(id) ? '' : '  (not in the rule catalogue)'}${waived !== undefined ? `  waived: ${waived}` : ''}`);
  }
  const unchecked = catalogue.filter((r) => r.status === 'testable' && !byRule.has(r.id)).map((r) => r.id);
  if (unchecked.length)
    lines.push('', `Testable rules no listed scenario checks (${unchecked.length}): ${unchecked.slice(0, 20).join(', ')}${unchecked.length > 20 ? `, ... and ${unchecked.length - 20} more` : ''}`);
  return redactText(lines.join('\n'));
}
