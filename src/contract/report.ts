/**
 * The contract report: what a client sent (requests per operation), which documented flows it went through end to
 * end, and its violations counted per rule and per check, with the first few of each check as examples. `GET /_cardspec/contract`, `--report FILE` and the summary printed on stop
 * all show this one structure; every string in it is masked (src/redact.ts) before it leaves the run.
 */
import { redact, redactText } from '../redact';
import type { Severity } from './checks';

export interface ContractViolation {
  /** The call's position among those the gateway saw, from 1. */
  readonly call: number;
  /** The row of the Request types table (`store`, `auth-3ds-enrolled`), or `refused <status>`. */
  readonly operation: string;
  /** The check that found it (src/contract/checks.ts). */
  readonly check: string;
  /** The rule of features/rules.yaml (or proposed in src/rules/contract.ts). */
  readonly rule: string;
  readonly field: string;
  readonly severity: Severity;
  readonly message: string;
}

/** One client conformance case (scenario mode, `--client-cmd`). */
export interface CaseResult {
  readonly id: string;
  readonly title: string;
  readonly rules: readonly string[];
  readonly severity: Severity;
  readonly passed: boolean;
  /** What the client reported wrong, or why the adapter failed; empty when passed. */
  readonly problems: readonly string[];
  /** `informational`: passed only in that the client did not fail; what the case is about was not observable. */
  readonly outcome?: 'pass' | 'fail' | 'non-strict' | 'informational';
}

export interface ContractReport {
  readonly kind: 'cardspec-contract-report';
  readonly strict: boolean;
  /** No violation (with `strict`, no warning either) and every client case passed. */
  readonly passed: boolean;
  readonly requests: {
    readonly total: number;
    readonly answered: number;
    readonly refused: number;
    readonly json: number;
    readonly xml: number;
    readonly byOperation: readonly { readonly id: string; readonly title: string; readonly count: number }[];
  };
  readonly flows: readonly { readonly id: string; readonly title: string; readonly rules: readonly string[]; readonly covered: boolean; readonly times: number }[];
  readonly violations: {
    readonly errors: number;
    readonly warnings: number;
    readonly byRule: readonly {
      readonly rule: string;
      readonly errors: number;
      readonly warnings: number;
      readonly section?: string;
      readonly quote?: string;
      /** Not in features/rules.yaml yet (src/rules/contract.ts). */
      readonly proposed?: boolean;
    }[];
    /** Counts per check of each rule, and how many of them are listed as examples. */
    readonly byCheck: readonly { readonly rule: string; readonly check: string; readonly errors: number; readonly warnings: number; readonly listed: number }[];
    /** Examples: the first few violations of each check of each rule (all are counted above), oldest first. */
    readonly list: readonly ContractViolation[];
    /** Violations counted but not listed (examples are capped per check and in all). */
    readonly omitted: number;
  };
  /**
   * The stand-in gateway's own answers, checked by the invariants every answer the kit sees gets (src/rules/answers.ts,
   * as in the scenarios and the fuzz oracles). A finding is the gate's fault, never the client's: it does not fail
   * the client, but a client certified against a gateway breaking the document is told so.
   */
  readonly answers: {
    readonly checked: number;
    /** Answers with at least one finding. */
    readonly failed: number;
    readonly byRule: readonly { readonly rule: string; readonly count: number }[];
    /** The first few findings: the call, the rule, one masked line. */
    readonly list: readonly { readonly call: number; readonly rule: string; readonly line: string }[];
  };
  readonly cases?: readonly CaseResult[];
}

/** The report as JSON text, masked. */
export function reportJson(report: ContractReport): string {
  return JSON.stringify(redact(report), null, 2) + '\n';
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The report as text for a console or a file, masked. */
export function reportText(report: ContractReport): string {
  const r = report.requests;
  const v = report.violations;
  const lines: string[] = [];
  const failedCases = (report.cases ?? []).filter((c) => !c.passed);
  const verdict = report.passed ? 'PASS' : 'FAIL';
  const warningNote = v.warnings > 0 && !report.strict ? '; warnings fail the gate only with --strict' : '';
  lines.push(`cardspec contract report: ${verdict} (${plural(v.errors, 'error')}, ${plural(v.warnings, 'warning')}${warningNote})`);
  lines.push(`Requests: ${r.total} (${r.answered} answered: JSON ${r.json}, XML ${r.xml}; ${r.refused} refused)`);
  for (const op of r.byOperation) lines.push(`  ${String(op.count).padStart(5)}  ${op.id.padEnd(26)} ${op.title}`);
  const covered = report.flows.filter((f) => f.covered).length;
  lines.push(`Flows covered: ${covered} of ${report.flows.length} (the document's flows the client's requests went through; one not gone through is not checked, and does not fail the gate)`);
  for (const f of report.flows) lines.push(`  [${f.covered ? 'x' : ' '}] ${f.id.padEnd(28)} ${f.covered ? `${f.times}x ` : ''}${f.title}`);
  if (v.byRule.length > 0) {
    lines.push('Violations by rule:');
    for (const b of v.byRule) {
      const counts = [b.errors ? plural(b.errors, 'error') : '', b.warnings ? plural(b.warnings, 'warning') : ''].filter(Boolean).join(', ');
      lines.push(`  ${b.rule}${b.proposed ? ' (proposed)' : ''}: ${counts}${b.quote ? `  "${b.quote}"` : ''}`);
    }
    lines.push('Violations by check:');
    for (const b of v.byCheck) {
      const counts = [b.errors ? plural(b.errors, 'error') : '', b.warnings ? plural(b.warnings, 'warning') : ''].filter(Boolean).join(', ');
      lines.push(`  ${b.check} (${b.rule}): ${counts}${b.listed < b.errors + b.warnings ? `, first ${b.listed} listed` : ''}`);
    }
    lines.push('Examples (the first of each check):');
    // `field -- message`, not `field: message`: a colon after a field name reads as `securitycode: <value>` to the masking.
    for (const x of v.list) lines.push(`  #${x.call} ${x.operation} ${x.severity} ${x.rule} [${x.check}] ${x.field} -- ${x.message}`);
    if (v.omitted > 0) lines.push(`  ... and ${v.omitted} more (counted above, not listed)`);
  }
  const a = report.answers;
  if (a.failed > 0) {
    lines.push(`The stand-in gateway's own answers broke the document in ${a.failed} of ${a.checked} (the gate's fault, not the client's):`);
    for (const b of a.byRule) lines.push(`  ${b.rule}: ${b.count}`);
    for (const x of a.list) lines.push(`  #${x.call} ${x.rule} -- ${x.line}`);
  } else if (a.checked > 0) lines.push(`The stand-in gateway's answers: ${a.checked} checked by the invariants of every answer, none broke the document`);
  if (report.cases) {
    const informational = report.cases.filter((c) => c.outcome === 'informational').length;
    const passed = report.cases.length - failedCases.length - informational;
    lines.push(`Client cases: ${passed} of ${report.cases.length} passed${informational ? `, ${informational} informational (not observable through the adapter)` : ''}`);
    for (const c of report.cases) {
      const tag = c.outcome === 'informational' ? 'info' : c.passed ? 'pass' : c.severity === 'error' ? 'FAIL' : 'warn';
      lines.push(`  [${tag}] ${c.id.padEnd(28)} ${c.title} (${c.rules.join(', ')})`);
      for (const p of c.problems) lines.push(`         ${p}`);
    }
  }
  return redactText(lines.join('\n')) + '\n';
}
