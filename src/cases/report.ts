/**
 * The client report, in the Autobahn habit (`cardspec serve --client-cmd CMD --report DIR`): an index with one row
 * per case (pass, fail, non-strict, informational), a page per case with the exchange as it reached the gateway
 * (masked), what the adapter reported, what was compared and the rule with the document's words; JUnit XML for CI;
 * and the results as JSON. Plain HTML files that open from disk: no script, no server, nothing fetched.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { redactText } from '../redact';
import { caseKey, type ClientCaseResult, type CaseOutcome } from './adapter';
import { CASE_GROUPS } from './case';
import { ruleText } from '../rules/contract';
import { quoteText } from '../rules/quote';

export const CLIENT_REPORT_FILES = { index: 'index.html', junit: 'junit.xml', json: 'cases.json', pages: 'cases' } as const;

export interface ClientReportMeta {
  /** The adapter command line (masked when written). */
  readonly command: string;
  readonly strict: boolean;
  /** cardspec's version, for the reader. */
  readonly version?: string;
}

const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
/** A case's page: `cases/<id>.html` in JSON, `cases/xml/<id>.html` in XML (a run in both formats has both). */
export const pageOf = (r: Pick<ClientCaseResult, 'id' | 'format'>): string => `${CLIENT_REPORT_FILES.pages}/${r.format === 'xml' ? 'xml/' : ''}${encodeURIComponent(r.id)}.html`;
/** The case's name as the report shows it: the id, with `(xml)` for a case played in XML. */
const shownId = (r: Pick<ClientCaseResult, 'id' | 'format'>): string => caseKey(r.id, r.format);

const OUTCOME_TEXT: Readonly<Record<CaseOutcome, string>> = {
  pass: 'pass',
  fail: 'FAIL',
  'non-strict': 'non-strict',
  informational: 'informational',
};

const OUTCOME_MEANING: Readonly<Record<CaseOutcome, string>> = {
  pass: 'the client reported what the gateway answered',
  fail: 'the client did not report what the gateway answered, or the case could not run as one call',
  'non-strict': 'the client fell short where the document does not show the answer (a warning: it fails the gate only with --strict)',
  informational: 'what the case is about was not observable through the adapter (its envelope was not reported): the client did not fail, and nothing more is claimed',
};

const STYLE = `body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
.pass{background:#d9f2d9}.fail{background:#f7caca}.non-strict{background:#fbe7b5}.informational{background:#dde6f5}pre{background:#f6f6f6;padding:.5rem;overflow:auto;max-height:30rem;white-space:pre-wrap;word-break:break-all}
h2{margin-top:1.5rem}.rule q{font-style:italic}`;

function html(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${STYLE}</style></head>\n<body>\n${body}\n</body></html>\n`;
}

function counts(results: readonly ClientCaseResult[]): Record<CaseOutcome, number> {
  const c: Record<CaseOutcome, number> = { pass: 0, fail: 0, 'non-strict': 0, informational: 0 };
  for (const r of results) c[r.outcome]++;
  return c;
}

export function indexHtml(results: readonly ClientCaseResult[], meta: ClientReportMeta): string {
  const c = counts(results);
  const gate = c.fail > 0 || (meta.strict && c['non-strict'] > 0) ? 'FAIL' : 'PASS';
  const rows: string[] = [];
  for (const group of CASE_GROUPS) {
    const mine = results.filter((r) => r.group === group);
    if (mine.length === 0) continue;
    rows.push(`<tr><th colspan="4">${esc(group)}</th></tr>`);
    for (const r of mine) {
      rows.push(
        `<tr class="${r.outcome}" data-case="${esc(r.id)}" data-format="${r.format}"><td><a href="${esc(pageOf(r))}">${esc(shownId(r))}</a></td><td class="outcome">${OUTCOME_TEXT[r.outcome]}</td>` +
          `<td>${esc(r.title)}</td><td>${esc(r.rules.join(', '))}</td></tr>`,
      );
    }
  }
  const legend = (Object.keys(OUTCOME_MEANING) as CaseOutcome[]).map((o) => `<li class="${o}"><b>${OUTCOME_TEXT[o]}</b> (${c[o]}): ${esc(OUTCOME_MEANING[o])}</li>`).join('\n');
  return html(
    'cardspec client cases',
    `<h1>cardspec client cases: ${gate}</h1>
<p>${results.length} cases${formatsText(results)} through the adapter <code>${esc(meta.command)}</code>${meta.strict ? ' (strict: non-strict cases fail the gate)' : ''}.
Each case is one call: the stand-in gateway gave one documented answer, and the adapter reported what its client gave back.</p>
<ul>${legend}</ul>
<table id="cases"><thead><tr><th>Case</th><th>Outcome</th><th>The answer</th><th>Rules</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<p>Protocol and fields compared: docs/contract.md ("Client conformance cases"). JUnit XML: <a href="${CLIENT_REPORT_FILES.junit}">${CLIENT_REPORT_FILES.junit}</a>; JSON: <a href="${CLIENT_REPORT_FILES.json}">${CLIENT_REPORT_FILES.json}</a>.</p>`,
  );
}

function formatsText(results: readonly ClientCaseResult[]): string {
  const formats = [...new Set(results.map((r) => r.format))];
  return formats.length === 1 && formats[0] === 'json' ? '' : ` (in ${formats.map((f) => (f === 'xml' ? 'the XML blocks, POST /xml/' : 'JSON, POST /json/')).join(' and ')})`;
}

const pretty = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

function exchangeHtml(ex: NonNullable<ClientCaseResult['exchange']>): string {
  const xml = ex.requestText !== undefined || ex.responseText !== undefined;
  const form = xml ? ' (as the gateway read it: the XML block mapped to the JSON form)' : '';
  return (
    `<h3>Request headers</h3><pre>${esc(pretty(ex.headers))}</pre>` +
    (ex.requestText !== undefined ? `<h3>Request block</h3><pre>${esc(ex.requestText)}</pre>` : '') +
    `<h3>Request body${form}</h3><pre>${esc(pretty(ex.request))}</pre>` +
    (ex.responseText !== undefined ? `<h3>Response block</h3><pre>${esc(ex.responseText)}</pre>` : '') +
    `<h3>Answer${form}</h3><pre>${esc(pretty(ex.response))}</pre>`
  );
}

export function casePageHtml(r: ClientCaseResult): string {
  const rules = r.rules
    .map((id) => {
      const t = ruleText(id);
      // A quoted table row shows as its cells (src/rules/quote.ts), not as raw Markdown pipes.
      return `<li class="rule"><b>${esc(id)}</b>${t ? ` (${esc(t.section)}): <q>${esc(quoteText(t.quote))}</q>` : ''}</li>`;
    })
    .join('\n');
  const list = (items: readonly string[]): string => (items.length ? `<ul>${items.map((p) => `<li>${esc(p)}</li>`).join('\n')}</ul>` : '<p>none</p>');
  const violations = r.violations.map((v) => `${v.severity} ${v.rule} [${v.check}] ${v.field}: ${v.message}`);
  const ex = r.exchange;
  return html(
    `${shownId(r)}: ${OUTCOME_TEXT[r.outcome]}`,
    `<p><a href="${r.format === 'xml' ? '../../' : '../'}${CLIENT_REPORT_FILES.index}">All cases</a></p>
<h1 class="${r.outcome}">${esc(shownId(r))}: ${OUTCOME_TEXT[r.outcome]}</h1>
<p>${esc(r.title)}</p>
<p>Played in ${r.format === 'xml' ? 'XML (the request and response blocks, POST /xml/)' : 'JSON (POST /json/)'}. Group ${esc(r.group)}; the request is the row <code>${esc(r.row)}</code> of the Request types table; ${r.severity === 'error' ? 'a failure fails the gate' : 'a warning case: it fails the gate only with --strict'}.
${esc(OUTCOME_MEANING[r.outcome].charAt(0).toUpperCase() + OUTCOME_MEANING[r.outcome].slice(1))}.</p>
<h2>Problems</h2>${list(r.problems)}
<h2>Notes</h2>${list(r.notes)}
<h2>Rules</h2><ul>${rules}</ul>
<h2>Compared</h2><p>In each part: ${esc(r.compared.parts.join(', '))}. In the envelope: ${esc(r.compared.envelope.join(', ') || 'nothing (not reported)')}.</p>
<h2>Calls that reached the gateway: ${r.calls}</h2>
${ex ? exchangeHtml(ex) : '<p>No call was answered.</p>'}
<h2>What the contract checks found in the call</h2>${list(violations)}
<h2>What the adapter reported</h2><pre>${esc(r.reported === undefined ? '(nothing)' : pretty(r.reported))}</pre>
${r.stderr ? `<h2>The adapter's standard error (last lines)</h2><pre>${esc(r.stderr)}</pre>` : ''}`,
  );
}

// XML 1.0 cannot hold these control characters at all: removing them is the point.
// eslint-disable-next-line no-control-regex
const xmlEsc = (text: string): string => esc(text).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** JUnit XML: a test case per client case; fail a failure, non-strict a failure only with --strict, else skipped. */
export function junitXml(results: readonly ClientCaseResult[], meta: ClientReportMeta): string {
  const c = counts(results);
  const failures = c.fail + (meta.strict ? c['non-strict'] : 0);
  const skipped = c.informational + (meta.strict ? 0 : c['non-strict']);
  const cases = results.map((r) => {
    const name = `${shownId(r)} (${r.rules.join(', ')})`;
    const body =
      r.outcome === 'fail' || (r.outcome === 'non-strict' && meta.strict)
        ? `<failure message="${xmlEsc(r.problems[0] ?? r.outcome)}">${xmlEsc(r.problems.join('\n'))}</failure>`
        : r.outcome === 'non-strict'
          ? `<skipped message="${xmlEsc(`non-strict: ${r.problems[0] ?? ''}`)}"/>`
          : r.outcome === 'informational'
            ? `<skipped message="${xmlEsc(r.notes.find((n) => n.startsWith('informational')) ?? 'informational')}"/>`
            : '';
    return `    <testcase classname="cardspec.client.${r.format === 'xml' ? 'xml.' : ''}${xmlEsc(r.group.replace(/[^A-Za-z0-9]+/g, '-'))}" name="${xmlEsc(name)}">${body}</testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="cardspec client cases" tests="${results.length}" failures="${failures}" skipped="${skipped}">\n  <testsuite name="client cases" tests="${results.length}" failures="${failures}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

/** Writes the index, a page per case, JUnit XML and JSON into `dir` (created); every file is masked. */
export async function writeClientReport(dir: string, results: readonly ClientCaseResult[], meta: ClientReportMeta): Promise<string[]> {
  const safeMeta = { ...meta, command: redactText(meta.command) };
  await mkdir(path.join(dir, CLIENT_REPORT_FILES.pages), { recursive: true });
  if (results.some((r) => r.format === 'xml')) await mkdir(path.join(dir, CLIENT_REPORT_FILES.pages, 'xml'), { recursive: true });
  const files: [string, string][] = [
    [CLIENT_REPORT_FILES.index, indexHtml(results, safeMeta)],
    [CLIENT_REPORT_FILES.junit, junitXml(results, safeMeta)],
    [
      CLIENT_REPORT_FILES.json,
      JSON.stringify({ kind: 'cardspec-client-cases', strict: meta.strict, command: safeMeta.command, formats: [...new Set(results.map((r) => r.format))], cases: results }, null, 2) + '\n',
    ],
    ...results.map((r): [string, string] => [pageOf(r), casePageHtml(r)]),
  ];
  for (const [name, text] of files) await writeFile(path.join(dir, decodeURIComponent(name)), redactText(text));
  return files.map(([name]) => name);
}
