/**
 * The certification summary in Markdown: what was tested, with which kit and interface versions, when (from the
 * run's own timestamps), the counts per request type and per flow, rule coverage and every failure with the rule
 * it broke. summary.json (the model itself) is what a CI gate reads.
 */
import type { Format } from '../wire/types';
import { coverageLine, COVERAGE_RULE } from './matrix';
import type { Counts, Summary } from './model';
import { firstLine, mdTable, quoteMarkdown } from './text';
import { causeLines, type Cause } from './causes';
import { groupLines, groupUnchecked } from './hints';

/** Why the verdict is what it is, in one line. */
export function verdictReason(s: Summary): string {
  const strict = s.meta.strict && (s.advisories ?? []).length > 0 ? `--strict: ${(s.advisories ?? []).length} SHOULD-level warning(s)` : undefined;
  if (s.result === 'failed')
    return [...(s.causes.length > 0 || !strict ? [`${s.causes.length} distinct cause(s) of ${s.totals.failed} failed scenario(s)`] : []), ...(strict ? [strict] : [])].join('; ');
  if (s.result === 'incomplete') {
    const rules = new Set((s.unchecked ?? []).filter((u) => u.rule !== 'scenario').map((u) => u.rule)).size;
    const skipped = (s.unchecked ?? []).filter((u) => u.rule === 'scenario').length;
    return [...s.incompleteBecause, ...(rules ? [`${rules} rule(s) in scope not checked`] : []), ...(skipped ? [`${skipped} scenario(s) in scope skipped`] : [])].join('; ');
  }
  const w = (s.waivers ?? []).length;
  return `every testable rule in scope was checked and held, in every format run${w > 0 ? ` (scope narrowed by ${w} waiver(s), listed below)` : ''}`;
}

/**
 * The verdict on the console: the result and why, then the distinct causes (each whole: rule, field, expected vs
 * seen, how many scenarios, an example), the waivers, and what in scope was not checked.
 */
export function verdictConsole(s: Summary, maxCauses = 10): string[] {
  const out = [`Result: ${s.result.toUpperCase()}: ${verdictReason(s)}`];
  const causes = s.causes ?? [];
  if (causes.length > 0) {
    out.push('', `Causes (${causes.length}):`);
    causes.slice(0, maxCauses).forEach((c, i) => out.push(...causeLines(c).map((l, j) => (j === 0 ? `  ${i + 1}. ${l}` : `     ${l}`))));
    if (causes.length > maxCauses) out.push(`  ... and ${causes.length - maxCauses} more cause(s) (summary.md, "Causes")`);
  }
  const advisories = s.advisories ?? [];
  if (advisories.length > 0) {
    out.push('', `Warnings (${advisories.length}; SHOULD-level, ${s.meta.strict ? 'failing the run: --strict' : 'a failure only with --strict'}):`);
    for (const a of advisories) out.push(`  ${a.rule} (${a.format.toUpperCase()}, ${a.scenarios} scenario(s)): ${a.message}`);
  }
  const waivers = s.waivers ?? [];
  if (waivers.length > 0) {
    out.push('', `Waivers (${waivers.length}):`);
    for (const w of waivers) out.push(`  ${w.id}: ${w.reason}`);
  }
  const unchecked = s.unchecked ?? [];
  if (s.result !== 'passed' && unchecked.length > 0) {
    // Each reason once, whole, with what it left unchecked and the way to check it.
    const groups = groupUnchecked(unchecked);
    out.push('', `Not checked in scope (${groups.length} reason(s)):`);
    for (const g of groups.slice(0, 6)) out.push(...groupLines(g, 8).map((l, j) => (j === 0 ? `  - ${l}` : `    ${l}`)));
    if (groups.length > 6) out.push(`  ... and ${groups.length - 6} more reason(s) (summary.html, summary.md)`);
  }
  return out;
}

function causeMarkdown(c: Cause, i: number): string[] {
  const out = [`### ${i + 1}. ${c.rule}${c.field ? ` · \`${c.field}\`` : ''} (${c.scenarios} scenario(s))`, ''];
  if (c.field && c.expected !== undefined) out.push(`- Expected: ${c.expected}`, `- Seen: ${c.seen ?? '(not recorded)'}`);
  out.push(`- ${c.message}`);
  if (c.parts.length) out.push(`- In ${c.parts.join(', ')} part(s)`);
  out.push(`- Example: ${c.example.scenario} (${c.example.format.toUpperCase()}, ${c.example.uri}:${c.example.line})${c.example.step ? `, at "${c.example.step}"` : ''}`);
  if (c.example.exchange) out.push('', '<details><summary>Example exchange (masked)</summary>', '', '```json', c.example.exchange.replace(/```/g, "'''"), '```', '', '</details>');
  out.push('');
  return out;
}

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
    `**Result: ${s.result.toUpperCase()}**: ${verdictReason(s)}`,
    '',
    ...(s.result === 'failed' ? ['## Causes', '', ...(s.causes ?? []).flatMap(causeMarkdown)] : []),
    '## Scope',
    '',
    `${s.scope ?? ''}.`,
    '',
    ...((s.advisories ?? []).length > 0
      ? [
          `Warnings (SHOULD-level points; ${s.meta.strict ? 'they fail this run: --strict' : 'a failure only with --strict'}):`,
          '',
          mdTable(
            ['Rule', 'Format', 'Scenarios', 'Warning'],
            (s.advisories ?? []).map((a) => [a.rule, a.format.toUpperCase(), String(a.scenarios), a.message]),
          ),
          '',
        ]
      : []),
    ...((s.waivers ?? []).length > 0
      ? [
          "Waivers (each narrows the scope; the reason is the operator's):",
          '',
          mdTable(
            ['Waived', 'Kind', 'Reason'],
            (s.waivers ?? []).map((w) => [w.id, w.kind, w.reason]),
          ),
          '',
        ]
      : ['No waivers.', '']),
    ...((s.unchecked ?? []).length > 0
      ? [
          'Not checked in scope (why the result is not PASSED), each reason once (summary.json `unchecked` lists every rule and scenario):',
          '',
          ...groupUnchecked(s.unchecked ?? []).flatMap((g) => {
            const [reason, what, how] = groupLines(g, 40);
            return [`- ${reason}`, `  ${what.trim()}`, ...(how ? [`  ${how.trim()}`] : [])];
          }),
          '',
        ]
      : []),
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
    mdTable(
      ['Format', 'Passed', 'Failed', 'Skipped'],
      formats.map((f) => [f.toUpperCase(), ...countCells(s.byFormat[f])]),
    ),
    '',
    '## Per request type',
    '',
    mdTable(
      ['Request type', 'Passed', 'Failed', 'Skipped', ...perFormatHeader(formats)],
      s.byRequestType.map((t) => [t.type, ...countCells(t), ...formats.flatMap((f) => countCells(t.byFormat[f]))]),
    ),
    '',
    '## Per flow',
    '',
    mdTable(
      ['Flow (feature)', 'File', 'Passed', 'Failed', 'Skipped', ...perFormatHeader(formats)],
      s.byFlow.map((f) => [f.feature, f.uri, ...countCells(f), ...formats.flatMap((x) => countCells(f.byFormat[x]))]),
    ),
    '',
    '## Failures',
    '',
  ];
  if (s.failures.length === 0) out.push('None.');
  for (const f of s.failures) {
    out.push(`### ${f.scenario} (${f.format.toUpperCase()})`, '', `${f.feature} · ${f.uri}:${f.line}`, '');
    for (const r of f.rules) out.push(`- Broke **${r.id}** (${r.section}): ${r.quote ? `"${firstLine(quoteMarkdown(r.quote), 300)}"` : ''}`);
    if (f.rules.length === 0) out.push('- No `@rule:` tag on this scenario.');
    out.push('', '```text', f.error.replace(/```/g, "'''"), '```', '');
  }
  out.push('', '## Skipped', '');
  if (s.skipped.length === 0) out.push('None.');
  else {
    // Each reason once, with the scenarios it skipped (a reason of 300 characters is not repeated per scenario).
    const byReason = new Map<string, string[]>();
    for (const k of s.skipped) byReason.set(k.reason, [...(byReason.get(k.reason) ?? []), `${k.scenario} (${k.feature}, ${k.format.toUpperCase()})`]);
    for (const [reason, list] of [...byReason.entries()].sort((a, b) => b[1].length - a[1].length)) {
      out.push(`- ${reason}: ${list.length} scenario(s): ${list.slice(0, 20).join('; ')}${list.length > 20 ? `; ... and ${list.length - 20} more (summary.json)` : ''}`);
    }
  }
  if (s.problems.length > 0) {
    out.push('', '## Problems with the run or the kit', '');
    for (const p of s.problems) out.push(`- ${p}`);
  }
  out.push('');
  return out.join('\n');
}
