/**
 * `cardspec run`: the conformance suite (features/*.feature) against a target, over JSON, XML or both, with
 * cucumber's JS API. Per format it writes the cucumber messages to `<reports>/<format>/messages.ndjson`, then
 * hands every run to `writeReports` (src/report), which builds the other reports.
 *
 * Every run ends: a preflight (src/client/preflight.ts) turns a refused port, a hung target, refused credentials or
 * an answer that is no envelope into exit 2 before the suite starts; each request has a timeout (`--timeout`), the
 * whole run may have one (`--max-time`), a target that stops answering mid-run stops the run, and so do SIGINT and
 * SIGTERM. A stopped run skips what it did not reach, with the reason, and still writes its reports
 * (src/stop.ts). A target that answers nonsense to some requests fails the steps it touches; the run goes on.
 *
 * Exit codes: 0 every scenario that ran passed; 1 a scenario failed; 2 a usage or configuration error, or a
 * target not ready (preflight); 3 the run was stopped before its end and nothing failed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { redactText, registerCredential } from '../redact';
import type { FormatResults, ScenarioResult } from '../report/messages';
import { parseShard, runFeatures, TagExpressionError } from '../suite';
import { Progress } from '../suite/progress';
import { DEFAULT_MAX_TRANSPORT_FAILURES, releaseRunStop, runStop, type RunStop, type StopParameters } from '../stop';
import { controlClientFor } from '../client/connection';
import { preflight, PREFLIGHT_TIMEOUT_MS } from '../client/preflight';
import { CONTROL_CAPABILITIES, loadProfile, paymentCardSources, ProfileError, withUnavailable, type Profile } from '../client/profile';
import { liveSiteRefusal } from '../client/safety';
import { applyTls, TLS_HELP, TlsConfigError } from '../client/tls';
import { ExtensionError, readExtensions, writeMergedCatalogue, type Extensions } from '../suite/extensions';
import { failureText, watchFailures, type FailedScenario } from '../suite/failures';
import type { Format } from '../wire/types';
import { wrap } from '../report/causes';
import type { RunArtifacts } from '../report';
import type { Summary } from '../report/model';
import { verdictConsole } from '../report/summary';
import { claimReportsFolder, recordReportsFolder } from '../report/owned';
import { loadCatalogue as loadCatalogueFile } from '../rules/catalogue';
import { loadWaivers, WaiverError, type Waiver } from '../report/waivers';
import { CONNECTION_OPTIONS, connectionOptions, formatOption, OptionValues, parseOptions, stringOption, targetOption, UsageError } from './options';

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

/** Everything a run needs, checked. */
interface Plan {
  readonly target: 'builtin' | string;
  readonly formats: readonly Format[];
  readonly profileSpec: string;
  readonly profile: Profile;
  readonly tags: string;
  readonly user: string;
  readonly password: string;
  readonly alias: string;
  readonly site: string;
  readonly reportsDir: string;
  readonly parallel: number;
  /** `--timeout` was given: the preflight waits as long as it says. */
  readonly timeoutGiven: boolean;
  /** `--max-time` in milliseconds; undefined for no limit. */
  readonly maxTimeMs?: number;
  /** `--ca FILE` and `--insecure` (src/client/tls.ts). */
  readonly tls: { readonly ca?: string; readonly insecure: boolean };
  /** `--features`, `--require`, `--rules`: the user's own checks. */
  readonly extensions: Extensions;
  readonly list: boolean;
  readonly bail: boolean;
  readonly verbose: boolean;
  /** `--waivers FILE`: the rules and tags out of scope, each with its reason. */
  readonly waivers: readonly Waiver[];
  /** `--allow-incomplete`: exit 0 on INCOMPLETE (the verdict stays INCOMPLETE). */
  readonly allowIncomplete: boolean;
  /** `--shard i/n`: this process runs shard i of n (src/suite `shardOf`). */
  readonly shard?: string;
}

/** A live-looking site without --allow-live (src/client/safety.ts): refused with the reason, not the usage text. */
class LiveSiteError extends Error {}

/** `15s`, `500ms`, `2m` or a number of seconds, as milliseconds (whole, at least 1). */
export function durationOption(name: string, text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(text.trim());
  const ms = m ? Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1000) : NaN;
  if (!Number.isFinite(ms) || ms < 1 || ms > 24 * 3600_000) throw new UsageError(`${name} must be a duration such as 15s, 500ms or 2m (at most 24 hours), not "${text}"`);
  return Math.round(ms);
}

function readPlan(args: string[], env: NodeJS.ProcessEnv): Plan | 'help' {
  let values: OptionValues;
  try {
    values = parseOptions(args, {
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
      help: { type: 'boolean', short: 'h' },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help) return 'help';
  const str = (k: string): string | undefined => stringOption(values, k);
  const strings = (k: string): string[] => {
    const v = values[k];
    return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  };

  const target = targetOption(str('target'));
  const formats = formatOption(str('format'));

  const parallelText = str('parallel') ?? '0';
  if (!/^[0-9]+$/.test(parallelText) || Number(parallelText) > 64) throw new UsageError(`--parallel must be a whole number from 0 to 64, not "${parallelText}"`);

  const timeoutText = str('timeout');
  const maxTimeText = str('max-time');
  const timeoutMs = timeoutText === undefined ? undefined : durationOption('--timeout', timeoutText);
  const maxTimeMs = maxTimeText === undefined ? undefined : durationOption('--max-time', maxTimeText);

  const profileSpec = str('profile') ?? 'builtin';
  let profile = loadProfile(profileSpec);
  if (timeoutMs !== undefined) {
    // The whole exchange within --timeout; the connection within it too.
    const limits = { ...profile.limits, totalTimeoutMs: timeoutMs, connectTimeoutMs: Math.min(profile.limits.connectTimeoutMs, timeoutMs) };
    profile = { ...profile, limits };
  }

  // One reading of the connection for every command (src/client/connection.ts: credentials, the alias rule, site).
  const { user, password, alias, site } = connectionOptions(values, env, profile);
  const live = values.list
    ? undefined
    : liveSiteRefusal(
        site,
        values['allow-live'] === true,
        'a conformance run sends payments (AUTH, SUBSCRIPTION, STORE, ...) and requests that break the document on purpose',
        'run the suite against',
      );
  if (live) throw new LiveSiteError(live);
  if (values.bail && Number(parallelText) > 0) throw new UsageError('--bail stops the run at the first failure in this process: give it without --parallel');

  const extensions = readExtensions({ features: strings('features'), require: strings('require'), rules: str('rules') });
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
    reportsDir: path.resolve(str('reports') ?? 'reports'),
    parallel: Number(parallelText),
    timeoutGiven: timeoutMs !== undefined,
    maxTimeMs,
    tls: { ca: str('ca'), insecure: values.insecure === true },
    extensions,
    list: values.list === true,
    bail: values.bail === true,
    verbose: values.verbose === true,
    // A waiver may name the kit's rules and the user's (--rules).
    waivers: str('waivers') === undefined ? [] : loadWaivers(str('waivers')!, new Set([...loadCatalogueFile().rules, ...extensions.userRules].map((r) => r.id))),
    allowIncomplete: values['allow-incomplete'] === true,
    ...(str('shard') !== undefined ? { shard: shardOption(str('shard')!) } : {}),
  };
}

function shardOption(text: string): string {
  try {
    const { index, total } = parseShard(text);
    return `${index}/${total}`;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** Cucumber's warnings reach the console, masked (its own console output is not wanted: the summary replaces it). */
const maskedStderr = (): Writable =>
  new Writable({
    write(chunk: Buffer | string, _e, cb) {
      process.stderr.write(redactText(String(chunk)));
      cb();
    },
  });

interface FormatOutcome {
  readonly format: Format;
  readonly messages: string;
  readonly results: FormatResults;
  /** A problem outside the scenarios (cucumber could not start), masked. */
  readonly problem?: string;
}

async function runFormat(plan: Plan, format: Format, baseUrl: string, progress: Progress, stop: StopParameters, onFailure?: (f: FailedScenario, format: Format) => void): Promise<FormatOutcome> {
  const { cucumberFormats, REPORT_FILES } = await import('../report');
  const { readMessagesFile } = await import('../report/messages');
  const messages = path.join(plan.reportsDir, REPORT_FILES.messages(format));
  fs.mkdirSync(path.dirname(messages), { recursive: true });
  fs.rmSync(messages, { force: true });
  const worldParameters = {
    baseUrl,
    format,
    user: plan.user,
    password: plan.password,
    alias: plan.alias,
    site: plan.site,
    profile: plan.profile,
    stop,
  };
  progress.begin(format.toUpperCase());
  try {
    await runFeatures({
      format,
      tags: plan.tags,
      ...(plan.shard ? { shard: plan.shard } : {}),
      worldParameters,
      formatters: [['message', messages], ...cucumberFormats(plan.reportsDir, format)],
      parallel: plan.parallel,
      extra: plan.extensions,
      onMessage: onFailure
        ? both(
            progress.onMessage,
            watchFailures((f) => onFailure(f, format)),
          )
        : progress.onMessage,
      stderr: maskedStderr(),
    });
    return { format, messages, results: readMessagesFile(messages, format) };
  } catch (e) {
    if (e instanceof TagExpressionError) throw new UsageError(`--tags is not a valid tag expression: ${e.detail}`);
    const problem = redactText(`${format.toUpperCase()} run: ${(e as Error).message}`);
    return { format, messages, results: readMessagesFile(messages, format), problem };
  } finally {
    progress.end();
  }
}

function both<T>(a: (m: T) => void, b: (m: T) => void): (m: T) => void {
  return (m) => {
    a(m);
    b(m);
  };
}

/** `--list`: the scenarios and rules each format would run, from cucumber's dry run; nothing is started or sent. */
async function listPlan(plan: Plan): Promise<number> {
  const { planScenarios, listText } = await import('../suite/list');
  const { loadCatalogue } = await import('../rules/catalogue');
  try {
    const planned = [];
    for (const format of plan.formats) planned.push(...(await planScenarios({ format, tags: plan.tags, profile: plan.profile, extra: plan.extensions })));
    const header = `cardspec run --list: ${plan.formats.map((f) => f.toUpperCase()).join(' + ')}, profile ${plan.profile.name}${plan.tags ? `, --tags "${plan.tags}"` : ''} (nothing was sent)`;
    console.log(listText(planned, [...loadCatalogue().rules, ...plan.extensions.userRules], header, plan.waivers));
    if (planned.length === 0) {
      console.error(`cardspec run: no scenario matched${plan.tags ? ` --tags "${plan.tags}"` : ''}.`);
      return 2;
    }
    return planned.some((s) => s.problem) ? 1 : 0;
  } catch (e) {
    if (e instanceof TagExpressionError) {
      console.error(redactText(`cardspec run: --tags is not a valid tag expression: ${e.detail}`));
      return 2;
    }
    throw e;
  }
}

/** A scenario the run counts as not passed: a failure, or a kit problem (a step without definition). */
function notPassed(s: ScenarioResult): boolean {
  return s.verdict === 'failed' || ['UNDEFINED', 'AMBIGUOUS', 'PENDING', 'UNFINISHED'].includes(s.status);
}

function pad(s: string, n: number): string {
  return s.length >= n ? s.slice(0, n - 1) + ' ' : s + ' '.repeat(n - s.length);
}

/** The one-screen counts: per feature passed / failed / skipped per format, the rules broken, the skips and why. */
export function summaryText(outcomes: readonly FormatOutcome[], header: string): string {
  const formats = outcomes.map((o) => o.format);
  const features = [...new Set(outcomes.flatMap((o) => o.results.scenarios.map((s) => s.feature)))].sort();
  const cell = (list: readonly ScenarioResult[]): string => {
    const failed = list.filter(notPassed).length;
    const passed = list.filter((s) => s.verdict === 'passed').length;
    return `${passed}/${failed}/${list.length - passed - failed}`;
  };
  const lines = [...(header ? [header, ''] : []), pad('Feature (passed/failed/skipped)', 44) + formats.map((f) => pad(f.toUpperCase(), 12)).join('')];
  for (const feature of features) {
    lines.push(pad(feature, 44) + outcomes.map((o) => pad(cell(o.results.scenarios.filter((s) => s.feature === feature)), 12)).join(''));
  }
  lines.push(pad('Total', 44) + outcomes.map((o) => pad(cell(o.results.scenarios), 12)).join(''));

  const failed = outcomes.flatMap((o) => o.results.scenarios.filter(notPassed));
  if (failed.length) {
    // The rules the failures broke (their checks' rules), not every tag of a failed scenario.
    const rules = [...new Set(failed.flatMap((s) => (s.broken && s.broken.length ? s.broken : s.rules.length ? s.rules : ['(no @rule tag)'])))];
    lines.push('', `Rules that failed (${rules.length}): ${rules.join(', ')}`, '', `Failed scenarios (${failed.length}):`);
    for (const s of failed.slice(0, 12)) {
      // The cause whole (never cut before it): the bracket of rules and the first line of the error.
      const why = (s.error ?? s.reason ?? '').split('\n')[0];
      lines.push(`  [${s.format}] ${s.uri}:${s.line} ${s.name}`, ...wrap(why, 140).map((l) => `      ${l}`));
    }
    if (failed.length > 12) lines.push(`  ... and ${failed.length - 12} more (see summary.md)`);
  }
  const skipped = outcomes.flatMap((o) => o.results.scenarios.filter((s) => s.verdict === 'skipped' && !notPassed(s)));
  if (skipped.length) {
    const reasons = new Map<string, number>();
    for (const s of skipped) reasons.set(s.reason ?? 'no reason given', (reasons.get(s.reason ?? 'no reason given') ?? 0) + 1);
    lines.push('', 'Skipped, and why:');
    for (const [reason, n] of [...reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5)) lines.push(`  ${n} x ${reason.slice(0, 140)}`);
  }
  return redactText(lines.join('\n'));
}

/**
 * A profile may claim the test-control API (the built-in profile does) while the target at hand runs without it
 * (`cardspec serve` without `--control`). One GET of the clock tells; without an answer, the scenarios that need
 * the API are skipped, each with this reason, instead of failing on the target for a call the document lacks.
 */
async function probeControl(plan: Plan, baseUrl: string): Promise<Profile> {
  const claimed = CONTROL_CAPABILITIES.filter((c) => plan.profile.capabilities[c]);
  if (claimed.length === 0) return plan.profile;
  const control = controlClientFor(plan, baseUrl);
  try {
    await control.now();
    return plan.profile;
  } catch (e) {
    const reason = `its test-control API did not answer (${(e as Error).message})`;
    const profile = withUnavailable(plan.profile, claimed, reason);
    // Cache tokens have other sources (the profile's provider, the card itself where the target takes it).
    const sources = paymentCardSources(profile);
    const lost = claimed.filter((c) => c !== 'cachetokens' || sources.length === 0);
    const instead =
      claimed.includes('cachetokens') && sources.length > 0
        ? `; the cards of THREEDQUERY and the combined flows go ${sources[0] === 'provider' ? "as cache tokens from the profile's cachetokenProvider" : 'as pan and expirydate (capabilities.threedqueryPan)'}`
        : '';
    const skipped = lost.length ? `the scenarios needing ${lost.join(', ')} are skipped` : 'no scenario is skipped for it';
    console.error(redactText(`cardspec run: note: ${reason}; ${skipped}${instead}.`));
    return profile;
  }
}

function isLoopback(u: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname) || u.hostname.startsWith('127.');
}

export async function run(args: string[]): Promise<number> {
  let plan: Plan | 'help';
  try {
    plan = readPlan(args, process.env);
  } catch (e) {
    if (e instanceof ProfileError || e instanceof LiveSiteError || e instanceof ExtensionError || e instanceof WaiverError) {
      console.error(redactText(`cardspec run: ${e.message}`));
      return 2;
    }
    console.error(redactText(`cardspec run: ${(e as Error).message}\n\n${USAGE}`));
    return 2;
  }
  if (plan === 'help') {
    console.log(USAGE);
    return 0;
  }
  registerCredential(plan.user, plan.password);
  if (plan.list) return listPlan(plan);
  // Before anything is sent: a run whose reports cannot be written would end in an error after all its work.
  const unwritable = reportsFolderProblem(plan.reportsDir);
  if (unwritable) {
    console.error(redactText(`cardspec run: cannot write the reports to ${plan.reportsDir}: ${unwritable}. Give --reports a folder you can write to (it is made if missing).`));
    return 2;
  }
  // The last run's files go before this one writes any (its Allure results would stand beside this verdict); a
  // user's own files in the folder stay.
  const reportsFolder = claimReportsFolder(plan.reportsDir);
  try {
    for (const warning of applyTls(plan.tls)) console.error(`cardspec run: ${warning}`);
  } catch (e) {
    if (!(e instanceof TlsConfigError)) throw e;
    console.error(redactText(`cardspec run: ${e.message}`));
    return 2;
  }
  const startedAt = new Date().toISOString();
  const problems: string[] = [];

  let baseUrl = plan.target;
  let closeGateway: (() => Promise<void>) | undefined;
  if (plan.target === 'builtin') {
    try {
      const { startGateway } = await import('../gateway');
      const gw = await startGateway({ control: true });
      baseUrl = gw.url;
      closeGateway = () => gw.close();
    } catch (e) {
      console.error(redactText(`cardspec run: the built-in gateway did not start: ${(e as Error).message}`));
      return 2;
    }
  } else {
    const u = new URL(plan.target);
    if (u.protocol === 'http:' && !isLoopback(u)) {
      console.error(`cardspec run: warning: ${u.host} is not on loopback and the URL is plain HTTP; the document's service is HTTPS (TRANSPORT-HTTPS).`);
    }
  }

  const stopParameters: StopParameters = {
    runId: `run-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
    ...(plan.maxTimeMs !== undefined ? { deadline: Date.now() + plan.maxTimeMs } : {}),
    maxTransportFailures: DEFAULT_MAX_TRANSPORT_FAILURES,
  };
  const runStopper = runStop(stopParameters);
  const releaseSignals = onSignals(runStopper);
  const finish = async (): Promise<void> => {
    releaseRunStop(stopParameters.runId);
    await closeGateway?.();
  };

  // Within seconds: a hung target is told within PREFLIGHT_TIMEOUT_MS unless --timeout asks for longer.
  const preflightLimits = plan.timeoutGiven ? plan.profile.limits : { ...plan.profile.limits, totalTimeoutMs: Math.min(plan.profile.limits.totalTimeoutMs, PREFLIGHT_TIMEOUT_MS) };
  const ready = await preflight({ ...plan, profile: { ...plan.profile, limits: preflightLimits }, baseUrl, signal: runStopper.signal });
  // A run stopped already (--max-time spent, a signal) goes on to report every scenario skipped, with the reason.
  if (!ready.ok && runStopper.reason === undefined) {
    releaseSignals();
    await finish();
    const problem = `the target is not ready: ${ready.problem}`;
    console.error(redactText(`cardspec run: ${problem}`));
    // The reports say so too, in place of an earlier run's: a CI gate reading summary.json or junit.xml must not
    // find the last run's PASSED there. Nothing ran, so the verdict is INCOMPLETE with the reason; the exit stays 2.
    try {
      await writeNotReadyReports(plan, baseUrl, startedAt, problem);
    } catch (e) {
      console.error(redactText(`cardspec run: ${(e as Error).message}`));
    }
    recordReportsFolder(reportsFolder);
    return 2;
  }
  if (ready.ok) for (const note of ready.notes) console.error(redactText(`cardspec run: note: ${note}`));

  if (plan.target !== 'builtin') plan = { ...plan, profile: await probeControl(plan, baseUrl) };

  const progress = new Progress(process.stdout, process.stdout.isTTY === true);
  const bail = plan.bail;
  const verbose = plan.verbose;
  const onFailure =
    bail || verbose
      ? (f: FailedScenario, format: Format): void => {
          if (verbose) process.stdout.write(`\n${failureText(f, format.toUpperCase())}\n`);
          if (bail) runStopper.stop(`--bail: the scenario "${f.name}" (${format.toUpperCase()}) failed`);
        }
      : undefined;
  const outcomes: FormatOutcome[] = [];
  const started = process.hrtime.bigint();
  try {
    for (const format of plan.formats) {
      // A stopped run still goes through every format: what it did not reach is reported skipped, with the reason.
      const outcome = await runFormat(plan, format, baseUrl, progress, stopParameters, onFailure);
      outcomes.push(outcome);
      if (outcome.problem) problems.push(outcome.problem);
    }
  } catch (e) {
    // A configuration cucumber refuses (a bad tag expression, say) is a usage error.
    releaseSignals();
    await finish();
    console.error(redactText(`cardspec run: ${(e as Error).message}${e instanceof UsageError ? `\n\n${USAGE}` : ''}`));
    return 2;
  }
  const interrupted = runStopper.reason;
  await finish();
  if (interrupted !== undefined) problems.push(`The run was stopped before its end: ${interrupted}. What it did not reach is reported skipped.`);
  const seconds = Number((process.hrtime.bigint() - started) / 1_000_000n) / 1000;

  const { writeReports } = await import('../report');
  let reportPaths: string[] = [];
  let summary: Summary | undefined;
  try {
    reportPaths = await writeReports({
      ...artifactsOf(
        plan,
        baseUrl,
        startedAt,
        outcomes.map((o) => ({ format: o.format, messages: o.messages })),
        problems,
        interrupted,
      ),
      onSummary: (s: Summary) => {
        summary = s;
      },
    });
  } catch (e) {
    problems.push(redactText((e as Error).message));
  }
  recordReportsFolder(reportsFolder);
  // Until the reports are written, a first signal does not end the process.
  releaseSignals();

  const header = `cardspec run: ${plan.target === 'builtin' ? `built-in gateway (${baseUrl})` : plan.target}, profile ${plan.profile.name}, ${plan.formats.map((f) => f.toUpperCase()).join(' + ')}, ${seconds.toFixed(1)} s`;
  // Causes first: the verdict and what broke lead; the counts per feature follow.
  console.log(redactText([header, '', ...(summary ? verdictConsole(summary) : [])].join('\n')));
  console.log(summaryText(outcomes, ''));
  for (const p of problems) console.log(redactText(`Problem: ${p}`));
  const summaryFile = reportPaths.find((p) => p.endsWith('summary.md'));
  console.log(`\nReports: ${summaryFile ? path.relative(process.cwd(), summaryFile) : plan.reportsDir}`);

  const all = outcomes.flatMap((o) => o.results.scenarios);
  if (all.length === 0 && plan.shard && problems.length === 0) {
    // A shard may be empty (more shards than scenarios for these --tags): its share of the run is nothing.
    console.log(`cardspec run: shard ${plan.shard} holds no scenario${plan.tags ? ` of --tags "${plan.tags}"` : ''}; nothing to run.`);
    return 0;
  }
  if (all.length === 0) {
    console.error(problems.length ? 'cardspec run: no scenario ran.' : `cardspec run: no scenario matched${plan.tags ? ` --tags "${plan.tags}"` : ''}.`);
    return 2;
  }
  const exit = exitCode(summary?.result, all.some(notPassed) || outcomes.some((o) => o.problem), interrupted !== undefined, plan.allowIncomplete);
  if (summary) console.log(redactText(`Result: ${summary.result.toUpperCase()}${summary.result === 'incomplete' && plan.allowIncomplete ? ' (exit 0: --allow-incomplete)' : ''}`));
  return exit;
}

/** Why the reports folder cannot be made or written, in words; undefined when it can. */
function reportsFolderProblem(dir: string): string | undefined {
  try {
    fs.mkdirSync(dir, { recursive: true });
    if (!fs.statSync(dir).isDirectory()) return 'it is a file, not a folder';
    fs.accessSync(dir, fs.constants.W_OK);
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EEXIST') return 'it, or a folder above it, is a file';
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'permission denied';
    return (e as Error).message;
  }
}

/** The reports of a run whose target was not ready: no scenario ran; the earlier run's per-format results go. */
async function writeNotReadyReports(plan: Plan, baseUrl: string, startedAt: string, problem: string): Promise<void> {
  const { REPORT_FILES, writeReports } = await import('../report');
  for (const format of plan.formats) {
    for (const file of [REPORT_FILES.messages(format), REPORT_FILES.cucumberHtml(format)]) fs.rmSync(path.join(plan.reportsDir, file), { force: true });
  }
  await writeReports(artifactsOf(plan, baseUrl, startedAt, [], [problem], problem));
}

/**
 * What the reports of a run are made from. `interrupted`: why the run stopped before its end (a signal, --max-time,
 * a target gone or not ready); the verdict cannot be PASSED.
 */
function artifactsOf(plan: Plan, baseUrl: string, startedAt: string, runs: RunArtifacts['runs'], problems: readonly string[], interrupted: string | undefined): RunArtifacts {
  return {
    waivers: plan.waivers,
    reportsDir: plan.reportsDir,
    runs,
    target: plan.target === 'builtin' ? `builtin (${baseUrl})` : plan.target,
    profile: plan.profileSpec,
    startedAt,
    finishedAt: new Date().toISOString(),
    tags: plan.tags || undefined,
    ...(plan.shard ? { shard: plan.shard } : {}),
    problems,
    catalogue: writeMergedCatalogue(plan.extensions, plan.reportsDir),
    interrupted,
  };
}

/**
 * The exit code of a run: 1 FAILED (or a kit problem: a step without definition, cucumber not started), 3
 * INCOMPLETE (0 with --allow-incomplete), 0 PASSED. Without a summary (the reports could not be written) a run
 * is at best INCOMPLETE.
 */
export function exitCode(result: Summary['result'] | undefined, failedOrKitProblem: boolean, interrupted: boolean, allowIncomplete: boolean): number {
  if (result === 'failed' || failedOrKitProblem) return 1;
  if (result === 'passed' && !interrupted) return 0;
  return allowIncomplete ? 0 : 3;
}

/**
 * SIGINT and SIGTERM stop the run (the reports of what ran are still written); a second signal quits at once. The
 * returned function removes the handlers.
 */
function onSignals(stopper: RunStop): () => void {
  let seen = 0;
  const handler = (signal: NodeJS.Signals): void => {
    seen += 1;
    if (seen > 1) {
      console.error(`cardspec run: ${signal} again: quitting without the reports.`);
      process.exit(130);
    }
    console.error(`cardspec run: ${signal}: stopping; the reports of what ran are being written (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again quits at once).`);
    stopper.stop(`interrupted (${signal})`);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
