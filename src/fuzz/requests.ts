/**
 * The request fuzzer: fast-check generates cases (./cases.ts) from a seed, the target answers them, and the oracles
 * (./oracles.ts) judge each answer. It runs in two phases, so that it is both fast and replayable:
 *
 * 1. Detection: fast-check draws case after case (the property never fails, it only hands each case over), and
 *    up to `concurrency` of them are in flight at once, paced by `--rate`. Case n of seed S is exactly the value
 *    fast-check replays with `{seed: S, path: "n"}`.
 * 2. Shrinking: for the first case each failing oracle caught, fast-check replays `path: "n"` against the target
 *    with a property that fails when that oracle does, and shrinks it one request at a time. The shrunk case's path
 *    (`n:a:b:...`) replays it directly: `cardspec fuzz --seed S --path n:a:b`.
 *
 * Every loop is bounded by a count (runs, failing cases, shrink steps) and by the deadline.
 */
import fc from 'fast-check';
import type { OperationRow } from '../../schemas/operations';
import { redact, redactText } from '../redact';
import type { Target } from '../target/target';
import { parseRequestBlock } from '../wire/xml';
import type { Format, RequestEnvelope } from '../wire/types';
import { PLAIN_XML } from '../../generators/xml';
import { bodyOf, caseArbitrary, envelopeOf, type FuzzCase } from './cases';
import { expectFor, type ExpectContext } from './expect';
import { judge, ORACLES, type CaseRun, type Oracle, type OracleContext, type Severity } from './oracles';
import type { Deadline, RateLimiter } from './pace';
import { Slots } from './pace';
import type { Pool } from './pool';
import { sendWithRetry } from './send';

export interface RequestFuzzOptions {
  /** The target, speaking `format`. */
  readonly target: Target;
  readonly format: Format;
  readonly pool: Pool;
  readonly alias: string;
  readonly oracleContext: OracleContext;
  readonly seed: number;
  readonly runs: number;
  readonly concurrency: number;
  readonly rate?: RateLimiter;
  readonly deadline: Deadline;
  /** Replay one case (`n` or `n:a:b...`) instead of a run. */
  readonly path?: string;
  /** Stop sending new cases once this many cases failed an error oracle. */
  readonly maxFailingCases: number;
  /** Requests one shrink may send. */
  readonly shrinkSteps: number;
  /** Failing oracles shrunk per run (the first of each, errors before warnings). */
  readonly maxShrunk: number;
  readonly oracles?: readonly Oracle[];
  readonly rows?: readonly OperationRow[];
  readonly onProgress?: (done: number, failing: number) => void;
}

export interface OracleStats {
  checked: number;
  failed: number;
}

/** A failure, shrunk where it could be, everything in it masked. */
export interface Counterexample {
  readonly property: string;
  readonly format: Format;
  readonly oracle: string;
  readonly rule: string;
  readonly severity: Severity;
  readonly seed: number;
  /** The fast-check path that replays this case. */
  readonly path: string;
  readonly message: string;
  /** What the case changed (mutation or envelope change), in words. */
  readonly what: string;
  /** The request envelope sent (JSON form), masked. */
  readonly request: unknown;
  /** The body as sent, masked (the XML block, or the JSON text). */
  readonly body: string;
  readonly url: string;
  readonly status?: number;
  /** The answer, masked and cut. */
  readonly answer: string;
  readonly shrinks: number;
  /** False when the case did not fail again when replayed (the target changed in between). */
  readonly reproduced: boolean;
}

export interface RequestFuzzOutcome {
  readonly property: 'requests';
  readonly format: Format;
  readonly seed: number;
  readonly sent: number;
  readonly stats: ReadonlyMap<string, OracleStats>;
  readonly expectations: Readonly<Record<'valid' | 'invalid' | 'refused' | 'open', number>>;
  readonly counterexamples: readonly Counterexample[];
  /** The run stopped early (deadline, or too many failing cases). */
  readonly stoppedEarly?: string;
  readonly durationMs: number;
}

const MAX_ANSWER = 2000;

/** A short description of what a case changed. */
export function describeCase(c: FuzzCase): string {
  const parts = [`row ${c.row}`];
  if (c.mutation) parts.push(`${c.mutation.kind} of ${c.mutation.field} (${c.mutation.detail})`);
  else if (c.envelopeChange) parts.push(`envelope: ${c.envelopeChange.kind}`);
  else parts.push('valid request');
  if (c.xml && (c.xml.declaration !== PLAIN_XML.declaration || c.xml.leadingBlankLine !== PLAIN_XML.leadingBlankLine)) {
    parts.push(`XML ${c.xml.declaration ? 'with' : 'without'} declaration${c.xml.leadingBlankLine ? ', blank first line' : ''}`);
  }
  return parts.join(', ');
}

export function expectContextOf(pool: Pool, alias: string): ExpectContext {
  return {
    alias,
    site: pool.context.site,
    currency: pool.context.currency,
    cards: pool.context.cards,
    cachetokens: pool.context.cachetokens ?? [],
    parents: pool.made,
  };
}

/** Sends one case and gathers what the oracles need. */
export async function runCase(c: FuzzCase, opts: Pick<RequestFuzzOptions, 'target' | 'format' | 'alias'>, ectx: ExpectContext): Promise<CaseRun> {
  const body = bodyOf(c, opts.alias, opts.format);
  // JSON carries every value of a case as it is (strings, numbers, booleans, null, lists, objects); XML does not,
  // so its expectations are read from what the block maps back to.
  const wire: RequestEnvelope = opts.format === 'json' ? envelopeOf(c, opts.alias) : parseRequestBlock(body).envelope;
  let expect = expectFor(wire, ectx);
  const styled = c.xml && (c.xml.declaration !== PLAIN_XML.declaration || c.xml.leadingBlankLine !== PLAIN_XML.leadingBlankLine);
  if (styled && expect.expectation.kind === 'valid') {
    // public-facts.md says real clients write blocks this way; the document shows no XML layout at all.
    expect = { ...expect, expectation: { kind: 'open', why: 'the block is laid out as public XML clients write it (public-facts.md only)' } };
  }
  const exchange = await sendWithRetry(() => opts.target.sendRaw({ body }));
  return { case: c, format: opts.format, body, expect, exchange };
}

function counterexample(opts: RequestFuzzOptions, oracle: Oracle, path: string, message: string, run: CaseRun, shrinks: number, reproduced: boolean): Counterexample {
  const ex = run.exchange;
  const answer = ex.responseText || ex.error || '';
  return {
    property: 'requests',
    format: opts.format,
    oracle: oracle.name,
    rule: oracle.rule,
    severity: oracle.severity,
    seed: opts.seed,
    path,
    message: redactText(message),
    what: redactText(describeCase(run.case)),
    request: redact(envelopeOf(run.case, opts.alias)),
    body: ex.requestText,
    url: ex.url,
    status: ex.status,
    answer: redactText(answer.length > MAX_ANSWER ? `${answer.slice(0, MAX_ANSWER)}...` : answer),
    shrinks,
    reproduced,
  };
}

/** Runs the request fuzzer (or replays one path) against one target in one format. */
export async function fuzzRequests(opts: RequestFuzzOptions): Promise<RequestFuzzOutcome> {
  const started = performance.now();
  const oracles = opts.oracles ?? ORACLES;
  const ectx = expectContextOf(opts.pool, opts.alias);
  const arb = caseArbitrary({ context: opts.pool.context, alias: opts.alias, format: opts.format, rows: opts.rows });
  const stats = new Map<string, OracleStats>(oracles.map((o) => [o.name, { checked: 0, failed: 0 }]));
  const expectations = { valid: 0, invalid: 0, refused: 0, open: 0 };
  const firstFailure = new Map<string, { index: number; message: string; run: CaseRun }>();
  let sent = 0;
  let failing = 0;
  let stoppedEarly: string | undefined;

  const evaluate = async (run: CaseRun, index: number | string): Promise<boolean> => {
    expectations[run.expect.expectation.kind]++;
    let failedError = false;
    for (const { oracle, failure } of await judge(run, opts.oracleContext, oracles)) {
      const s = stats.get(oracle.name)!;
      s.checked++;
      if (failure === undefined) continue;
      s.failed++;
      if (oracle.severity === 'error') failedError = true;
      if (!firstFailure.has(oracle.name)) firstFailure.set(oracle.name, { index: typeof index === 'number' ? index : -1, message: failure, run });
    }
    return failedError;
  };

  if (opts.path !== undefined) {
    // Replay: the one case at `path`, every oracle, no shrinking.
    const path = opts.path;
    await fc.check(
      fc.asyncProperty(arb, async (c) => {
        await opts.rate?.take();
        const run = await runCase(c, opts, ectx);
        sent++;
        await evaluate(run, path);
        return true;
      }),
      { seed: opts.seed, path, numRuns: 1 },
    );
    const counterexamples = [...firstFailure.entries()].map(([name, f]) => counterexample(opts, oracles.find((o) => o.name === name)!, path, f.message, f.run, 0, true));
    return { property: 'requests', format: opts.format, seed: opts.seed, sent, stats, expectations, counterexamples, durationMs: performance.now() - started };
  }

  // Phase 1: detection, concurrent and paced.
  const slots = new Slots(opts.concurrency);
  const inflight = new Set<Promise<void>>();
  let index = 0;
  let done = 0;
  await fc.check(
    fc.asyncProperty(arb, async (c) => {
      const i = index++;
      if (stoppedEarly) return true;
      if (opts.deadline.passed) {
        stoppedEarly = 'the time limit was reached';
        return true;
      }
      if (failing >= opts.maxFailingCases) {
        stoppedEarly = `${failing} cases failed (the limit of --max-failures)`;
        return true;
      }
      await slots.acquire();
      await opts.rate?.take();
      const p = runCase(c, opts, ectx)
        .then(async (run) => {
          sent++;
          if (await evaluate(run, i)) failing++;
        })
        .catch((e: unknown) => {
          // A kit bug must not pass for a clean run.
          stoppedEarly = redactText(`internal error at case ${i}: ${e instanceof Error ? e.message : String(e)}`);
        })
        .finally(() => {
          slots.release();
          inflight.delete(p);
          done++;
          opts.onProgress?.(done, failing);
        });
      inflight.add(p);
      return true;
    }),
    { seed: opts.seed, numRuns: opts.runs, interruptAfterTimeLimit: Math.max(1, Math.ceil(opts.deadline.remainingMs)) },
  );
  await Promise.all([...inflight]);

  // Phase 2: shrink the first failure of each oracle, errors first.
  const counterexamples: Counterexample[] = [];
  const order = [...firstFailure.entries()].sort(([a], [b]) => rank(oracles, a) - rank(oracles, b));
  for (const [name, f] of order) {
    const oracle = oracles.find((o) => o.name === name)!;
    if (opts.shrinkSteps === 0 || counterexamples.length >= opts.maxShrunk || opts.deadline.passed || f.index < 0) {
      counterexamples.push(counterexample(opts, oracle, String(f.index), f.message, f.run, 0, true));
      continue;
    }
    counterexamples.push(await shrink(opts, arb, oracle, f.index, f, ectx));
  }
  return { property: 'requests', format: opts.format, seed: opts.seed, sent, stats, expectations, counterexamples, stoppedEarly, durationMs: performance.now() - started };
}

function rank(oracles: readonly Oracle[], name: string): number {
  const i = oracles.findIndex((o) => o.name === name);
  return (oracles[i]?.severity === 'error' ? 0 : 1000) + i;
}

async function shrink(
  opts: RequestFuzzOptions,
  arb: fc.Arbitrary<FuzzCase>,
  oracle: Oracle,
  index: number,
  found: { message: string; run: CaseRun },
  ectx: ExpectContext,
): Promise<Counterexample> {
  let steps = 0;
  let last: { run: CaseRun; message: string } | undefined;
  const details = await fc.check(
    fc.asyncProperty(arb, async (c) => {
      if (steps >= opts.shrinkSteps || opts.deadline.passed) return true;
      steps++;
      await opts.rate?.take();
      const run = await runCase(c, opts, ectx);
      if (!oracle.applies(run)) return true;
      const message = await oracle.check(run, opts.oracleContext);
      if (message === undefined) return true;
      last = { run, message };
      return false;
    }),
    { seed: opts.seed, path: String(index), numRuns: 1 },
  );
  if (details.failed && last) {
    return counterexample(opts, oracle, details.counterexamplePath ?? String(index), last.message, last.run, details.numShrinks, true);
  }
  return counterexample(opts, oracle, String(index), found.message, found.run, 0, false);
}
