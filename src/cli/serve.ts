/**
 * `cardspec serve`: runs the reference gateway on loopback until SIGINT or SIGTERM, after printing the
 * configuration it runs with and its addresses. The password is never printed (no secret leaves the run): the
 * default one is written in docs/gateway.md and src/testdata.ts.
 */
import { parseArgs } from 'node:util';
import { redactText } from '../redact';
import { ConfigError, DEFAULT_CLOCK_START, DEFAULT_CONFIG, loadConfigFile, startGateway, type GatewayConfig } from '../gateway';
import { parseTimestamp } from '../gateway/clock';

const HELP = `Usage: cardspec serve [options]

Runs the reference gateway (the kit's default target) until Ctrl-C.

Options:
  --port N              port to listen on (default 0: a free port, printed at start)
  --host H              address to listen on (default 127.0.0.1). Only loopback unless you give --host
                        explicitly: the built-in test credentials are public.
  --config FILE         users and sites as JSON {"users":[...],"sites":[...]} (default: the built-in
                        configuration of src/testdata.ts; see docs/gateway.md)
  --control             enable the test-control API under /_cardspec/ (clock, cache tokens, ledger records);
                        the clock then stands still at ${DEFAULT_CLOCK_START} until moved
  --clock-start TIME    start the clock at "YYYY-MM-DD HH:MM:SS" (default: ${DEFAULT_CLOCK_START} with --control,
                        else the current time, with the clock following the wall clock)
  --log                 print one line per request (masked)
  --help                show this help

Requests: POST <url>/json/ (JSON) and POST <url>/xml/ (XML), HTTP basic authentication.
Exit codes: 0 stopped cleanly, 2 usage or configuration error.`;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

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

export async function run(args: string[]): Promise<number> {
  let values: { port?: string; host?: string; config?: string; control?: boolean; log?: boolean; help?: boolean; 'clock-start'?: string };
  try {
    values = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        config: { type: 'string' },
        control: { type: 'boolean' },
        'clock-start': { type: 'string' },
        log: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    console.error(redactText(`cardspec serve: ${err instanceof Error ? err.message : String(err)}\n\n${HELP}`));
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(redactText(`cardspec serve: --port must be a number from 0 to 65535, not "${values.port}"`));
    return 2;
  }
  const host = values.host ?? '127.0.0.1';
  const clockStart = values['clock-start'];
  if (clockStart !== undefined && parseTimestamp(clockStart) === undefined) {
    console.error(redactText(`cardspec serve: --clock-start must be a time "YYYY-MM-DD HH:MM:SS", not "${clockStart}"`));
    return 2;
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
  let gateway;
  try {
    gateway = await startGateway({
      config,
      control,
      host,
      port,
      clockStart,
      // With the control API the clock stands still until moved (reproducible runs); without it, time is the only
      // thing that can move it.
      clockTicking: !control,
      log: values.log ? (line) => console.log(redactText(line)) : undefined,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? `port ${port} is in use` : code === 'EADDRNOTAVAIL' ? `address ${host} is not available here` : String(err);
    console.error(redactText(`cardspec serve: cannot listen on ${host}:${port}: ${why}`));
    return 2;
  }

  const out: string[] = ['cardspec reference gateway', ...describe(config, values.config)];
  if (!LOOPBACK.has(host)) out.push(`WARNING: listening on ${host}, not loopback, because --host was given: anyone who can reach it can use these credentials.`);
  out.push(
    'Addresses:',
    `  JSON     POST ${gateway.url}/json/`,
    `  XML      POST ${gateway.url}/xml/`,
    `  ACS      ${gateway.url}/acs/`,
    `  control  ${control ? `${gateway.url}/_cardspec/` : 'off (start with --control to enable)'}`,
    `Clock: ${gateway.clock.timestamp()} UTC, ${gateway.clock.ticking ? 'following the wall clock' : 'standing still until moved through the control API'}`,
    'Serving until Ctrl-C (SIGINT) or SIGTERM.',
  );
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
  return 0;
}
