/**
 * `cardspec serve`: runs the reference gateway on loopback until SIGINT or SIGTERM, after printing the
 * configuration it runs with and its addresses. The password is never printed (no secret leaves the run): the
 * default one is written in docs/gateway.md and src/testdata.ts.
 *
 * With `--contract` it is the stand-in gateway of contract testing (docs/contract.md): it answers the same, checks
 * every request a client sends, and on stop prints (and with `--report FILE` writes) the report, exiting 1 when the
 * client broke an obligation. With `--client-cmd` it runs the client conformance cases through an adapter instead of
 * waiting for a signal.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redactText, registerCredential } from '../redact';
import { durationOption, parseOptions, wholeNumberOption, type OptionSpecs } from './options';
import { isLoopbackHost } from '../client/safety';
import type { GatewayConfig } from '../gateway';
import { DEFAULT_CLOCK_START } from '../gateway/clock';
import { DEFAULT_MAX_RECORDS } from '../gateway/ledger';
import type { ContractReport } from '../contract';
import { REPORT_PATH } from '../contract/paths';
import type { FormatChoice } from '../cases';
import type { Baseline } from '../report/baseline';

const HELP = `Usage: cardspec serve [options]

Runs the reference gateway (the kit's default target) until Ctrl-C.

Options:
  --port N              port to listen on (default 0: a free port, printed at start)
  --host H              address to listen on (default 127.0.0.1). Only loopback unless you give --host
                        explicitly: the built-in test credentials are public.
  --base-path PATH      serve the interface under the path of a base address: with --base-path /api, a client
                        configured with the base address <url>/api posts <url>/api/json/ ("POST {base_url}/json/");
                        the ACS and /_cardspec/ stay at the root too, any other path is a 404 (default: none;
                        the same meaning as a cardspec/nock host with a path)
  --config FILE         users and sites as JSON {"users":[...],"sites":[...]} (default: the built-in
                        configuration of src/testdata.ts; see docs/gateway.md)
  --control             enable the test-control API under /_cardspec/ (clock, cache tokens, ledger records);
                        the clock then stands still at ${DEFAULT_CLOCK_START} until moved
  --clock-start TIME    start the clock at "YYYY-MM-DD HH:MM:SS" (default: ${DEFAULT_CLOCK_START} with --control,
                        else the current time, with the clock following the wall clock)
  --max-records N       transactions the ledger always keeps (default ${DEFAULT_MAX_RECORDS.toLocaleString('en')}); older ones only
                        while something can still reach them (a stored card, a subscription with payments to
                        come, a THREEDQUERY waiting for its AUTH, a parent of a record kept), at most as many
                        again. A dropped transaction answers as an unknown one (docs/gateway.md)
  --log                 print one line per request (masked)
  -h, --help            show this help

Contract testing (docs/contract.md):
  --contract            also check every request a client sends against the document; it is answered as
                        always, and its violations are recorded (masked). The report: GET <url>${REPORT_PATH},
                        and printed on stop
  --report FILE         write the report on stop to FILE (JSON if FILE ends in .json, else text); with
                        --client-cmd: --report DIR writes the client report there (index.html, a page per
                        case, junit.xml, cases.json, contract.json), unless the name ends in .json
  --strict              warnings (recommendations, what the document does not show) fail the gate too
  --client-cmd CMD      run the client conformance cases: CMD (run through the shell) is the SDK's adapter,
                        started once per case (protocol: docs/contract.md); implies --contract, and exits when
                        the cases are done instead of waiting for a signal
  --cases ID,ID         with --client-cmd: run only these cases
  --format json|xml|both
                        with --client-cmd: the envelope the cases are played in (default json); xml: the
                        request and response blocks at POST <url>/xml/; both: every case in JSON, then in XML
  --baseline FILE       with --client-cmd: an earlier client report's cases.json; the gate then fails only for a
                        new failure (a case that passed there, or was not there, and fails here), naming it, and
                        says what was fixed and how many old failures remain
  --case-timeout T      with --client-cmd: time an adapter may take per case: a duration such as 90s or 2m,
                        or seconds (default 60s)
  --list-cases          print the client cases (id, group, rules, fields compared) and exit

Requests: POST <url>[base path]/json/ (JSON) and POST <url>[base path]/xml/ (XML), HTTP basic authentication.
Exit codes: 0 stopped cleanly (with --contract: and the client broke no obligation), 1 with --contract or
--client-cmd: a violation (with --strict, a warning too) or a failed client case (with --baseline: a new one),
2 usage or configuration error, 3 --client-cmd stopped by SIGINT or SIGTERM before every case ran (the report
of the cases run is written), or --contract stopped before any request reached the gateway (nothing was checked).`;

function describe(config: GatewayConfig, fromFile: string | undefined): string[] {
  const lines: string[] = ['Users:'];
  for (const u of config.users) {
    const where = fromFile ? `as in ${fromFile}` : 'see docs/gateway.md ("Default configuration") or src/testdata.ts';
    lines.push(`  ${u.username}  alias ${u.alias}  password not printed (${where})  sites: ${u.sites.join(', ')}`);
  }
  lines.push('Sites:');
  for (const s of config.sites) {
    const on = (b: boolean): string => (b ? 'on ' : 'off');
    lines.push(`  ${s.sitereference.padEnd(20)} card store ${on(s.cardstore)}  fraud control ${on(s.fraudcontrol)}  merchant category ${s.mcc}`);
  }
  return lines;
}

interface Values {
  port?: string;
  host?: string;
  'base-path'?: string;
  config?: string;
  control?: boolean;
  log?: boolean;
  help?: boolean;
  'clock-start'?: string;
  'max-records'?: string;
  contract?: boolean;
  report?: string;
  strict?: boolean;
  'client-cmd'?: string;
  format?: string;
  baseline?: string;
  cases?: string;
  'case-timeout'?: string;
  'list-cases'?: boolean;
}

/** Every option of `cardspec serve` (the help text lists each: a test holds it to that). */
export const SERVE_OPTIONS: OptionSpecs = {
  port: { type: 'string' },
  host: { type: 'string' },
  'base-path': { type: 'string' },
  config: { type: 'string' },
  control: { type: 'boolean' },
  'clock-start': { type: 'string' },
  'max-records': { type: 'string' },
  log: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  contract: { type: 'boolean' },
  report: { type: 'string' },
  strict: { type: 'boolean' },
  'client-cmd': { type: 'string' },
  format: { type: 'string' },
  baseline: { type: 'string' },
  cases: { type: 'string' },
  'case-timeout': { type: 'string' },
  'list-cases': { type: 'boolean' },
};

const usageError = (message: string): number => {
  console.error(redactText(`cardspec serve: ${message}`));
  return 2;
};

export async function run(args: string[]): Promise<number> {
  let values: Values;
  try {
    values = parseOptions(args, SERVE_OPTIONS) as Values;
  } catch (err) {
    console.error(redactText(`cardspec serve: ${err instanceof Error ? err.message : String(err)}\n\n${HELP}`));
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  // After the help: `cardspec serve --help` loads none of the gateway, the contract or the client cases.
  const [
    { ConfigError, DEFAULT_CONFIG, loadConfigFile, normaliseBasePath, startGateway },
    { parseTimestamp },
    { reportJson, startContractGateway },
    { formatsOf, runClientCases, selectCases },
    { againstBaseline, BaselineError, baselineLines, caseStatuses, exitWithBaseline, readBaseline },
    { comparedFields },
    { CLIENT_REPORT_FILES, writeClientReport },
  ] = await Promise.all([import('../gateway'), import('../calendar'), import('../contract'), import('../cases'), import('../report/baseline'), import('../cases/case'), import('../cases/report')]);
  if (values['list-cases']) {
    const { cases } = selectCases(undefined);
    for (const c of cases) {
      console.log(`${c.id.padEnd(34)} ${c.group.padEnd(13)} ${c.severity === 'error' ? '       ' : 'warning'} ${c.rules.join(', ')}`);
      console.log(`${''.padEnd(35)}${c.title}`);
      console.log(`${''.padEnd(35)}compares: ${comparedFields(c).join(', ')}${c.envelope ? `; envelope ${c.envelope.join(', ')}` : ''}`);
    }
    console.log(`${cases.length} cases (errormessage is compared only when the adapter declares rawerrormessage; the protocol: docs/contract.md)`);
    return 0;
  }
  let port: number;
  let maxRecords: number;
  let caseTimeoutMs: number;
  try {
    port = wholeNumberOption('port', values.port, 0, 0, 65535);
    maxRecords = wholeNumberOption('max-records', values['max-records'], DEFAULT_MAX_RECORDS, 1, 999_999_999);
    caseTimeoutMs = values['case-timeout'] === undefined ? 60_000 : durationOption('case-timeout', values['case-timeout'], 3600_000);
  } catch (err) {
    return usageError(err instanceof Error ? err.message : String(err));
  }
  const host = values.host ?? '127.0.0.1';
  const clockStart = values['clock-start'];
  if (clockStart !== undefined && parseTimestamp(clockStart) === undefined) {
    console.error(redactText(`cardspec serve: --clock-start must be a time "YYYY-MM-DD HH:MM:SS", not "${clockStart}"`));
    return 2;
  }

  let basePath: string;
  try {
    basePath = normaliseBasePath(values['base-path'] ?? '');
  } catch (err) {
    return usageError(`--base-path: ${err instanceof Error ? err.message : String(err)}`);
  }

  const clientCmd = values['client-cmd'];
  const contract = (values.contract ?? false) || clientCmd !== undefined;
  if (!contract) {
    const stray = (['report', 'strict'] as const).filter((k) => values[k] !== undefined);
    if (stray.length > 0) return usageError(`--${stray.join(' and --')} need --contract (or --client-cmd)`);
  }
  if (clientCmd === undefined) {
    const stray = (['cases', 'case-timeout', 'format', 'baseline'] as const).filter((k) => values[k] !== undefined);
    if (stray.length > 0) return usageError(`--${stray.join(' and --')} need --client-cmd`);
  } else if (clientCmd.trim() === '') return usageError('--client-cmd needs the adapter command line');
  if (values.report !== undefined && values.report.trim() === '') return usageError('--report needs a file name');
  const only = values.cases
    ?.split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const { unknown } = selectCases(only);
  if (unknown.length > 0) return usageError(`unknown case(s) ${unknown.join(', ')}; the cases are listed in docs/contract.md`);
  const format = (values.format ?? 'json') as FormatChoice;
  if (!['json', 'xml', 'both'].includes(format)) return usageError(`--format must be json, xml or both, not "${values.format}"`);
  let baseline: Baseline | undefined;
  try {
    baseline = values.baseline === undefined ? undefined : readBaseline(values.baseline, 'client-cases', values.strict ?? false);
  } catch (err) {
    if (err instanceof BaselineError) return usageError(err.message);
    throw err;
  }

  let config: GatewayConfig = DEFAULT_CONFIG;
  if (values.config !== undefined) {
    try {
      config = await loadConfigFile(values.config);
    } catch (err) {
      console.error(redactText(`cardspec serve: ${err instanceof ConfigError ? err.message : String(err)}`));
      return 2;
    }
  }

  const control = values.control ?? false;
  for (const u of config.users) registerCredential(u.username, u.password);
  const options = {
    config,
    control,
    host,
    port,
    basePath,
    clockStart,
    maxRecords,
    // With the control API the clock stands still until moved (reproducible runs); without it, time is the only
    // thing that can move it. Client cases are reproducible runs too.
    clockTicking: !control && clientCmd === undefined,
    log: values.log ? (line: string) => console.log(redactText(line)) : undefined,
  };
  let gateway;
  let contractGateway;
  try {
    if (contract) gateway = contractGateway = await startContractGateway({ ...options, strict: values.strict ?? false, scenarios: clientCmd !== undefined });
    else gateway = await startGateway(options);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? `port ${port} is in use` : code === 'EADDRNOTAVAIL' ? `address ${host} is not available here` : String(err);
    console.error(redactText(`cardspec serve: cannot listen on ${host}:${port}: ${why}`));
    return 2;
  }

  const out: string[] = ['cardspec reference gateway', ...describe(config, values.config)];
  if (!isLoopbackHost(host)) out.push(`WARNING: listening on ${host}, not loopback, because --host was given: anyone who can reach it can use these credentials.`);
  out.push(
    'Addresses:',
    `  JSON     POST ${gateway.url}${basePath}/json/`,
    `  XML      POST ${gateway.url}${basePath}/xml/`,
    `  ACS      ${gateway.url}/acs/`,
    `  control  ${control ? `${gateway.url}/_cardspec/` : 'off (start with --control to enable)'}`,
  );
  const clock = 'session' in gateway ? gateway.gateway.clock : gateway.clock;
  out.push(`Clock: ${clock.timestamp()} UTC, ${clock.ticking ? 'following the wall clock' : 'standing still until moved through the control API'}`);
  if (contractGateway) {
    out.push(`Contract: every request is checked against the document (${values.strict ? 'strict: warnings fail the gate too' : 'errors fail the gate'}); report at GET ${gateway.url}${REPORT_PATH}`);
  }
  if (contractGateway && clientCmd !== undefined) {
    console.log(redactText(out.join('\n')));
    const played = selectCases(only).cases.length * formatsOf(format).length;
    console.log(`Client cases: running the adapter once per case (${played} cases${format === 'json' ? '' : `, in ${format === 'both' ? 'JSON, then XML' : 'XML'}`})`);
    let done = 0;
    // SIGINT or SIGTERM (a CI job cancelled): the adapter running is ended with its process group, no further case
    // starts, and the report of the cases run is written all the same; the exit status says the run is incomplete.
    const stopping = new AbortController();
    const stop = (sig: NodeJS.Signals): void => {
      if (!stopping.signal.aborted) console.error(`cardspec serve: ${sig}: ending the case in progress; the report of the cases run follows`);
      stopping.abort();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    const results = await runClientCases(contractGateway, {
      command: clientCmd,
      only,
      format,
      timeoutMs: caseTimeoutMs,
      signal: stopping.signal,
      onResult: (r) => {
        done++;
        const tag = r.outcome === 'fail' ? 'FAIL' : r.outcome === 'non-strict' ? 'warn' : r.outcome === 'informational' ? 'info' : 'pass';
        console.log(redactText(`  [${tag}] ${String(done).padStart(3)}/${played} ${r.format === 'xml' ? `${r.id} (xml)` : r.id}${r.problems.length ? `: ${r.problems.join('; ')}` : ''}`));
      },
    });
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await contractGateway.close();
    const report = contractGateway.session.report();
    const interrupted = stopping.signal.aborted;
    if (interrupted) console.log(`Client cases: interrupted after ${results.length} of ${played} cases (exit status 3: incomplete)`);
    let code: number = interrupted ? 3 : contractGateway.session.exitCode();
    let against: string[] = [];
    if (baseline) {
      // Old failing cases alone do not fail the gate; a contract violation in a call still does.
      const strict = values.strict ?? false;
      const violations = contractGateway.session.violations().some((v) => v.severity === 'error' || (strict && v.severity === 'warning'));
      const verdict = againstBaseline(baseline, caseStatuses(results, strict));
      code = exitWithBaseline(verdict, code, !violations);
      against = baselineLines(verdict);
    }
    if (values.report === undefined || values.report.toLowerCase().endsWith('.json')) {
      const printed = await finish(report, code, values.report);
      for (const l of against) console.log(l);
      return printed;
    }
    const dir = values.report;
    const printed = await finish(report, code, undefined);
    try {
      await writeClientReport(dir, results, { command: clientCmd, strict: values.strict ?? false });
      await writeFile(join(dir, 'contract.json'), reportJson(report));
    } catch (err) {
      console.error(redactText(`cardspec serve: cannot write the client report to ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`));
      return 2;
    }
    console.log(redactText(`Client report written to ${join(dir, CLIENT_REPORT_FILES.index)} (JUnit: ${join(dir, CLIENT_REPORT_FILES.junit)})`));
    for (const l of against) console.log(l);
    return printed;
  }
  out.push('Serving until Ctrl-C (SIGINT) or SIGTERM.');
  console.log(redactText(out.join('\n')));

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await gateway.close();
  console.log('cardspec serve: stopped');
  if (!contractGateway) return 0;
  const report = contractGateway.session.report();
  const code = await finish(report, contractGateway.session.exitCode(), values.report);
  // PASSED means checked: a gate that no request reached (the client pointed elsewhere, or never ran) checked nothing.
  if (code === 0 && report.requests.total === 0) {
    console.log(
      redactText(
        `cardspec serve: no request reached the stand-in gateway, so nothing was checked: exit 3 (incomplete). Point the client at ${gateway.url}${basePath} (POST ${gateway.url}${basePath}/json/).`,
      ),
    );
    return 3;
  }
  return code;
}

/** Prints the contract report, writes it to `--report FILE`, and gives the gate's exit code. */
async function finish(report: ContractReport, code: number, file: string | undefined): Promise<number> {
  const { reportJson, reportText } = await import('../contract');
  console.log(reportText(report).trimEnd());
  if (file !== undefined) {
    try {
      await writeFile(file, file.toLowerCase().endsWith('.json') ? reportJson(report) : reportText(report));
    } catch (err) {
      console.error(redactText(`cardspec serve: cannot write the report to ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`));
      return 2;
    }
    console.log(redactText(`Report written to ${file}`));
  }
  return code;
}
