/**
 * Gating on what changed (`run --baseline FILE`, `serve --client-cmd ... --baseline FILE`), in the habit of Pact's
 * can-i-deploy: given an earlier run's summary.json or an earlier client-case report's cases.json, the verdict says
 * what is new (a rule or case that passed there, or was not failing there, and fails here), what was fixed, and what
 * was already failing, each listed. A new failure fails the gate, naming it; old failures alone do not, and the
 * verdict says how many remain. The baseline never hides anything else: an incomplete run stays incomplete, and a
 * problem of the kit or a contract violation still fails.
 *
 * A run is compared rule by rule: the matrix.json beside the summary when there is one (the rule verdicts the run
 * reported), else the summary's own scenario results. Client cases are compared case by case and format by format.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactText } from '../redact';
import { REPORT_FILES } from './index';
import { brokenRules, type Matrix, type Summary } from './model';

export type BaselineKind = 'run' | 'client-cases';

/** What one report says of a rule or a case, for the gate: failing, passing, or neither (skipped, not covered, ...). */
export type GateStatus = 'failed' | 'passed' | 'other';

export interface Baseline {
  readonly kind: BaselineKind;
  /** The file as given (masked when shown). */
  readonly file: string;
  readonly statuses: ReadonlyMap<string, GateStatus>;
}

export interface NewFailure {
  readonly id: string;
  /** What the baseline said of it: passed there, not failing there (skipped, not covered), or absent from it. */
  readonly was: 'passed' | 'other' | 'absent';
}

export interface BaselineVerdict {
  readonly kind: BaselineKind;
  readonly file: string;
  /** Passed there (or was not failing there) and fails here: these fail the gate. */
  readonly newFailures: readonly NewFailure[];
  /** Failed there and passes here. */
  readonly fixed: readonly string[];
  /** Failed there and fails here: they remain, and alone they do not fail the gate. */
  readonly stillFailing: readonly string[];
  /** Failed there and was not checked here (skipped, absent): neither fixed nor failing. */
  readonly notChecked: readonly string[];
}

export class BaselineError extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A rule verdict of the matrix, or a case outcome, for the gate. */
function statusOf(verdict: string, failing: readonly string[]): GateStatus {
  if (failing.includes(verdict)) return 'failed';
  return verdict === 'passed' || verdict === 'pass' ? 'passed' : 'other';
}

/** A run's rules: from its matrix when there is one, else from the summary's scenario results. */
export function runStatuses(summary: Pick<Summary, 'scenarios'>, matrix?: Pick<Matrix, 'rules'>): Map<string, GateStatus> {
  const out = new Map<string, GateStatus>();
  if (matrix) {
    for (const r of matrix.rules) out.set(r.id, statusOf(r.overall.verdict, ['failed']));
    return out;
  }
  const known = new Set(summary.scenarios.flatMap((s) => s.rules));
  for (const s of summary.scenarios) {
    const broken = brokenRules(s, known);
    for (const id of broken) out.set(id, 'failed');
    if (s.verdict === 'passed') for (const id of s.rules) if (out.get(id) !== 'failed') out.set(id, 'passed');
  }
  for (const id of known) if (!out.has(id)) out.set(id, 'other');
  return out;
}

/** Client cases by `id` (JSON) and `id (xml)`: a failed case fails; a non-strict one only under --strict. */
export function caseStatuses(cases: readonly { readonly id: string; readonly format?: string; readonly outcome: string }[], strict: boolean): Map<string, GateStatus> {
  const failing = strict ? ['fail', 'non-strict'] : ['fail'];
  return new Map(cases.map((c) => [c.format === 'xml' ? `${c.id} (xml)` : c.id, statusOf(c.outcome, failing)]));
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BaselineError(
      `--baseline ${file}: ${code === 'ENOENT' ? 'not found' : code === 'EISDIR' ? 'a folder: give its summary.json (a run) or cases.json (client cases)' : `cannot be read (${code})`}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new BaselineError(`--baseline ${file}: not JSON (${(e as Error).message})`);
  }
}

/**
 * Reads a baseline of the kind the command expects (a run's summary.json, or a client report's cases.json), with
 * `strict` as the command now runs; a BaselineError says what the file is and what was expected.
 */
export function readBaseline(file: string, expected: BaselineKind, strict = false): Baseline {
  const v = readJson(file);
  const isSummary = isRecord(v) && v.kind === 'cardspec-certification-summary' && Array.isArray(v.scenarios);
  const isCases = isRecord(v) && v.kind === 'cardspec-client-cases' && Array.isArray(v.cases);
  const want = expected === 'run' ? `an earlier run's ${REPORT_FILES.summaryJson}` : "an earlier client report's cases.json";
  if (!isSummary && !isCases) throw new BaselineError(redactText(`--baseline ${file} is neither a run's ${REPORT_FILES.summaryJson} nor a client report's cases.json: give ${want}`));
  if (isSummary !== (expected === 'run')) throw new BaselineError(redactText(`--baseline ${file} is ${isSummary ? "a run's summary" : "a client report's cases"}: give ${want}`));
  if (isCases) {
    const cases = (v.cases as unknown[]).filter(isRecord).filter((c): c is { id: string; outcome: string; format?: string } => typeof c.id === 'string' && typeof c.outcome === 'string');
    return { kind: 'client-cases', file, statuses: caseStatuses(cases, strict) };
  }
  let matrix: Matrix | undefined;
  const beside = path.join(path.dirname(file), REPORT_FILES.matrixJson);
  if (fs.existsSync(beside)) {
    try {
      const m = readJson(beside);
      if (isRecord(m) && m.kind === 'cardspec-traceability-matrix' && Array.isArray(m.rules)) matrix = m as unknown as Matrix;
    } catch {
      matrix = undefined;
    }
  }
  return { kind: 'run', file, statuses: runStatuses(v as unknown as Summary, matrix) };
}

/** This report against the baseline. */
export function againstBaseline(baseline: Baseline, now: ReadonlyMap<string, GateStatus>): BaselineVerdict {
  const newFailures: NewFailure[] = [];
  const fixed: string[] = [];
  const stillFailing: string[] = [];
  const notChecked: string[] = [];
  for (const [id, status] of now) {
    const was = baseline.statuses.get(id);
    if (status === 'failed') {
      if (was === 'failed') stillFailing.push(id);
      else newFailures.push({ id, was: was ?? 'absent' });
    } else if (was === 'failed') (status === 'passed' ? fixed : notChecked).push(id);
  }
  for (const [id, was] of baseline.statuses) if (was === 'failed' && !now.has(id)) notChecked.push(id);
  return { kind: baseline.kind, file: baseline.file, newFailures, fixed, stillFailing, notChecked };
}

const WAS: Readonly<Record<NewFailure['was'], string>> = { passed: 'passed in the baseline', other: 'not failing in the baseline (not checked there)', absent: 'not in the baseline' };

/** The verdict's lines for the console: the counts, then each list. */
export function baselineLines(v: BaselineVerdict): string[] {
  const what = v.kind === 'run' ? 'rule' : 'case';
  const out = [
    `Against the baseline ${v.file}: ${v.newFailures.length} new failure(s), ${v.fixed.length} fixed, ${v.stillFailing.length} already failing` +
      (v.notChecked.length ? `, ${v.notChecked.length} failing there and not checked here` : ''),
  ];
  for (const n of v.newFailures) out.push(`  NEW     ${n.id} (${WAS[n.was]})`);
  for (const id of v.fixed) out.push(`  fixed   ${id}`);
  for (const id of v.stillFailing) out.push(`  already ${id}`);
  for (const id of v.notChecked) out.push(`  not checked here: ${id} (failed in the baseline)`);
  out.push(
    v.newFailures.length > 0
      ? `Gate against the baseline: FAILED: new failing ${what}(s): ${v.newFailures.map((n) => n.id).join(', ')}`
      : `Gate against the baseline: no new failure; ${v.stillFailing.length} ${what}(s) already failing remain`,
  );
  return out.map((l) => redactText(l));
}

/**
 * The exit code with the baseline: 1 for a new failure; a 1 that only old failures caused becomes 0 (`onlyFailures`:
 * the command knows that nothing else, a kit problem or a violation, made it 1); any other code stays as it was.
 */
export function exitWithBaseline(v: BaselineVerdict, code: number, onlyFailures: boolean): number {
  if (v.newFailures.length > 0) return code === 2 ? 2 : 1;
  return code === 1 && onlyFailures ? 0 : code;
}
