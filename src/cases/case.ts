/**
 * Client conformance cases: the other direction, as Autobahn's fuzzing server does for WebSocket clients. Each case
 * puts the stand-in gateway in a state where the next call gets one documented answer, gives the client's adapter
 * the request to send, and then checks that what the client reported is what the gateway answered. The catalogue
 * (catalogue.ts) is generated from the Errors table, the Request types table and the 3-D Secure state table;
 * this module holds what a case is and how a report is compared. The adapter protocol is in docs/contract.md.
 *
 * What the protocol can observe is what the adapter reports back: the parts (always), the envelope (when the SDK
 * gives it and the adapter reports it) and `errormessage` (only when the adapter declares that it passes the raw
 * text: an SDK may translate messages, and passing the text through is not a rule of the document). A case names
 * only rules it can observe that way.
 */
import { FIELD, type RequestType } from '../../schemas/fields';
import type { GatewayMutation } from '../gateway';
import type { RequestObject, ResponsePart } from '../wire/types';
import type { Severity } from '../contract/checks';
import type { CaseContext } from './steps';

export type { CaseContext } from './steps';

/** The groups of the catalogue, in the order the report lists them. */
export const CASE_GROUPS = ['3-D Secure', 'Errors', 'Request types', 'Answers', 'Unknown', 'Boundaries', 'Account'] as const;
export type CaseGroup = (typeof CASE_GROUPS)[number];

export interface ClientCase {
  readonly id: string;
  readonly title: string;
  readonly group: CaseGroup;
  /** The rules of features/rules.yaml the client is held to: only rules the protocol can observe. */
  readonly rules: readonly string[];
  /** `warning` where the case rests on what the document does not show: it fails the gate only with `--strict`. */
  readonly severity: Severity;
  /** The row of the Request types table the adapter's request is. */
  readonly row: string;
  /** The request types of the parts answered, in order (the row's, or one `ERROR`-free part per type). */
  readonly parts: readonly RequestType[];
  /** The `errorcode` the gateway answers each part with: the answer this case is about. */
  readonly expect: readonly string[];
  /** Fields of each part compared, besides those of every case (ALWAYS_COMPARED). A field a part lacks is skipped. */
  readonly compare: readonly string[];
  /** Envelope fields compared when the adapter reports `envelope`, besides ENVELOPE_COMPARED. */
  readonly envelope?: readonly string[];
  /**
   * Set when what the case is about shows only in the envelope (`secrand`, unknown envelope fields): without a
   * reported envelope it can only show that the client did not fail, and its outcome is `informational`.
   */
  readonly observedIn?: 'envelope';
  /** A state of the 3-D Secure table this case puts the client in (`enrolled Y`, `status N`). */
  readonly states?: readonly string[];
  /** The account the adapter is given: the first of the configuration, or one whose alias is not its user name. */
  readonly account?: 'aliased';
  /** Runs the earlier steps in-process and gives the request object the adapter is to send. */
  prepare(ctx: CaseContext): RequestObject;
  /** How the gateway's answer to that call is changed, where no test card can give it. */
  readonly mutation?: GatewayMutation;
}

/** Fields every part is compared on. `errormessage` only with `rawerrormessage` (see ClientReport). */
export const ALWAYS_COMPARED = ['requesttypedescription', 'errorcode', 'transactionreference'] as const;
/** Envelope fields every case compares, when the adapter reports the envelope. */
export const ENVELOPE_COMPARED = ['requestreference', 'version', 'secrand'] as const;

/** What the adapter printed, read: the protocol's answer line. */
export interface ClientReport {
  readonly parts?: readonly unknown[];
  readonly envelope?: Readonly<Record<string, unknown>>;
  /** The SDK raised (or gave an error of its own instead of the gateway's parts). */
  readonly error?: string;
  /** The adapter declares that `errormessage` is the gateway's text as received (not translated, not rewritten). */
  readonly rawErrorMessage: boolean;
}

/** The fields compared in each part of a case, in order, for the adapter's input and the report. */
export function comparedFields(kase: ClientCase, rawErrorMessage = true): string[] {
  const base: string[] = [...ALWAYS_COMPARED];
  if (rawErrorMessage) base.splice(2, 0, 'errormessage');
  return [...new Set([...base, ...kase.compare])];
}

export const envelopeFields = (kase: ClientCase): string[] => [...new Set([...ENVELOPE_COMPARED, ...(kase.envelope ?? [])])];

/** Envelope fields an SDK may copy into each part it gives. */
const ENVELOPE_IN_PARTS: ReadonlySet<string> = new Set(ENVELOPE_COMPARED);

const isEmpty = (v: unknown): boolean => v === '' || v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);

/** Fields whose values are never written in a problem: references of the 3-D Secure exchange. */
const SECRET_KEYS = new Set(['md', 'pareq', 'pares']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep equality of JSON values: strings stay strings, lists keep their order, objects their keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return false;
}

const kindOf = (v: unknown): string => (Array.isArray(v) ? 'a list' : v === null ? 'null' : typeof v === 'object' ? 'an object' : typeof v);
const shown = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 120 ? `${text.slice(0, 100)}... (${text.length} characters)` : text;
};

function differs(where: string, key: string, want: unknown, have: unknown): string {
  if (SECRET_KEYS.has(key)) {
    const len = (v: unknown): string => (typeof v === 'string' ? `${v.length} characters` : kindOf(v));
    const answered = typeof want === 'string' ? `${want.length} answered` : `${kindOf(want)} answered`;
    return `${where}: ${key} was reported changed (${len(have)}; ${answered}): it must be kept in full, unmodified`;
  }
  if (typeof want === 'string' && typeof have === 'string' && want.length > 120) {
    return `${where}: ${key} was reported changed (${have.length} characters; ${want.length} answered)`;
  }
  return `${where}: ${key} was reported as ${shown(have)}; the gateway answered ${shown(want)}`;
}

/** What the client reported wrong, comparing its parts with the parts the gateway answered. */
export function compareParts(kase: ClientCase, answered: readonly ResponsePart[], reported: readonly unknown[], rawErrorMessage = true): string[] {
  const problems: string[] = [];
  const fields = comparedFields(kase, rawErrorMessage);
  if (reported.length !== answered.length) problems.push(`the client reported ${reported.length} part(s); the gateway answered ${answered.length}`);
  answered.forEach((part, i) => {
    const got = reported[i];
    const where = `part ${i + 1} (${String(part.requesttypedescription)})`;
    if (!isObject(got)) {
      if (i < reported.length) problems.push(`part ${i + 1} was reported as ${kindOf(got)}, not an object`);
      return;
    }
    if (got.requesttypedescription === 'ERROR' && part.requesttypedescription !== 'ERROR') {
      problems.push(
        `${where}: the client reported an ERROR part of its own (${shown(got.errormessage)}), not the gateway's: the SDK failed locally. ` +
          'An adapter reports such a failure as {"error": "..."} (docs/contract.md, "SDK errors")',
      );
      return;
    }
    for (const key of fields) {
      const want = part[key];
      if (want === undefined) continue;
      const have = got[key];
      if (sameJson(want, have)) continue;
      problems.push(have === undefined ? `${where}: ${key} was not reported` : differs(where, key, want, have));
    }
    // Any other field the client reported is reported "as the SDK gives it" (the adapter protocol): one the gateway
    // answered with another value is misreported (a settleduedate turned into another format, a security check
    // digit into a boolean), whatever the case is about. A field not reported is not missed; `errormessage` is
    // compared only when declared raw.
    const listed = new Set(fields);
    for (const key of Object.keys(got)) {
      if (listed.has(key) || (key === 'errormessage' && !rawErrorMessage)) continue;
      const want = part[key];
      if (want === undefined) {
        // A response field of the tables the gateway did not answer, reported with a value: the SDK made it up (an
        // `enrolled` of "N" on an AUTH that carried none). An empty default ("", null, [], {}) says nothing, and the
        // envelope's fields copied into a part are the SDK's habit.
        if (FIELD[key]?.response !== undefined && !ENVELOPE_IN_PARTS.has(key) && !isEmpty(got[key])) {
          problems.push(`${where}: ${key} was reported as ${SECRET_KEYS.has(key) ? 'a value' : shown(got[key])}; the gateway answered no ${key}`);
        }
        continue;
      }
      if (sameJson(want, got[key])) continue;
      problems.push(differs(where, key, want, got[key]));
    }
  });
  return problems;
}

/** The envelope fields compared: differences are problems, fields the SDK does not give are only noted. */
export function compareEnvelope(
  kase: ClientCase,
  answered: Readonly<Record<string, unknown>>,
  reported: Readonly<Record<string, unknown>>,
): { problems: string[]; compared: string[]; notGiven: string[] } {
  const problems: string[] = [];
  const compared: string[] = [];
  const notGiven: string[] = [];
  for (const key of envelopeFields(kase)) {
    const want = answered[key];
    if (want === undefined) continue;
    const have = reported[key];
    if (have === undefined) {
      notGiven.push(key);
      continue;
    }
    compared.push(key);
    if (!sameJson(want, have)) problems.push(differs('envelope', key, want, have));
  }
  return { problems, compared, notGiven };
}
