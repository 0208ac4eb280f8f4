/**
 * `cardspec audit FILE...`: the options read into a plan, one call of `runAuditCommand` (src/proxy/audit-command.ts:
 * captured traffic, HAR 1.2 or the proxy's `--record` JSON lines, checked as the proxy checks live traffic;
 * docs/proxy.md), its exit code: 0 clean, 1 violations, 3 nothing to check, 2 usage or a file that is no capture.
 */
import { parseArgs } from 'node:util';
import type { AuditIo, AuditPlan } from '../proxy/audit-command';
import { redactText } from '../redact';
import { processIo } from './process-io';
import { parseArgsMessage, seeHelp } from './usage';

const HELP = `Usage: cardspec audit [options] FILE...

Checks captured traffic against the document, as cardspec proxy checks it live: HAR 1.2 files (browser devtools,
mitmproxy, Charles, Fiddler exports) and the proxy's own captures (cardspec proxy --record FILE). Files are read in
the order given, their exchanges in theirs (a follow-up is checked against the parent seen before it).
A HAR that holds a full card number, a security code, a password or an Authorization header is reported, without
repeating them.

Options:
  --base-path PATH      the path the client posted under (PATH/json/)
  --report FILE         write the report to FILE (JSON if FILE ends in .json, else text)
  --junit FILE          also write JUnit XML, the junit.xml of --reports (run's shape): a testcase
                        per rule observed and form, failed with the masked exchange; INCOMPLETE in error
                        when a rule was never observed
  --reports DIR         also write run's reports of the observed coverage to DIR: matrix, summary.html (the
                        certificate), summary.json, junit.xml and allure-results/ (cardspec report reads it)
  --strict              warnings fail too
  -q, --quiet           no line per violation, only the report
  -h, --help            show this help

Exit codes: 0 no violation, 1 violations, 2 usage error or a file that is no capture, 3 nothing to check.
`;

export async function run(args: string[], io: AuditIo = processIo()): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let files: string[];
  let basePath: string;
  try {
    const parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        'base-path': { type: 'string' },
        report: { type: 'string' },
        junit: { type: 'string' },
        reports: { type: 'string' },
        strict: { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    values = parsed.values;
    files = parsed.positionals;
    if (values.help) {
      io.out.write(`${HELP}\n`);
      return 0;
    }
    // After the help: `cardspec audit --help` loads none of the proxy's checks or the reports.
    const { normaliseBasePath } = await import('../gateway/routes/base-path');
    basePath = normaliseBasePath(typeof values['base-path'] === 'string' ? values['base-path'] : '');
  } catch (e) {
    return usageError(io, e instanceof TypeError && /base path/.test(e.message) ? e.message : parseArgsMessage(e));
  }
  if (files.length === 0) return usageError(io, 'give one or more capture files (HAR, or cardspec proxy --record)');
  const report = typeof values.report === 'string' ? values.report : undefined;
  if (report !== undefined && report.trim() === '') return usageError(io, '--report needs a file name');
  const reports = typeof values.reports === 'string' ? values.reports : undefined;
  if (reports !== undefined && reports.trim() === '') return usageError(io, '--reports needs a folder name');
  const plan: AuditPlan = {
    files,
    basePath,
    strict: values.strict === true,
    quiet: values.quiet === true,
    report,
    junit: typeof values.junit === 'string' ? values.junit : undefined,
    reports,
  };
  const { runAuditCommand } = await import('../proxy/audit-command');
  return runAuditCommand(plan, io);
}

function usageError(io: AuditIo, message: string): number {
  io.err.write(`${redactText(`cardspec audit: ${message}\n${seeHelp('audit')}`)}\n`);
  return 2;
}
