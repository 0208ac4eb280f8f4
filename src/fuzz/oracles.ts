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
import { FIELD } from '../../schemas/fields';
import { echoViolations, validateResponseEnvelope, type Violation } from '../validate';
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
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parts of an answer that is an envelope; `[]` otherwise. */
export function partsOf(env: ResponseEnvelope | undefined): ResponsePart[] {
  return isObject(env) && Array.isArray(env.response) ? (env.response as unknown[]).filter(isObject) : [];
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
  const violations = run.exchange.envelope ? validateResponseEnvelope(run.exchange.envelope, run.expect.parts, run.format).filter((x) => x.severity === 'error') : [];
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
      const bad = (env.response as unknown[]).flatMap((p, i) =>
        !isObject(p)
          ? [`part ${i + 1} is not an object`]
          : typeof p.errorcode !== 'string' || p.errormessage === undefined
            ? [`part ${i + 1} lacks ${typeof p.errorcode !== 'string' ? 'a string errorcode' : 'errormessage'}`]
            : [],
      );
      return bad.length > 0 ? bad.join('; ') : undefined;
    },
  },
  {
    name: 'valid-not-refused',
    rule: 'ERR-30000',
    severity: 'error',
    checks: 'a valid request is not refused for an invalid field (no part answers 30000 "Invalid field")',
    applies: (run) => run.expect.expectation.kind === 'valid' && run.exchange.envelope !== undefined,
    check: (run) => {
      const refused = partsOf(run.exchange.envelope).filter((p) => p.errorcode === '30000');
      if (refused.length === 0) return undefined;
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
      const accepted = partsOf(run.exchange.envelope).filter((p) => p.errorcode === '0');
      if (accepted.length === 0 || e.kind !== 'invalid') return undefined;
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
      const accepted = partsOf(run.exchange.envelope).filter((p) => p.errorcode === '0');
      if (accepted.length === 0 || e.kind !== 'refused') return undefined;
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
      'a successful part gives back `baseamount`, `currencyiso3a`, `orderreference`, `accounttypedescription`, `credentialsonfile` as the request sent them, where it carries them ("Echoed from the request"; `echoViolations`)',
    // The scenarios check echoes with the suite's own values; the fuzzer's values reach every length and symbol the
    // dictionary allows, where a target that cuts, trims or re-encodes a value shows it.
    applies: (run) => run.exchange.envelope !== undefined,
    check: (run) => {
      const found = echoViolations(run.sent ?? run.case.request, run.exchange.envelope);
      return found.length > 0 ? found.map((v) => v.message).join('; ') : undefined;
    },
  },
  {
    name: 'no-full-pan',
    rule: 'FIELD-MASKEDPAN',
    severity: 'error',
    checks: 'no answer carries a full card number ("Responses return a masked form in `maskedpan`")',
    applies: (run) => run.exchange.envelope !== undefined,
    check: (run, ctx) => {
      const env = run.exchange.envelope;
      const sent = run.case.request.pan;
      const pans = typeof sent === 'string' && /^[0-9]{12,19}$/.test(sent) ? [...ctx.pans, sent] : ctx.pans;
      // Most answers hold none: decided by a walk, and the answer written out as text only when one is there.
      if (!holdsAny(env, pans)) return undefined;
      const text = JSON.stringify(env);
      const found = [...new Set(pans.filter((p) => text.includes(p)))];
      if (found.length === 0) return undefined;
      // A part that gives back, unchanged, what the merchant sent in a field of its own (an `orderreference` whose
      // digits happen to hold a test card number) returns the merchant's text, not the card: only the rest counts.
      const request = run.case.request;
      // Its start counts too: a target that cuts the reference short fails `echoed`, not this oracle.
      const echo = (k: string, v: unknown): boolean => {
        const mine = request[k];
        if (mine === undefined || FIELD[k]?.sensitive !== undefined) return false;
        return typeof mine === 'string' && typeof v === 'string' ? mine.startsWith(v) : JSON.stringify(mine) === JSON.stringify(v);
      };
      const parts = partsOf(env);
      const rest = JSON.stringify({ ...env, response: parts.map((part) => Object.fromEntries(Object.entries(part).filter(([k, v]) => !echo(k, v)))) });
      const leaked = found.filter((p) => rest.includes(p));
      if (leaked.length === 0) return undefined;
      const where = parts.flatMap((part, i) =>
        Object.entries(part)
          .filter(([k, v]) => !echo(k, v) && leaked.some((p) => JSON.stringify(v).includes(p)))
          .map(([k]) => `part ${i + 1} ${k}`),
      );
      return `a full card number comes back${where.length ? ` in ${where.join(', ')}` : ''}`;
    },
  },
  {
    name: 'no-security-code',
    rule: 'STORE-NO-BANK',
    severity: 'error',
    checks: 'no answer carries a security code ("The security code is never stored")',
    applies: (run) => run.exchange.envelope !== undefined,
    check: (run) => {
      const found: string[] = [];
      securityCodes(run.exchange.envelope, '', found);
      return found.length > 0 ? `a security code comes back at ${found.join(', ')}` : undefined;
    },
  },
];

/** The paths of non-empty `securitycode` values (any case, also as the last step of an XML-style `a/b` key). */
function securityCodes(v: unknown, path: string, found: string[]): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' && v[i] !== null) securityCodes(v[i], `${path}[${i}]`, found);
    return;
  }
  if (!isObject(v)) return;
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const x = v[k];
    // Paths are spelled only on a hit: the walk runs on every answer of a fuzz run.
    if (k.length >= 12 && isSecurityCodeKey(k) && x !== '' && x !== undefined) found.push(`${path}${path ? '.' : ''}${k}`);
    if (typeof x === 'object' && x !== null) securityCodes(x, `${path}${path ? '.' : ''}${k}`, found);
  }
}

/**
 * Whether a key or a value anywhere in `v` holds one of `pans`: what `JSON.stringify(v).includes(pan)` says (a
 * number is written as `String` writes it, and no separator of JSON is a digit), without writing the text.
 */
export function holdsAny(v: unknown, pans: readonly string[]): boolean {
  if (typeof v === 'string') return textHolds(v, pans);
  if (typeof v === 'number') return textHolds(String(v), pans);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (holdsAny(v[i], pans)) return true;
    return false;
  }
  if (!isObject(v)) return false;
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    if (textHolds(k, pans) || holdsAny(v[k], pans)) return true;
  }
  return false;
}

function textHolds(text: string, pans: readonly string[]): boolean {
  // Card numbers have 12 digits or more: most keys and values are shorter.
  if (text.length < 12) return false;
  for (let i = 0; i < pans.length; i++) if (text.includes(pans[i])) return true;
  return false;
}

function isSecurityCodeKey(k: string): boolean {
  const slash = k.lastIndexOf('/');
  const leaf = slash < 0 ? k : k.slice(slash + 1);
  return leaf.length === 12 && leaf.toLowerCase() === 'securitycode';
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
