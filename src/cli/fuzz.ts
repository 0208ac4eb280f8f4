/**
 * `cardspec fuzz`: generated requests (valid, on the boundaries, of the wrong type, with characters outside their
 * class, missing a required field, of unknown or misordered request types, with a changed envelope) and stateful
 * models (card store, inheritance, subscriptions under a moving clock, fraud control, follow-ups) against a target,
 * judged by named oracles, each of one rule of features/rules.yaml. See docs/fuzz.md.
 *
 * Exit codes: 0 PASSED, 1 FAILED (shrunk, with a replay command), 2 a usage or configuration error, 3 INCOMPLETE
 * (nothing failed, but something asked for was not checked; 0 with --allow-incomplete).
 */
import { availableParallelism } from 'node:os';
import { FUZZ_DEFAULTS, MAX_RUNS } from '../fuzz/plan';
import { redactText } from '../redact';
import { loadProfile, ProfileError } from '../client/profile';
import { TLS_HELP, TlsConfigError } from '../client/tls';
import type { FuzzCommandIo } from '../fuzz/command';
import { CONNECTION_OPTIONS, connectionOptions, durationOption, formatOption, OptionValues, parseOptions, stringOption, targetOption, UsageError, wholeNumberOption } from './options';

export const USAGE = `Usage: cardspec fuzz [options]

Fuzzes a target with generated requests and stateful models (fast-check), judged by named oracles.

Options:
  --target builtin|<base-url>  the built-in reference gateway (default; a fresh one per property and format)
                               or a base URL (requests go to <base-url>/json/ and the profile's XML path)
  --profile builtin|<file>     the target's test cards and capabilities (default: builtin; docs/conformance.md)
  --format json|xml|both       the envelope form (default: json)
  --property <list>            what to run, comma-separated: requests, card-store, inheritance, subscriptions,
                               riskdec, followups, or all (default: all)
  --runs N                     generated requests per format (default: ${FUZZ_DEFAULTS.runs}; at most ${MAX_RUNS.toLocaleString('en')})
  --model-runs N               command sequences per model and format (default: ${FUZZ_DEFAULTS.modelRuns})
  --max-commands N             commands per sequence, at most (default: ${FUZZ_DEFAULTS.maxCommands})
  --seed S                     the seed (default: a new one, printed); the same seed generates the same cases
  --path P                     replay the one case at path P of --seed (printed with every failure); needs one
                               --property and one --format
  --rate R                     at most R requests per second
  --timeout <duration>         time allowed for one answer, e.g. 15s, 500ms (default: the profile's, 15s); a
                               plain number is read as milliseconds (the old form, with a notice)
  --concurrency N              requests in flight at once (default: ${FUZZ_DEFAULTS.concurrency}), shared by the threads
  --threads N|auto             threads that generate, send and judge requests (default: 1; auto: one per core,
                               at most 4, for runs of 2,000 requests or more without --rate or --path); a seed
                               gives the same cases whatever the number. Each thread costs about a second to start
  --max-time <duration>        time the whole run may take, e.g. 10m, or seconds (default: ${FUZZ_DEFAULTS.maxTimeSec}s)
  --max-failures N             stop sending once N cases failed (default: ${FUZZ_DEFAULTS.maxFailures}); only these cases and the counts
                               are kept, so a run of millions of cases holds no more than one of thousands
  --shard I/N                  run shard I of N (1-based): the --runs cases of the seed cut into N contiguous
                               ranges, the models dealt out in turn; N shards with one seed run each case once
  --allow-incomplete           exit 0 when the verdict is INCOMPLETE (it is still printed as INCOMPLETE)
  --shrink-steps N             requests one shrink may send (default: ${FUZZ_DEFAULTS.shrinkSteps})
  --user <name>                basic-auth user name (or CARDSPEC_USER; default: the profile's)
  --password <password>        basic-auth password (or CARDSPEC_PASSWORD; default: the profile's)
  --alias <alias>              the envelope's alias (default: the profile's alias for the profile's user, else the user name)
  --site <sitereference>       the merchant site (default: the profile's main site)
  --allow-live                 fuzz a site whose reference does not start with "test_"
  --checks <list>              the oracles that judge the requests, comma-separated: names (see the summary
                               table), all, or a module of your own (./limits.js exporting "oracles"; docs/fuzz.md)
  --exclude-checks <list>      oracles left out, by name
${TLS_HELP}
  -h, --help                   this text

Verdict (the last line): PASSED (everything asked for ran and was judged), FAILED (an oracle or a model failed),
INCOMPLETE (nothing failed, but a model could not run, a property broke off, or the run stopped before all its
cases: the reasons are listed).

Exit codes: 0 PASSED, 1 FAILED, 2 a usage or configuration error (or nothing could be sent), 3 INCOMPLETE.`;

/** What the fuzzer is given of its process (src/fuzz/command.ts): no folder, no interrupts. */
export type CommandIO = FuzzCommandIo;

const wholeNumber = (values: OptionValues, name: string, dflt: number, min: number, max: number): number => wholeNumberOption(name, stringOption(values, name), dflt, min, max);

/** Fuzz's old `--timeout MS`: a plain number was milliseconds here (seconds in every other command). */
const OLD_TIMEOUT = /^\s*[0-9]+\s*$/;

/**
 * `--timeout <duration>` (default the profile's) and `--max-time <duration>` (plain seconds, as before). A plain
 * number given to --timeout is still read as milliseconds, fuzz's old form, with a one-line notice.
 */
function timeLimits(values: OptionValues, dfltTimeoutMs: number, note: (text: string) => void): { timeoutMs: number; maxTimeMs: number } {
  const timeout = stringOption(values, 'timeout');
  const maxTime = stringOption(values, 'max-time');
  let timeoutMs = dfltTimeoutMs;
  if (timeout !== undefined && OLD_TIMEOUT.test(timeout)) {
    timeoutMs = wholeNumberOption('timeout', timeout.trim(), dfltTimeoutMs, 1, 600_000);
    note(`cardspec fuzz: note: --timeout ${timeout.trim()} is read as milliseconds (fuzz's old form); write ${timeout.trim()}ms, or 15s: a plain number is seconds in every other command\n`);
  } else if (timeout !== undefined) timeoutMs = durationOption('timeout', timeout, 600_000);
  const maxTimeMs = maxTime === undefined ? FUZZ_DEFAULTS.maxTimeSec * 1000 : durationOption('max-time', maxTime);
  return { timeoutMs, maxTimeMs };
}

/** Runs at least this long pay for starting threads (each loads the kit: about a second). */
export const AUTO_THREADS_MIN_RUNS = 2000;

/**
 * `--threads auto`: one thread per core, at most 4, where the run is long enough to pay for starting them and
 * nothing needs one thread (a rate limit is one clock; a replay is one case). Against a local target the kit is
 * what runs out of CPU first, so its cases can be spread over the cores the target leaves. Not the default: on the
 * 2-core machine the benchmark runs on, starting the threads (each loads the kit) cost more than they saved over
 * 10,000 requests (docs/fuzz.md).
 */
export function autoThreads(runs: number, single: boolean): number {
  if (single || runs < AUTO_THREADS_MIN_RUNS) return 1;
  return Math.max(1, Math.min(4, availableParallelism()));
}

export async function runCommand(args: string[], io: CommandIO): Promise<number> {
  let values: OptionValues;
  try {
    values = parseOptions(args, {
      ...CONNECTION_OPTIONS,
      format: { type: 'string' },
      property: { type: 'string' },
      runs: { type: 'string' },
      'model-runs': { type: 'string' },
      'max-commands': { type: 'string' },
      seed: { type: 'string' },
      path: { type: 'string' },
      rate: { type: 'string' },
      timeout: { type: 'string' },
      concurrency: { type: 'string' },
      threads: { type: 'string' },
      'max-time': { type: 'string' },
      'max-failures': { type: 'string' },
      'shrink-steps': { type: 'string' },
      'allow-live': { type: 'boolean' },
      ca: { type: 'string' },
      insecure: { type: 'boolean' },
      'allow-incomplete': { type: 'boolean' },
      shard: { type: 'string' },
      checks: { type: 'string' },
      'exclude-checks': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
  } catch (e) {
    io.err.write(redactText(`cardspec fuzz: ${(e as Error).message}\n\n${USAGE}\n`));
    return 2;
  }
  if (values.help) {
    io.out.write(USAGE + '\n');
    return 0;
  }
  // After the help: `cardspec fuzz --help` loads none of the fuzzer.
  const { PROPERTIES } = await import('../fuzz');
  const str = (k: string): string | undefined => stringOption(values, k);
  try {
    const target = targetOption(str('target'));
    const formats = formatOption(str('format'));
    const { ChecksError, selectOracles } = await import('../fuzz/checks');
    let oracles: ReturnType<typeof selectOracles> | undefined;
    try {
      oracles = str('checks') !== undefined || str('exclude-checks') !== undefined ? selectOracles(str('checks'), str('exclude-checks')) : undefined;
    } catch (e) {
      if (e instanceof ChecksError) throw new UsageError(e.message);
      throw e;
    }
    const propertyText = str('property') ?? 'all';
    const properties = propertyText === 'all' ? [...PROPERTIES] : propertyText.split(',').map((p) => p.trim());
    const unknown = properties.filter((p) => !PROPERTIES.includes(p));
    if (unknown.length > 0 || properties.length === 0) throw new UsageError(`--property: unknown ${unknown.join(', ') || '(none given)'}; the properties are ${PROPERTIES.join(', ')}, or all`);

    const seedText = str('seed');
    if (seedText !== undefined && !/^-?[0-9]{1,10}$/.test(seedText)) throw new UsageError(`--seed must be a whole number, not "${seedText}"`);
    const path = str('path');
    if (path !== undefined) {
      if (seedText === undefined) throw new UsageError('--path replays a case of a seed: give --seed too');
      if (properties.length !== 1 || formats.length !== 1) throw new UsageError('--path replays one case: give one --property and one --format');
      if (!/^[0-9]+(:[0-9]+)*(~[A-Za-z0-9+/=:_-]*)?$/.test(path)) throw new UsageError(`--path must be a path printed by a failure (like 12:0:3), not "${path}"`);
    }
    // A fuzz run is not a test: a new seed each time finds new cases; the seed is printed so any run can be replayed.
    const seed = seedText !== undefined ? Number(seedText) | 0 : (Math.random() * 0x7fffffff) | 0;

    const shardText = str('shard');
    let shard: { index: number; count: number } | undefined;
    if (shardText !== undefined) {
      const m = /^([1-9][0-9]{0,3})\/([1-9][0-9]{0,3})$/.exec(shardText);
      if (!m || Number(m[1]) > Number(m[2])) throw new UsageError(`--shard must be I/N with 1 <= I <= N (like 2/3), not "${shardText}"`);
      if (path !== undefined) throw new UsageError('--shard and --path do not go together: a replay is one case, whatever shard found it');
      if (seedText === undefined) throw new UsageError('--shard needs --seed: every shard must draw from the same seed');
      shard = { index: Number(m[1]), count: Number(m[2]) };
    }

    const rateText = str('rate');
    let rate: number | undefined;
    if (rateText !== undefined) {
      rate = Number(rateText);
      if (!(rate > 0) || !Number.isFinite(rate) || rate > 100_000) throw new UsageError(`--rate must be a number of requests per second above 0, not "${rateText}"`);
    }

    const runs = wholeNumber(values, 'runs', FUZZ_DEFAULTS.runs, 1, MAX_RUNS);
    const threadsText = str('threads') ?? '1';
    if (threadsText !== 'auto' && !/^[1-9][0-9]?$/.test(threadsText)) throw new UsageError(`--threads must be auto or a whole number from 1 to 99, not "${threadsText}"`);
    const threads = threadsText === 'auto' ? autoThreads(runs, rate !== undefined || path !== undefined) : Number(threadsText);

    const profileSpec = str('profile') ?? 'builtin';
    const profile = loadProfile(profileSpec);
    const { timeoutMs, maxTimeMs } = timeLimits(values, profile.limits.totalTimeoutMs, (t) => io.err.write(t));
    // One reading of the connection for every command (src/client/connection.ts: credentials, the alias rule, site).
    const { user, password, alias, site } = connectionOptions(values, io.env, profile);

    const { checkSafety } = await import('../fuzz/safety');
    const unsafe = checkSafety(site, values['allow-live'] === true);
    if (unsafe) throw new UsageError(unsafe);
    // What a replay must repeat to generate the same case: the target and its profile, the site, and for models the
    // length of a sequence (it shapes the commands fast-check draws).
    const replayArgs = [
      '--target',
      target,
      ...(profileSpec !== 'builtin' ? ['--profile', profileSpec] : []),
      ...(str('site') ? ['--site', site] : []),
      ...(str('max-commands') ? ['--max-commands', String(values['max-commands'])] : []),
      ...(values['allow-live'] ? ['--allow-live'] : []),
      ...(str('checks') ? ['--checks', str('checks')!] : []),
      ...(str('exclude-checks') ? ['--exclude-checks', str('exclude-checks')!] : []),
    ];
    const plan = {
      target,
      profile,
      formats,
      properties,
      runs,
      modelRuns: wholeNumber(values, 'model-runs', FUZZ_DEFAULTS.modelRuns, 1, 100_000),
      maxCommands: wholeNumber(values, 'max-commands', FUZZ_DEFAULTS.maxCommands, 1, 200),
      seed,
      path,
      rate,
      timeoutMs,
      concurrency: wholeNumber(values, 'concurrency', FUZZ_DEFAULTS.concurrency, 1, 256),
      threads,
      maxTimeMs,
      maxFailures: wholeNumber(values, 'max-failures', FUZZ_DEFAULTS.maxFailures, 1, 1_000_000),
      shrinkSteps: wholeNumber(values, 'shrink-steps', FUZZ_DEFAULTS.shrinkSteps, 0, 100_000),
      user,
      password,
      alias,
      site,
      allowLive: values['allow-live'] === true,
      shard,
      replayArgs,
      ...(oracles ? { oracles } : {}),
      timeoutGiven: str('timeout') !== undefined,
      allowIncomplete: values['allow-incomplete'] === true,
      tls: { ca: str('ca'), insecure: values.insecure === true },
    };
    const { runFuzzCommand } = await import('../fuzz/command');
    return await runFuzzCommand(plan, io);
  } catch (e) {
    if (e instanceof ProfileError) {
      io.err.write(`cardspec fuzz: ${e.message}\n`);
      return 2;
    }
    if (e instanceof UsageError || e instanceof TlsConfigError) {
      io.err.write(redactText(`cardspec fuzz: ${e.message}\n`));
      return 2;
    }
    io.err.write(redactText(`cardspec fuzz: ${(e as Error).stack ?? String(e)}\n`));
    return 2;
  }
}

export function run(args: string[]): Promise<number> {
  return runCommand(args, {
    out: process.stdout,
    err: process.stderr,
    tty: process.stdout.isTTY === true,
    env: process.env,
  });
}
