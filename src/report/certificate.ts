/**
 * summary.html: the certificate an auditor opens from disk. One plain page (no script, nothing fetched, the style
 * inline) that says from itself what was certified and what was not: the verdict in words and colour, what was
 * tested with which kit and document, the scope and everything that narrowed it (tags, shards, waivers with their
 * reasons), what in scope was not checked and why (each reason once, with the way to check it), the causes of the
 * failures first (expected vs seen, one masked exchange), and links to the matrix and the Allure report. It renders
 * the summary model only (model.ts), so a merge of shards gets the same page.
 */
import type { Format } from '../wire/types';
import type { Counts, Summary } from './model';
import type { Cause } from './causes';
import { COVERAGE_RULE } from './matrix';
import { groupUnchecked } from './hints';
import { verdictReason } from './summary';
import { escapeHtml, quoteHtml, ruleAnchor } from './text';

export interface CertificateLinks {
  /** The traceability matrix, relative to the page. */
  readonly matrix: string;
  /** The Allure report's page, relative to the page, and whether it is there yet. */
  readonly allure: string;
  readonly allureWritten: boolean;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;line-height:1.4;color:#222}
h1{margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #bbb;padding:.25em .5em;text-align:left;vertical-align:top}th{background:#f4f4f4}
.verdict{font-size:1.6em;font-weight:bold;padding:.4em .8em;border-radius:.3em;display:inline-block;margin:.3em 0}
.v-passed{background:#2e7d32;color:#fff}.v-failed{background:#c62828;color:#fff}.v-incomplete{background:#f9a825;color:#000}
.note{color:#555;font-size:.92em}pre{white-space:pre-wrap;word-break:break-all;background:#f7f7f7;padding:.5em;border:1px solid #ddd;max-height:30em;overflow:auto}
.cause{border-left:4px solid #c62828;padding-left:1em;margin:1em 0}.reason{border-left:4px solid #f9a825;padding-left:1em;margin:1em 0}
blockquote{border-left:4px solid #bbb;margin:.5em 0;padding-left:1em;color:#444}code{background:#f2f2f2;padding:0 .2em}`;

const MEANING: Record<Summary['result'], string> = {
  passed: 'The target conforms to every testable rule in scope: each was checked, in every format run, and held.',
  failed: 'The target broke at least one rule of the document: it does not conform. The causes follow first.',
  incomplete: 'Nothing failed, but part of the scope was not checked: this run certifies no conformance. What was not checked, and why, follows.',
};

const h = escapeHtml;
const pct = (p: number | null): string => (p === null ? 'n/a' : `${p.toFixed(1)}%`);
const counts = (c: Counts | undefined): string => (c ? `${c.scenarios} run: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped` : '-');

function row(label: string, value: string, raw = false): string {
  return `<tr><th>${h(label)}</th><td>${raw ? value : h(value)}</td></tr>`;
}

function causeHtml(c: Cause, i: number, quotes: ReadonlyMap<string, string>, matrix: string): string {
  const quote = quotes.get(c.rule);
  const lines = [
    `<div class="cause"><h3>${i + 1}. Broke <a href="${h(matrix)}#${ruleAnchor(c.rule)}">${h(c.rule)}</a>${c.field ? ` on <code>${h(c.field)}</code>` : ''}: ${c.scenarios} scenario(s)${c.formats.length ? ` in ${h(c.formats.map((f) => f.toUpperCase()).join(' and '))}` : ''}${c.parts.length ? `, in the ${h(c.parts.join(', '))} part(s)` : ''}</h3>`,
    ...(quote ? [`<blockquote>${quoteHtml(quote)}</blockquote>`] : []),
    '<table>',
    ...(c.expected !== undefined ? [row('Expected', c.expected)] : []),
    ...(c.seen !== undefined ? [row('Seen', c.seen)] : []),
    row('The failure', c.message),
    row('Example', `${c.example.scenario} (${c.example.format.toUpperCase()}, ${c.example.uri}:${c.example.line})${c.example.step ? `, at the step "${c.example.step}"` : ''}`),
    '</table>',
    ...(c.example.exchange ? [`<details open><summary>The example's exchange (masked)</summary><pre>${h(c.example.exchange)}</pre></details>`] : []),
    '</div>',
  ];
  return lines.join('\n');
}

function formatsText(formats: readonly Format[]): string {
  return formats.map((f) => (f === 'json' ? 'JSON' : 'XML')).join(' and ') || 'none';
}

export function certificateHtml(s: Summary, links: CertificateLinks): string {
  const m = s.meta;
  const verdict = s.result.toUpperCase();
  const quotes = new Map<string, string>();
  for (const f of s.failures) for (const r of f.rules) if (r.quote) quotes.set(r.id, r.quote);
  const c = s.coverage;
  const k = c.catalogue;
  const groups = groupUnchecked(s.unchecked ?? []);
  const narrowed = [
    ...(m.tags ? [`--tags "${m.tags}": only the scenarios matching it were run; the verdict speaks of their rules only`] : []),
    ...(m.shard ? [`--shard ${m.shard}: one shard of a split run; merge every shard with \`cardspec report --merge\` for the whole verdict`] : []),
    ...(s.incompleteBecause ?? []).filter((r) => /narrowed|shard|ran .*, not /.test(r)),
  ];
  const waivers = s.waivers ?? [];

  const out: string[] = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>cardspec certificate: ${h(verdict)} · ${h(m.target)}</title><style>${STYLE}</style></head><body>`,
    '<h1>Conformance certificate</h1>',
    `<p class="note">Card Payment Web Service · checked by cardspec ${h(m.kitVersion)} · ${h(s.date ?? 'date unknown')}</p>`,
    `<div class="verdict v-${h(s.result)}" id="verdict">${h(verdict)}</div>`,
    `<p><strong>${h(MEANING[s.result])}</strong></p>`,
    ...(s.result === 'passed' ? [] : [`<p>${h(verdictReason(s))}.</p>`]),

    '<h2 id="tested">What was tested</h2>',
    '<table>',
    row('Target', m.target),
    row('Profile (the target’s test data and capabilities)', m.profile),
    row('Formats (envelopes)', formatsText(m.formats)),
    row('Document', `Card Payment Web Service (docs/spec/card-payment-web-service.md)${m.documentSha256 ? `, sha256 ${m.documentSha256}` : ''}`),
    row('Interface versions', `JSON envelope ${m.interfaceVersions.json}; XML block ${m.interfaceVersions.xml}`),
    row('Kit', `cardspec ${m.kitVersion}`),
    row('Run (UTC)', `${m.startedAt ?? 'unknown'}${m.finishedAt ? ` to ${m.finishedAt}` : ''}`),
    row('Scenarios (each run once per format)', counts(s.totals)),
    ...m.formats.map((f) => row(`Scenarios in ${f.toUpperCase()}`, counts(s.byFormat[f]))),
    '</table>',

    '<h2 id="scope">Scope: what the verdict speaks of</h2>',
    `<p><strong>${c.testable} testable rule(s)</strong> of the document are in scope: the testable rules of the rule catalogue that apply to ${h(formatsText(m.formats))}, less the waived ones. This number depends on the formats and the waivers only, never on what ran.</p>`,
    '<table>',
    row('Rules in the catalogue (sentences of the document)', String(k.rules)),
    row('Testable', String(k.testable)),
    row('Waived (out of scope, reasons below)', String(k.waived)),
    row('Of a format this run did not use', String(k.otherFormat)),
    row('Untestable (nothing on the interface shows them; never a failure)', String(k.untestable)),
    row('Unspecified by the document ("not shown"; never a failure)', String(k.unspecified)),
    row('In scope', String(c.testable)),
    '</table>',
    narrowed.length ? `<p><strong>Narrowed:</strong></p><ul>${narrowed.map((n) => `<li>${h(n)}</li>`).join('')}</ul>` : '<p>Not narrowed: no --tags, no shard.</p>',
    waivers.length
      ? `<p><strong>Waivers</strong> (each takes a rule, or the scenarios with a tag, out of scope; the reason is the operator's):</p><table><tr><th>Waived</th><th>Kind</th><th>Reason</th></tr>${waivers.map((w) => `<tr><td>${h(w.id)}</td><td>${h(w.kind)}</td><td>${h(w.reason)}</td></tr>`).join('')}</table>`
      : '<p>No waivers.</p>',
  ];

  if (s.causes.length > 0) {
    out.push(
      '<h2 id="causes">Causes of the failures</h2>',
      `<p>${s.causes.length} distinct cause(s) of ${s.totals.failed} failed scenario(s), most scenarios first; each with what the document expects, what the target answered, and one exchange (masked).</p>`,
    );
    s.causes.forEach((cause, i) => out.push(causeHtml(cause, i, quotes, links.matrix)));
  }

  if (groups.length > 0 || (s.incompleteBecause ?? []).length > 0) {
    out.push('<h2 id="unchecked">Not checked in scope, and why</h2>');
    const general = (s.incompleteBecause ?? []).filter((r) => !narrowed.includes(r));
    if (general.length) out.push(`<ul>${general.map((r) => `<li>${h(r)}</li>`).join('')}</ul>`);
    for (const g of groups) {
      const rules = g.rules.map((r) => `<a href="${h(links.matrix)}#${ruleAnchor(r.id)}">${h(r.id)}</a>${r.formats.length === 1 && m.formats.length > 1 ? ` (${h(r.formats[0].toUpperCase())})` : ''}`);
      out.push(
        `<div class="reason"><p><strong>${h(g.reason)}</strong></p><p>${[
          ...(rules.length ? [`${rules.length} rule(s): ${rules.join(', ')}`] : []),
          ...(g.scenarios ? [`${g.scenarios} scenario(s) skipped (summary.json lists each)`] : []),
        ].join('; ')}</p>${g.how ? `<p>To check it: ${h(g.how)}${g.waivable ? '. If it is outside your certification, waive it with a written reason (--waivers).' : '.'}</p>` : ''}</div>`,
      );
    }
  }

  out.push(
    '<h2 id="figures">Figures</h2>',
    '<table>',
    row('Rule coverage', `${c.covered} of ${c.testable} rules in scope checked and held (${pct(c.percent)})`),
    ...m.formats.map((f) =>
      row(
        `Rule coverage in ${f.toUpperCase()}`,
        `${c.byFormat[f]?.covered ?? 0} of the ${c.byFormat[f]?.testable ?? c.testable} rules in scope that apply to ${f.toUpperCase()} (${pct(c.byFormat[f]?.percent ?? null)})`,
      ),
    ),
    row('Failed scenarios', String(s.totals.failed)),
    row('Skipped scenarios', String(s.totals.skipped)),
    '</table>',
    `<p class="note">${h(COVERAGE_RULE)}</p>`,

    '<h2 id="more">The evidence</h2>',
    '<ul>',
    `<li><a href="${h(links.matrix)}">Traceability matrix</a>: every rule of the catalogue with its quoted sentence, the scenarios that check it and their verdict per format.</li>`,
    `<li><a href="${h(links.allure)}">Allure report</a>: every scenario with its steps and exchanges${links.allureWritten ? '' : ' (written by `cardspec report`, which needs Java; this link works once it has run)'}.</li>`,
    '<li>summary.json (for CI gates), summary.md, junit.xml: beside this page.</li>',
    '</ul>',
  );
  if (s.problems.length > 0) out.push('<h2 id="problems">Problems with the run or the kit</h2>', `<ul>${s.problems.map((p) => `<li>${h(p)}</li>`).join('')}</ul>`);
  out.push('</body></html>', '');
  return out.join('\n');
}
