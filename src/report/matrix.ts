/**
 * The traceability matrix as an auditor reads it: Markdown (for a repository or a review), a plain HTML page
 * (no script, opens from disk) and JSON (the model itself). Every rule of the catalogue is listed, with the
 * quoted sentence, the scenarios tagged with it and their verdict per format.
 */
import type { Format } from '../wire/types';
import { inScope, type FormatOutcome, type Matrix, type MatrixRow, type RuleOutcome } from './model';

/** The run's verdict, shown at the top of the matrix so that no page of the reports lacks it. */
export interface MatrixVerdict {
  readonly result: 'passed' | 'failed' | 'incomplete';
  /** Why, in a line (verdictReason). */
  readonly reason: string;
  /** The scope in words (Summary.scope). */
  readonly scope: string;
}
import { escapeHtml, firstLine, mdTable, quoteHtml, quoteMarkdown, ruleAnchor } from './text';

export function coverageLine(m: Pick<Matrix, 'coverage' | 'meta'>): string {
  const c = m.coverage;
  const pct = (p: number | null): string => (p === null ? 'n/a' : `${p.toFixed(1)}%`);
  const per = m.meta.formats.map((f) => `${f.toUpperCase()} ${c.byFormat[f]?.covered ?? 0} of ${c.byFormat[f]?.testable ?? c.testable} (${pct(c.byFormat[f]?.percent ?? null)})`).join(', ');
  return `Rule coverage: ${c.covered} of ${c.testable} testable rules in scope checked and held (${pct(c.percent)})${per ? `; per format, of the rules that apply to it: ${per}` : ''}.`;
}

export function metaLine(m: Pick<Matrix, 'meta'>): string {
  const x = m.meta;
  return [
    `Target: ${x.target}`,
    `Profile: ${x.profile}`,
    `Formats: ${x.formats.join(', ') || 'none'}`,
    `cardspec ${x.kitVersion}`,
    `Interface: JSON ${x.interfaceVersions.json}, XML ${x.interfaceVersions.xml}`,
    `Run: ${x.startedAt ?? 'unknown'}${x.finishedAt ? ` to ${x.finishedAt}` : ''}`,
    ...(x.tags ? [`Tags: ${x.tags}`] : []),
  ].join(' · ');
}

export const COVERAGE_RULE =
  'A testable rule is covered when at least one scenario tagged with it passed and none failed (in any format); a rule checked per field ' +
  '(its rows FIELD-LENGTHS:pan, ...) when each of its field rows is. The scope counts the testable rules of the catalogue that apply to a ' +
  'format run, less the waived ones: it does not change with what ran. Unspecified and untestable rules keep that verdict whatever their scenarios did.';

/** The overview's cell: how many of the scope's contexts some check reached (`2 of 6`). */
export function contextsCell(r: MatrixRow): string {
  const c = r.contexts;
  return c ? `${c.reached.length} of ${c.total}` : '-';
}

/**
 * Where a rule was checked against where it applies, in sentences: the exchanges, the contexts of its scope reached
 * (with how many exchanges each) and those no exchange reached. Said, never judged: the verdict does not change.
 */
export function contextsLines(r: MatrixRow): string[] {
  const c = r.contexts;
  if (!c) return [];
  const of = c.reached.length === c.total ? `in all ${c.total} contexts of its scope` : `in ${c.reached.length} of the ${c.total} contexts of its scope`;
  const head = c.exchanges === 0 ? `Where it applies: no exchange in its scope checked it (${c.total} context(s)).` : `Where it applies: checked in ${c.exchanges} exchange(s), ${of}.`;
  return [
    head,
    ...(c.reached.length > 0 ? [`Reached: ${c.reached.map((x) => `${x.context} (${x.exchanges})`).join('; ')}.`] : []),
    ...(c.unreached.length > 0 ? [`Not reached: ${c.unreached.join('; ')}.`] : []),
  ];
}

/** The contexts over the rules of the scope, in a line: how much of where the rules apply the run reached. */
export function contextsTotalLine(m: Pick<Matrix, 'rules' | 'meta'>): string | undefined {
  const rows = m.rules.filter((r) => r.contexts && inScope(r, m.meta.formats));
  if (rows.length === 0) return undefined;
  let total = 0;
  let reached = 0;
  for (const r of rows) {
    total += r.contexts!.total;
    reached += r.contexts!.reached.length;
  }
  const all = rows.filter((r) => r.contexts!.reached.length === r.contexts!.total).length;
  const none = rows.filter((r) => r.contexts!.reached.length === 0).length;
  const pct = total === 0 ? 'n/a' : `${(Math.round((reached / total) * 1000) / 10).toFixed(1)}%`;
  return `Contexts reached: ${reached} of the ${total} contexts of the scopes of the ${rows.length} testable rules in scope (${pct}); ${all} rule(s) checked in every context of their scope, ${none} in none.`;
}

export const CONTEXTS_RULE =
  "Contexts: each testable rule's scope (features/rules.yaml) names the situations its sentence covers (request types, outcomes, card " +
  'sources and lengths, separate or combined requests, parents, enrolment, shield status), per format. A context is reached when a check ' +
  'of the rule looked at an exchange in it. A context not reached was not checked by this run; it does not change the verdict.';

function outcomeText(o: RuleOutcome | undefined): string {
  if (!o) return '-';
  return o.verdict === 'passed' ? 'passed' : `${o.verdict}${o.reason && o.verdict !== 'failed' ? `: ${firstLine(o.reason, 120)}` : ''}`;
}

function scenarioOutcome(o: FormatOutcome | undefined): string {
  if (!o) return '-';
  if (o.verdict === 'failed') return `failed: ${firstLine(o.error ?? o.reason ?? '', 160)}`;
  if (o.verdict === 'skipped' || o.verdict === 'blocked') return `${o.verdict}: ${firstLine(o.reason ?? '', 160)}`;
  return 'passed';
}

/** The catalogue status, with the waiver that takes the rule out of scope. */
function catalogueCell(r: MatrixRow): string {
  const row = r.rollsUpTo ? `field row of ${r.rollsUpTo} · ` : r.fieldRows?.length ? `${r.fieldRows.length} field row(s) roll up · ` : '';
  return `${row}${r.status}${r.formats ? ` (${r.formats.join(', ')} only)` : ''}${r.waiver ? ' · waived' : ''}`;
}

function waiversMarkdown(m: Matrix): string[] {
  const w = m.waivers ?? [];
  if (w.length === 0) return ['No waivers: every testable rule is in scope.', ''];
  return [
    '## Waivers',
    '',
    "Each entry takes a rule (or the scenarios with a tag) out of the run's scope, for the reason given.",
    '',
    mdTable(
      ['Waived', 'Kind', 'Reason'],
      w.map((x) => [x.id, x.kind, x.reason]),
    ),
    '',
  ];
}

export function matrixMarkdown(m: Matrix, verdict?: MatrixVerdict): string {
  const formats = m.meta.formats;
  const head = verdict ? [`**Result: ${verdict.result.toUpperCase()}**: ${verdict.reason} (summary.html says what was certified and why)`, '', `Scope: ${verdict.scope}.`, ''] : [];
  const contexts = contextsTotalLine(m);
  const out: string[] = [
    '# Traceability matrix',
    '',
    ...head,
    metaLine(m),
    '',
    `**${coverageLine(m)}**`,
    '',
    COVERAGE_RULE,
    '',
    ...(contexts ? [contexts, ''] : []),
    CONTEXTS_RULE,
    '',
    ...waiversMarkdown(m),
    '## Overview',
    '',
  ];
  out.push(
    mdTable(
      ['Rule', 'Section', 'Catalogue', ...formats.map((f) => f.toUpperCase()), 'Overall', 'Scenarios', 'Contexts'],
      m.rules.map((r) => [
        `[${r.id}](#${ruleAnchor(r.id)})`,
        r.section,
        catalogueCell(r),
        ...formats.map((f) => outcomeText(r.byFormat[f])),
        r.overall.verdict,
        String(r.scenarios.length),
        contextsCell(r),
      ]),
    ),
  );
  out.push('', '## Rules', '');
  for (const r of m.rules) out.push(...ruleMarkdown(r, formats), '');
  if (m.unknownRules.length > 0) {
    out.push('## Tags naming no rule of the catalogue', '');
    for (const u of m.unknownRules) out.push(`- \`@rule:${u.id}\`: ${u.scenarios.join('; ')}`);
    out.push('');
  }
  return out.join('\n');
}

function ruleMarkdown(r: MatrixRow, formats: readonly Format[]): string[] {
  const out = [`### <a id="${ruleAnchor(r.id)}"></a>${r.id}: ${r.overall.verdict}`, '', `> ${quoteMarkdown(r.quote).replace(/\n/g, ' ')}`, ''];
  out.push(`Section: ${r.section || '-'} · Catalogue: ${catalogueCell(r)}${r.why ? ` · Why: ${r.why}` : ''}${r.waiver ? ` · Waived: ${r.waiver.reason}` : ''}`);
  out.push('');
  const where = contextsLines(r);
  if (where.length > 0) out.push(...where.map((l) => `- ${l}`), '');
  if (r.scenarios.length === 0) {
    out.push(r.status === 'testable' ? '_No scenario checks this rule._' : '_No scenario._');
    return out;
  }
  out.push(
    mdTable(
      ['Scenario', 'Feature', 'Location', ...formats.map((f) => f.toUpperCase())],
      r.scenarios.map((s) => [s.name, s.feature, `${s.uri}:${s.line}`, ...formats.map((f) => scenarioOutcome(s.results[f]))]),
    ),
  );
  return out;
}

function contextsHtml(r: MatrixRow): string {
  const lines = contextsLines(r);
  if (lines.length === 0) return '';
  return `<ul class="contexts">${lines.map((l) => `<li${l.startsWith('Not reached') ? ' class="unreached"' : ''}>${escapeHtml(l)}</li>`).join('')}</ul>`;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #bbb;padding:.25em .5em;text-align:left;vertical-align:top}blockquote{border-left:4px solid #bbb;margin:.5em 0;padding-left:1em}
.passed{background:#dff0d8}.failed{background:#f2dede}.skipped,.blocked{background:#fcf8e3}.not-covered{background:#eee}.unspecified,.untestable{background:#e8eef7}
pre{white-space:pre-wrap;margin:0}.verdict{font-weight:bold;padding:.2em .6em;border-radius:.3em}.v-passed{background:#2e7d32;color:#fff}
.v-failed{background:#c62828;color:#fff}.v-incomplete{background:#f9a825;color:#000}.unreached{color:#8a6d3b}`;

export function matrixHtml(m: Matrix, verdict?: MatrixVerdict): string {
  const formats = m.meta.formats;
  const cell = (verdict: string, text: string): string => `<td class="${escapeHtml(verdict)}">${escapeHtml(text)}</td>`;
  const rows = m.rules
    .map(
      (r) =>
        `<tr><td><a href="#${ruleAnchor(r.id)}">${escapeHtml(r.id)}</a></td><td>${escapeHtml(r.section)}</td><td>${escapeHtml(catalogueCell(r))}</td>` +
        formats.map((f) => cell(r.byFormat[f]?.verdict ?? '', outcomeText(r.byFormat[f]))).join('') +
        cell(r.overall.verdict, r.overall.verdict) +
        `<td>${r.scenarios.length}</td><td>${escapeHtml(contextsCell(r))}</td></tr>`,
    )
    .join('\n');
  const details = m.rules
    .map((r) => {
      const scen =
        r.scenarios.length === 0
          ? `<p><em>${r.status === 'testable' ? 'No scenario checks this rule.' : 'No scenario.'}</em></p>`
          : `<table><tr><th>Scenario</th><th>Feature</th><th>Location</th>${formats.map((f) => `<th>${f.toUpperCase()}</th>`).join('')}</tr>` +
            r.scenarios
              .map(
                (s) =>
                  `<tr><td>${escapeHtml(s.name)}</td><td>${escapeHtml(s.feature)}</td><td>${escapeHtml(`${s.uri}:${s.line}`)}</td>` +
                  formats
                    .map((f) => {
                      const o = s.results[f];
                      const text = !o
                        ? '-'
                        : o.verdict === 'failed'
                          ? `failed: ${o.error ?? o.reason ?? ''}`
                          : o.verdict === 'skipped' || o.verdict === 'blocked'
                            ? `${o.verdict}: ${o.reason ?? ''}`
                            : 'passed';
                      return `<td class="${o?.verdict ?? ''}"><pre>${escapeHtml(text)}</pre></td>`;
                    })
                    .join('') +
                  '</tr>',
              )
              .join('') +
            '</table>';
      return (
        `<section id="${ruleAnchor(r.id)}"><h3>${escapeHtml(r.id)}: <span class="${r.overall.verdict}">${escapeHtml(r.overall.verdict)}</span></h3>` +
        `<blockquote>${quoteHtml(r.quote)}</blockquote><p>Section: ${escapeHtml(r.section || '-')} · Catalogue: ${escapeHtml(r.status)}` +
        `${r.why ? ` · Why: ${escapeHtml(r.why)}` : ''}${r.waiver ? ` · Waived: ${escapeHtml(r.waiver.reason)}` : ''}${r.overall.reason && r.overall.verdict === 'skipped' ? ` · Skipped: ${escapeHtml(r.overall.reason)}` : ''}</p>${contextsHtml(r)}${scen}</section>`
      );
    })
    .join('\n');
  const unknown =
    m.unknownRules.length === 0
      ? ''
      : `<h2>Tags naming no rule of the catalogue</h2><ul>${m.unknownRules.map((u) => `<li><code>@rule:${escapeHtml(u.id)}</code>: ${escapeHtml(u.scenarios.join('; '))}</li>`).join('')}</ul>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cardspec traceability matrix</title><style>${STYLE}</style></head>
<body><h1>Traceability matrix</h1>
${
  verdict
    ? `<p><span class="verdict v-${escapeHtml(verdict.result)}">${escapeHtml(verdict.result.toUpperCase())}</span> ${escapeHtml(verdict.reason)}. <a href="summary.html">The certificate (summary.html)</a> says what was certified and why.</p><p>Scope: ${escapeHtml(verdict.scope)}.</p>`
    : ''
}
<p>${escapeHtml(metaLine(m))}</p>
<p><strong>${escapeHtml(coverageLine(m))}</strong></p>
<p>${escapeHtml(COVERAGE_RULE)}</p>
${contextsTotalLine(m) ? `<p>${escapeHtml(contextsTotalLine(m)!)}</p>` : ''}
<p>${escapeHtml(CONTEXTS_RULE)}</p>
${(m.waivers ?? []).length === 0 ? '<p>No waivers: every testable rule is in scope.</p>' : `<h2>Waivers</h2><table><tr><th>Waived</th><th>Kind</th><th>Reason</th></tr>${(m.waivers ?? []).map((w) => `<tr><td>${escapeHtml(w.id)}</td><td>${escapeHtml(w.kind)}</td><td>${escapeHtml(w.reason)}</td></tr>`).join('')}</table>`}
<h2>Overview</h2>
<table><tr><th>Rule</th><th>Section</th><th>Catalogue</th>${formats.map((f) => `<th>${f.toUpperCase()}</th>`).join('')}<th>Overall</th><th>Scenarios</th><th>Contexts</th></tr>
${rows}
</table>
<h2>Rules</h2>
${details}
${unknown}
</body></html>
`;
}
