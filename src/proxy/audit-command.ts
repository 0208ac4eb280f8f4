/**
 * `cardspec audit` as a library call, `runAuditCommand(plan, io)`: the captures read and checked (./audit.ts), a
 * line per violation unless quiet, what the captures hold that they must not (by where, never by value), the report
 * printed and written. src/cli/audit.ts reads the options into the plan and exits with what this returns; output
 * and the folder relative names are read and written in come in `io` (src/io.ts).
 *
 * Exit codes: 0 no violation, 1 violations, 2 a file that is no capture, 3 nothing to check.
 */
import type { CommandIo } from '../io';
import { redactText } from '../redact';
import { auditFiles, type AuditResult } from './audit';
import { CaptureError } from './capture';
import type { ObservedRun } from './certify';
import { findingLine, proxyReportJson, proxyReportText } from './report';
import { writeRunFiles } from './run-files';

/** What an audit is given of its process: output, and the folder relative file names are read and written in. */
export type AuditIo = Pick<CommandIo, 'out' | 'err' | 'cwd'>;

export interface AuditPlan {
  /** The capture files, in the order their exchanges are checked (at least one). */
  readonly files: readonly string[];
  /** The path the client posted under (normalised: '' or `/api`). */
  readonly basePath: string;
  readonly strict: boolean;
  /** No line per violation, only the report. */
  readonly quiet: boolean;
  /** `--report FILE`: JSON when it ends in .json, else text. */
  readonly report?: string;
  /** `--junit FILE`. */
  readonly junit?: string;
  /** `--reports DIR`: run's reports of the observed coverage. */
  readonly reports?: string;
}

const line = (sink: CommandIo['out'], text: string): void => void sink.write(`${text}\n`);

// Async as every command's call is, although the audit reads its files at once: a caller awaits any command alike.
export async function runAuditCommand(plan: AuditPlan, io: AuditIo): Promise<number> {
  const startedAt = new Date().toISOString();
  let result: AuditResult;
  try {
    result = auditFiles(plan.files, { strict: plan.strict, basePath: plan.basePath, cwd: io.cwd, onFinding: plan.quiet ? undefined : (f) => line(io.out, findingLine(f)) });
  } catch (e) {
    if (e instanceof CaptureError) {
      line(io.err, redactText(`cardspec audit: ${e.message}`));
      return 2;
    }
    throw e;
  }
  for (const s of result.skipped.slice(0, 20)) line(io.out, redactText(`skipped: ${s}`));
  if (result.leaks.length > 0) {
    line(io.out, `The capture holds what a capture must not (${result.leaks.length}; the values are not repeated):`);
    for (const l of result.leaks.slice(0, 50)) line(io.out, redactText(`  ${l.where}: ${l.what}`));
    if (result.leaks.length > 50) line(io.out, `  ... and ${result.leaks.length - 50} more`);
  }
  line(io.out, proxyReportText(result.report).trimEnd());
  // One observation for every file: --junit and the junit.xml of --reports are the same document.
  const observed: ObservedRun = { command: 'audit', target: plan.files.join(', '), startedAt, finishedAt: new Date().toISOString() };
  writeRunFiles(plan, result.report, observed, io, () => proxyReportJson({ ...result.report, ...{ leaks: result.leaks } }));
  if (result.exitCode === 3) line(io.out, 'cardspec audit: no call to the interface (/json/, /xml/) in the capture, so nothing was checked: exit 3.');
  return result.exitCode;
}
