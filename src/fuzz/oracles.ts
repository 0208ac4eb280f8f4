/**
 * The oracles of the request fuzzer: small named checks, each of one rule of features/rules.yaml, run on every
 * answer they apply to. An oracle returns `undefined` when the answer passes, else what is wrong, in words that
 * never quote a secret (every message is masked again before it is shown).
 *
 * `error` oracles fail a run; `warning` oracles are reported and counted but never fail a target, because they
 * rest on public-facts.md rather than on the document (docs/fuzz.md).
 */
import type { Severity } from '../rules/findings';
import type { ControlClient } from '../client/control';
import type { Exchange } from '../client/target';
import { ANSWER_INVARIANTS, fromViolation, fullPanPlaces, securityCodePaths, type Answer } from '../rules/answers';
import { readEnvelopeErrors, responseEnvelopeErrors, type Violation } from '../validate';
import type { Format, ResponseEnvelope, ResponsePart } from '../wire/types';
import type { FuzzCase } from './cases';
import type { CaseExpectation } from './expect';

/** One case sent and answered. */
export interface CaseRun {
  readonly case: FuzzCase;
  readonly format: Format;
  /** The body sent (unmasked: it is never shown as is). */
  readonly body: string;
  /**
   * XML only: the request object as the block carries it back (a value XML cannot hold, such as U+0000, is written
   * otherwise): what the target was sent, where it differs from the case's values.
   */
  readonly sent?: Readonly<Record<string, unknown>>;
  readonly expect: CaseExpectation;
  readonly exchange: Exchange;
}

export interface OracleContext {
  /** The target's test-control client, when it has the ledger capability (to see whether a transaction exists). */
  readonly control?: ControlClient;
  /** Card numbers that must never come back in full: the profile's test cards. */
  readonly pans: readonly string[];
}

export type { Severity } from '../rules/findings';

export interface Oracle {
  readonly name: string;
  readonly rule: string;
  readonly severity: Severity;
  /** One line: what the oracle checks, for the summary and docs/fuzz.md. */
  readonly checks: string;
  applies(run: CaseRun): boolean;
  check(run: CaseRun, ctx: OracleContext): string | undefined | Promise<string | undefined>;
  /**
   * The rule a failing run breaks, where it is not always `rule`: a schema finding breaks the rule of its field
   * (src/rules/answers.ts, as in the scenarios), not the body's.
   */
  ruleOf?(run: CaseRun): string | undefined;
}

/** The rule a failing run of an oracle breaks. */
export const ruleOfFailure = (oracle: Oracle, run: CaseRun): string => oracle.ruleOf?.(run) ?? oracle.rule;

/** A fuzz case as an answer of the invariants' registry (src/rules/answers.ts). */
function answerOf(run: CaseRun): Answer {
  return { envelope: run.exchange.envelope, format: run.format, requested: run.expect.parts, request: run.sent ?? run.case.request };
}

/** The rule of the first of `vs` (none: undefined). */
const firstRule = (run: CaseRun, vs: readonly Violation[]): string | undefined => (vs.length > 0 ? fromViolation('schema', vs[0], answerOf(run), undefined)[0]?.rule : undefined);

/** An invariant of the registry by name, looked up once (the oracles ask for it on every case). */
const INVARIANTS = new Map<string, (typeof ANSWER_INVARIANTS)[number]>();
const invariant = (name: string) => {
  let found = INVARIANTS.get(name);
  if (!found) INVARIANTS.set(name, (found = ANSWER_INVARIANTS.find((i) => i.name === name)!));
  return found;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parts of an answer that is an envelope; `[]` otherwise. */
export function partsOf(env: ResponseEnvelope | undefined): ResponsePart[] {
  return isObject(env) && Array.isArray(env.response) ? (env.response as unknown[]).filter(isObject) : [];
}

/** Whether a part of the answer has this errorcode (without building the list of parts: most answers have none). */
function someCode(env: ResponseEnvelope | undefined, code: string): boolean {
  if (!isObject(env) || !Array.isArray(env.response)) return false;
  const list: unknown[] = env.response;
  for (let i = 0; i < list.length; i++) {
    const p = list[i];
    if (isObject(p) && p.errorcode === code) return true;
  }
  return false;
}

/** No answer arrived: the connection failed, was reset or timed out (the Target gives no headers then). */
export function transportFailed(ex: Exchange): boolean {
  if (ex.error === undefined) return false;
  for (const _ in ex.headers) return false;
  return true;
}

/** The HTTP client's words for a timeout (src/client/http.ts: "... within N ms"). */
export function timedOut(ex: Exchange): boolean {
  return transportFailed(ex) && /within [0-9]+ ms/.test(ex.error ?? '');
}

/**
 * The last run validated and its violations: the two oracles that read them judge the same run one after the
 * other. (A WeakMap keyed by run did the same at the cost of an ephemeron per case for the garbage collector.)
 */
let lastValidated: { run: CaseRun; violations: Violation[] } | undefined;

/** The schema violations of the answer, computed once per run (with the parts requested, where the document says). */
export function violationsOf(run: CaseRun): Violation[] {
  if (lastValidated?.run === run) return lastValidated.violations;
  const env = run.exchange.envelope;
  // The Target has read a JSON answer already (empty and null values dropped); an XML answer is mapped, not read.
  const violations = env === undefined ? [] : run.format === 'json' ? readEnvelopeErrors(env, run.expect.parts, 'json') : responseEnvelopeErrors(env, run.expect.parts, run.format);
  lastValidated = { run, violations };
  return violations;
}

const PART_COUNT_RULES = new Set(['one-part-per-type', 'part-order']);
const describeParts = (parts: ResponsePart[]): string => parts.map((p, i) => `part ${i + 1} ${String(p.requesttypedescription)} errorcode ${String(p.errorcode)}`).join('; ');
const first = (vs: Violation[], n = 3): string =>
  vs
    .slice(0, n)
    .map((v) => `${v.field ? `${v.field}: ` : ''}${v.message}`)
    .join('; ') + (vs.length > n ? ` (and ${vs.length - n} more)` : '');

export const ORACLES: readonly Oracle[] = [
  {
    name: 'answered',
    rule: 'TRANSPORT-RESPONSE-BODY',
    severity: 'error',
    checks: 'an answer arrives: the connection is not refused, reset or closed before the answer ends',
    applies: () => true,
    check: (run) => (transportFailed(run.exchange) && !timedOut(run.exchange) ? `no answer: ${run.exchange.error}` : undefined),
  },
  {
    name: 'within-timeout',
    rule: 'TRANSPORT-RESPONSE-BODY',
    severity: 'error',
    checks: 'the answer is complete within the timeout (--timeout)',
    applies: () => true,
    check: (run) => (timedOut(run.exchange) ? `no answer in time: ${run.exchange.error}` : undefined),
  },
  {
    name: 'no-5xx',
    rule: 'ERR-99999',
    // "HTTP status codes and the shape of a response to a malformed request: not shown": a status alone never fails
    // a target (TRANSPORT-HTTP-STATUS). A 5xx that carries no envelope fails `same-format` and `envelope-schema`.
    severity: 'warning',
    checks: 'no HTTP 5xx: an unknown error is answered as a part with errorcode 99999 ("`99999` | any | Unknown error")',
    applies: (run) => run.exchange.status !== undefined,
    check: (run) => ((run.exchange.status ?? 0) >= 500 ? `HTTP ${run.exchange.status}` : undefined),
  },
  {
    name: 'same-format',
    rule: 'TRANSPORT-RESPONSE-BODY',
    severity: 'error',
    checks: 'the answer is an envelope in the format of the request (a JSON object, or an XML responseblock)',
    applies: (run) => !transportFailed(run.exchange),
    check: (run) => {
      const ex = run.exchange;
      if (ex.error) return ex.error;
      if (run.format === 'xml' && ex.xmlProblems && ex.xmlProblems.length > 0) return `the responseblock: ${ex.xmlProblems.slice(0, 3).join('; ')}`;
      return undefined;
    },
  },
  {
    name: 'envelope-schema',
    rule: 'TRANSPORT-RESPONSE-BODY',
    severity: 'error',
    checks: 'the envelope and every part pass the JSON Schemas generated from the field dictionary',
    applies: (run) => run.exchange.envelope !== undefined,
    check: (run) => {
      const vs = violationsOf(run).filter((v) => !PART_COUNT_RULES.has(v.rule));
      return vs.length > 0 ? first(vs) : undefined;
    },
    ruleOf: (run) =>
      firstRule(
        run,
        violationsOf(run).filter((v) => !PART_COUNT_RULES.has(v.rule)),
      ),
  },
  {
    name: 'one-part-per-type',
    rule: 'ENV-ORDER',
    severity: 'error',
    checks: 'one part per request type, in the order of requesttypedescriptions',
    applies: (run) => run.exchange.envelope !== undefined && run.expect.parts !== undefined,
    check: (run) => {
      const vs = violationsOf(run).filter((v) => PART_COUNT_RULES.has(v.rule));
      return vs.length > 0 ? first(vs) : undefined;
    },
    // A part short is ENV-RESPONSE-ONE-PART-PER-TYPE; a requested type at another place, ENV-ORDER.
    ruleOf: (run) =>
      firstRule(
        run,
        violationsOf(run).filter((v) => PART_COUNT_RULES.has(v.rule)),
      ),
  },
  {
    name: 'errorcode-errormessage',
    rule: 'ERR-PART-FIELDS',
    severity: 'error',
    checks: 'every part has errorcode (a string) and errormessage',
    applies: (run) => run.exchange.envelope !== undefined,
    check: (run) => {
      const env = run.exchange.envelope;
      if (!isObject(env) || !Array.isArray(env.response)) return 'the envelope has no response list';
      const list: unknown[] = env.response;
      let bad: string[] | undefined;
      for (let i = 0; i < list.length; i++) {
        const p = list[i];
        if (!isObject(p)) (bad ??= []).push(`part ${i + 1} is not an object`);
        else if (typeof p.errorcode !== 'string' || p.errormessage === undefined) (bad ??= []).push(`part ${i + 1} lacks ${typeof p.errorcode !== 'string' ? 'a string errorcode' : 'errormessage'}`);
      }
      return bad ? bad.join('; ') : undefined;
    },
  },
  {
    name: 'valid-not-refused',
    rule: 'ERR-30000',
    severity: 'error',
    checks: 'a valid request is not refused for an invalid field (no part answers 30000 "Invalid field")',
    applies: (run) => run.expect.expectation.kind === 'valid' && run.exchange.envelope !== undefined,
    check: (run) => {
      if (!someCode(run.exchange.envelope, '30000')) return undefined;
      const refused = partsOf(run.exchange.envelope).filter((p) => p.errorcode === '30000');
      const named = refused.flatMap((p) => (Array.isArray(p.errordata) ? p.errordata.map(String) : []));
      return `the request is valid, but ${describeParts(refused)} ("Invalid field"${named.length ? `, errordata ${named.join(', ')}` : ''})`;
    },
  },
  {
    name: 'invalid-refused',
    rule: 'ERR-30000',
    severity: 'error',
    checks: 'a request with an invalid field is refused: no part answers errorcode 0',
    applies: (run) => run.expect.expectation.kind === 'invalid' && run.exchange.envelope !== undefined,
    check: (run) => {
      const e = run.expect.expectation;
      if (e.kind !== 'invalid' || !someCode(run.exchange.envelope, '0')) return undefined;
      const accepted = partsOf(run.exchange.envelope).filter((p) => p.errorcode === '0');
      return `${e.fields.join(', ')} is invalid (${e.why}; ${e.rule}), but ${describeParts(accepted)}`;
    },
  },
  {
    name: 'unknown-type-refused',
    rule: 'ENV-TYPES-NAMED',
    severity: 'error',
    checks: 'request types the document does not name, or SUBSCRIPTION without AUTH first, are refused: no part answers 0',
    applies: (run) => run.expect.expectation.kind === 'refused' && run.exchange.envelope !== undefined,
    check: (run) => {
      const e = run.expect.expectation;
      if (e.kind !== 'refused' || !someCode(run.exchange.envelope, '0')) return undefined;
      const accepted = partsOf(run.exchange.envelope).filter((p) => p.errorcode === '0');
      return `${e.why} (${e.rule}), but ${describeParts(accepted)}`;
    },
  },
  {
    name: 'invalid-field-named',
    rule: 'ERR-30000',
    severity: 'warning',
    checks: 'where a refusal carries errordata (public-facts.md), it names the invalid field',
    applies: (run) => (run.expect.expectation.kind === 'invalid' || run.expect.expectation.kind === 'refused') && run.exchange.envelope !== undefined,
    check: (run) => {
      const e = run.expect.expectation;
      if (e.kind !== 'invalid' && e.kind !== 'refused') return undefined;
      const wrong = partsOf(run.exchange.envelope).filter((p) => p.errorcode !== '0' && Array.isArray(p.errordata) && p.errordata.length > 0 && !p.errordata.some((d) => e.fields.includes(String(d))));
      if (wrong.length === 0) return undefined;
      return `${e.fields.join(' or ')} is at fault, but errordata names ${wrong.map((p) => (p.errordata as unknown[]).map(String).join(', ')).join('; ')}`;
    },
  },
  {
    name: 'refusal-stores-nothing',
    rule: 'ERR-NONZERO-FAILED',
    severity: 'error',
    checks: 'a refused request creates no transaction (its reference, if any, is not in the ledger; needs the ledger capability)',
    applies: (run) =>
      (run.expect.expectation.kind === 'invalid' || run.expect.expectation.kind === 'refused') && partsOf(run.exchange.envelope).some((p) => typeof p.transactionreference === 'string'),
    check: async (run, ctx) => {
      if (!ctx.control) return undefined;
      for (const p of partsOf(run.exchange.envelope)) {
        const ref = p.transactionreference;
        if (typeof ref !== 'string' || ref === '') continue;
        try {
          await ctx.control.transaction(ref);
          return `the request should have been refused, yet transaction ${ref} (${String(p.requesttypedescription)}, errorcode ${String(p.errorcode)}) is in the ledger`;
        } catch {
          // Not found (or not readable): nothing stored that the kit can see.
        }
      }
      return undefined;
    },
  },
  {
    name: 'echoed',
    rule: 'FIELD-ECHO',
    severity: 'error',
    checks:
      'a successful part gives back `baseamount`, `currencyiso3a`, `orderreference`, `accounttypedescription`, `credentialsonfile` as the request sent them where it carries them, and carries them where its type gives them back ("Echoed from the request"; `echoViolations`, the field dictionary\'s `ECHOES`)',
    // The scenarios check echoes with the suite's own values; the fuzzer's values reach every length and symbol the
    // dictionary allows, where a target that cuts, trims or re-encodes a value shows it.
    applies: (run) => run.exchange.envelope !== undefined,
    check: (run) => {
      const found = invariant('echoed').find(answerOf(run));
      return found.length > 0 ? found.map((f) => f.expected).join('; ') : undefined;
    },
  },
  {
    name: 'no-full-pan',
    rule: 'FIELD-MASKEDPAN',
    severity: 'error',
    checks: 'no answer carries a full card number ("Responses return a masked form in `maskedpan`")',
    applies: (run) => run.exchange.envelope !== undefined,
    check: (run, ctx) => {
      // The request's own card, beside the profile's; a field giving back the merchant's own text is not a leak.
      const sent = run.case.request.pan;
      const pans = typeof sent === 'string' && !ctx.pans.includes(sent) && /^[0-9]{12,19}$/.test(sent) ? [...ctx.pans, sent] : ctx.pans;
      const where = fullPanPlaces(run.exchange.envelope, run.case.request, pans);
      return where ? `a full card number comes back${where.length ? ` in ${where.join(', ')}` : ''}` : undefined;
    },
  },
  {
    name: 'no-security-code',
    rule: 'STORE-NO-BANK',
    severity: 'error',
    checks: 'no answer carries a security code ("The security code is never stored")',
    applies: (run) => run.exchange.envelope !== undefined,
    check: (run) => {
      const found = securityCodePaths(run.exchange.envelope);
      return found.length > 0 ? `a security code comes back at ${found.join(', ')}` : undefined;
    },
  },
];

export { holdsAny } from '../rules/answers';

/** The built-in oracles whose check may answer with a promise (they ask the target): the ledger one. */
export const ASKING_ORACLES: ReadonlySet<string> = new Set(['refusal-stores-nothing']);

/**
 * Whether an asking oracle may apply to an answer: only where a part names a transaction (a necessary condition of
 * their `applies`, told without building a case's expectation; most refusals name none).
 */
export function mayAsk(env: ResponseEnvelope | undefined): boolean {
  if (!isObject(env) || !Array.isArray(env.response)) return false;
  const list: unknown[] = env.response;
  for (let i = 0; i < list.length; i++) {
    const p = list[i];
    if (isObject(p) && typeof p.transactionreference === 'string') return true;
  }
  return false;
}

export const ORACLE: Readonly<Record<string, Oracle>> = Object.fromEntries(ORACLES.map((o) => [o.name, o]));

/** Every applicable oracle's verdict on one run. */
export async function judge(run: CaseRun, ctx: OracleContext, oracles: readonly Oracle[] = ORACLES): Promise<{ oracle: Oracle; failure?: string }[]> {
  const out: { oracle: Oracle; failure?: string }[] = [];
  for (const oracle of oracles) {
    if (!oracle.applies(run)) continue;
    const verdict = oracle.check(run, ctx);
    // Most checks are synchronous: awaiting only the ones that are not saves a turn of the event loop per oracle.
    out.push({ oracle, failure: typeof verdict === 'object' ? await verdict : verdict });
  }
  return out;
}
