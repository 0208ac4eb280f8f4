/**
 * `cardspec proxy --upstream URL`: the checking proxy (src/proxy, docs/proxy.md) until Ctrl-C or SIGTERM, then the
 * report. Exit 0 clean, 1 violations, 3 nothing observed, 2 a usage error.
 */
import { applyTls, TLS_HELP, TlsConfigError } from '../client/tls';
import { normaliseBasePath } from '../gateway';
import { CaptureWriter, DEFAULT_MAX_BODY, DEFAULT_TIMEOUT_MS, findingLine, proxyJunitXml, proxyReportJson, proxyReportText, startProxy } from '../proxy';
import { writeObservedReports } from '../proxy/certify';
import { HarWriter } from '../proxy/har';
import { writeRedactedText } from '../report/files';
import { redactText } from '../redact';
import { durationOption, parseOptions, stringOption, UsageError, wholeNumberOption, type OptionSpecs } from './options';
import { seeHelp } from './usage';

const HELP = `Usage: cardspec proxy --upstream URL [options]

Puts a checking proxy between a client and a gateway (a sandbox, a staging gateway, cardspec serve). Each request
is forwarded unchanged to the upstream and each answer unchanged to the client; both are checked against the
document, the session too (echoes, part count and order, follow-ups against their parents as observed).
A line per violation as it happens; on Ctrl-C (SIGINT) or SIGTERM, the report.

Options:
  --upstream URL        the gateway's base address (required): the client's POST <proxy>/json/ goes to URL/json/
  --port N              port to listen on (default 0: a free port, printed at start)
  --host H              address to listen on (default 127.0.0.1)
  --base-path PATH      the path the client posts under (<proxy>PATH/json/), replaced by the upstream's
  --timeout T           how long the upstream has to answer: 30s, 500ms, 2m or plain seconds (default
                        ${DEFAULT_TIMEOUT_MS / 1000}s); after it the client gets a 504
  --max-body BYTES      the largest body forwarded either way (default ${DEFAULT_MAX_BODY}); larger: a 502
  --record FILE         write every exchange to FILE, masked: HAR 1.2 when FILE ends in .har, else JSON lines
                        (cardspec audit reads both)
  --report FILE         write the report on stop to FILE (JSON if FILE ends in .json, else text)
  --junit FILE          also write JUnit XML on stop: a testcase per rule (failed, skipped when never observed)
  --reports DIR         also write run's reports of the observed coverage to DIR on stop: matrix, summary.html
                        (the certificate), summary.json, junit.xml and allure-results/ (cardspec report reads it)
  --strict              warnings (recommendations, what the document does not show) fail too
${TLS_HELP}
  -h, --help            show this help

Exit codes: 0 no violation, 1 violations, 2 usage error, 3 nothing observed (no call reached the proxy).
`;

const OPTIONS: OptionSpecs = {
  upstream: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'base-path': { type: 'string' },
  timeout: { type: 'string' },
  'max-body': { type: 'string' },
  record: { type: 'string' },
  report: { type: 'string' },
  junit: { type: 'string' },
  reports: { type: 'string' },
  strict: { type: 'boolean' },
  ca: { type: 'string' },
  insecure: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export async function run(args: string[]): Promise<number> {
  let values;
  let upstream: string;
  let port: number | undefined;
  let timeoutMs: number | undefined;
  let maxBody: number | undefined;
  let basePath: string;
  let warnings: string[];
  try {
    values = parseOptions(args, OPTIONS);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const given = stringOption(values, 'upstream');
    if (given === undefined || given.trim() === '') throw new UsageError('--upstream URL is required: the base address of the gateway to check');
    let url: URL;
    try {
      url = new URL(given);
    } catch {
      throw new UsageError(`--upstream must be an http:// or https:// address, not "${given.slice(0, 100)}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--upstream must be an http:// or https:// address, not "${url.protocol}"`);
    if (url.username || url.password) throw new UsageError('--upstream must not carry credentials: the client sends its own basic authentication');
    upstream = url.toString().replace(/\/+$/, '');
    port = wholeNumberOption('port', stringOption(values, 'port'), 0, 0, 65535);
    const timeout = stringOption(values, 'timeout');
    timeoutMs = timeout === undefined ? undefined : durationOption('timeout', timeout, 3600_000);
    maxBody = wholeNumberOption('max-body', stringOption(values, 'max-body'), DEFAULT_MAX_BODY, 1, 1024 * 1024 * 1024);
    basePath = normaliseBasePath(stringOption(values, 'base-path') ?? '');
    for (const name of ['record', 'report', 'junit', 'reports'] as const) if (values[name] !== undefined && String(values[name]).trim() === '') throw new UsageError(`--${name} needs a file name`);
    warnings = applyTls({ ca: stringOption(values, 'ca'), insecure: values.insecure === true });
  } catch (e) {
    if (e instanceof UsageError || e instanceof TlsConfigError || (e instanceof TypeError && /base path/i.test(e.message))) {
      console.error(redactText(`cardspec proxy: ${e.message}\n${seeHelp('proxy')}`));
      return 2;
    }
    throw e;
  }
  for (const w of warnings) console.error(w);
  const recordFile = stringOption(values, 'record');
  let record: CaptureWriter | HarWriter | undefined;
  try {
    // By its name: `x.har` is HAR 1.2 (for the tools that read HAR), anything else the proxy's JSON lines.
    record = recordFile === undefined ? undefined : recordFile.toLowerCase().endsWith('.har') ? new HarWriter(recordFile) : new CaptureWriter(recordFile);
  } catch (e) {
    console.error(redactText(`cardspec proxy: cannot write the capture ${recordFile}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`));
    return 2;
  }
  let proxy;
  try {
    proxy = await startProxy({
      upstream,
      port,
      host: stringOption(values, 'host'),
      basePath,
      timeoutMs,
      maxBodyBytes: maxBody,
      strict: values.strict === true,
      record,
      onFinding: (f) => console.log(findingLine(f)),
      // This process only checks: the forwarding, on its own thread, comes first.
      checksNice: 10,
    });
  } catch (e) {
    record?.close();
    console.error(redactText(`cardspec proxy: cannot listen: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`));
    return 2;
  }
  const startedAt = new Date().toISOString();
  // Listening for the signals before the banner: a client (or a test) that reads the banner may stop it at once.
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  console.log(
    redactText(
      [
        `cardspec proxy: checking the traffic to ${upstream}`,
        `Point the client at ${proxy.url}${basePath} (it posts ${proxy.url}${basePath}/json/; XML: ${proxy.url}${basePath}/xml/)`,
        `Timeout ${(timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000} s; ${values.strict ? 'strict: warnings fail too' : 'errors fail, warnings are reported'}${recordFile ? `; recording to ${recordFile} (masked)` : ''}`,
        'A line per violation as it happens; Ctrl-C (SIGINT) or SIGTERM ends it with the report.',
      ].join('\n'),
    ),
  );
  await stopped;
  await proxy.close();
  record?.close();
  const report = proxy.session.report(upstream);
  console.log(proxyReportText(report).trimEnd());
  const file = stringOption(values, 'report');
  if (file !== undefined) {
    try {
      writeRedactedText(file, file.toLowerCase().endsWith('.json') ? proxyReportJson(report) : proxyReportText(report, { all: true }));
      console.log(redactText(`Report written to ${file}`));
    } catch (e) {
      console.error(redactText(`cardspec proxy: cannot write the report to ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`));
    }
  }
  const junit = stringOption(values, 'junit');
  if (junit !== undefined) {
    try {
      writeRedactedText(junit, proxyJunitXml(report));
      console.log(redactText(`JUnit written to ${junit}`));
    } catch (e) {
      console.error(redactText(`cardspec proxy: cannot write the JUnit file ${junit}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`));
    }
  }
  const reports = stringOption(values, 'reports');
  if (reports !== undefined) {
    try {
      writeObservedReports(reports, report, { command: 'proxy', target: upstream, startedAt, finishedAt: new Date().toISOString() });
      console.log(redactText(`Reports (matrix, summary.html, junit.xml, allure-results) written to ${reports}`));
    } catch (e) {
      console.error(redactText(`cardspec proxy: cannot write the reports to ${reports}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`));
    }
  }
  const code = proxy.session.exitCode();
  if (code === 3) console.log(redactText(`cardspec proxy: no call to the interface went through the proxy, so nothing was checked: exit 3. Point the client at ${proxy.url}${basePath}.`));
  return code;
}
