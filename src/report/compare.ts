/**
 * Side by side (`cardspec report --compare DIR...`): one table for several reports of one kind, in the habit of
 * Autobahn|Testsuite's table of many implementations. Client-case reports (`serve --client-cmd --report DIR`) give
 * cases by clients (a column per report and format played), each cell linking to that report's page of the case;
 * `run` reports give rules by targets or versions, from their summary.json and matrix.json, each cell linking to the
 * rule in that run's matrix.html. Rows that differ between the columns come first: they are what a reader opens
 * the table for. Written as one HTML file that opens from disk (no script, nothing fetched) and as JSON, both
 * through the masked writer (src/report/files.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CASE_GROUPS } from '../cases/case';
import { CLIENT_REPORT_FILES, pageOf } from '../cases/report';
import type { CaseFormat } from '../cases/xml';
import { redactText } from '../redact';
import { writeRedactedJson, writeRedactedText } from './files';
import { REPORT_FILES } from './index';
import { readRunReports, type RunReports } from './merge';
import { escapeHtml, firstLine, ruleAnchor } from './text';

export const COMPARE_FILES = { html: 'compare.html', json: 'compare.json' } as const;

export type ComparisonOf = 'client-cases' | 'runs';

export interface ComparisonColumn {
  /** What the column is called: the folder's name (and the format played, for client cases in XML). */
  readonly label: string;
  /** The folder as given. */
  readonly dir: string;
  readonly format?: CaseFormat;
  /** What was compared there: the adapter command, or the target, profile and kit version of the run. */
  readonly detail: string;
  /** Its own verdict: the gate of the client cases, or the run's result. */
  readonly verdict: string;
}

export interface ComparisonCell {
  /** The case's outcome or the rule's verdict there; `absent` when that report has no such row. */
  readonly value: string;
  /** Relative to the comparison's folder: the case page, or the rule in the run's matrix.html. */
  readonly href?: string;
}

export interface ComparisonRow {
  readonly id: string;
  readonly title: string;
  readonly group?: string;
  readonly differs: boolean;
  readonly cells: readonly ComparisonCell[];
}

export interface Comparison {
  readonly kind: 'cardspec-comparison';
  readonly schema: 1;
  readonly of: ComparisonOf;
  readonly columns: readonly ComparisonColumn[];
  /** Differing rows first, then the rows alike in every column; each part in the reports' own order. */
  readonly rows: readonly ComparisonRow[];
  readonly differences: number;
}

/** One case of a client report's cases.json, as far as the comparison reads it. */
interface CaseLine {
  readonly id: string;
  readonly title: string;
  readonly group: string;
  readonly outcome: string;
  readonly format: CaseFormat;
}

interface ClientReportIn {
  readonly dir: string;
  readonly command: string;
  readonly strict: boolean;
  readonly cases: readonly CaseLine[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
}

/** A client report folder's cases.json, read; a problem in plain words when it is not one. */
function readClientReport(dir: string): ClientReportIn | { problem: string } {
  const file = path.join(dir, CLIENT_REPORT_FILES.json);
  let v: unknown;
  try {
    v = readJson(file);
  } catch (e) {
    return { problem: redactText(`${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : `not readable JSON (${(e as Error).message})`}`) };
  }
  if (!isRecord(v) || v.kind !== 'cardspec-client-cases' || !Array.isArray(v.cases)) return { problem: redactText(`${file} is not a cardspec client-case report`) };
  const cases: CaseLine[] = [];
  for (const c of v.cases) {
    if (!isRecord(c) || typeof c.id !== 'string' || typeof c.outcome !== 'string') return { problem: redactText(`${file}: a case without an id or an outcome`) };
    // A report written before cases were played in XML holds JSON cases only.
    const format: CaseFormat = c.format === 'xml' ? 'xml' : 'json';
    cases.push({ id: c.id, title: typeof c.title === 'string' ? c.title : '', group: typeof c.group === 'string' ? c.group : '', outcome: c.outcome, format });
  }
  return { dir, command: typeof v.command === 'string' ? v.command : '', strict: v.strict === true, cases };
}

/** Which kind of report a folder holds, by the file it has. */
function kindOf(dir: string): ComparisonOf | undefined {
  if (fs.existsSync(path.join(dir, CLIENT_REPORT_FILES.json))) return 'client-cases';
  if (fs.existsSync(path.join(dir, REPORT_FILES.summaryJson))) return 'runs';
  return undefined;
}

/** Column labels: each folder's own name, or the path as given where two names are the same. */
function labels(dirs: readonly string[]): string[] {
  const names = dirs.map((d) => path.basename(path.resolve(d)));
  return dirs.map((d, i) => (names.filter((n) => n === names[i]).length > 1 ? d : names[i]));
}

/** A link from the comparison's folder to a file of a compared folder, as a URL path (it opens from disk). */
function linkTo(outDir: string, file: string): string {
  return path
    .relative(path.resolve(outDir), path.resolve(file))
    .split(path.sep)
    .map((seg) => encodeURIComponent(seg))
    .join('/');
}

function ordered(rows: ComparisonRow[]): ComparisonRow[] {
  return [...rows.filter((r) => r.differs), ...rows.filter((r) => !r.differs)];
}

const differ = (cells: readonly ComparisonCell[]): boolean => new Set(cells.map((c) => c.value)).size > 1;

const GATE_OUTCOMES = ['pass', 'fail', 'non-strict', 'informational'] as const;

/** Cases by clients: a column per report and format, a row per case id. */
export function compareClientReports(reports: readonly ClientReportIn[], outDir: string): Comparison {
  const names = labels(reports.map((r) => r.dir));
  const anyXml = reports.some((r) => r.cases.some((c) => c.format === 'xml'));
  const columns: (ComparisonColumn & { readonly cases: ReadonlyMap<string, CaseLine> })[] = [];
  reports.forEach((r, i) => {
    for (const format of ['json', 'xml'] as const) {
      const mine = r.cases.filter((c) => c.format === format);
      if (mine.length === 0) continue;
      const count = (o: string): number => mine.filter((c) => c.outcome === o).length;
      const failed = count('fail') > 0 || (r.strict && count('non-strict') > 0);
      columns.push({
        label: anyXml ? `${names[i]} (${format})` : names[i],
        dir: r.dir,
        format,
        detail: r.command,
        verdict: `${failed ? 'FAIL' : 'PASS'}: ${GATE_OUTCOMES.map((o) => `${count(o)} ${o}`).join(', ')}`,
        cases: new Map(mine.map((c) => [c.id, c])),
      });
    }
  });
  // Rows in the catalogue's group order, each group in the order the first report that has it lists its cases.
  const seen = new Map<string, CaseLine>();
  for (const c of columns) for (const line of c.cases.values()) if (!seen.has(line.id)) seen.set(line.id, line);
  const groupIndex = (g: string): number => {
    const i = (CASE_GROUPS as readonly string[]).indexOf(g);
    return i < 0 ? CASE_GROUPS.length : i;
  };
  const lines = [...seen.values()].map((l, i) => ({ l, i })).sort((a, b) => groupIndex(a.l.group) - groupIndex(b.l.group) || a.i - b.i);
  const rows = lines.map(({ l }): ComparisonRow => {
    const cells = columns.map((col): ComparisonCell => {
      const c = col.cases.get(l.id);
      return c ? { value: c.outcome, href: linkTo(outDir, path.join(col.dir, decodeURIComponent(pageOf(c)))) } : { value: 'absent' };
    });
    return { id: l.id, title: l.title, group: l.group, differs: differ(cells), cells };
  });
  const sorted = ordered(rows);
  return {
    kind: 'cardspec-comparison',
    schema: 1,
    of: 'client-cases',
    columns: columns.map(({ cases: _cases, ...c }) => c),
    rows: sorted,
    differences: sorted.filter((r) => r.differs).length,
  };
}

/** Rules by targets or versions: a column per run, a row per rule of their catalogues (the first's wording). */
export function compareRuns(runs: readonly RunReports[], outDir: string): Comparison {
  const names = labels(runs.map((r) => r.dir));
  const columns: ComparisonColumn[] = runs.map((r, i) => {
    const m = r.summary.meta;
    return {
      label: names[i],
      dir: r.dir,
      detail: `${m.target} (profile ${m.profile}; ${m.formats.join(', ')}; cardspec ${m.kitVersion})`,
      verdict: `${r.summary.result.toUpperCase()}: ${r.summary.totals.passed} passed, ${r.summary.totals.failed} failed, ${r.summary.totals.skipped} skipped`,
    };
  });
  const rules = new Map<string, { title: string; section: string }>();
  for (const r of runs) for (const row of r.matrix?.rules ?? []) if (!rules.has(row.id)) rules.set(row.id, { title: firstLine(row.quote, 160), section: row.section });
  const rows = [...rules].map(([id, { title, section }]): ComparisonRow => {
    const cells = runs.map((r): ComparisonCell => {
      const row = r.matrix?.rules.find((x) => x.id === id);
      if (!row) return { value: 'absent' };
      const html = path.join(r.dir, REPORT_FILES.matrixHtml);
      return { value: row.overall.verdict, ...(fs.existsSync(html) ? { href: `${linkTo(outDir, html)}#${encodeURIComponent(ruleAnchor(id))}` } : {}) };
    });
    return { id, title, group: section, differs: differ(cells), cells };
  });
  const sorted = ordered(rows);
  return { kind: 'cardspec-comparison', schema: 1, of: 'runs', columns, rows: sorted, differences: sorted.filter((r) => r.differs).length };
}

/** The comparison of the folders given, or why it cannot be made (in the words a user needs). */
export function buildComparison(dirs: readonly string[], outDir: string): Comparison | { problem: string } {
  if (dirs.length < 2) return { problem: '--compare needs at least two reports folders to put side by side' };
  const kinds = dirs.map(kindOf);
  const none = dirs.filter((_, i) => kinds[i] === undefined);
  if (none.length > 0) {
    return {
      problem: redactText(
        `${none.join(', ')}: neither a client-case report (${CLIENT_REPORT_FILES.json}, from serve --client-cmd --report DIR) nor a run's reports folder (${REPORT_FILES.summaryJson})`,
      ),
    };
  }
  if (new Set(kinds).size > 1) {
    const what = (k: ComparisonOf | undefined): string => (k === 'client-cases' ? 'a client-case report' : "a run's reports");
    return { problem: redactText(`compare like with like: ${dirs.map((d, i) => `${d} is ${what(kinds[i])}`).join(', ')}`) };
  }
  if (kinds[0] === 'client-cases') {
    const reports: ClientReportIn[] = [];
    for (const d of dirs) {
      const r = readClientReport(d);
      if ('problem' in r) return r;
      reports.push(r);
    }
    return compareClientReports(reports, outDir);
  }
  const runs: RunReports[] = [];
  for (const d of dirs) {
    const r = readRunReports(d);
    if ('problem' in r) return r;
    if (!r.matrix) return { problem: redactText(`${path.join(d, REPORT_FILES.matrixJson)}: not found or not a traceability matrix: the rules of a run come from it`) };
    runs.push(r);
  }
  return compareRuns(runs, outDir);
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
.pass,.passed{background:#d9f2d9}.fail,.failed{background:#f7caca}.non-strict,.blocked{background:#fbe7b5}.informational,.skipped,.not-covered,.unspecified,.untestable{background:#dde6f5}
.absent{background:#eee;color:#777}tbody th{background:#f3f3f3}tr.differs td:first-child{border-left:4px solid #c33}`;

export function comparisonHtml(c: Comparison): string {
  const what = c.of === 'client-cases' ? 'client cases by clients' : 'rules by runs';
  const head = `<tr><th>${c.of === 'client-cases' ? 'Case' : 'Rule'}</th>${c.columns.map((col, i) => `<th data-column="${i}">${escapeHtml(col.label)}</th>`).join('')}</tr>`;
  const row = (r: ComparisonRow): string =>
    `<tr class="${r.differs ? 'differs' : 'same'}" data-row="${escapeHtml(r.id)}" data-differs="${r.differs}"><td><b>${escapeHtml(r.id)}</b><br><small>${escapeHtml(r.title)}</small></td>` +
    r.cells.map((cell) => `<td class="${escapeHtml(cell.value)}">${cell.href ? `<a href="${escapeHtml(cell.href)}">${escapeHtml(cell.value)}</a>` : escapeHtml(cell.value)}</td>`).join('') +
    '</tr>';
  const differing = c.rows.filter((r) => r.differs);
  const same = c.rows.filter((r) => !r.differs);
  const span = c.columns.length + 1;
  const columns = c.columns.map((col) => `<li><b>${escapeHtml(col.label)}</b>: ${escapeHtml(col.verdict)}. <code>${escapeHtml(col.dir)}</code>: ${escapeHtml(col.detail)}</li>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>cardspec comparison: ${escapeHtml(what)}</title><style>${STYLE}</style></head>
<body>
<h1>cardspec comparison: ${escapeHtml(what)}</h1>
<p>${c.rows.length} ${c.of === 'client-cases' ? 'cases' : 'rules'} in ${c.columns.length} columns; <b>${c.differences} differ</b> and come first.
Each cell links to ${c.of === 'client-cases' ? "that report's page of the case" : "the rule in that run's matrix.html, where it was written"}.</p>
<ul>
${columns}
</ul>
<table id="comparison"><thead>${head}</thead>
<tbody id="differences"><tr><th colspan="${span}">Differences (${differing.length})</th></tr>
${differing.map(row).join('\n')}
</tbody>
<tbody id="same"><tr><th colspan="${span}">The same in every column (${same.length})</th></tr>
${same.map(row).join('\n')}
</tbody></table>
<p>JSON: <a href="${COMPARE_FILES.json}">${COMPARE_FILES.json}</a>.</p>
</body></html>
`;
}

/** Writes compare.html and compare.json into `outDir`, masked; the files written. */
export function writeComparison(outDir: string, c: Comparison): string[] {
  return [writeRedactedText(path.join(outDir, COMPARE_FILES.html), comparisonHtml(c)), writeRedactedJson(path.join(outDir, COMPARE_FILES.json), c)];
}
