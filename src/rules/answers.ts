/**
 * The invariants of an answer: every property the document states of an answer wherever it applies (the schemas
 * generated from the field dictionary: presence per outcome, formats, value lists, lengths, codes; echoes; no full
 * card number; no security code), checked on every answer the kit sees, in-process, from this one registry. The
 * steps (steps/world.ts, every exchange of every scenario and boundary example) and the fuzz oracles
 * (src/fuzz/oracles.ts, every case and model step) read it, so that a rule is never asserted in one situation
 * only while the document states it for all of them.
 *
 * A finding names the rule it breaks (src/rules/attribution.ts: the field's rule, per field where the rule is per
 * field, whatever scenario carried the answer), in words that never quote a secret.
 */
import { redactText } from '../redact';
import { echoViolations, validateResponseEnvelope, type Violation } from '../validate';
import { checkFields, isMaskedForm } from '../../schemas/check';
import { FIELD } from '../../schemas/fields';
import { causeFindings, leafOf, rulesForViolation, type RuleIndex } from './attribution';

/** One answer as the invariants read it: what was asked, what came back. */
export interface Answer {
  /** The answer as the JSON form (an XML block mapped); undefined when none could be read. */
  readonly envelope: unknown;
  readonly format: 'json' | 'xml';
  /** The request types asked for, in order; undefined where the document fixes no parts (a refused call). */
  readonly requested?: readonly string[];
  /** The request object the target was sent (in XML, as the block carried it). */
  readonly request?: Readonly<Record<string, unknown>>;
  /** Problems of the XML block's structure (src/wire/xml.ts). */
  readonly xmlProblems?: readonly string[];
  /** Card numbers that must never come back in full (the profile's test cards); the request's own pan is added. */
  readonly pans?: readonly string[];
  /** The scenario's `@rule` tags, where a scenario carried the answer: they speak for a row's part. */
  readonly tags?: readonly string[];
}

/** What one invariant found wrong, by the rule it breaks. */
export interface AnswerFinding {
  readonly rule: string;
  /** The invariant that found it. */
  readonly invariant: string;
  /** The field's name (`maskedpan`), when the finding is about one. */
  readonly field?: string;
  /** One line: where, which check, what the document says; masked. */
  readonly line: string;
  /** What the document expects; masked. */
  readonly expected: string;
  /** The value seen, masked and short. */
  readonly seen?: string;
  /** The request type of the part the field sat in. */
  readonly part?: string;
  /** The part's place in the answer's list (`response[1]`: 1), when the finding is about one part. */
  readonly partIndex?: number;
}

export interface AnswerInvariant {
  readonly name: string;
  /**
   * A check whose failure is often the consequence of a fault a scenario's step checks more precisely (an
   * over-long amount taken and cut, then echoed cut: LIMIT-BASEAMOUNT; a query's records unmasked:
   * STORE-QUERY-MASKED): the steps tell it at the scenario's end, and only when the scenario's own checks held, so
   * that one fault is one cause on the rule the scenario checks.
   */
  readonly deferred?: boolean;
  /** The rule it checks when a finding names no other (the fuzz oracles' column). */
  readonly rule: string;
  /** One line: what it checks. */
  readonly checks: string;
  /**
   * The parts it looks at, when not every part: where a check that held was made (src/rules/scope.ts contexts). The
   * answer too, for a check that applies only to what the request sent.
   */
  readonly looksAt?: (part: Readonly<Record<string, unknown>>, answer: Answer) => boolean;
  /**
   * The other rules an answer it found nothing on shows held, each with the parts (by index) it looked at in them
   * (absent: every part): what the check covers, so that the contexts of those rules count it too.
   */
  readonly alsoHolds?: (answer: Answer) => readonly { readonly rule: string; readonly parts?: readonly number[] }[];
  find(answer: Answer, index?: RuleIndex): AnswerFinding[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parts of an answer that is an envelope. */
function partList(envelope: unknown): unknown[] {
  return isRecord(envelope) && Array.isArray(envelope.response) ? envelope.response : [];
}

/** A value as a short masked text, for findings and messages. */
export const shortValue = (v: unknown): string | undefined => {
  if (v === undefined) return undefined;
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return redactText(s.length > 120 ? `${s.slice(0, 117)}...` : s);
};

/** The value at a finding's path in an answer (`response[1].maskedpan`), masked and short. */
export function valueAt(envelope: unknown, field: string): string | undefined {
  let v: unknown = envelope;
  for (const seg of field.split(/[.[\]]/).filter((s) => s !== '')) {
    if (Array.isArray(v) && /^\d+$/.test(seg)) v = v[Number(seg)];
    else if (isRecord(v)) v = v[seg];
    else return undefined;
  }
  return shortValue(v);
}

/** The request type of the part a path sits in (`response[1].maskedpan`: the second part's type, else the one asked for). */
export function partTypeAt(envelope: unknown, field: string, requested: readonly string[]): string | undefined {
  const m = /^response\[(\d+)\]/.exec(field);
  if (!m) return undefined;
  const part = partList(envelope)[Number(m[1])];
  return isRecord(part) && typeof part.requesttypedescription === 'string' ? part.requesttypedescription : requested[Number(m[1])];
}

/** The request type asked for at a path's part. */
function requestedTypeAt(field: string, requested: readonly string[]): string | undefined {
  const m = /^response\[(\d+)\]/.exec(field);
  return m ? requested[Number(m[1])] : undefined;
}

/** A finding's line: `response[0].maskedpan [pattern] (section): message`. */
export function describeViolation(v: Violation): string {
  return `${v.field || '(envelope)'} [${v.rule}] (${v.section}): ${v.message}`;
}

/** A violation of an answer as findings, one per rule it breaks (the fuzz oracles name their failures with it). */
export function fromViolation(invariant: string, v: Violation, a: Answer, index: RuleIndex | undefined): AnswerFinding[] {
  const requested = a.requested ?? [];
  const part = partTypeAt(a.envelope, v.field, requested);
  const answeredTypes = partList(a.envelope).map((p) => (isRecord(p) && typeof p.requesttypedescription === 'string' ? p.requesttypedescription : undefined));
  const ctx = {
    partType: part,
    requestedType: requestedTypeAt(v.field, requested),
    requestedTypes: a.requested,
    answeredTypes,
    tags: a.tags ?? [],
    value: valueAt(a.envelope, v.field),
    format: a.format,
  };
  return rulesForViolation(v, index, ctx).map((rule) => ({
    rule: a.format === 'xml' && rule === 'VER-JSON' ? 'VER-XML' : rule,
    invariant,
    ...(leafOf(v.field) ? { field: leafOf(v.field) } : {}),
    line: redactText(describeViolation(v)),
    expected: redactText(v.message),
    ...(valueAt(a.envelope, v.field) !== undefined ? { seen: valueAt(a.envelope, v.field) } : {}),
    ...(part ? { part } : {}),
  }));
}

/** XML structure problems, named by the rule they break. */
export function xmlProblemRule(problem: string): string {
  if (/version/i.test(problem)) return 'VER-XML';
  if (/type attribute/i.test(problem)) return 'XML-FRAUDCONTROL-PATHS';
  return 'XML-RESPONSE-ROOT';
}

/** The schema findings of an answer that are causes, and its warnings (public facts: never a failure). */
export function schemaOf(a: Answer): { errors: Violation[]; warnings: Violation[] } {
  if (a.envelope === undefined) return { errors: [], warnings: [] };
  const all = validateResponseEnvelope(a.envelope, a.requested, a.format);
  return { errors: causeFindings(all.filter((v) => v.severity === 'error')), warnings: all.filter((v) => v.severity === 'warning') };
}

/** The request's own card number, where it sent one, beside the known ones. */
function pansOf(a: Answer): readonly string[] {
  const sent = a.request?.pan;
  const known = a.pans ?? [];
  return typeof sent === 'string' && /^[0-9]{12,19}$/.test(sent) && !known.includes(sent) ? [...known, sent] : known;
}

/**
 * Where a full card number comes back in an answer (`part 1 maskedpan`), leaving out a field that gives back,
 * unchanged or cut, what the merchant sent in a field of its own (an `orderreference` whose digits hold a test card
 * number is the merchant's text, not the card; cutting it is `echoed`'s fault).
 */
export function fullPanPlaces(envelope: unknown, request: Readonly<Record<string, unknown>> | undefined, pans: readonly string[]): string[] | undefined {
  // Most answers hold none: decided by a walk, and the answer written out as text only when one is there.
  if (pans.length === 0 || !holdsAny(envelope, pans)) return undefined;
  const echo = (k: string, v: unknown): boolean => {
    const mine = request?.[k];
    if (mine === undefined || FIELD[k]?.sensitive !== undefined) return false;
    return typeof mine === 'string' && typeof v === 'string' ? mine.startsWith(v) : JSON.stringify(mine) === JSON.stringify(v);
  };
  const parts = partList(envelope).filter(isRecord);
  const rest = JSON.stringify({ ...(isRecord(envelope) ? envelope : {}), response: parts.map((part) => Object.fromEntries(Object.entries(part).filter(([k, v]) => !echo(k, v)))) });
  const leaked = pans.filter((p) => rest.includes(p));
  if (leaked.length === 0) return undefined;
  return parts.flatMap((part, i) =>
    Object.entries(part)
      .filter(([k, v]) => !echo(k, v) && leaked.some((p) => JSON.stringify(v).includes(p)))
      .map(([k]) => `part ${i + 1} ${k}`),
  );
}

/** The paths of non-empty `securitycode` values (any case, also as the last step of an XML-style `a/b` key). */
export function securityCodePaths(v: unknown, path = '', found: string[] = []): string[] {
  // Most answers hold none: told by a walk that spells no path (every answer of a run and of the proxy comes here).
  return holdsSecurityCode(v) ? securityCodePathsOf(v, path, found) : found;
}

/** Whether `securityCodePaths` finds a path in `v`: the same walk, without spelling the paths. */
function holdsSecurityCode(v: unknown): boolean {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' && v[i] !== null && holdsSecurityCode(v[i])) return true;
    return false;
  }
  if (!isRecord(v)) return false;
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const x = v[k];
    if (k.length >= 12 && isSecurityCodeKey(k) && x !== '' && x !== undefined) return true;
    if (typeof x === 'object' && x !== null && holdsSecurityCode(x)) return true;
  }
  return false;
}

function securityCodePathsOf(v: unknown, path: string, found: string[]): string[] {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' && v[i] !== null) securityCodePathsOf(v[i], `${path}[${i}]`, found);
    return found;
  }
  if (!isRecord(v)) return found;
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const x = v[k];
    // Paths are spelled only on a hit: the walk runs on every answer of a fuzz run.
    if (k.length >= 12 && isSecurityCodeKey(k) && x !== '' && x !== undefined) found.push(`${path}${path ? '.' : ''}${k}`);
    if (typeof x === 'object' && x !== null) securityCodePathsOf(x, `${path}${path ? '.' : ''}${k}`, found);
  }
  return found;
}

function isSecurityCodeKey(k: string): boolean {
  // The leaf (after the last `/`) is twelve characters: the whole key, or its last twelve after a `/`. Told by the
  // key's length and one character first: every key of every answer comes here, and few are such a leaf.
  const n = k.length;
  if (n !== 12 && (n < 13 || k.charCodeAt(n - 13) !== 47)) return false;
  const leaf = n === 12 ? k : k.slice(n - 12);
  return leaf.indexOf('/') < 0 && leaf.toLowerCase() === 'securitycode';
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
  if (!isRecord(v)) return false;
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

/** A successful RISKDEC part that gave CHALLENGE or DENY. */
const isSuspicious = (part: Readonly<Record<string, unknown>>): boolean =>
  part.requesttypedescription === 'RISKDEC' && part.errorcode === '0' && (part.fraudcontrolshieldstatuscode === 'CHALLENGE' || part.fraudcontrolshieldstatuscode === 'DENY');

export const ANSWER_INVARIANTS: readonly AnswerInvariant[] = [
  {
    name: 'schema',
    rule: 'TRANSPORT-RESPONSE-BODY',
    // The generated schemas require these of every envelope and part (schemas/build.ts), and the formats where given.
    alsoHolds: (a) => {
      if (!isRecord(a.envelope)) return [];
      const parts = partList(a.envelope);
      const carrying = (field: string): number[] => parts.flatMap((p, i) => (isRecord(p) && p[field] !== undefined ? [i] : []));
      return [
        { rule: 'ENV-REQUESTREFERENCE' },
        { rule: 'ENV-SECRAND' },
        { rule: a.format === 'xml' ? 'VER-XML' : 'VER-JSON' },
        ...(a.format === 'xml' ? [{ rule: 'XML-RESPONSE-ROOT' }] : []),
        ...(a.requested ? [{ rule: 'ENV-RESPONSE-ONE-PART-PER-TYPE' }] : []),
        { rule: 'ERR-PART-FIELDS' },
        { rule: 'FIELD-TIMESTAMP', parts: carrying('transactionstartedtimestamp') },
        { rule: 'FIELD-SETTLEDUEDATE', parts: carrying('settleduedate') },
      ];
    },
    checks: 'the envelope and every part against the schemas generated from the field dictionary, with one part per requested type in order; each finding on the rule of its field',
    find: (a, index) => [
      ...schemaOf(a).errors.flatMap((v) => fromViolation('schema', v, a, index)),
      ...(a.xmlProblems ?? []).map((p) => ({ rule: xmlProblemRule(p), invariant: 'schema', line: redactText(`XML block [${xmlProblemRule(p)}]: ${p}`), expected: redactText(p) })),
    ],
  },
  {
    name: 'echoed',
    deferred: true,
    looksAt: (part) => part.errorcode === '0',
    rule: 'FIELD-ECHO',
    checks:
      'a successful part gives back `baseamount`, `currencyiso3a`, `orderreference`, `accounttypedescription`, `credentialsonfile` as the request sent them where it carries them, and carries them where its type gives them back (the field dictionary\'s `ECHOES`: "Echoed from the request")',
    find: (a, index) => (a.request && a.envelope !== undefined ? echoViolations(a.request, a.envelope, a.format).flatMap((v) => fromViolation('echoed', v, a, index)) : []),
  },
  {
    name: 'no-full-pan',
    deferred: true,
    rule: 'FIELD-MASKEDPAN',
    checks: 'no answer carries a full card number ("Responses return a masked form in `maskedpan`")',
    find: (a) => {
      const where = fullPanPlaces(a.envelope, a.request, pansOf(a));
      if (!where) return [];
      return [
        {
          rule: 'FIELD-MASKEDPAN',
          invariant: 'no-full-pan',
          field: where[0]?.split(' ').pop() ?? 'maskedpan',
          line: `a full card number comes back${where.length ? ` in ${where.join(', ')}` : ''} ("Responses return a masked form in \`maskedpan\`")`,
          expected: 'the card number masked, never in full',
        },
      ];
    },
  },
  {
    name: 'no-security-code',
    deferred: true,
    rule: 'STORE-NO-BANK',
    checks: 'no answer carries a security code ("The security code is never stored")',
    find: (a) => {
      const found = securityCodePaths(a.envelope);
      return found.length === 0
        ? []
        : [{ rule: 'STORE-NO-BANK', invariant: 'no-security-code', field: 'securitycode', line: `a security code comes back at ${found.join(', ')}`, expected: 'no security code in any answer' }];
    },
  },
  {
    name: 'subscription-number',
    rule: 'SUB-NUMBER-RESUME',
    checks: 'the parts of a resumed subscription (subscriptionnumber sent above 1) never number it below the number sent ("To resume a former subscription, send the next number")',
    // Checked only where it applies: a resume sent (a number above 1), a part that numbers the subscription.
    looksAt: (part, a) =>
      part.errorcode === '0' &&
      (part.requesttypedescription === 'SUBSCRIPTION' || part.requesttypedescription === 'AUTH') &&
      numberAbove1(a.request?.subscriptionnumber) &&
      typeof part.subscriptionnumber === 'string' &&
      /^\d+$/.test(part.subscriptionnumber),
    find: (a) => resumedNumberFindings(a),
  },
  // The invariants below hold a sentence wherever it applies; each is deferred, so that a scenario that checks the
  // same field more precisely (its own row's rule) names the fault first.
  {
    name: 'subscription-recur',
    deferred: true,
    rule: 'SUB-RECUR',
    checks:
      'a SUBSCRIPTION part that carries `accounttypedescription` carries `RECUR`, failed parts too, and so does a SUBSCRIPTION a TRANSACTIONQUERY reads back ("In a response, the SUBSCRIPTION part carries `RECUR`")',
    looksAt: (part) => (part.requesttypedescription === 'SUBSCRIPTION' && part.accounttypedescription !== undefined) || recordsOf(part).some(isSubscriptionWithAccountType),
    find: (a) =>
      partFindings(a, 'subscription-recur', 'SUB-RECUR', (part) => {
        const says = 'carries another account type than RECUR ("In a response, the SUBSCRIPTION part carries `RECUR`")';
        if (isSubscriptionWithAccountType(part) && part.accounttypedescription !== 'RECUR') return { field: 'accounttypedescription', says, expected: 'RECUR' };
        // A TRANSACTIONQUERY's records are the parts of the transactions it found, read back: a SUBSCRIPTION's too.
        const j = recordsOf(part).findIndex((r) => isSubscriptionWithAccountType(r) && r.accounttypedescription !== 'RECUR');
        return j < 0 ? undefined : { field: 'accounttypedescription', at: `records[${j}].accounttypedescription`, says: `(a SUBSCRIPTION read back) ${says}`, expected: 'RECUR' };
      }),
  },
  {
    name: 'authenticated-only',
    deferred: true,
    rule: '3DS-CAVV-ECI',
    checks: 'an AUTH part of a card not enrolled (N, U) or not authenticated (status N, U) carries no `cavv` and no `eci` ("Returned if enrolled and authenticated")',
    looksAt: (part) => part.requesttypedescription === 'AUTH' && notAuthenticated(part),
    find: (a) =>
      partFindings(a, 'authenticated-only', '3DS-CAVV-ECI', (part) => {
        if (part.requesttypedescription !== 'AUTH' || !notAuthenticated(part)) return undefined;
        const field = part.cavv !== undefined ? 'cavv' : part.eci !== undefined ? 'eci' : undefined;
        return field
          ? { field, says: `is returned though the card is ${isNotEnrolled(part.enrolled) ? 'not enrolled' : 'not authenticated'} ("Returned if enrolled and authenticated")`, expected: `no ${field}` }
          : undefined;
      }),
  },
  {
    name: 'authenticated-carries',
    deferred: true,
    rule: '3DS-CAVV-ECI',
    checks:
      'an AUTH part of an enrolled card the customer authenticated (`enrolled` Y, `status` Y) carries `cavv` and `eci`, a lone AUTH and the AUTH part of a subscription alike ("Returned if enrolled and authenticated")',
    looksAt: (part) => isAuthenticatedAuth(part),
    find: (a) => partFindings(a, 'authenticated-carries', '3DS-CAVV-ECI', authenticatedFault),
  },
  {
    name: 'enrolled-status',
    deferred: true,
    rule: '3DS-STATUS',
    checks: 'an AUTH part after 3-D Secure (`md` and `pares` sent) of an enrolled card (`enrolled` Y) carries `status` ("Returned if enrolled")',
    looksAt: (part, a) => part.requesttypedescription === 'AUTH' && part.enrolled === 'Y' && sentMdPares(a),
    find: (a) =>
      sentMdPares(a)
        ? partFindings(a, 'enrolled-status', '3DS-STATUS', (part) =>
            part.requesttypedescription === 'AUTH' && part.enrolled === 'Y' && part.status === undefined
              ? { field: 'status', says: 'is missing from the AUTH after 3-D Secure of an enrolled card ("`status` ... Returned if enrolled")', expected: 'a status (Y, N, A or U)' }
              : undefined,
          )
        : [],
  },
  {
    name: 'store-no-bank',
    deferred: true,
    rule: 'STORE-NO-BANK',
    checks: 'a STORE part carries no bank data: no `authcode`, no `acquirerresponsecode`, no security check matched or not matched ("The acquiring bank is not contacted")',
    looksAt: (part) => part.requesttypedescription === 'STORE',
    find: (a) =>
      partFindings(a, 'store-no-bank', 'STORE-NO-BANK', (part) => {
        if (part.requesttypedescription !== 'STORE') return undefined;
        const field = BANK_FIELDS.find((f) => part[f] !== undefined) ?? SECURITY_RESULTS.find((f) => part[f] === '2' || part[f] === '4');
        return field ? { field, says: 'is a result of the bank, which a STORE does not contact ("The acquiring bank is not contacted")', expected: `no ${field} from a bank` } : undefined;
      }),
  },
  {
    name: 'parent-echo',
    deferred: true,
    rule: 'INHERIT-PARENT-ECHO',
    checks: 'each successful part of a request sent with `parenttransactionreference` carries `parenttransactionreference` ("Present when the response part was based on an earlier request")',
    looksAt: (part, a) => part.errorcode === '0' && sentParent(a),
    find: (a) =>
      sentParent(a)
        ? partFindings(a, 'parent-echo', 'INHERIT-PARENT-ECHO', (part) =>
            part.errorcode === '0' && part.parenttransactionreference === undefined
              ? {
                  field: 'parenttransactionreference',
                  says: 'is missing from a part based on an earlier request ("Present when the response part was based on an earlier request")',
                  expected: "the parent's transactionreference",
                }
              : undefined,
          )
        : [],
  },
  {
    name: 'declined-by-bank',
    deferred: true,
    rule: 'AUTH-BANK-CONTACTED',
    checks: 'an AUTH or ACCOUNTCHECK part the bank declined (70000) carries `acquirerresponsecode` ("present when the bank was contacted")',
    looksAt: (part) => (part.requesttypedescription === 'AUTH' || part.requesttypedescription === 'ACCOUNTCHECK') && part.errorcode === '70000',
    find: (a) =>
      partFindings(a, 'declined-by-bank', 'AUTH-BANK-CONTACTED', (part) =>
        (part.requesttypedescription === 'AUTH' || part.requesttypedescription === 'ACCOUNTCHECK') && part.errorcode === '70000' && part.acquirerresponsecode === undefined
          ? { field: 'acquirerresponsecode', says: 'is missing though the bank declined (70000: "the bank declined"; "present when the bank was contacted")', expected: "the bank's response code" }
          : undefined,
      ),
  },
  {
    name: 'query-records',
    deferred: true,
    rule: 'FIELD-TYPES',
    checks:
      'every field of every record a TRANSACTIONQUERY returns has its type, length and format, as in a part (the records are response parts: "Types below follow the notation ..."; the timestamps\' formats)',
    looksAt: (part) => part.requesttypedescription === 'TRANSACTIONQUERY' && Array.isArray(part.records) && part.records.length > 0,
    find: (a, index) => recordViolations(a).flatMap((v) => fromViolation('query-records', v, a, index)),
  },
  {
    name: 'combined-parent',
    deferred: true,
    rule: 'RISKDEC-LAST',
    checks:
      'in RISKDEC+AUTH the AUTH part, and in AUTH+RISKDEC the RISKDEC part, carries the other part\'s `transactionreference` in `parenttransactionreference`, whatever the other part\'s outcome (the rows "Combined, risk decision first" and "Combined, risk decision last")',
    looksAt: (part, a) => combinedLater(a)?.part === part,
    find: (a) => {
      const c = combinedLater(a);
      if (!c || c.part.parenttransactionreference === c.parent) return [];
      return [
        {
          rule: c.rule,
          invariant: 'combined-parent',
          field: 'parenttransactionreference',
          part: String(c.part.requesttypedescription),
          partIndex: 1,
          line: redactText(
            `response[1].parenttransactionreference of the ${String(c.part.requesttypedescription)} part is not the ${String(c.first)}'s transactionreference (${c.rule === 'RISKDEC-LAST' ? '"the RISKDEC part carries the AUTH\'s reference in `parenttransactionreference`"' : '"the AUTH part\'s `parenttransactionreference` is the RISKDEC\'s `transactionreference`"'})`,
          ),
          expected: redactText(c.parent),
          ...(c.part.parenttransactionreference !== undefined ? { seen: shortValue(c.part.parenttransactionreference) } : {}),
        },
      ];
    },
  },
  {
    name: 'unauthenticated-not-contacted',
    deferred: true,
    rule: '3DS-60022-SETTLE',
    checks:
      'an AUTH part of errorcode 60022 (an AUTH after 3-D Secure, however its request came) carries `status` N and settlestatus 3 where it carries them, and carries both when the request sent `md` and `pares` ("`status` is `N` and settlestatus is `3`. The acquirer is not contacted.")',
    looksAt: (part) => part.requesttypedescription === 'AUTH' && part.errorcode === '60022',
    find: (a) =>
      partFindings(a, 'unauthenticated-not-contacted', '3DS-60022-SETTLE', (part) => {
        if (part.requesttypedescription !== 'AUTH' || part.errorcode !== '60022') return undefined;
        const quote = '("`status` is `N` and settlestatus is `3`. The acquirer is not contacted.")';
        if (part.settlestatus !== undefined && part.settlestatus !== '3') return { field: 'settlestatus', says: `is not 3 though the customer was not authenticated (60022) ${quote}`, expected: '3' };
        // The row is "AUTH after 3-D Secure, enrolled card": a request that sent `md` and `pares` is that row, so
        // its 60022 states both, a refusal of an `md` the target does not know too (the fifth blind round).
        // A `status` missing from an enrolled card's AUTH is `enrolled-status`'s (3DS-STATUS): one fault, one cause.
        const absent = sentMdPares(a) ? (['status', 'settlestatus'] as const).find((f) => part[f] === undefined && !(f === 'status' && part.enrolled === 'Y')) : undefined;
        if (absent) return { field: absent, says: `is missing from the 60022 of an AUTH after 3-D Secure (md and pares sent) ${quote}`, expected: absent === 'status' ? 'N' : '3' };
        // Bank data in a 60022 is left to the rows that tell an authorisation code (ERR-60022: "No funds are
        // transferred") from a bank response code alone, so that one fault is named once.
        return part.status !== undefined && part.status !== 'N' ? { field: 'status', says: `is not N though the customer was not authenticated (60022) ${quote}`, expected: 'N' } : undefined;
      }),
  },
  {
    name: 'sent-not-given',
    deferred: true,
    rule: 'SEC-RESULT-0',
    checks:
      'an AUTH or ACCOUNTCHECK part never answers 0 ("Not given") for a premise, postcode or security code its own request sent; in a child request that breaks "Extra fields may be added to the child that the parent lacked"',
    looksAt: (part, a) => PAYMENT_TYPES.has(String(part.requesttypedescription)) && SENT_AND_RESULT.some(([sent, result]) => present(a.request?.[sent]) && part[result] !== undefined),
    find: (a) =>
      partFindings(a, 'sent-not-given', sentParent(a) ? 'INHERIT-EXTRA-FIELDS' : 'SEC-RESULT-0', (part) => {
        if (!PAYMENT_TYPES.has(String(part.requesttypedescription))) return undefined;
        const hit = SENT_AND_RESULT.find(([sent, result]) => present(a.request?.[sent]) && part[result] === '0');
        if (!hit) return undefined;
        const child = sentParent(a) ? '; the child added it ("Extra fields may be added to the child that the parent lacked")' : '';
        return {
          field: hit[1],
          says: `is 0 ("Not given: the bank was not given the data for the check") though the request sent ${hit[0]}${child}`,
          expected: 'a result of the check made (1, 2 or 4)',
        };
      }),
  },
  {
    name: 'payment-account-type',
    deferred: true,
    rule: 'FIELD-ACCOUNTTYPE-PAYMENTS',
    checks: 'a successful AUTH or ACCOUNTCHECK part that carries `accounttypedescription` carries `ECOM` or `MOTO`, a payment on a stored card too ("`ECOM` or `MOTO` for payments")',
    looksAt: (part) => part.errorcode === '0' && PAYMENT_TYPES.has(String(part.requesttypedescription)) && part.accounttypedescription !== undefined,
    find: (a) =>
      partFindings(a, 'payment-account-type', 'FIELD-ACCOUNTTYPE-PAYMENTS', (part) =>
        part.errorcode === '0' &&
        PAYMENT_TYPES.has(String(part.requesttypedescription)) &&
        part.accounttypedescription !== undefined &&
        part.accounttypedescription !== 'ECOM' &&
        part.accounttypedescription !== 'MOTO'
          ? { field: 'accounttypedescription', says: 'is neither ECOM nor MOTO ("`ECOM` or `MOTO` for payments")', expected: 'ECOM or MOTO' }
          : undefined,
      ),
  },
  {
    name: 'xml-locations',
    deferred: true,
    rule: 'XML-FRAUDCONTROL-PATHS',
    checks:
      'in XML, no part holds a field of the fraud-control or security results under its block at another place than the one the document gives (`/fraudcontrol/categoryflag`, `/security/securitycode`, ...), whichever request carried the part',
    looksAt: (part, a) => a.format === 'xml' && Object.keys(part).some((k) => k.startsWith('fraudcontrol/') || k.startsWith('security/')),
    find: (a) => {
      if (a.format !== 'xml') return [];
      const out: AnswerFinding[] = [];
      for (const rule of ['XML-FRAUDCONTROL-PATHS', 'XML-SECURITY-PATHS'] as const) {
        out.push(
          ...partFindings(a, 'xml-locations', rule, (part) => {
            const key = Object.keys(part).find((k) => misplacedXml(k) === rule);
            if (key === undefined) return undefined;
            const field = key.slice(key.lastIndexOf('/') + 1);
            return { field, at: key, says: `sits at /${key}, not at /${FIELD[field].response!.xml!} where the document places it`, expected: `/${FIELD[field].response!.xml!}` };
          }),
        );
      }
      return out;
    },
  },
  // Sentences of the payment and risk-decision rows held in every request that carries such a part, separate or
  // combined, first or later (the fifth blind round found each checked in one context only).
  {
    name: 'authorised-by-bank',
    deferred: true,
    rule: 'AUTH-BANK-CONTACTED',
    checks:
      'an AUTH part of errorcode 0 (the bank authorised: "`AUTH`: asks the acquiring bank to authorise a payment") carries `authcode` and `acquirerresponsecode`, in every request that holds one ("present when the bank was contacted")',
    looksAt: (part) => part.requesttypedescription === 'AUTH' && part.errorcode === '0',
    find: (a) =>
      partFindings(a, 'authorised-by-bank', 'AUTH-BANK-CONTACTED', (part) => {
        if (part.requesttypedescription !== 'AUTH' || part.errorcode !== '0') return undefined;
        const field = BANK_FIELDS.find((f) => part[f] === undefined);
        return field
          ? {
              field,
              says: 'is missing though the bank authorised the payment (errorcode 0; "present when the bank was contacted")',
              expected: field === 'authcode' ? "the bank's authorisation code" : "the bank's response code",
            }
          : undefined;
      }),
  },
  {
    name: 'suspicious-flagged',
    deferred: true,
    rule: 'RISKDEC-CATEGORYFLAG',
    checks:
      'a successful RISKDEC part of shield status CHALLENGE or DENY carries `rulecategoryflag`, separate or combined, first or last ("Identifies the condition that caused `DENY` or `CHALLENGE`")',
    looksAt: (part) => isSuspicious(part),
    find: (a) =>
      partFindings(a, 'suspicious-flagged', 'RISKDEC-CATEGORYFLAG', (part) =>
        // A flag sent at another place of the XML block is that place's fault (`xml-locations`): one fault, one cause.
        isSuspicious(part) && part.rulecategoryflag === undefined && !(a.format === 'xml' && Object.keys(part).some((k) => k.endsWith('/rulecategoryflag')))
          ? {
              field: 'rulecategoryflag',
              says: `is missing from a RISKDEC of ${String(part.fraudcontrolshieldstatuscode)} ("Identifies the condition that caused \`DENY\` or \`CHALLENGE\`")`,
              expected: 'the condition that caused it',
            }
          : undefined,
      ),
  },
];

/** The later part of RISKDEC+AUTH or AUTH+RISKDEC, the reference it must carry as its parent, and the row's rule. */
function combinedLater(a: Answer): { part: Readonly<Record<string, unknown>>; parent: string; first: string; rule: 'RISKDEC-FIRST' | 'RISKDEC-LAST' } | undefined {
  const parts = partList(a.envelope);
  const types = a.requested ?? parts.map((p) => (isRecord(p) ? p.requesttypedescription : undefined));
  const key = types.join(',');
  const rule = key === 'RISKDEC,AUTH' ? 'RISKDEC-FIRST' : key === 'AUTH,RISKDEC' ? 'RISKDEC-LAST' : undefined;
  const [first, later] = parts;
  if (!rule || !isRecord(first) || !isRecord(later) || later.errorcode !== '0' || !present(first.transactionreference)) return undefined;
  if (first.requesttypedescription !== types[0] || later.requesttypedescription !== types[1]) return undefined;
  return { part: later, parent: String(first.transactionreference), first: String(types[0]), rule };
}

/** The XML location rule a part's key breaks: a field of the fraud-control or security results under another name. */
function misplacedXml(key: string): 'XML-FRAUDCONTROL-PATHS' | 'XML-SECURITY-PATHS' | undefined {
  const slash = key.lastIndexOf('/');
  if (slash < 0) return undefined;
  const name = key.slice(slash + 1);
  const xml = Object.hasOwn(FIELD, name) ? FIELD[name].response?.xml : undefined;
  if (xml === undefined || xml === key) return undefined;
  return xml.startsWith('fraudcontrol/') ? 'XML-FRAUDCONTROL-PATHS' : xml.startsWith('security/') ? 'XML-SECURITY-PATHS' : undefined;
}

const PAYMENT_TYPES: ReadonlySet<string> = new Set(['AUTH', 'ACCOUNTCHECK']);
/** What a request sends for a security check, and the result field of that check. */
const SENT_AND_RESULT = [
  ['billingpremise', 'securityresponseaddress'],
  ['billingpostcode', 'securityresponsepostcode'],
  ['securitycode', 'securityresponsesecuritycode'],
] as const;

/** The records a TRANSACTIONQUERY part returned (none for any other part). */
const recordsOf = (part: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>>[] =>
  part.requesttypedescription === 'TRANSACTIONQUERY' && Array.isArray(part.records) ? part.records.filter(isRecord) : [];
const isSubscriptionWithAccountType = (r: Readonly<Record<string, unknown>>): boolean => r.requesttypedescription === 'SUBSCRIPTION' && r.accounttypedescription !== undefined;

/** The bank's own answers ("Bank authorisation code and bank response code; present when the bank was contacted"). */
const BANK_FIELDS = ['authcode', 'acquirerresponsecode'] as const;
/** The security check results, of which `2` and `4` say the bank checked ("Matched", "Not matched"). */
const SECURITY_RESULTS = ['securityresponseaddress', 'securityresponsepostcode', 'securityresponsesecuritycode'] as const;

const isNotEnrolled = (v: unknown): boolean => v === 'N' || v === 'U';
/**
 * An AUTH part of an enrolled card the customer authenticated at the ACS, answered by the bank: authorised (0) or
 * declined ("`70000`: Customer authenticated but the bank declined"); any other code is another fault's.
 */
const isAuthenticatedAuth = (part: Readonly<Record<string, unknown>>): boolean =>
  part.requesttypedescription === 'AUTH' && part.enrolled === 'Y' && part.status === 'Y' && (part.errorcode === '0' || part.errorcode === '70000');

/** "`cavv`, `eci`: Returned if enrolled and authenticated": the one of them an authenticated AUTH part left out. */
function authenticatedFault(part: Readonly<Record<string, unknown>>): PartFault | undefined {
  if (!isAuthenticatedAuth(part)) return undefined;
  const field = part.cavv === undefined ? 'cavv' : part.eci === undefined ? 'eci' : undefined;
  return field ? { field, says: 'is missing though the card is enrolled and the customer authenticated (status Y: "Returned if enrolled and authenticated")', expected: `a ${field}` } : undefined;
}
/** A card not enrolled, or an enrolled one not authenticated: `status` N (not authenticated) or U (unable to authenticate). */
const notAuthenticated = (part: Readonly<Record<string, unknown>>): boolean => isNotEnrolled(part.enrolled) || part.status === 'N' || part.status === 'U';
const present = (v: unknown): boolean => typeof v === 'string' && v !== '';
/** The request was an AUTH after 3-D Secure of an enrolled card: it sent `md` and `pares`. */
const sentMdPares = (a: Answer): boolean => present(a.request?.md) && present(a.request?.pares);
/** The request named a parent: every part it made is based on an earlier request. */
const sentParent = (a: Answer): boolean => present(a.request?.parenttransactionreference);

/** What a per-part check found wrong with one part: the field, what is wrong with it, and what is expected. */
interface PartFault {
  readonly field: string;
  /** Where in the part, when not the field itself (`records[0].accounttypedescription`). */
  readonly at?: string;
  readonly says: string;
  readonly expected: string;
}

/** The findings of a check made on each part of an answer on its own. */
function partFindings(a: Answer, invariant: string, rule: string, check: (part: Readonly<Record<string, unknown>>) => PartFault | undefined): AnswerFinding[] {
  const out: AnswerFinding[] = [];
  partList(a.envelope).forEach((part, i) => {
    if (!isRecord(part)) return;
    const fault = check(part);
    if (!fault) return;
    const type = typeof part.requesttypedescription === 'string' ? part.requesttypedescription : undefined;
    const seen = fault.at === undefined ? shortValue(part[fault.field]) : valueAt(part, fault.at);
    out.push({
      rule,
      invariant,
      field: fault.field,
      ...(type ? { part: type } : {}),
      partIndex: i,
      line: redactText(`response[${i}].${fault.at ?? fault.field} of the ${type ?? 'part'} ${fault.says}`),
      expected: redactText(fault.expected),
      ...(seen !== undefined ? { seen } : {}),
    });
  });
  return out;
}

/** The violation kinds of the schemas, by the dictionary's check (schemas/check.ts) that found the value wrong. */
const KIND_OF_PROBLEM: Readonly<Record<string, string>> = {
  'not-a-string': 'all-values-strings',
  'too-short': 'minLength',
  'too-long': 'maxLength',
  'bad-characters': 'pattern',
  'not-a-listed-value': 'enum',
};

/**
 * The field checks of each record of a TRANSACTIONQUERY part: the query's shape is not shown, but what it returns
 * of a transaction are that transaction's response fields, each with its type in the field tables. Which fields a
 * record holds is the shape's, and not checked.
 */
function recordViolations(a: Answer): Violation[] {
  const out: Violation[] = [];
  partList(a.envelope).forEach((part, i) => {
    if (!isRecord(part) || part.requesttypedescription !== 'TRANSACTIONQUERY' || !Array.isArray(part.records)) return;
    part.records.forEach((record, j) => {
      if (!isRecord(record)) return;
      const masked = maskFault(record);
      if (masked) out.push({ ...masked, field: `response[${i}].records[${j}].maskedpan` });
      for (const { field, problem } of checkFields(record, 'response')) {
        out.push({
          field: `response[${i}].records[${j}].${field}`,
          rule: KIND_OF_PROBLEM[problem.kind] ?? 'pattern',
          section: FIELD[field]?.section ?? 'Resources and their fields',
          message: `in a record the TRANSACTIONQUERY returned: ${problem.message}`,
          severity: 'error',
        });
      }
    });
  });
  return out;
}

/**
 * A record's `maskedpan` that is not the document's mask ("with the middle digits replaced by `#`"): the dictionary's
 * field check knows the type and length of the field, the part schemas the mask; a record is held to both, whichever
 * filter found it.
 */
function maskFault(record: Readonly<Record<string, unknown>>): Violation | undefined {
  const v = record.maskedpan;
  if (typeof v !== 'string' || isMaskedForm(v)) return undefined;
  return {
    field: 'maskedpan',
    rule: 'masked',
    section: FIELD.maskedpan.section,
    message: 'in a record the TRANSACTIONQUERY returned: not a masked card number (digits with the middle ones replaced by `#`)',
    severity: 'error',
  };
}

/** A subscription number above 1: a resumed subscription's ("send the next number (for example `4` after 3 payments)"). */
const numberAbove1 = (v: unknown): boolean => typeof v === 'string' && /^\d+$/.test(v) && Number(v) > 1;

/**
 * A resumed subscription goes on from the number sent: "It is incremented with each subscription payment", so a part
 * of the request that numbers it may say the number sent (the first payment's) or a later one, never a lower one
 * (a part answering `1` restarted the count). Whether the part carries the number at all is not said: not checked.
 */
function resumedNumberFindings(a: Answer): AnswerFinding[] {
  const sent = a.request?.subscriptionnumber;
  if (!numberAbove1(sent)) return [];
  const out: AnswerFinding[] = [];
  partList(a.envelope).forEach((part, i) => {
    if (!isRecord(part) || part.errorcode !== '0' || (part.requesttypedescription !== 'SUBSCRIPTION' && part.requesttypedescription !== 'AUTH')) return;
    const got = part.subscriptionnumber;
    if (typeof got !== 'string' || !/^\d+$/.test(got) || Number(got) >= Number(sent)) return;
    out.push({
      rule: 'SUB-NUMBER-RESUME',
      invariant: 'subscription-number',
      field: 'subscriptionnumber',
      part: part.requesttypedescription,
      partIndex: i,
      line: `response[${i}].subscriptionnumber of the ${part.requesttypedescription} part is below the subscriptionnumber the request sent to resume the subscription ("To resume a former subscription, send the next number")`,
      expected: `a number not below ${String(sent)}`,
      seen: got,
    });
  });
  return out;
}

/** Every invariant's findings on one answer, in registry order. */
export function answerFindings(a: Answer, invariants: readonly AnswerInvariant[] = ANSWER_INVARIANTS, index?: RuleIndex): AnswerFinding[] {
  // Most answers break nothing: no array is made per invariant that found nothing.
  let out: AnswerFinding[] | undefined;
  for (let i = 0; i < invariants.length; i++) {
    const found = invariants[i].find(a, index);
    if (found.length > 0) (out ??= []).push(...found);
  }
  return out ?? [];
}
