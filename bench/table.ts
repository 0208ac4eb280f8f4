/**
 * Medians and the one table the benchmark prints: figures and ratios side by side, every figure the median of
 * the repetitions made in this run (the Runs column says how many).
 */
import { redactText } from '../src/redact';

export function median(values: readonly number[]): number {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

export interface Row {
  /** What is measured: "Gateway, AUTH", "Validation", "Suite", ... */
  readonly measure: string;
  /** Who or what: "reference gateway", "bare node:http (ceiling)", "JSON request", ... */
  readonly subject: string;
  readonly figure: string;
  readonly p50?: string;
  readonly p99?: string;
  readonly memory?: string;
  readonly ratio?: string;
  readonly target?: string;
  readonly runs: string;
  /** Where and at which load the row was measured: the machine, its load average over the section, the load applied. */
  readonly where?: string;
}

const COLUMNS: readonly [keyof Row, string][] = [
  ['measure', 'Measure'],
  ['subject', 'Subject'],
  ['figure', 'Figure'],
  ['p50', 'p50'],
  ['p99', 'p99'],
  ['memory', 'Peak memory'],
  ['ratio', 'Ratio'],
  ['target', 'Target'],
  ['runs', 'Runs'],
  ['where', 'Measured on (load average; load applied)'],
];

/** A Markdown table: readable as it is in a terminal, and rendered in docs. */
export function renderTable(rows: readonly Row[]): string {
  const cells = rows.map((r) => COLUMNS.map(([k]) => (r[k] ?? '').replace(/\|/g, '\\|')));
  const widths = COLUMNS.map(([, title], i) => Math.max(title.length, ...cells.map((c) => c[i].length)));
  const line = (values: readonly string[]): string => `| ${values.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  const out = [line(COLUMNS.map(([, t]) => t)), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)];
  // Nothing in the table should be secret; masking anyway keeps the one rule for every output.
  return redactText(out.join('\n'));
}

const group = (n: number, digits: number): string => n.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A rate: 12,345/s, or 12.3/s when small. */
export function rate(n: number, unit: string): string {
  if (!Number.isFinite(n)) return 'n/a';
  return `${group(n, n < 100 ? 1 : 0)} ${unit}/s`;
}

/** Milliseconds, or microseconds below a tenth of a millisecond (a JSON validation takes a few). */
export function ms(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '';
  if (n < 0.1) return `${(n * 1000).toFixed(1)} µs`;
  return `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;
}

export function seconds(n: number): string {
  return Number.isFinite(n) ? `${n.toFixed(2)} s` : 'n/a';
}

export function mib(bytes: number): string {
  return Number.isFinite(bytes) && bytes > 0 ? `${(bytes / 1024 / 1024).toFixed(0)} MiB` : '';
}

export function ratio(a: number, b: number, digits = 2): string {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(digits) : 'n/a';
}

/** "met" or "NOT met" against a minimum ratio; "n/a" when a figure is missing. */
export function verdict(value: number, minimum: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value >= minimum ? 'met' : 'NOT met';
}
