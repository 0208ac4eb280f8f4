/**
 * What `cardspec fuzz` prints: a summary table per oracle (cases checked, failures), one line per model, and for
 * each failure the seed and path, the shrunk counterexample, a command that replays it and a curl line. Every
 * string here has been masked where it was made and is masked again on the way out (`redactText`): a counterexample
 * holds test card numbers and security codes, a curl line credentials.
 */
import { redactText } from '../redact';
import type { Format } from '../wire/types';
import type { ModelOutcome } from './models/run';
import { USER_ORACLES } from './checks';
import { ORACLES, type Oracle } from './oracles';
import type { Counterexample, RequestFuzzOutcome } from './requests';

/** How to rebuild the command line of a replay: everything but the seed, path, property and format. */
export interface ReplayBase {
  /** `--target ...`, `--profile ...`, `--site ...` as given (never credentials). */
  readonly args: readonly string[];
}

const pad = (s: string, n: number): string => (s.length >= n ? s + ' ' : s + ' '.repeat(n - s.length));
const padLeft = (s: string, n: number): string => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

/** A shell word: single-quoted unless plainly safe. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function replayCommand(base: ReplayBase, property: string, format: Format, seed: number, path: string): string {
  const words = ['cardspec', 'fuzz', ...base.args, '--format', format, '--property', property, '--seed', String(seed), '--path', path, '--runs', '1'];
  return redactText(words.map(shellWord).join(' '));
}

/** Bodies longer than this are not put on a curl line (a 64 KiB `md` is no line to read or paste). */
export const MAX_CURL_BODY = 4000;

/**
 * A curl line that sends the counterexample's body, with the credentials and card data masked (so the card number
 * and security code must be put back by hand; the replay command sends the exact bytes).
 */
export function curlLine(c: Counterexample, user: string | undefined): string {
  const type = c.format === 'json' ? 'application/json' : 'text/xml;charset=utf-8';
  const accept = c.format === 'json' ? 'application/json' : 'text/xml';
  const auth = user ? ['-u', shellWord(`${user}:***`)] : [];
  const long = c.body.length > MAX_CURL_BODY || /\.\.\. \([0-9]+ more characters\)$/.test(c.body);
  const data = long ? ['--data-binary', `@body.${c.format}`] : ['--data-binary', shellWord(c.body)];
  const words = ['curl', '-sS', ...auth, '-H', shellWord(`Content-Type: ${type}`), '-H', shellWord(`Accept: ${accept}`), ...data, shellWord(c.url)];
  return redactText(words.join(' ') + (long ? `   (the body is ${c.body.length} characters or more: save it as body.${c.format}, or use the replay command)` : ''));
}

/** Strings over 120 characters shown as their start and their length, so a 64 KiB value is one short line. */
export function abbreviate(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 120 ? `${value.slice(0, 40)}... (${value.length} characters)` : value;
  if (Array.isArray(value)) return value.map(abbreviate);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, abbreviate(v)]));
  return value;
}

function oracleTable(outcomes: readonly RequestFuzzOutcome[]): string[] {
  if (outcomes.length === 0) return [];
  const formats = outcomes.map((o) => o.format);
  const lines = [pad('Oracle', 26) + pad('Rule', 26) + pad('Severity', 9) + formats.map((f) => padLeft(`${f.toUpperCase()} checked/failed`, 22)).join('')];
  // The oracles the run used (--checks), in their order: built-in ones and a user's (src/fuzz/checks.ts).
  const used = [...new Set(outcomes.flatMap((o) => [...o.stats.keys()]))].map((name) => ORACLES.find((x) => x.name === name) ?? USER_ORACLES.get(name)).filter((x): x is Oracle => x !== undefined);
  for (const oracle of used) {
    const cells = outcomes.map((o) => {
      const s = o.stats.get(oracle.name);
      return padLeft(s ? `${s.checked}/${s.failed}` : '-', 22);
    });
    lines.push(pad(oracle.name, 26) + pad(oracle.rule, 26) + pad(oracle.severity, 9) + cells.join(''));
  }
  const sent = outcomes.map((o) => padLeft(`${o.sent} sent`, 22)).join('');
  lines.push(pad('(requests)', 61) + sent);
  if (outcomes.some((o) => o.threads > 1)) lines.push(pad('(threads)', 61) + outcomes.map((o) => padLeft(String(o.threads), 22)).join(''));
  const kinds = outcomes.map((o) => padLeft(`${o.expectations.valid}/${o.expectations.invalid + o.expectations.refused}/${o.expectations.open}`, 22)).join('');
  lines.push(pad('(valid/invalid/open cases)', 61) + kinds);
  return lines;
}

function modelTable(models: readonly ModelOutcome[]): string[] {
  if (models.length === 0) return [];
  const lines = ['', pad('Model', 16) + pad('Format', 8) + padLeft('Runs', 6) + padLeft('Commands', 10) + '  Result'];
  for (const m of models) {
    const result = m.counterexample ? `FAILED (${m.counterexample.rule})` : m.problem ? `not run: ${m.problem}` : m.stoppedEarly ? `ok, stopped early: ${m.stoppedEarly}` : 'ok';
    lines.push(pad(m.property, 16) + pad(m.format, 8) + padLeft(String(m.runs), 6) + padLeft(String(m.commands), 10) + '  ' + result);
  }
  return lines;
}

function failureBlock(c: Counterexample, base: ReplayBase, user: string | undefined): string[] {
  const label = c.severity === 'error' ? 'FAILED' : 'WARNING';
  const lines = [
    '',
    `${label} ${c.oracle} (${c.rule}) [${c.format.toUpperCase()}]`,
    `  seed ${c.seed}, path ${c.path}${c.shrinks ? `, shrunk in ${c.shrinks} step(s)` : ''}${c.reproduced ? '' : ' (did not fail again when replayed: the target changed in between)'}`,
    `  case: ${c.what}`,
    `  what: ${c.message}`,
    `  request: ${JSON.stringify(abbreviate(c.request))}`,
    `  answer${c.status !== undefined ? ` (HTTP ${c.status})` : ''}: ${c.answer.replace(/\s+/g, ' ').slice(0, 1200)}`,
    `  replay: ${replayCommand(base, c.property, c.format, c.seed, c.path)}`,
    `  curl: ${curlLine(c, user)}`,
  ];
  return lines;
}

function modelFailureBlock(m: ModelOutcome, base: ReplayBase): string[] {
  const c = m.counterexample!;
  return [
    '',
    `FAILED model ${c.property} (${c.rule}) [${c.format.toUpperCase()}]`,
    `  seed ${c.seed}, path ${c.path}${c.shrinks ? `, shrunk in ${c.shrinks} step(s)` : ''}`,
    `  commands: ${c.commands}`,
    `  what: ${c.message}`,
    `  replay: ${replayCommand(base, c.property, c.format, c.seed, c.path)}`,
    '  curl: (a model failure is a sequence of requests; replay it with the command above)',
  ];
}

export interface Report {
  readonly header: string;
  readonly requests: readonly RequestFuzzOutcome[];
  readonly models: readonly ModelOutcome[];
  readonly problems: readonly string[];
  readonly base: ReplayBase;
  readonly user?: string;
}

/** True when some error oracle or model failed: the run's exit code is 1. */
export function failed(r: Pick<Report, 'requests' | 'models'>): boolean {
  return r.requests.some((o) => o.counterexamples.some((c) => c.severity === 'error')) || r.models.some((m) => m.counterexample !== undefined);
}

export type Verdict = 'PASSED' | 'FAILED' | 'INCOMPLETE';

/**
 * The run's verdict, one meaning each (as `cardspec run`'s): FAILED when an error oracle or a model failed (exit 1);
 * INCOMPLETE when nothing failed but something asked for was not checked (exit 3): a model that could not run, a
 * property that broke off, a run stopped before all its cases (time limit, a kit error), cards the target could not
 * prepare; PASSED only when everything asked for ran and was judged (exit 0). Warnings (public facts only) never
 * change it. `reasons` says what was not checked. An oracle no case reached is not a reason: several apply only to
 * a wrong answer (a refusal that carries a reference), which a conforming target never gives; the table shows
 * every oracle's count.
 */
export function verdictOf(r: Report): { verdict: Verdict; reasons: string[] } {
  if (failed(r)) return { verdict: 'FAILED', reasons: [] };
  const reasons: string[] = [];
  for (const m of r.models) {
    if (m.problem) reasons.push(`model ${m.property} (${m.format.toUpperCase()}) did not run: ${m.problem}`);
    else if (m.stoppedEarly) reasons.push(`model ${m.property} (${m.format.toUpperCase()}) stopped early: ${m.stoppedEarly}`);
  }
  for (const o of r.requests) {
    if (o.stoppedEarly) reasons.push(`the ${o.format.toUpperCase()} requests stopped early: ${o.stoppedEarly}`);
  }
  for (const p of r.problems) reasons.push(p);
  return reasons.length > 0 ? { verdict: 'INCOMPLETE', reasons } : { verdict: 'PASSED', reasons };
}

export function renderReport(r: Report): string {
  const lines = [r.header, ...(r.requests.length ? ['', ...oracleTable(r.requests)] : []), ...modelTable(r.models)];
  for (const o of r.requests) {
    if (o.stoppedEarly) lines.push('', `Note: the ${o.format.toUpperCase()} run stopped early: ${o.stoppedEarly}.`);
  }
  for (const o of r.requests) for (const c of o.counterexamples) lines.push(...failureBlock(c, r.base, r.user));
  for (const m of r.models) if (m.counterexample) lines.push(...modelFailureBlock(m, r.base));
  for (const p of r.problems) lines.push('', `Problem: ${p}`);
  const errors = r.requests.reduce((n, o) => n + o.counterexamples.filter((c) => c.severity === 'error').length, 0) + r.models.filter((m) => m.counterexample).length;
  const warnings = r.requests.reduce((n, o) => n + o.counterexamples.filter((c) => c.severity === 'warning').length, 0);
  const { verdict, reasons } = verdictOf(r);
  const warned = warnings ? ` (${warnings} warning(s): public-facts.md only, never a failure)` : '';
  if (verdict === 'FAILED') lines.push('', `cardspec fuzz: FAILED, ${errors} failure(s)${warnings ? `, ${warnings} warning(s)` : ''}.`);
  else if (verdict === 'INCOMPLETE') lines.push('', `cardspec fuzz: INCOMPLETE: nothing failed, but not everything asked for was checked${warned}:`, ...reasons.map((x) => `  - ${x}`));
  else lines.push('', `cardspec fuzz: PASSED: clean${warned}.`);
  return redactText(lines.join('\n'));
}

/** The oracles, as a table for docs and `--help`. */
export function oracleList(oracles: readonly Oracle[] = ORACLES): string {
  return oracles.map((o) => `  ${pad(o.name, 24)} ${pad(o.rule, 24)} ${o.severity === 'warning' ? '(warning) ' : ''}${o.checks}`).join('\n');
}
