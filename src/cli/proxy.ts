/**
 * `cardspec proxy --upstream URL`: the options read into a plan, one call of `runProxyCommand` (src/proxy/command.ts:
 * the checking proxy until Ctrl-C or SIGTERM, then the report; docs/proxy.md), its exit code: 0 clean, 1 violations,
 * 3 nothing observed, 2 a usage or configuration error.
 */
import { TLS_HELP } from '../client/tls';
import type { ProxyIo, ProxyPlan } from '../proxy/command';
import { DEFAULT_MAX_BODY, DEFAULT_TIMEOUT_MS } from '../proxy/defaults';
import { redactText } from '../redact';
import { durationOption, parseOptions, stringOption, UsageError, wholeNumberOption, type OptionSpecs } from './options';
import { processInterrupts, processIo } from './process-io';
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
  --junit FILE          also write JUnit XML on stop, the junit.xml of --reports (run's shape): a testcase
                        per rule observed and form, failed with the masked exchange; INCOMPLETE in error
                        when a rule was never observed
  --reports DIR         also write run's reports of the observed coverage to DIR on stop: matrix, summary.html
                        (the certificate), summary.json, junit.xml and allure-results/ (cardspec report reads it)
  --preserve-host       send the client's Host header to the upstream instead of the upstream's own, so that
                        addresses the gateway builds from it (acsurl) point back at the proxy
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
  'preserve-host': { type: 'boolean' },
  ca: { type: 'string' },
  insecure: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export async function run(args: string[], io: ProxyIo = { ...processIo(), interrupts: processInterrupts() }): Promise<number> {
  let plan: ProxyPlan;
  try {
    const values = parseOptions(args, OPTIONS);
    if (values.help) {
      io.out.write(`${HELP}\n`);
      return 0;
    }
    // After the help: `cardspec proxy --help` loads none of the gateway's routes or the proxy.
    const { normaliseBasePath } = await import('../gateway/routes/base-path');
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
    const port = wholeNumberOption('port', stringOption(values, 'port'), 0, 0, 65535);
    const timeout = stringOption(values, 'timeout');
    const timeoutMs = timeout === undefined ? undefined : durationOption('timeout', timeout, 3600_000);
    const maxBodyBytes = wholeNumberOption('max-body', stringOption(values, 'max-body'), DEFAULT_MAX_BODY, 1, 1024 * 1024 * 1024);
    const basePath = normaliseBasePath(stringOption(values, 'base-path') ?? '');
    for (const name of ['record', 'report', 'junit', 'reports'] as const) if (values[name] !== undefined && String(values[name]).trim() === '') throw new UsageError(`--${name} needs a file name`);
    plan = {
      upstream: url.toString().replace(/\/+$/, ''),
      port,
      host: stringOption(values, 'host'),
      basePath,
      timeoutMs,
      maxBodyBytes,
      strict: values.strict === true,
      preserveHost: values['preserve-host'] === true,
      tls: { ca: stringOption(values, 'ca'), insecure: values.insecure === true },
      record: stringOption(values, 'record'),
      report: stringOption(values, 'report'),
      junit: stringOption(values, 'junit'),
      reports: stringOption(values, 'reports'),
      // This process only checks: the forwarding, on its own thread, comes first.
      checksNice: 10,
    };
  } catch (e) {
    if (e instanceof UsageError || (e instanceof TypeError && /base path/i.test(e.message))) {
      io.err.write(`${redactText(`cardspec proxy: ${e.message}\n${seeHelp('proxy')}`)}\n`);
      return 2;
    }
    throw e;
  }
  const { runProxyCommand } = await import('../proxy/command');
  return runProxyCommand(plan, io);
}
