/**
 * `cardspec run`: the options read into a plan, one call of `runConformance` (src/suite/run.ts, where the run and
 * its exit codes are described), the exit code. What the process gives a run, this file gives: its console, its
 * environment, its folder, and SIGINT/SIGTERM as interrupts (a second one quits at once).
 *
 * Exit codes: 0 PASSED, 1 FAILED, 2 a usage or configuration error or a target not ready, 3 INCOMPLETE.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommandIo } from '../io';
import { redactText } from '../redact';
import type { RunPlan } from '../suite/run';
import { DEFAULT_MAX_TRANSPORT_FAILURES } from '../stop';
import { TLS_HELP } from '../client/tls';
import type { Baseline } from '../report/baseline';
import type { Matrix, Summary } from '../report/model';
import type { ReportsDetail } from '../report/detail';
import { CONNECTION_OPTIONS, connectionOptions, durationOption, formatOption, OptionValues, OptionSpecs, parseOptions, stringOption, targetOption, UsageError, wholeNumberOption } from './options';
import { processIo } from './process-io';

export const USAGE = `Usage: cardspec run [options]

Runs the conformance suite (every documented flow, rule and error code) against a target.

Options:
  --target builtin|<base-url>  the target: the built-in reference gateway, started in-process on a free loopback
                               port (default), or a base URL; requests go to <base-url>/json/ and the profile's
                               XML path
  --format json|xml|both       the envelope(s) to run the features over (default: json)
  --profile builtin|<file>     the target's test data and capabilities (default: builtin; docs/conformance.md)
  --tags <expression>          run only the scenarios matching a cucumber tag expression, e.g. "@rule:ENV-ORDER"
  --user <name>                basic-auth user name (or CARDSPEC_USER; default: the profile's)
  --password <password>        basic-auth password (or CARDSPEC_PASSWORD; default: the profile's)
  --alias <alias>              the envelope's alias (default: the profile's alias for the profile's user, else the user name)
  --site <sitereference>       the merchant site (default: the profile's main site)
  --reports <dir>              where the reports go (default: reports)
  --parallel <n>               cucumber worker processes per format (default: 0, in this process)
  --timeout <duration>         time allowed per request, e.g. 15s, 500ms, 1m (default: the profile's
                               limits.totalTimeoutMs, 15s in the built-in profile)
  --max-time <duration>        time allowed for the whole run (default: none); what it did not reach is skipped
${TLS_HELP}
  --allow-live                 run against a site whose reference does not start with "test_" (a run sends
                               payments and requests that break the document on purpose)
  --features <dir>             also run your own .feature files (in <dir>, recursively): they use the kit's
                               steps and World; repeatable (docs/extending.md)
  --require <file|dir>         step files of your own for those features (.ts or .js); repeatable
  --rules <file>               your rule catalogue (the format of features/rules.yaml): your @rule: IDs join
                               the matrix, the summary and the JUnit file
  --list                       list the scenarios and rules that would run for these --tags, --profile and
                               --format, and what would be skipped and why; sends no request, starts nothing
  --bail                       stop at the first failed scenario: what it did not reach is reported skipped, the
                               reports are written, the verdict is FAILED (not with --parallel)
  --verbose                    print each failed scenario on the console as it fails: the error and every
                               exchange (request and answer, masked)
  --waivers <file>             rules (or scenario tags) out of scope, each with a written reason (YAML or JSON;
                               docs/reports.md); printed in the summary, summary.json and the matrix
  --allow-incomplete           exit 0 when the verdict is INCOMPLETE (exploratory runs); the verdict stays INCOMPLETE
  --strict                     the SHOULD-level points the kit counts apart (HTTP semantics the document relies on:
                               an answer declaring a media type its request did not accept) fail the run; without
                               it they are warnings in every report (as serve --contract --strict)
  --reports-detail summary|full  summary (default): failed and skipped scenarios whole, a sample of the passed ones
                               with their exchanges, the others summarised (a size CI keeps); full: every exchange
                               of every scenario, and cucumber's own HTML page
  --baseline <summary.json>    an earlier run's summary.json: the verdict then lists what is new (a rule that passed
                               there, or was not failing there, and fails here), what was fixed and what was
                               already failing; a new failure exits 1 naming it, old failures alone exit 0
  --shard <i/n>                run shard i of n (a CI matrix job): a stable split by feature file and scenario
                               name, the same in every format; merge the shards' reports with
                               \`cardspec report --merge DIR...\` for one matrix, summary, JUnit and verdict
  -h, --help                   this text

Before the suite, one known-good request per format checks that the target is reachable, takes the credentials
and answers envelopes. After ${DEFAULT_MAX_TRANSPORT_FAILURES} requests in a row without an answer, the run stops. SIGINT (Ctrl-C) or
SIGTERM stops the run too: the reports of what ran are written (a second Ctrl-C quits at once).

Verdicts: PASSED every testable rule in scope has a passing check in every format run and nothing in scope was
skipped; FAILED a check failed; INCOMPLETE nothing failed, but a rule or scenario in scope was not checked (a
skip, a missing capability, a run stopped early). The scope narrows only by --waivers (and --tags).

Exit codes: 0 PASSED (or INCOMPLETE with --allow-incomplete), 1 FAILED, 2 a usage or configuration error or a
target that is not ready (the message says what to fix), 3 INCOMPLETE.`;

/** A live-looking site without --allow-live (src/client/safety.ts): refused with the reason, not the usage text. */
class LiveSiteError extends Error {}

/** The plan, and what the command does after the run: the gate against a baseline. */
type CliPlan = RunPlan & { readonly baseline?: Baseline };

const RUN_OPTIONS: OptionSpecs = {
  ...CONNECTION_OPTIONS,
  format: { type: 'string' },
  tags: { type: 'string' },
  reports: { type: 'string' },
  parallel: { type: 'string' },
  timeout: { type: 'string' },
  'max-time': { type: 'string' },
  ca: { type: 'string' },
  insecure: { type: 'boolean' },
  'allow-live': { type: 'boolean' },
  features: { type: 'string', multiple: true },
  require: { type: 'string', multiple: true },
  rules: { type: 'string' },
  list: { type: 'boolean' },
  bail: { type: 'boolean' },
  verbose: { type: 'boolean' },
  waivers: { type: 'string' },
  shard: { type: 'string' },
  'allow-incomplete': { type: 'boolean' },
  strict: { type: 'boolean' },
  'reports-detail': { type: 'string' },
  baseline: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/**
 * The modules a plan is read with, loaded once the options are parsed: `cardspec run --help` loads none of them
 * (nor the run itself), so that it prints at once.
 */
async function planModules(values: OptionValues) {
  const [profile, safety, extensions, catalogue, waivers, suite, baseline] = await Promise.all([
    import('../client/profile'),
    import('../client/safety'),
    import('../suite/extensions'),
    import('../rules/catalogue'),
    // Only with --waivers: its YAML reader is not loaded otherwise.
    values.waivers === undefined ? undefined : import('../report/waivers'),
    import('../suite'),
    import('../report/baseline'),
  ]);
  return { profile, safety, extensions, catalogue, waivers, suite, baseline };
}

type PlanModules = Awaited<ReturnType<typeof planModules>>;

function readPlan(values: OptionValues, env: NodeJS.ProcessEnv, cwd: string, lib: PlanModules): CliPlan {
  const str = (k: string): string | undefined => stringOption(values, k);
  const strings = (k: string): string[] => {
    const v = values[k];
    return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  };

  const target = targetOption(str('target'));
  const formats = formatOption(str('format'));

  const parallel = wholeNumberOption('parallel', str('parallel'), 0, 0, 64);

  const timeoutText = str('timeout');
  const maxTimeText = str('max-time');
  const timeoutMs = timeoutText === undefined ? undefined : durationOption('timeout', timeoutText);
  const maxTimeMs = maxTimeText === undefined ? undefined : durationOption('max-time', maxTimeText);

  const profileSpec = str('profile') ?? 'builtin';
  let profile = lib.profile.loadProfile(profileSpec);
  if (timeoutMs !== undefined) {
    // The whole exchange within --timeout; the connection within it too.
    const limits = { ...profile.limits, totalTimeoutMs: timeoutMs, connectTimeoutMs: Math.min(profile.limits.connectTimeoutMs, timeoutMs) };
    profile = { ...profile, limits };
  }

  // One reading of the connection for every command (src/client/connection.ts: credentials, the alias rule, site).
  const { user, password, alias, site } = connectionOptions(values, env, profile);
  const live = values.list
    ? undefined
    : lib.safety.liveSiteRefusal(
        site,
        values['allow-live'] === true,
        'a conformance run sends payments (AUTH, SUBSCRIPTION, STORE, ...) and requests that break the document on purpose',
        'run the suite against',
      );
  if (live) throw new LiveSiteError(live);
  if (values.bail && parallel > 0) throw new UsageError('--bail stops the run at the first failure in this process: give it without --parallel');

  const extensions = lib.extensions.readExtensions({ features: strings('features'), require: strings('require'), rules: str('rules') }, cwd);
  return {
    target,
    formats,
    profileSpec,
    profile,
    tags: str('tags') ?? '',
    user,
    password,
    alias,
    site,
    reportsDir: path.resolve(cwd, str('reports') ?? 'reports'),
    parallel,
    timeoutGiven: timeoutMs !== undefined,
    maxTimeMs,
    tls: { ca: str('ca'), insecure: values.insecure === true },
    extensions,
    list: values.list === true,
    bail: values.bail === true,
    verbose: values.verbose === true,
    // A waiver may name the kit's rules and the user's (--rules).
    waivers: str('waivers') === undefined || !lib.waivers ? [] : lib.waivers.loadWaivers(str('waivers')!, new Set([...lib.catalogue.loadCatalogue().rules, ...extensions.userRules].map((r) => r.id))),
    allowIncomplete: values['allow-incomplete'] === true,
    strict: values.strict === true,
    reportsDetail: reportsDetailOption(str('reports-detail')),
    ...(str('shard') !== undefined ? { shard: shardOption(str('shard')!, lib) } : {}),
    ...(str('baseline') !== undefined ? { baseline: lib.baseline.readBaseline(path.resolve(cwd, str('baseline')!), 'run') } : {}),
  };
}

function reportsDetailOption(text: string | undefined): ReportsDetail {
  if (text === undefined || text === 'summary' || text === 'full') return text ?? 'summary';
  throw new UsageError(`--reports-detail must be summary or full, not "${text}"`);
}

function shardOption(text: string, lib: PlanModules): string {
  try {
    const { index, total } = lib.suite.parseShard(text);
    return `${index}/${total}`;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The process's side of a run; a second SIGINT or SIGTERM quits at once, without the reports. */
function runIo(): CommandIo {
  return processIo((signal) => {
    process.stderr.write(`cardspec run: ${signal} again: quitting without the reports.\n`);
    process.exit(130);
  });
}

export async function run(args: string[], io: CommandIo = runIo()): Promise<number> {
  const fail = (text: string): number => {
    io.err.write(`${redactText(text)}\n`);
    return 2;
  };
  let values: OptionValues;
  try {
    values = parseOptions(args, RUN_OPTIONS);
  } catch (e) {
    return fail(`cardspec run: ${(e as Error).message}\n\n${USAGE}`);
  }
  if (values.help) {
    io.out.write(`${USAGE}\n`);
    return 0;
  }
  const lib = await planModules(values);
  let plan: CliPlan;
  try {
    plan = readPlan(values, io.env, io.cwd, lib);
  } catch (e) {
    const told = [lib.profile.ProfileError, LiveSiteError, lib.extensions.ExtensionError, lib.waivers?.WaiverError, lib.baseline.BaselineError];
    if (told.some((k) => k !== undefined && e instanceof k)) return fail(`cardspec run: ${(e as Error).message}`);
    return fail(`cardspec run: ${(e as Error).message}\n\n${USAGE}`);
  }
  const { runConformance, RunPlanError } = await import('../suite/run');
  try {
    const code = await runConformance(plan, io);
    return plan.baseline && !plan.list && code !== 2 ? gateAgainst(lib.baseline, plan.baseline, plan.reportsDir, code, io) : code;
  } catch (e) {
    if (e instanceof RunPlanError) return fail(`cardspec run: ${e.message}\n\n${USAGE}`);
    throw e;
  }
}

/**
 * The gate against a baseline (src/report/baseline.ts), from the summary and matrix this run just wrote: a new
 * failing rule exits 1 naming it; a FAILED verdict of old failures only, with no problem of the run, exits 0.
 */
async function gateAgainst(b: PlanModules['baseline'], baseline: Baseline, reportsDir: string, code: number, io: CommandIo): Promise<number> {
  const { REPORT_FILES } = await import('../report');
  const read = <T>(name: string): T | undefined => {
    try {
      return JSON.parse(fs.readFileSync(path.join(reportsDir, name), 'utf8')) as T;
    } catch {
      return undefined;
    }
  };
  const summary = read<Summary>(REPORT_FILES.summaryJson);
  if (!summary) {
    io.err.write(`${redactText(`cardspec run: --baseline: this run wrote no ${REPORT_FILES.summaryJson} to compare with the baseline`)}\n`);
    return code;
  }
  const verdict = b.againstBaseline(baseline, b.runStatuses(summary, read<Matrix>(REPORT_FILES.matrixJson)));
  io.out.write(`${['', ...b.baselineLines(verdict)].join('\n')}\n`);
  return b.exitWithBaseline(verdict, code, summary.result === 'failed' && summary.problems.length === 0);
}
