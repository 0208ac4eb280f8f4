/**
 * The certification summary in Markdown: what was tested, with which kit and interface versions, when (from the
 * run's own timestamps), the counts per request type and per flow, rule coverage and every failure with the rule
 * it broke. summary.json (the model itself) is what a CI gate reads.
 */
import type { Format } from '../wire/types';
import { coverageLine, COVERAGE_RULE } from './matrix';
import type { Counts, Summary } from './model';
import { firstLine, mdTable } from './text';

function countCells(c: Counts | undefined): string[] {
  return c ? [String(c.passed), String(c.failed), String(c.skipped)] : ['-', '-', '-'];
}

function perFormatHeader(formats: readonly Format[]): string[] {
  return formats.flatMap((f) => [`${f.toUpperCase()} passed`, `${f.toUpperCase()} failed`, `${f.toUpperCase()} skipped`]);
}

export function summaryMarkdown(s: Summary): string {
  const m = s.meta;
  const formats = m.formats;
  const out: string[] = [
    '# Certification summary',
    '',
    `**Result: ${s.result.toUpperCase()}**${s.incompleteBecause.length > 0 ? ` (${s.incompleteBecause.join('; ')})` : ''}`,
    '',
    mdTable(
      ['Item', 'Value'],
      [
        ['Target', m.target],
        ['Format(s)', formats.join(', ') || 'none'],
        ['Profile', m.profile],
        ['Kit version', `cardspec ${m.kitVersion}`],
        ['Schema version', `JSON envelope ${m.interfaceVersions.json}; XML block ${m.interfaceVersions.xml}`],
        ['Date', s.date ?? 'unknown'],
        ['Run', `${m.startedAt ?? 'unknown'}${m.finishedAt ? ` to ${m.finishedAt}` : ''}`],
        ...(m.tags ? [['Tags', m.tags]] : []),
        ['Scenarios', `${s.totals.scenarios} (${s.totals.passed} passed, ${s.totals.failed} failed, ${s.totals.skipped} skipped)`],
      ],
    ),
    '',
    `**${coverageLine({ coverage: s.coverage, meta: m })}**`,
    '',
    COVERAGE_RULE,
    '',
    '## Per format',
    '',
    mdTable(['Format', 'Passed', 'Failed', 'Skipped'], formats.map((f) => [f.toUpperCase(), ...countCells(s.byFormat[f])])),
    '',
    '## Per request type',
    '',
    mdTable(['Request type', 'Passed', 'Failed', 'Skipped', ...perFormatHeader(formats)], s.byRequestType.map((t) => [t.type, ...countCells(t), ...formats.flatMap((f) => countCells(t.byFormat[f]))])),
    '',
    '## Per flow',
    '',
    mdTable(['Flow (feature)', 'File', 'Passed', 'Failed', 'Skipped', ...perFormatHeader(formats)], s.byFlow.map((f) => [f.feature, f.uri, ...countCells(f), ...formats.flatMap((x) => countCells(f.byFormat[x]))])),
    '',
    '## Failures',
    '',
  ];
  if (s.failures.length === 0) out.push('None.');
  for (const f of s.failures) {
    out.push(`### ${f.scenario} (${f.format.toUpperCase()})`, '', `${f.feature} · ${f.uri}:${f.line}`, '');
    for (const r of f.rules) out.push(`- Broke **${r.id}** (${r.section}): ${r.quote ? `"${firstLine(r.quote, 300)}"` : ''}`);
    if (f.rules.length === 0) out.push('- No `@rule:` tag on this scenario.');
    out.push('', '```text', f.error.replace(/```/g, "'''"), '```', '');
  }
  out.push('', '## Skipped', '');
  if (s.skipped.length === 0) out.push('None.');
  else out.push(mdTable(['Scenario', 'Flow', 'Format', 'Why'], s.skipped.map((k) => [k.scenario, k.feature, k.format.toUpperCase(), k.reason])));
  if (s.problems.length > 0) {
    out.push('', '## Problems with the run or the kit', '');
    for (const p of s.problems) out.push(`- ${p}`);
  }
  out.push('');
  return out.join('\n');
}
