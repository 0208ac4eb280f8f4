/**
 * Runs the client conformance cases through an SDK's adapter command (`cardspec serve --client-cmd CMD`). The
 * protocol (docs/contract.md, "The adapter protocol"):
 *
 * - cardspec runs CMD through the shell once per case, with `CARDSPEC_URL` (the gateway's base address: the JSON
 *   endpoint is `$CARDSPEC_URL/json/`), `CARDSPEC_CASE`, `CARDSPEC_USERNAME`, `CARDSPEC_PASSWORD`, `CARDSPEC_ALIAS`
 *   in its environment, and one JSON object on its standard input:
 *   `{"case", "title", "url", "username", "password", "alias", "request": {request object}}`;
 * - the adapter sends `request` once, through its SDK, and prints one JSON line on its standard output:
 *   `{"parts": [ {every field the SDK gives for each response part, in order} ]}`, or `{"error": "..."}` when the
 *   SDK raised; it exits 0;
 * - cardspec checks that exactly one call reached the gateway and that the parts reported are the parts answered.
 */
import { spawn } from 'node:child_process';
import { redactText, registerSecret } from '../redact';
import { CLIENT_CASES, compareParts, type CaseContext, type ClientCase } from './cases';
import type { ContractGateway } from './gateway';
import type { CaseResult } from './report';

export interface AdapterRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** The command could not be started at all. */
  readonly spawnError?: string;
}

/** Most output kept from an adapter (beyond it, output is dropped: the answer is the last JSON line). */
const OUTPUT_LIMIT = 1024 * 1024;

/** Runs the adapter once: `input` as JSON on its standard input, `env` added to its environment. */
export function runAdapter(command: string, input: unknown, env: Record<string, string>, timeoutMs: number): Promise<AdapterRun> {
  return new Promise((resolve) => {
    // Its own process group, so that a hung adapter and whatever it started can be ended together.
    const child = spawn(command, { shell: true, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let spawnError: string | undefined;
    const keep = (acc: string, d: Buffer): string => (acc.length < OUTPUT_LIMIT ? acc + d.toString('utf8') : acc);
    child.stdout.on('data', (d: Buffer) => (stdout = keep(stdout, d)));
    child.stderr.on('data', (d: Buffer) => (stderr = keep(stderr, d)));
    child.stdin.on('error', () => undefined);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('error', (err) => (spawnError = err.message));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut, spawnError });
    });
    child.stdin.end(JSON.stringify(input) + '\n');
  });
}

/** The adapter's answer: the last line of its output that is a JSON object. */
export function adapterAnswer(stdout: string): Record<string, unknown> | undefined {
  const lines = stdout.split('\n').map((l) => l.trim()).filter(Boolean).reverse();
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      /* not the answer line */
    }
  }
  return undefined;
}

export interface RunCasesOptions {
  /** The adapter command line, run through the shell. */
  readonly command: string;
  /** Case ids to run (default: all). */
  readonly only?: readonly string[];
  /** Per case (default 60 s): a hung adapter fails its case rather than the run. */
  readonly timeoutMs?: number;
  /** Called after each case (progress output). */
  readonly onResult?: (result: CaseResult) => void;
}

/** The gateway a run drives: a contract gateway in scenario mode, reachable at `url`. */
export type CaseGateway = Pick<ContractGateway, 'gateway' | 'session' | 'setMutation'> & { readonly url: string };

/** The site the cases use: one of the user's sites with card store and fraud control, outside category 6012. */
function caseSite(gw: CaseGateway): string {
  const user = gw.gateway.config.users[0];
  const sites = gw.gateway.config.sites.filter((s) => user.sites.includes(s.sitereference));
  return (sites.find((s) => s.cardstore && s.fraudcontrol && s.mcc !== '6012') ?? sites[0]).sitereference;
}

export function selectCases(only: readonly string[] | undefined): { cases: ClientCase[]; unknown: string[] } {
  if (!only || only.length === 0) return { cases: [...CLIENT_CASES], unknown: [] };
  const ids = new Set(CLIENT_CASES.map((c) => c.id));
  return { cases: CLIENT_CASES.filter((c) => only.includes(c.id)), unknown: only.filter((id) => !ids.has(id)) };
}

async function runCase(gw: CaseGateway, kase: ClientCase, opts: RunCasesOptions): Promise<CaseResult> {
  const user = gw.gateway.config.users[0];
  const result = (problems: string[]): CaseResult => ({
    id: kase.id,
    title: kase.title,
    rules: [...kase.rules],
    severity: kase.severity,
    passed: problems.length === 0,
    problems: problems.map((p) => redactText(p)),
  });
  const ctx: CaseContext = { rt: gw.gateway.runtime, user, site: caseSite(gw), baseUrl: gw.url };
  let request;
  try {
    request = kase.prepare(ctx);
  } catch (err) {
    return result([`cardspec could not prepare the case: ${err instanceof Error ? err.message : String(err)}`]);
  }
  const input = { case: kase.id, title: kase.title, url: gw.url, username: user.username, password: user.password, alias: user.alias, request };
  const env = { CARDSPEC_URL: gw.url, CARDSPEC_CASE: kase.id, CARDSPEC_USERNAME: user.username, CARDSPEC_PASSWORD: user.password, CARDSPEC_ALIAS: user.alias };
  gw.setMutation(kase.mutation);
  const mark = gw.session.mark();
  let run: AdapterRun;
  try {
    run = await runAdapter(opts.command, input, env, opts.timeoutMs ?? 60_000);
  } finally {
    gw.setMutation(undefined);
  }
  const calls = gw.session.answeredSince(mark);
  const problems: string[] = [];
  const tail = (text: string): string => text.trim().split('\n').slice(-3).join(' | ').slice(0, 400);
  if (run.spawnError) return result([`the adapter command could not be started: ${run.spawnError}`]);
  if (run.timedOut) problems.push(`the adapter did not finish within ${Math.round((opts.timeoutMs ?? 60_000) / 1000)} s`);
  else if (run.code !== 0) problems.push(`the adapter exited ${run.code}${run.stderr.trim() ? `: ${tail(run.stderr)}` : ''}`);
  if (calls.length !== 1) problems.push(calls.length === 0 ? 'no call reached the gateway' : `${calls.length} calls reached the gateway; a case is one call`);
  const answer = adapterAnswer(run.stdout);
  if (!answer) {
    problems.push(`the adapter printed no JSON line {"parts":[...]}${run.stdout.trim() ? ` (it printed: ${tail(run.stdout)})` : ''}`);
  } else if (!Array.isArray(answer.parts)) {
    problems.push(typeof answer.error === 'string' ? `the client raised: ${answer.error.slice(0, 300)}` : 'the adapter\'s JSON line has no "parts" list');
  } else if (calls.length === 1) {
    problems.push(...compareParts(kase, calls[0].parts, answer.parts));
  }
  return result(problems);
}

/** Runs the cases one after the other; the results are also given to the session (and so to its report). */
export async function runClientCases(gw: CaseGateway, opts: RunCasesOptions): Promise<CaseResult[]> {
  for (const u of gw.gateway.config.users) registerSecret(u.password);
  const { cases } = selectCases(opts.only);
  const results: CaseResult[] = [];
  for (const kase of cases) {
    const r = await runCase(gw, kase, opts);
    results.push(r);
    opts.onResult?.(r);
  }
  gw.session.setCases(results);
  return results;
}

