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
import { redactText } from '../redact';
import type { Baseline } from '../report/baseline';
import type { ServeIo, ServePlan } from '../serve/command';
import { durationOption, parseOptions, wholeNumberOption, type OptionSpecs } from './options';
import { DEFAULT_CLOCK_START } from '../gateway/clock';
import { DEFAULT_MAX_RECORDS } from '../gateway/ledger';
import { REPORT_PATH } from '../contract/paths';
import type { FormatChoice } from '../cases';
import { processIo } from './process-io';

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

export async function run(args: string[], io: ServeIo = processIo()): Promise<number> {
  const usageError = (message: string): number => {
    io.err.write(`${redactText(`cardspec serve: ${message}`)}\n`);
    return 2;
  };
  let values: Values;
  try {
    values = parseOptions(args, SERVE_OPTIONS) as Values;
  } catch (err) {
    return usageError(`${err instanceof Error ? err.message : String(err)}\n\n${HELP}`);
  }
  if (values.help) {
    io.out.write(`${HELP}\n`);
    return 0;
  }
  // After the help: `cardspec serve --help` loads none of the gateway, the contract or the client cases.
  const [{ ConfigError, DEFAULT_CONFIG, loadConfigFile, normaliseBasePath }, { parseTimestamp }, { selectCases }, { BaselineError, readBaseline }, { listClientCases, runServe }] = await Promise.all([
    import('../gateway'),
    import('../calendar'),
    import('../cases'),
    import('../report/baseline'),
    import('../serve/command'),
  ]);
  if (values['list-cases']) {
    listClientCases(io);
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
  if (clockStart !== undefined && parseTimestamp(clockStart) === undefined) return usageError(`--clock-start must be a time "YYYY-MM-DD HH:MM:SS", not "${clockStart}"`);

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

  let config = DEFAULT_CONFIG;
  if (values.config !== undefined) {
    try {
      config = await loadConfigFile(values.config);
    } catch (err) {
      return usageError(err instanceof ConfigError ? err.message : String(err));
    }
  }

  const plan: ServePlan = {
    config,
    configFile: values.config,
    host,
    port,
    basePath,
    control: values.control ?? false,
    clockStart,
    maxRecords,
    log: values.log ?? false,
    contract,
    strict: values.strict ?? false,
    report: values.report,
    client: clientCmd === undefined ? undefined : { command: clientCmd, only, format, timeoutMs: caseTimeoutMs, baseline },
  };
  return runServe(plan, io);
}
