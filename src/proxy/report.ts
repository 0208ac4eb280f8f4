/**
 * The proxy's report as text and JSON, masked: the verdict, what went through, the violations by side and rule with
 * the first few examples, the path's faults, and the observed coverage of every rule of the catalogue (checked in N
 * exchanges and passed, failed with a masked exchange, or never observed). The same report for `cardspec proxy`
 * (on stop) and `cardspec audit`. Their JUnit is `run`'s (./certify.ts, observedJunitXml).
 */
import { redact, redactText } from '../redact';
import type { ProxyReport } from './session';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function proxyReportJson(report: ProxyReport): string {
  return JSON.stringify(redact(report), null, 2) + '\n';
}

/** `all`: every rule of the coverage, the never observed too (a file); else the observed ones and a count. */
export function proxyReportText(report: ProxyReport, opts: { all?: boolean } = {}): string {
  const v = report.violations;
  const e = report.exchanges;
  const lines: string[] = [];
  const warningNote = v.warnings > 0 && !report.strict ? '; warnings fail only with --strict' : '';
  lines.push(`cardspec proxy report: ${report.passed ? (e.checked === 0 ? 'NOTHING OBSERVED' : 'PASS') : 'FAIL'} (${plural(v.errors, 'error')}, ${plural(v.warnings, 'warning')}${warningNote})`);
  if (report.upstream) lines.push(`Upstream: ${report.upstream}`);
  lines.push(
    `Exchanges: ${e.total} (${e.checked} checked, ${e.acs > 0 ? `${e.acs} of the ACS round trip checked, ` : ''}${e.other} other traffic forwarded unchecked, ${e.faults} faults of the path)`,
  );
  lines.push(`  client (what was sent): ${plural(v.bySide.client.errors, 'error')}, ${plural(v.bySide.client.warnings, 'warning')}`);
  lines.push(`  gateway (what was answered): ${plural(v.bySide.gateway.errors, 'error')}, ${plural(v.bySide.gateway.warnings, 'warning')}`);
  lines.push(`  path (the way between): ${plural(v.bySide.path.errors, 'error')}, ${plural(v.bySide.path.warnings, 'warning')}`);
  const kinds = Object.entries(report.faults.byKind);
  if (kinds.length > 0) {
    lines.push(`Faults of the path: ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}`);
    for (const f of report.faults.list.slice(0, 10)) lines.push(`  #${f.exchange} ${f.method} ${f.path}: ${f.kind}: ${f.message}`);
  }
  if (v.byRule.length > 0) {
    lines.push('Violations by rule:');
    for (const b of v.byRule) {
      const counts = [b.errors ? plural(b.errors, 'error') : '', b.warnings ? plural(b.warnings, 'warning') : ''].filter(Boolean).join(', ');
      lines.push(`  [${b.side}] ${b.rule}: ${counts}${b.quote ? `  "${b.quote.length > 140 ? `${b.quote.slice(0, 137)}...` : b.quote}"` : ''}`);
    }
    lines.push('Examples (the first of each rule):');
    // `field -- message`: a colon after a field name reads as `securitycode: <value>` to the masking.
    for (const x of v.list) lines.push(`  #${x.exchange} [${x.side}] ${x.operation} ${x.severity} ${x.rule} ${x.field} -- ${x.message}`);
    if (v.omitted > 0) lines.push(`  ... and ${v.omitted} more (counted above, not listed)`);
  }
  const observed = report.coverage.filter((c) => c.status !== 'not-observed');
  const failed = observed.filter((c) => c.status === 'failed').length;
  const never = report.coverage.length - observed.length;
  lines.push(`Observed coverage: ${observed.length} of ${report.coverage.length} rules checked (${observed.length - failed} passed, ${failed} failed), ${never} never observed`);
  for (const c of report.coverage) {
    if (c.status === 'not-observed' && !opts.all) continue;
    const tag = c.status === 'passed' ? 'pass' : c.status === 'failed' ? 'FAIL' : '  - ';
    const counts = c.status === 'not-observed' ? 'never observed' : `checked in ${plural(c.checked, 'exchange')}${c.failed ? `, broken in ${c.failed}` : ''}`;
    lines.push(`  [${tag}] ${c.rule.padEnd(34)} ${counts}`);
    if (c.example && opts.all) for (const l of c.example.split('\n')) lines.push(`         ${l}`);
  }
  if (!opts.all && never > 0) lines.push(`  (${never} rules never observed: the report file lists them; --report FILE)`);
  return redactText(lines.join('\n')) + '\n';
}

/** One console line per violation, masked. */
export function findingLine(f: { exchange: number; side: string; operation: string; severity: string; rule: string; field: string; message: string }): string {
  return redactText(`#${f.exchange} [${f.side}] ${f.severity === 'error' ? 'ERROR' : 'warning'} ${f.rule} ${f.operation} ${f.field} -- ${f.message}`);
}
