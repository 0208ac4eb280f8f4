/**
 * Runs the client conformance cases through an SDK's adapter command (`cardspec serve --client-cmd CMD`). The
 * protocol (docs/contract.md, "The adapter protocol"):
 *
 * - cardspec runs CMD through the shell once per case, with `CARDSPEC_URL` (the gateway's base address),
 *   `CARDSPEC_FORMAT` (`json` or `xml`: the envelope this case is played in), `CARDSPEC_ENDPOINT` (the address to
 *   POST to: `$CARDSPEC_URL/json/` or `$CARDSPEC_URL/xml/`), `CARDSPEC_CASE`, `CARDSPEC_USERNAME`,
 *   `CARDSPEC_PASSWORD`, `CARDSPEC_ALIAS` in its environment, and one JSON object on its standard input
 *   (AdapterInput): the account, the request object (and in XML the request block), and the fields the case compares;
 * - the adapter sends `request` once, through its SDK, with the SDK's retries off, and prints one JSON line on its
 *   standard output: `{"parts": [...], "envelope": {...}?, "rawerrormessage": true?}`, or `{"error": "..."}` when
 *   the SDK raised (or gave an error part of its own); it exits 0;
 * - cardspec checks that exactly one call reached the gateway and that what was reported is what was answered.
 */
import { spawn } from 'node:child_process';
import type { ObservedCall } from '../gateway';
import { redact, redactText, registerCredential } from '../redact';
import type { RequestObject, ResponsePart } from '../wire/types';
import { compareEnvelope, compareParts, comparedFields, envelopeFields, type ClientCase, type ClientReport } from './case';
import { CLIENT_CASES } from './catalogue';
import type { CaseContext } from './steps';
import { ENDPOINT_PATH, formatsOf, requestBlockText, responseBlockText, xmlCaseInput, xmlVisibleAnswer, type CaseFormat, type FormatChoice, type XmlCaseInput } from './xml';
import type { ContractGateway } from '../contract/gateway';
import { checkedCall } from '../contract/call';
import { REQUEST_CHECKS, TRANSPORT_CHECKS, type Finding, type RefusedCall } from '../contract/checks';
import type { CaseResult } from '../contract/report';

export interface AdapterRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** Ended because the run was stopped (`signal`: cardspec got SIGINT or SIGTERM). */
  readonly interrupted?: boolean;
  /** The command could not be started at all. */
  readonly spawnError?: string;
}

/** Most output kept from an adapter: its last bytes, where the answer is (the last JSON line); earlier output is dropped. */
const OUTPUT_LIMIT = 1024 * 1024;

/**
 * The last OUTPUT_LIMIT bytes of a stream, decoded once at the end: an SDK's debug log may run to megabytes before
 * the answer line, and a character split between two chunks must not be decoded in halves.
 */
class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;

  add(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.chunks.length > 1 && this.size - this.chunks[0].length >= OUTPUT_LIMIT) this.size -= this.chunks.shift()!.length;
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - OUTPUT_LIMIT)).toString('utf8');
  }
}

/**
 * How long the adapter's output may still come after it has exited, or after it was killed at the time limit. A
 * process it started in the background (a daemon, a log shipper, `setsid ... &`) can hold the pipes open for as long
 * as it lives, out of reach of the group kill: the case must not wait for it, nor fail for it.
 */
const DRAIN_MS = 2000;

/**
 * Runs the adapter once: `input` as JSON on its standard input, `env` added to its environment (`base`: the
 * command's, by default the process's). When `signal` aborts (cardspec is stopped), the adapter and its process
 * group are ended at once: none is left running behind.
 */
export function runAdapter(command: string, input: unknown, env: Record<string, string>, timeoutMs: number, signal?: AbortSignal, base: NodeJS.ProcessEnv = process.env): Promise<AdapterRun> {
  return new Promise((resolve) => {
    // Its own process group, so that a hung adapter and whatever it started can be ended together.
    const child = spawn(command, { shell: true, env: { ...base, ...env }, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const stdout = new OutputTail();
    const stderr = new OutputTail();
    let timedOut = false;
    let interrupted = false;
    let spawnError: string | undefined;
    let exitCode: number | null | undefined;
    let drain: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d: Buffer) => stdout.add(d));
    child.stderr.on('data', (d: Buffer) => stderr.add(d));
    child.stdin.on('error', () => undefined);
    // Stop reading once the adapter is gone: what a leftover process writes later is not the adapter's answer.
    const stopReading = (): void => {
      drain ??= setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, DRAIN_MS);
    };
    const end = (): void => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      stopReading();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      end();
    }, timeoutMs);
    const onAbort = (): void => {
      interrupted = true;
      clearTimeout(timer);
      end();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => (spawnError = err.message));
    child.on('exit', (code) => {
      exitCode = code;
      clearTimeout(timer);
      stopReading();
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(drain);
      signal?.removeEventListener('abort', onAbort);
      resolve({ code: exitCode !== undefined ? exitCode : code, stdout: stdout.text(), stderr: stderr.text(), timedOut, interrupted, spawnError });
    });
    child.stdin.end(JSON.stringify(input) + '\n');
  });
}

/**
 * The adapter's answer: the last line of its output that is a JSON object with `parts` or `error`. Other output is
 * ignored, JSON log lines included (a structured logger, pino or winston, may flush a line after the answer).
 * Adapters written by others print pretty JSON too (`json.dumps(out, indent=2)`): failing a line, the last block from
 * a line opening with `{` to the end of the output (log lines after it set aside) is read as one JSON object. With no
 * answer at all, the last JSON object printed is given, so that the case can say what it lacks.
 */
export function adapterAnswer(stdout: string): Record<string, unknown> | undefined {
  const asObject = (text: string): Record<string, unknown> | undefined => {
    try {
      const v: unknown = JSON.parse(text);
      return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const isAnswer = (v: Record<string, unknown>): boolean => 'parts' in v || 'error' in v;
  const lines = stdout
    .replace(/^\uFEFF/, '')
    .replace(/\r\n/g, '\n')
    .split('\n');
  let lastObject: Record<string, unknown> | undefined;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (!line.startsWith('{')) continue;
    const v = asObject(line);
    if (!v) continue;
    if (isAnswer(v)) return v;
    lastObject ??= v;
  }
  // Pretty JSON: the lines after it that are JSON objects of their own (logs) are not part of it.
  let endAt = lines.length;
  while (endAt > 0 && (lines[endAt - 1].trim() === '' || (lines[endAt - 1].trim().startsWith('{') && asObject(lines[endAt - 1].trim()) !== undefined))) endAt--;
  const block = lines.slice(0, endAt).join('\n').trimEnd();
  for (let at = block.lastIndexOf('\n{'); at >= -1; at = at < 0 ? -2 : block.lastIndexOf('\n{', at - 1)) {
    const v = asObject(block.slice(at + 1));
    if (v) return isAnswer(v) || !lastObject ? v : lastObject;
    if (at < 0) break;
  }
  return lastObject;
}

/** A contract check's finding in a case's call. */
export interface CaseFinding extends Finding {
  readonly check: string;
}

/** The findings of the contract checks in one call, run as the session runs them (when the call is answered). */
function findingsOf(gw: CaseGateway, call: Extract<ObservedCall, { kind: 'answered' }>): CaseFinding[] {
  // With the ledger, as the gate reads the call (src/contract/session.ts): a request's row and required fields are
  // read with its parent, so that the case says what the gate says, at the same severity.
  const checked = checkedCall(0, call, gw.gateway.ledger);
  return REQUEST_CHECKS.flatMap((c) => c.run(checked, { ledger: gw.gateway.ledger }).map((f) => ({ ...f, check: c.name, field: redactText(f.field), message: redactText(f.message) })));
}

/** What the transport checks find in a call refused before an envelope was answered, as the gate records it. */
function refusedFindingsOf(call: Extract<ObservedCall, { kind: 'refused' }>): CaseFinding[] {
  const refused: RefusedCall = { format: call.format, method: call.method, path: call.path, status: call.status, reason: call.reason };
  return TRANSPORT_CHECKS.flatMap((c) => c.run(refused).map((f) => ({ ...f, check: c.name, field: redactText(f.field), message: redactText(f.message) })));
}

/** The object on the adapter's standard input. */
export interface AdapterInput {
  readonly case: string;
  readonly title: string;
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly alias: string;
  /** The envelope this case is played in: the JSON body, or the XML request block. */
  readonly format: CaseFormat;
  /** Where to POST: `url` + `/json/` or `/xml/` (the XML address is the kit's choice; the document does not show it). */
  readonly endpoint: string;
  /** The request object to send once, as it is (the SDK may add its own fields). */
  readonly request: RequestObject;
  /** In XML: the request as a request block, and where the answered fields sit in the response block. */
  readonly xml?: XmlCaseInput;
  /** What this case compares: the fields of each part, and of the envelope when the adapter reports it. */
  readonly compare: { readonly parts: readonly string[]; readonly envelope: readonly string[] };
  readonly rules: readonly string[];
  /** What the adapter must do for the case to be one call. */
  readonly advice: string;
}

export const ADAPTER_ADVICE =
  'Send "request" once through the SDK, with its retries off (a case is one call), to "endpoint" in the envelope "format" names ' +
  '(xml: the request block) as user "username" with alias "alias"; ' +
  'print one JSON line {"parts":[...],"envelope":{...},"rawerrormessage":true|false} or {"error":"..."} (docs/contract.md, "The adapter protocol").';

/** How a case ended, in the Autobahn habit. */
export type CaseOutcome = 'pass' | 'fail' | 'non-strict' | 'informational';

/** One case's result: what the contract report shows, and what the per-case page shows (all masked). */
export interface ClientCaseResult extends CaseResult {
  readonly outcome: CaseOutcome;
  /** The envelope the case was played in (one result per case and format). */
  readonly format: CaseFormat;
  readonly group: string;
  readonly row: string;
  /** The fields compared in each part and, when reported, in the envelope. */
  readonly compared: { readonly parts: readonly string[]; readonly envelope: readonly string[] };
  /** What the reader should know that is not a problem: fields not given, errormessage not compared. */
  readonly notes: readonly string[];
  /**
   * The call as it reached the gateway and its answer, masked; the basic-auth header is never kept. `request` and
   * `response` are the JSON form (XML mapped); in XML, `requestText` and `responseText` are the blocks built from them.
   */
  readonly exchange?: {
    readonly headers: Readonly<Record<string, unknown>>;
    readonly request: unknown;
    readonly response: unknown;
    readonly requestText?: string;
    readonly responseText?: string;
  };
  /** What the adapter printed as its answer, masked (or its output's last lines when it printed none). */
  readonly reported?: unknown;
  readonly calls: number;
  /** What the contract checks found in the adapter's calls (each call's own findings, masked). */
  readonly violations: readonly CaseFinding[];
  /** The adapter's standard error, last lines, masked. */
  readonly stderr?: string;
}

export interface RunCasesOptions {
  /** The adapter command line, run through the shell. */
  readonly command: string;
  /** Case ids to run (default: all). */
  readonly only?: readonly string[];
  /** The envelope the cases are played in (default `json`); `both`: every case in JSON, then every case in XML. */
  readonly format?: FormatChoice;
  /** Per case (default 60 s): a hung adapter fails its case rather than the run. */
  readonly timeoutMs?: number;
  /** Stops the run (cardspec got SIGINT or SIGTERM): the adapter running is ended, no further case is started. */
  readonly signal?: AbortSignal;
  /** The environment the adapter is started in, the case's variables added (default: the process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** Called after each case (progress output). */
  readonly onResult?: (result: ClientCaseResult) => void;
}

/** The gateway a run drives: a contract gateway in scenario mode, reachable at `url`. */
export type CaseGateway = Pick<ContractGateway, 'gateway' | 'session' | 'setMutation' | 'watch'> & { readonly url: string; readonly basePath?: string };

function caseContext(gw: CaseGateway, kase: ClientCase): CaseContext {
  const { users, sites } = gw.gateway.config;
  const user = kase.account === 'aliased' ? users.find((u) => u.alias !== u.username) : users[0];
  if (!user) throw new Error('the configuration has no account whose alias differs from its user name (the stand-in gateway adds one unless --config gives users)');
  const own = sites.filter((s) => user.sites.includes(s.sitereference));
  const site = (own.find((s) => s.cardstore && s.fraudcontrol && s.mcc !== '6012') ?? own[0]).sitereference;
  const site6012 = own.find((s) => s.mcc === '6012')?.sitereference;
  return { rt: gw.gateway.runtime, user, site, site6012, baseUrl: gw.url };
}

export function selectCases(only: readonly string[] | undefined): { cases: ClientCase[]; unknown: string[] } {
  if (!only || only.length === 0) return { cases: [...CLIENT_CASES], unknown: [] };
  const ids = new Set(CLIENT_CASES.map((c) => c.id));
  return { cases: CLIENT_CASES.filter((c) => only.includes(c.id)), unknown: only.filter((id) => !ids.has(id)) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The adapter's answer line, read; undefined when it printed none. */
export function readReport(answer: Record<string, unknown>): ClientReport {
  return {
    parts: Array.isArray(answer.parts) ? answer.parts : undefined,
    envelope: isObject(answer.envelope) ? answer.envelope : undefined,
    error: typeof answer.error === 'string' ? answer.error : answer.error !== undefined ? JSON.stringify(answer.error) : undefined,
    rawErrorMessage: answer.rawerrormessage === true,
  };
}

/** Most characters of a value kept on a case's page (a 4096-character message is kept; a runaway answer is not). */
const KEEP = 64 * 1024;
/** The 3-D Secure exchange's values are shown by length only, as everywhere in the contract report. */
const BY_LENGTH = new Set(['md', 'pareq', 'pares']);

function lengthsOnly(value: unknown, key?: string): unknown {
  if (typeof value === 'string') return key && BY_LENGTH.has(key) ? `(${value.length} characters, not shown)` : value;
  if (Array.isArray(value)) return value.map((v) => lengthsOnly(v));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lengthsOnly(v, k.toLowerCase())]));
  return value;
}

function kept(value: unknown): unknown {
  const shown = lengthsOnly(value);
  const text = JSON.stringify(shown) ?? '';
  return text.length <= KEEP ? redact(shown) : `${redactText(text.slice(0, KEEP))}... (${text.length} characters, cut)`;
}

function headersOf(call: Extract<ObservedCall, { kind: 'answered' }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // The basic-auth header never reaches a report: only whether it was sent.
  for (const [k, v] of Object.entries(call.headers)) out[k.toLowerCase() === 'authorization' ? '(basic authentication)' : k] = k.toLowerCase() === 'authorization' ? 'sent, not shown' : v;
  return redact(out);
}

/** A case's name in one format: its id in JSON (as before XML was played), `id (xml)` in XML. */
export const caseKey = (id: string, format: CaseFormat): string => (format === 'json' ? id : `${id} (${format})`);

/** The exchange of a case's page: the JSON form, and in XML the blocks too, all built from masked values. */
function exchangeOf(call: Extract<ObservedCall, { kind: 'answered' }>): NonNullable<ClientCaseResult['exchange']> {
  const request = kept(call.request);
  const response = kept(call.response);
  const base = { headers: headersOf(call), request, response };
  if (call.format !== 'xml') return base;
  const text = (build: () => string): string | undefined => {
    try {
      return redactText(build());
    } catch {
      return undefined;
    }
  };
  return {
    ...base,
    requestText: typeof request === 'object' ? text(() => requestBlockText(request)) : undefined,
    responseText: typeof response === 'object' ? text(() => responseBlockText(response)) : undefined,
  };
}

async function runCase(gw: CaseGateway, kase: ClientCase, format: CaseFormat, opts: RunCasesOptions): Promise<ClientCaseResult> {
  const notes: string[] = [];
  let compared = { parts: comparedFields(kase, false), envelope: [] as string[] };
  let outcomeOverride: CaseOutcome | undefined;
  const base = { id: kase.id, title: kase.title, rules: [...kase.rules], severity: kase.severity, group: kase.group, row: kase.row, format };
  const finish = (problems: string[], extra: Partial<ClientCaseResult> = {}): ClientCaseResult => {
    const outcome: CaseOutcome = problems.length > 0 ? (kase.severity === 'error' ? 'fail' : 'non-strict') : (outcomeOverride ?? 'pass');
    return {
      ...base,
      passed: problems.length === 0,
      problems: problems.map((p) => redactText(p)),
      outcome,
      compared,
      notes: notes.map((n) => redactText(n)),
      calls: 0,
      violations: [],
      ...extra,
    };
  };
  let ctx: CaseContext;
  let request: RequestObject;
  try {
    ctx = caseContext(gw, kase);
    request = kase.prepare(ctx);
  } catch (err) {
    return finish([`cardspec could not prepare the case: ${err instanceof Error ? err.message : String(err)}`]);
  }
  const { user } = ctx;
  // The service's base address as the SDK is configured with it: with its path, when the gateway serves one.
  const url = `${gw.url}${gw.basePath ?? ''}`;
  const endpoint = `${url}${ENDPOINT_PATH[format]}`;
  const input: AdapterInput = {
    case: kase.id,
    title: kase.title,
    url,
    username: user.username,
    password: user.password,
    alias: user.alias,
    format,
    endpoint,
    request,
    ...(format === 'xml' ? { xml: xmlCaseInput(user.alias, request) } : {}),
    compare: { parts: comparedFields(kase, true), envelope: envelopeFields(kase) },
    rules: [...kase.rules],
    advice: ADAPTER_ADVICE,
  };
  const env = {
    CARDSPEC_URL: url,
    CARDSPEC_FORMAT: format,
    CARDSPEC_ENDPOINT: endpoint,
    CARDSPEC_CASE: kase.id,
    CARDSPEC_USERNAME: user.username,
    CARDSPEC_PASSWORD: user.password,
    CARDSPEC_ALIAS: user.alias,
  };
  const seen: ObservedCall[] = [];
  const violations: CaseFinding[] = [];
  gw.setMutation(kase.mutation);
  gw.watch((call) => {
    if (call.kind === 'answered') violations.push(...findingsOf(gw, call));
    else violations.push(...refusedFindingsOf(call));
    if (call.kind === 'answered' || call.format !== undefined) seen.push(call);
  });
  let run: AdapterRun;
  try {
    run = await runAdapter(opts.command, input, env, opts.timeoutMs ?? 60_000, opts.signal, opts.env);
  } finally {
    gw.setMutation(undefined);
    gw.watch(undefined);
  }
  const answered = seen.filter((c): c is Extract<ObservedCall, { kind: 'answered' }> => c.kind === 'answered');
  const first = answered[0];
  // What the client can have read: in XML, the answer as the response block carries it (src/wire/xml.ts).
  const visible: Record<string, unknown> | undefined = first ? (format === 'xml' ? xmlVisibleAnswer(first.response) : { ...first.response }) : undefined;
  const answeredParts: ResponsePart[] = visible && Array.isArray(visible.response) ? (visible.response as unknown[]).filter(isObject) : [];
  const codes = first && Array.isArray(first.response.response) ? (first.response.response as unknown[]).filter(isObject).map((p) => p.errorcode) : [];
  const problems: string[] = [];
  const tail = (text: string): string => text.trim().split('\n').slice(-3).join(' | ').slice(0, 400);
  const extra: { -readonly [K in keyof ClientCaseResult]?: ClientCaseResult[K] } = {
    calls: seen.length,
    violations,
    exchange: first ? exchangeOf(first) : undefined,
    stderr: run.stderr.trim() ? redactText(tail(run.stderr)) : undefined,
  };
  if (run.spawnError) return finish([`the adapter command could not be started: ${run.spawnError}`], extra);
  if (run.interrupted) return finish(['interrupted: cardspec was stopped while the adapter ran this case (the adapter was ended)'], extra);
  if (run.timedOut) problems.push(`the adapter did not finish within ${Math.round((opts.timeoutMs ?? 60_000) / 1000)} s`);
  else if (run.code !== 0) problems.push(`the adapter exited ${run.code}${run.stderr.trim() ? `: ${tail(run.stderr)}` : ''}`);
  // A call the transport refused (a 401 of a wrong user, a 415) is answered no parts: say which rule it broke.
  for (const c of seen) {
    if (c.kind !== 'refused') continue;
    const why = refusedFindingsOf(c).filter((v) => v.severity === 'error');
    problems.push(`the gateway refused the call with HTTP ${c.status}${why.length ? ` (${why.map((v) => `${v.rule}: ${v.message}`).join('; ')})` : ''}`);
  }
  if (seen.length === 0) problems.push(`no call reached the gateway (the SDK is to POST to ${endpoint}, given as "endpoint" and $CARDSPEC_ENDPOINT)`);
  else if (seen.length > 1) problems.push(`${seen.length} calls reached the gateway; a case is one call (an SDK that retries sends the request again: turn its retries off in the adapter)`);

  const wrongForm = seen.find((c) => c.format !== undefined && c.format !== format);
  if (wrongForm) {
    problems.push(
      `the call reached POST ${ENDPOINT_PATH[wrongForm.format ?? 'json']}, in ${String(wrongForm.format).toUpperCase()}; this case is played in ${format.toUpperCase()}: ` +
        `the adapter is to POST to ${endpoint} (given as "endpoint" and $CARDSPEC_ENDPOINT, the form as "format" and $CARDSPEC_FORMAT)`,
    );
  }

  // The answer this case is about: a request changed on its way (a field the SDK added or dropped) gets another.
  if (first) {
    if (codes.join() !== kase.expect.join()) {
      const why = violations.filter((v) => v.severity === 'error').map((v) => `${v.rule}: ${v.message}`);
      problems.push(
        `the gateway answered errorcode ${codes.map(String).join(', ')}, not the ${kase.expect.join(', ')} this case is about: the request did not reach it as given` +
          (why.length ? ` (${why.join('; ')})` : ''),
      );
    }
  }

  const answer = adapterAnswer(run.stdout);
  const report = answer ? readReport(answer) : undefined;
  extra.reported = answer ? kept(answer) : run.stdout.trim() ? redactText(tail(run.stdout)) : undefined;
  if (!report) {
    const onStderr = /"parts"\s*:/.test(run.stderr) ? ' (its standard error holds "parts": the answer goes to standard output)' : '';
    problems.push(`the adapter printed no JSON line {"parts":[...]}${run.stdout.trim() ? ` (it printed: ${tail(run.stdout)})` : ''}${onStderr}`);
  } else if (!report.parts) {
    problems.push(report.error !== undefined ? `the client raised: ${report.error.slice(0, 300)}` : 'the adapter\'s JSON line has no "parts" list');
  } else if (first) {
    compared = { parts: comparedFields(kase, report.rawErrorMessage), envelope: [] };
    if (!report.rawErrorMessage) notes.push('errormessage not compared: the adapter did not declare "rawerrormessage": true (an SDK may translate messages)');
    problems.push(...compareParts(kase, answeredParts, report.parts, report.rawErrorMessage));
    const { response: _parts, ...answeredEnvelope } = visible ?? {};
    if (report.envelope) {
      const e = compareEnvelope(kase, answeredEnvelope, report.envelope);
      problems.push(...e.problems);
      compared = { ...compared, envelope: e.compared };
      if (e.notGiven.length) notes.push(`not given by the SDK (not compared): envelope ${e.notGiven.join(', ')}`);
    } else notes.push('the adapter reported no "envelope": envelope fields not compared');
    if (kase.observedIn === 'envelope') {
      const keys = kase.envelope ?? ['secrand'];
      if (!keys.some((k) => compared.envelope.includes(k))) {
        outcomeOverride = 'informational';
        notes.push(`informational: this case is about the envelope's ${keys.join(', ')}, which the adapter did not report; it shows only that the client did not fail`);
      }
    }
  }
  return finish(problems, extra);
}

/** Runs the cases one after the other; the results are also given to the session (and so to its report). */
export async function runClientCases(gw: CaseGateway, opts: RunCasesOptions): Promise<ClientCaseResult[]> {
  for (const u of gw.gateway.config.users) registerCredential(u.username, u.password);
  const { cases } = selectCases(opts.only);
  const results: ClientCaseResult[] = [];
  for (const format of formatsOf(opts.format ?? 'json')) {
    for (const kase of cases) {
      if (opts.signal?.aborted) break;
      const r = await runCase(gw, kase, format, opts);
      results.push(r);
      opts.onResult?.(r);
    }
  }
  // The contract report keeps the verdict of each case; the exchange and the adapter's answer are for the pages.
  gw.session.setCases(results.map(({ id, format, title, rules, severity, passed, problems, outcome }): CaseResult => ({ id: caseKey(id, format), title, rules, severity, passed, problems, outcome })));
  return results;
}
