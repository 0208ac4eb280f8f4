/**
 * `cardspec serve` as a library call, `runServe(plan, io)`: the reference gateway (or, with `contract`, the stand-in
 * gateway of contract testing) started on the plan's address, its configuration and addresses printed, then either
 * served until an interrupt or, with `client`, the client conformance cases played through the adapter; the
 * contract report printed and written; resolves to the exit code. src/cli/serve.ts reads the options into the plan;
 * output and interrupts come in `io` (src/io.ts), so a script or a test can run a gateway the way the command does.
 *
 * Exit codes: 0 stopped cleanly (with `contract`: and the client broke no obligation), 1 a violation or a failed
 * client case (with a baseline: a new one), 2 the address could not be listened on or a report not written, 3 the
 * cases stopped by an interrupt before every one ran, or a contract gate no request reached (nothing was checked).
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { formatsOf, runClientCases, selectCases, type FormatChoice } from '../cases';
import { comparedFields } from '../cases/case';
import { CLIENT_REPORT_FILES, writeClientReport } from '../cases/report';
import { isLoopbackHost } from '../client/safety';
import { reportJson, reportText, startContractGateway, type ContractReport } from '../contract';
import { REPORT_PATH } from '../contract/paths';
import { startGateway, type GatewayConfig } from '../gateway';
import type { CommandIo } from '../io';
import { redactText, registerCredential } from '../redact';
import { againstBaseline, baselineLines, caseStatuses, exitWithBaseline, type Baseline } from '../report/baseline';

/**
 * What serve is given of its process: output, the folder report files are written relative to, interrupts, and the
 * environment a client adapter is started in (default: the process's).
 */
export type ServeIo = Pick<CommandIo, 'out' | 'err' | 'cwd' | 'interrupts'> & Partial<Pick<CommandIo, 'env'>>;

/** The client conformance cases to play (`--client-cmd`). */
export interface ClientCasesPlan {
  /** The adapter's command line, run through the shell once per case. */
  readonly command: string;
  /** Only these case ids (all when absent). */
  readonly only?: readonly string[];
  readonly format: FormatChoice;
  /** Time an adapter may take per case. */
  readonly timeoutMs: number;
  /** An earlier client report's cases: the gate then fails only for a new failure. */
  readonly baseline?: Baseline;
}

export interface ServePlan {
  readonly config: GatewayConfig;
  /** The file the configuration was read from (printed instead of where the built-in passwords are written). */
  readonly configFile?: string;
  readonly host: string;
  readonly port: number;
  /** Normalised (src/gateway/routes/base-path.ts): '' or '/api'. */
  readonly basePath: string;
  /** The test-control API under /_cardspec/. */
  readonly control: boolean;
  readonly clockStart?: string;
  readonly maxRecords: number;
  /** A masked line per request. */
  readonly log: boolean;
  /** The stand-in gateway: every request checked against the document (implied by `client`). */
  readonly contract: boolean;
  /** Warnings fail the gate too. */
  readonly strict: boolean;
  /** Where the report goes on stop: a file (JSON if it ends in .json, else text); with `client`, a folder unless .json. */
  readonly report?: string;
  readonly client?: ClientCasesPlan;
}

const line = (sink: CommandIo['out'], text: string): void => void sink.write(`${text}\n`);

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

/** `serve --list-cases`: every client case, its group, rules and the fields it compares. */
export function listClientCases(io: Pick<CommandIo, 'out'>): void {
  const { cases } = selectCases(undefined);
  for (const c of cases) {
    line(io.out, `${c.id.padEnd(34)} ${c.group.padEnd(13)} ${c.severity === 'error' ? '       ' : 'warning'} ${c.rules.join(', ')}`);
    line(io.out, `${''.padEnd(35)}${c.title}`);
    line(io.out, `${''.padEnd(35)}compares: ${comparedFields(c).join(', ')}${c.envelope ? `; envelope ${c.envelope.join(', ')}` : ''}`);
  }
  line(io.out, `${cases.length} cases (errormessage is compared only when the adapter declares rawerrormessage; the protocol: docs/contract.md)`);
}

/** Waits for the first interrupt (none given: never). */
function firstInterrupt(io: ServeIo): Promise<void> {
  return new Promise<void>((done) => {
    const stop = io.interrupts?.(() => {
      stop?.();
      done();
    });
  });
}

export async function runServe(plan: ServePlan, io: ServeIo): Promise<number> {
  const { config, control, host, port, basePath, client } = plan;
  for (const u of config.users) registerCredential(u.username, u.password);
  const options = {
    config,
    control,
    host,
    port,
    basePath,
    clockStart: plan.clockStart,
    maxRecords: plan.maxRecords,
    // With the control API the clock stands still until moved (reproducible runs); without it, time is the only
    // thing that can move it. Client cases are reproducible runs too.
    clockTicking: !control && client === undefined,
    log: plan.log ? (text: string) => line(io.out, redactText(text)) : undefined,
  };
  const contract = plan.contract || client !== undefined;
  let gateway;
  let contractGateway;
  try {
    if (contract) gateway = contractGateway = await startContractGateway({ ...options, strict: plan.strict, scenarios: client !== undefined });
    else gateway = await startGateway(options);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? `port ${port} is in use` : code === 'EADDRNOTAVAIL' ? `address ${host} is not available here` : String(err);
    line(io.err, redactText(`cardspec serve: cannot listen on ${host}:${port}: ${why}`));
    return 2;
  }

  const out: string[] = ['cardspec reference gateway', ...describe(config, plan.configFile)];
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
    out.push(`Contract: every request is checked against the document (${plan.strict ? 'strict: warnings fail the gate too' : 'errors fail the gate'}); report at GET ${gateway.url}${REPORT_PATH}`);
  }
  if (contractGateway && client !== undefined) {
    line(io.out, redactText(out.join('\n')));
    const played = selectCases(client.only).cases.length * formatsOf(client.format).length;
    line(io.out, `Client cases: running the adapter once per case (${played} cases${client.format === 'json' ? '' : `, in ${client.format === 'both' ? 'JSON, then XML' : 'XML'}`})`);
    let done = 0;
    // An interrupt (a CI job cancelled): the adapter running is ended with its process group, no further case
    // starts, and the report of the cases run is written all the same; the exit status says the run is incomplete.
    const stopping = new AbortController();
    const unlisten = io.interrupts?.((sig) => {
      if (!stopping.signal.aborted) line(io.err, `cardspec serve: ${sig}: ending the case in progress; the report of the cases run follows`);
      stopping.abort();
    });
    const results = await runClientCases(contractGateway, {
      command: client.command,
      only: client.only,
      format: client.format,
      timeoutMs: client.timeoutMs,
      signal: stopping.signal,
      env: io.env,
      onResult: (r) => {
        done++;
        const tag = r.outcome === 'fail' ? 'FAIL' : r.outcome === 'non-strict' ? 'warn' : r.outcome === 'informational' ? 'info' : 'pass';
        line(io.out, redactText(`  [${tag}] ${String(done).padStart(3)}/${played} ${r.format === 'xml' ? `${r.id} (xml)` : r.id}${r.problems.length ? `: ${r.problems.join('; ')}` : ''}`));
      },
    });
    unlisten?.();
    await contractGateway.close();
    const report = contractGateway.session.report();
    const interrupted = stopping.signal.aborted;
    if (interrupted) line(io.out, `Client cases: interrupted after ${results.length} of ${played} cases (exit status 3: incomplete)`);
    let code: number = interrupted ? 3 : contractGateway.session.exitCode();
    let against: string[] = [];
    if (client.baseline) {
      // Old failing cases alone do not fail the gate; a contract violation in a call still does.
      const violations = contractGateway.session.violations().some((v) => v.severity === 'error' || (plan.strict && v.severity === 'warning'));
      const verdict = againstBaseline(client.baseline, caseStatuses(results, plan.strict));
      code = exitWithBaseline(verdict, code, !violations);
      against = baselineLines(verdict);
    }
    if (plan.report === undefined || plan.report.toLowerCase().endsWith('.json')) {
      const printed = await finish(report, code, plan.report, io);
      for (const l of against) line(io.out, l);
      return printed;
    }
    const dir = plan.report;
    const printed = await finish(report, code, undefined, io);
    try {
      await writeClientReport(resolve(io.cwd, dir), results, { command: client.command, strict: plan.strict });
      await writeFile(resolve(io.cwd, dir, 'contract.json'), reportJson(report));
    } catch (err) {
      line(io.err, redactText(`cardspec serve: cannot write the client report to ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`));
      return 2;
    }
    line(io.out, redactText(`Client report written to ${join(dir, CLIENT_REPORT_FILES.index)} (JUnit: ${join(dir, CLIENT_REPORT_FILES.junit)})`));
    for (const l of against) line(io.out, l);
    return printed;
  }
  out.push('Serving until Ctrl-C (SIGINT) or SIGTERM.');
  line(io.out, redactText(out.join('\n')));

  await firstInterrupt(io);
  await gateway.close();
  line(io.out, 'cardspec serve: stopped');
  if (!contractGateway) return 0;
  const report = contractGateway.session.report();
  const code = await finish(report, contractGateway.session.exitCode(), plan.report, io);
  // PASSED means checked: a gate that no request reached (the client pointed elsewhere, or never ran) checked nothing.
  if (code === 0 && report.requests.total === 0) {
    line(
      io.out,
      redactText(
        `cardspec serve: no request reached the stand-in gateway, so nothing was checked: exit 3 (incomplete). Point the client at ${gateway.url}${basePath} (POST ${gateway.url}${basePath}/json/).`,
      ),
    );
    return 3;
  }
  return code;
}

/** Prints the contract report, writes it to the report file, and gives the gate's exit code. */
async function finish(report: ContractReport, code: number, file: string | undefined, io: ServeIo): Promise<number> {
  line(io.out, reportText(report).trimEnd());
  if (file !== undefined) {
    try {
      await writeFile(resolve(io.cwd, file), file.toLowerCase().endsWith('.json') ? reportJson(report) : reportText(report));
    } catch (err) {
      line(io.err, redactText(`cardspec serve: cannot write the report to ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`));
      return 2;
    }
    line(io.out, redactText(`Report written to ${file}`));
  }
  return code;
}
