/**
 * `runConformance(plan, io)`: the conformance suite (features/*.feature) against a target, over JSON, XML or both,
 * as a library call; `cardspec run` (src/cli/run.ts) reads its options into a plan, calls this, and exits with the
 * code it returns. Per format it writes the cucumber messages to `<reports>/<format>/messages.ndjson`, then hands
 * every run to `writeReports` (src/report), which builds the other reports. Output and environment come in `io`
 * (src/io.ts): nothing here writes to the process's console.
 *
 * Every run ends: a preflight (src/client/preflight.ts) turns a refused port, a hung target, refused credentials or
 * an answer that is no envelope into exit 2 before the suite starts; each request has a timeout (the profile's
 * limits), the whole run may have one (`maxTimeMs`), a target that stops answering mid-run stops the run, and so do
 * the user's interrupts (`io.interrupts`). A stopped run skips what it did not reach, with the reason, and still
 * writes its reports (src/stop.ts). A target that answers nonsense to some requests fails the steps it touches; the
 * run goes on.
 *
 * Exit codes: 0 every scenario that ran passed; 1 a scenario failed; 2 a configuration error, or a target not ready
 * (preflight); 3 the run was stopped before its end and nothing failed.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import type { Envelope } from '@cucumber/messages';
import type { CommandIo } from '../io';
import { redactText, registerCredential } from '../redact';
import type { FormatResults, ScenarioResult } from '../report/messages';
import { isKitProblem, runFeatures, TagExpressionError } from '.';
import { Progress } from './progress';
import { DEFAULT_MAX_TRANSPORT_FAILURES, releaseRunStop, runStop, type StopParameters } from '../stop';
import { controlClientFor, reachTarget } from '../client/connection';
import { preflight, PREFLIGHT_TIMEOUT_MS, type FormatFault } from '../client/preflight';
import { CONTROL_CAPABILITIES, paymentCardSources, withUnavailable, type Profile } from '../client/profile';
import { isLoopbackHost } from '../client/safety';
import { applyTls, TlsConfigError } from '../client/tls';
import { writeMergedCatalogue, type Extensions } from './extensions';
import { failureText, watchFailures, type FailedScenario } from './failures';
import type { Format } from '../wire/types';
import { wrap } from '../report/causes';
import { howToCheck } from '../report/hints';
import { firstLine } from '../report/text';
import type { RunArtifacts } from '../report';
import type { Summary } from '../report/model';
import { verdictConsole } from '../report/summary';
import { claimReportsFolder, recordReportsFolder } from '../report/owned';
import type { Waiver } from '../report/waivers';
import type { ReportsDetail } from '../report/detail';

/** Everything a run needs, checked (src/cli/run.ts reads it from the command line). */
export interface RunPlan {
  /** `builtin` (the reference gateway, started on loopback for the run) or the target's base URL. */
  readonly target: 'builtin' | string;
  readonly formats: readonly Format[];
  /** `builtin` or the profile file, as given (the reports name it). */
  readonly profileSpec: string;
  /** The profile, with the run's request time limit (`--timeout`) in its limits. */
  readonly profile: Profile;
  /** A cucumber tag expression; empty for every scenario. */
  readonly tags: string;
  readonly user: string;
  readonly password: string;
  readonly alias: string;
  readonly site: string;
  /** An absolute folder. */
  readonly reportsDir: string;
  /** Cucumber worker processes per format; 0 runs in this process. */
  readonly parallel: number;
  /** The request time limit was given: the preflight waits as long as the profile's limits say. */
  readonly timeoutGiven: boolean;
  /** The whole run's time limit in milliseconds; undefined for no limit. */
  readonly maxTimeMs?: number;
  /** `--ca FILE` and `--insecure` (src/client/tls.ts). */
  readonly tls: { readonly ca?: string; readonly insecure: boolean };
  /** The user's own features, steps and rules (src/suite/extensions.ts). */
  readonly extensions: Extensions;
  /** List what would run; send nothing. */
  readonly list: boolean;
  /** Stop at the first failed scenario. */
  readonly bail: boolean;
  /** Print each failed scenario as it fails. */
  readonly verbose: boolean;
  /** The rules and tags out of scope, each with its reason. */
  readonly waivers: readonly Waiver[];
  /** Exit 0 on INCOMPLETE (the verdict stays INCOMPLETE). */
  readonly allowIncomplete: boolean;
  /** The SHOULD-level points (src/rules/advisories.ts) fail the run; without it they are warnings. */
  readonly strict?: boolean;
  /** `i/n`: this process runs shard i of n (src/suite `shardOf`). */
  readonly shard?: string;
  /** `--reports-detail`: `summary` (default) or `full` (src/report/detail.ts). */
  readonly reportsDetail?: ReportsDetail;
}

/**
 * The plan is one the suite refuses once it is under way (a tag expression cucumber cannot parse): the caller's
 * mistake, told by the command line as a usage error. Everything the run started is closed before it is thrown.
 */
export class RunPlanError extends Error {}

/** Cucumber's warnings reach the console, masked (its own console output is not wanted: the summary replaces it). */
const maskedStream = (sink: CommandIo['err']): Writable =>
  new Writable({
    write(chunk: Buffer | string, _e, cb) {
      sink.write(redactText(String(chunk)));
      cb();
    },
  });

/** Writes one message and its line end (the console's log). */
const line = (sink: CommandIo['out'], text: string): void => void sink.write(`${text}\n`);
interface FormatOutcome {
  readonly format: Format;
  readonly messages: string;
  readonly results: FormatResults;
  /** A problem outside the scenarios (cucumber could not start), masked. */
  readonly problem?: string;
}

async function runFormat(
  plan: RunPlan,
  io: CommandIo,
  format: Format,
  baseUrl: string,
  progress: Progress,
  stop: StopParameters,
  onFailure?: (f: FailedScenario, format: Format) => void,
  preflightFault?: FormatFault,
): Promise<FormatOutcome> {
  const { cucumberFormats, messagesWriter, REPORT_FILES } = await import('../report');
  const { readMessagesFile } = await import('../report/messages');
  const messages = path.join(plan.reportsDir, REPORT_FILES.messages(format));
  // Each message is masked and written as cucumber emits it (cucumber's own message formatter wrote them
  // unmasked, and the reports then read, masked and wrote them again: a tenth of a second of every run).
  const writer = messagesWriter(messages);
  const worldParameters = {
    baseUrl,
    format,
    user: plan.user,
    password: plan.password,
    alias: plan.alias,
    site: plan.site,
    profile: plan.profile,
    stop,
    ...(preflightFault ? { preflightFault: { rule: preflightFault.rule, message: preflightFault.message, exchange: preflightFault.exchange } } : {}),
  };
  progress.begin(format.toUpperCase());
  const write = (m: Envelope): void => writer.write(m);
  try {
    try {
      await runFeatures({
        format,
        tags: plan.tags,
        ...(plan.shard ? { shard: plan.shard } : {}),
        worldParameters,
        formatters: cucumberFormats(plan.reportsDir, format),
        parallel: plan.parallel,
        extra: plan.extensions,
        onMessage: onFailure
          ? both(
              both(write, progress.onMessage),
              watchFailures((f) => onFailure(f, format)),
            )
          : both(write, progress.onMessage),
        stderr: maskedStream(io.err),
      });
    } finally {
      // Whole on disk before it is read; a failure to write it is this format's problem (below).
      writer.close();
    }
    return { format, messages, results: readMessagesFile(messages, format) };
  } catch (e) {
    if (e instanceof TagExpressionError) throw new RunPlanError(`--tags is not a valid tag expression: ${e.detail}`);
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
async function listPlan(plan: RunPlan, io: CommandIo): Promise<number> {
  const { planScenarios, listText } = await import('../suite/list');
  const { loadCatalogue } = await import('../rules/catalogue');
  try {
    const planned = [];
    for (const format of plan.formats) planned.push(...(await planScenarios({ format, tags: plan.tags, profile: plan.profile, extra: plan.extensions })));
    const header = `cardspec run --list: ${plan.formats.map((f) => f.toUpperCase()).join(' + ')}, profile ${plan.profile.name}${plan.tags ? `, --tags "${plan.tags}"` : ''} (nothing was sent)`;
    line(io.out, listText(planned, [...loadCatalogue().rules, ...plan.extensions.userRules], header, plan.waivers));
    if (planned.length === 0) {
      line(io.err, `cardspec run: no scenario matched${plan.tags ? ` --tags "${plan.tags}"` : ''}.`);
      return 2;
    }
    return planned.some((s) => s.problem) ? 1 : 0;
  } catch (e) {
    if (e instanceof TagExpressionError) {
      line(io.err, redactText(`cardspec run: --tags is not a valid tag expression: ${e.detail}`));
      return 2;
    }
    throw e;
  }
}

/** A scenario the run counts as not passed: a failure, or a kit problem (a step without definition). */
function notPassed(s: ScenarioResult): boolean {
  return s.verdict === 'failed' || isKitProblem(s.status);
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
    for (const [reason, n] of [...reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5)) lines.push(`  ${n} x ${firstLine(reason, 140)}`);
  }
  return redactText(lines.join('\n'));
}

/**
 * A profile may claim the test-control API (the built-in profile does) while the target at hand runs without it
 * (`cardspec serve` without `--control`). One GET of the clock tells; without an answer, the scenarios that need
 * the API are skipped, each with this reason, instead of failing on the target for a call the document lacks.
 */
async function probeControl(plan: RunPlan, io: CommandIo, baseUrl: string): Promise<Profile> {
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
    const how = lost.length ? `; to run them: ${howToCheck(`the target does not offer the capability "${lost[0]}": ${reason}`).how}` : '';
    line(io.err, redactText(`cardspec run: note: ${reason}; ${skipped}${instead}${how}.`));
    return profile;
  }
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
async function writeNotReadyReports(plan: RunPlan, baseUrl: string, startedAt: string, problem: string): Promise<void> {
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
function artifactsOf(plan: RunPlan, baseUrl: string, startedAt: string, runs: RunArtifacts['runs'], problems: readonly string[], interrupted: string | undefined): RunArtifacts {
  return {
    waivers: plan.waivers,
    reportsDir: plan.reportsDir,
    runs,
    // The formats asked for: a run that produced no results keeps its scope (not "Format(s) none").
    formats: plan.formats,
    ...(plan.reportsDetail ? { detail: plan.reportsDetail } : {}),
    target: plan.target === 'builtin' ? `builtin (${baseUrl})` : plan.target,
    profile: plan.profileSpec,
    startedAt,
    finishedAt: new Date().toISOString(),
    tags: plan.tags || undefined,
    ...(plan.shard ? { shard: plan.shard } : {}),
    ...(plan.strict ? { strict: true } : {}),
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
 * Runs the suite of the plan against its target and writes the reports; resolves to the exit code (this module's
 * opening comment). Throws a `RunPlanError` for a plan the suite refuses once under way.
 */
export async function runConformance(plan: RunPlan, io: CommandIo): Promise<number> {
  registerCredential(plan.user, plan.password);
  if (plan.list) return listPlan(plan, io);
  // Before anything is sent: a run whose reports cannot be written would end in an error after all its work.
  const unwritable = reportsFolderProblem(plan.reportsDir);
  if (unwritable) {
    line(io.err, redactText(`cardspec run: cannot write the reports to ${plan.reportsDir}: ${unwritable}. Give --reports a folder you can write to (it is made if missing).`));
    return 2;
  }
  // The last run's files go before this one writes any (its Allure results would stand beside this verdict); a
  // user's own files in the folder stay.
  const reportsFolder = claimReportsFolder(plan.reportsDir);
  try {
    for (const warning of applyTls(plan.tls, io.env)) line(io.err, `cardspec run: ${warning}`);
  } catch (e) {
    if (!(e instanceof TlsConfigError)) throw e;
    line(io.err, redactText(`cardspec run: ${e.message}`));
    return 2;
  }
  const startedAt = new Date().toISOString();
  const problems: string[] = [];

  // The one way to a target (src/client/connection.ts): the built-in gateway is started here and closed at the end.
  let reached: Awaited<ReturnType<typeof reachTarget>>;
  try {
    reached = await reachTarget(plan);
  } catch (e) {
    line(io.err, redactText(`cardspec run: the built-in gateway did not start: ${(e as Error).message}`));
    return 2;
  }
  const baseUrl = reached.baseUrl;
  if (plan.target !== 'builtin') {
    const u = new URL(plan.target);
    if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
      line(io.err, `cardspec run: warning: ${u.host} is not on loopback and the URL is plain HTTP; the document's service is HTTPS (TRANSPORT-HTTPS).`);
    }
  }

  const stopParameters: StopParameters = {
    runId: `run-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`,
    ...(plan.maxTimeMs !== undefined ? { deadline: Date.now() + plan.maxTimeMs } : {}),
    maxTransportFailures: DEFAULT_MAX_TRANSPORT_FAILURES,
  };
  const runStopper = runStop(stopParameters);
  const releaseInterrupts =
    io.interrupts?.((signal) => {
      line(io.err, `cardspec run: ${signal}: stopping; the reports of what ran are being written (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again quits at once).`);
      runStopper.stop(`interrupted (${signal})`);
    }) ?? ((): void => undefined);
  const finish = async (): Promise<void> => {
    releaseRunStop(stopParameters.runId);
    await reached.close();
  };

  // Within seconds: a hung target is told within PREFLIGHT_TIMEOUT_MS unless --timeout asks for longer.
  const preflightLimits = plan.timeoutGiven ? plan.profile.limits : { ...plan.profile.limits, totalTimeoutMs: Math.min(plan.profile.limits.totalTimeoutMs, PREFLIGHT_TIMEOUT_MS) };
  const ready = await preflight({ ...plan, profile: { ...plan.profile, limits: preflightLimits }, baseUrl, signal: runStopper.signal });
  // A run stopped already (--max-time spent, a signal) goes on to report every scenario skipped, with the reason.
  if (!ready.ok && runStopper.reason === undefined) {
    releaseInterrupts();
    await finish();
    const problem = `the target is not ready: ${ready.problem}`;
    line(io.err, redactText(`cardspec run: ${problem}`));
    // The reports say so too, in place of an earlier run's: a CI gate reading summary.json or junit.xml must not
    // find the last run's PASSED there. Nothing ran, so the verdict is INCOMPLETE with the reason; the exit stays 2.
    try {
      await writeNotReadyReports(plan, baseUrl, startedAt, problem);
    } catch (e) {
      line(io.err, redactText(`cardspec run: ${(e as Error).message}`));
    }
    recordReportsFolder(reportsFolder);
    return 2;
  }
  if (ready.ok) for (const note of ready.notes) line(io.err, redactText(`cardspec run: note: ${note}`));

  if (plan.target !== 'builtin') plan = { ...plan, profile: await probeControl(plan, io, baseUrl) };

  const progress = new Progress(io.out, io.tty);
  const { bail, verbose } = plan;
  const onFailure =
    bail || verbose
      ? (f: FailedScenario, format: Format): void => {
          if (verbose) io.out.write(`\n${failureText(f, format.toUpperCase())}\n`);
          if (bail) runStopper.stop(`--bail: the scenario "${f.name}" (${format.toUpperCase()}) failed`);
        }
      : undefined;
  const outcomes: FormatOutcome[] = [];
  const started = performance.now();
  try {
    for (const format of plan.formats) {
      // A stopped run still goes through every format: what it did not reach is reported skipped, with the reason.
      // A format answered with no envelope while another works (the preflight): FAILED on that rule, not reached.
      const fault = ready.ok ? ready.faults.find((f) => f.format === format) : undefined;
      const outcome = await runFormat(plan, io, format, baseUrl, progress, stopParameters, onFailure, fault);
      outcomes.push(outcome);
      if (outcome.problem) problems.push(outcome.problem);
    }
  } catch (e) {
    releaseInterrupts();
    await finish();
    // A configuration cucumber refuses (a bad tag expression, say) is the caller's mistake: the command tells it.
    if (e instanceof RunPlanError) throw e;
    line(io.err, redactText(`cardspec run: ${(e as Error).message}`));
    return 2;
  }
  const interrupted = runStopper.reason;
  await finish();
  if (interrupted !== undefined) problems.push(`The run was stopped before its end: ${interrupted}. What it did not reach is reported skipped.`);
  const seconds = Math.round(performance.now() - started) / 1000;

  const { writeReports } = await import('../report');
  // Writing the reports of a full run takes seconds: a log without a terminal says what the silence is.
  if (!io.tty) line(io.out, `cardspec run: writing the reports (${path.relative(io.cwd, plan.reportsDir) || '.'}) ...`);
  let reportPaths: string[] = [];
  let summary: Summary | undefined;
  try {
    reportPaths = await writeReports({
      ...artifactsOf(
        plan,
        baseUrl,
        startedAt,
        // The results read once the messages were written: the same file, not read again.
        outcomes.map((o) => ({ format: o.format, messages: o.messages, written: true, results: o.results })),
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
  // Until the reports are written, a first interrupt does not end the run.
  releaseInterrupts();

  const header = `cardspec run: ${plan.target === 'builtin' ? `built-in gateway (${baseUrl})` : plan.target}, profile ${plan.profile.name}, ${plan.formats.map((f) => f.toUpperCase()).join(' + ')}, ${seconds.toFixed(1)} s`;
  // Causes first: the verdict and what broke lead; the counts per feature follow.
  line(io.out, redactText([header, '', ...(summary ? verdictConsole(summary) : [])].join('\n')));
  line(io.out, summaryText(outcomes, ''));
  for (const p of problems) line(io.out, redactText(`Problem: ${p}`));
  const summaryFile = reportPaths.find((p) => p.endsWith('summary.md'));
  line(io.out, `\nReports: ${summaryFile ? path.relative(io.cwd, summaryFile) : plan.reportsDir}`);

  const all = outcomes.flatMap((o) => o.results.scenarios);
  if (all.length === 0 && plan.shard && problems.length === 0) {
    // A shard may be empty (more shards than scenarios for these --tags): its share of the run is nothing.
    line(io.out, `cardspec run: shard ${plan.shard} holds no scenario${plan.tags ? ` of --tags "${plan.tags}"` : ''}; nothing to run.`);
    return 0;
  }
  if (all.length === 0) {
    line(io.err, problems.length ? 'cardspec run: no scenario ran.' : `cardspec run: no scenario matched${plan.tags ? ` --tags "${plan.tags}"` : ''}.`);
    return 2;
  }
  const exit = exitCode(summary?.result, all.some(notPassed) || outcomes.some((o) => o.problem), interrupted !== undefined, plan.allowIncomplete);
  if (summary) line(io.out, redactText(`Result: ${summary.result.toUpperCase()}${summary.result === 'incomplete' && plan.allowIncomplete ? ' (exit 0: --allow-incomplete)' : ''}`));
  return exit;
}
