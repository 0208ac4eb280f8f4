/**
 * `cardspec audit FILE...`: captured traffic (HAR 1.2, or the proxy's `--record` JSON lines) checked as the proxy
 * checks live traffic (src/proxy, docs/proxy.md). Exit 0 clean, 1 violations, 3 nothing to check, 2 usage or a file
 * that is no capture.
 */
import { parseArgs } from 'node:util';
import { redactText } from '../redact';
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
  --junit FILE          also write JUnit XML: a testcase per rule (failed, skipped when never observed)
  --reports DIR         also write run's reports of the observed coverage to DIR: matrix, summary.html (the
                        certificate), summary.json, junit.xml and allure-results/ (cardspec report reads it)
  --strict              warnings fail too
  -q, --quiet           no line per violation, only the report
  -h, --help            show this help

Exit codes: 0 no violation, 1 violations, 2 usage error or a file that is no capture, 3 nothing to check.
`;

export async function run(args: string[]): Promise<number> {
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
      console.log(HELP);
      return 0;
    }
    // After the help: `cardspec audit --help` loads none of the proxy's checks or the reports.
    const { normaliseBasePath } = await import('../gateway/routes/base-path');
    basePath = normaliseBasePath(typeof values['base-path'] === 'string' ? values['base-path'] : '');
  } catch (e) {
    console.error(redactText(`cardspec audit: ${e instanceof TypeError && /base path/.test(e.message) ? e.message : parseArgsMessage(e)}\n${seeHelp('audit')}`));
    return 2;
  }
  const [{ auditFiles, CaptureError, findingLine, proxyJunitXml, proxyReportJson, proxyReportText }, { writeObservedReports }, { writeRedactedText }] = await Promise.all([
    import('../proxy'),
    import('../proxy/certify'),
    import('../report/files'),
  ]);
  if (files.length === 0) {
    console.error(`cardspec audit: give one or more capture files (HAR, or cardspec proxy --record)\n${seeHelp('audit')}`);
    return 2;
  }
  const report = typeof values.report === 'string' ? values.report : undefined;
  if (report !== undefined && report.trim() === '') {
    console.error(`cardspec audit: --report needs a file name\n${seeHelp('audit')}`);
    return 2;
  }
  const reportsDir = typeof values.reports === 'string' ? values.reports : undefined;
  if (reportsDir !== undefined && reportsDir.trim() === '') {
    console.error(`cardspec audit: --reports needs a folder name\n${seeHelp('audit')}`);
    return 2;
  }
  const startedAt = new Date().toISOString();
  let result;
  try {
    result = auditFiles(files, { strict: values.strict === true, basePath, onFinding: values.quiet ? undefined : (f) => console.log(findingLine(f)) });
  } catch (e) {
    if (e instanceof CaptureError) {
      console.error(redactText(`cardspec audit: ${e.message}`));
      return 2;
    }
    throw e;
  }
  for (const s of result.skipped.slice(0, 20)) console.log(redactText(`skipped: ${s}`));
  if (result.leaks.length > 0) {
    console.log(`The capture holds what a capture must not (${result.leaks.length}; the values are not repeated):`);
    for (const l of result.leaks.slice(0, 50)) console.log(redactText(`  ${l.where}: ${l.what}`));
    if (result.leaks.length > 50) console.log(`  ... and ${result.leaks.length - 50} more`);
  }
  console.log(proxyReportText(result.report).trimEnd());
  if (report !== undefined) {
    try {
      writeRedactedText(report, report.toLowerCase().endsWith('.json') ? proxyReportJson({ ...result.report, ...{ leaks: result.leaks } }) : proxyReportText(result.report, { all: true }));
      console.log(redactText(`Report written to ${report}`));
    } catch (e) {
      console.error(redactText(`cardspec audit: cannot write the report to ${report}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`));
    }
  }
  const junit = typeof values.junit === 'string' ? values.junit : undefined;
  if (junit !== undefined) {
    try {
      writeRedactedText(junit, proxyJunitXml(result.report));
      console.log(redactText(`JUnit written to ${junit}`));
    } catch (e) {
      console.error(redactText(`cardspec audit: cannot write the JUnit file ${junit}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`));
    }
  }
  if (reportsDir !== undefined) {
    try {
      writeObservedReports(reportsDir, result.report, { command: 'audit', target: files.join(', '), startedAt, finishedAt: new Date().toISOString() });
      console.log(redactText(`Reports (matrix, summary.html, junit.xml, allure-results) written to ${reportsDir}`));
    } catch (e) {
      console.error(redactText(`cardspec audit: cannot write the reports to ${reportsDir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`));
    }
  }
  if (result.exitCode === 3) console.log('cardspec audit: no call to the interface (/json/, /xml/) in the capture, so nothing was checked: exit 3.');
  return result.exitCode;
}
