/**
 * Which rule an assertion checks, when the step does not name one, and which rule a schema finding breaks.
 *
 * A schema finding on an answer breaks the rule of the field that broke (its format, length or value list), not
 * the tags of whichever scenario happened to carry the answer: a target whose only fault is `maskedpan` with `*`
 * is one cause on FIELD-MASKEDPAN, not a hundred broken rules. A generic step ("the AUTH's status is "Y"") checks
 * the scenario's tag whose quote speaks of the field or the value it looks at; only when no tag does is the
 * scenario's first tag taken (the rule the scenario is written for).
 */
import { loadCatalogue, type CatalogueRule } from './catalogue';
import type { Attribution } from './checks';
import type { Violation } from '../validate';
import { ERROR, misspeltCode, type ErrorRow } from '../../schemas/errors';
import { echoedBy, FIELD } from '../../schemas/fields';
import { ECHOED_FIELDS, PART_SHAPES } from '../../schemas/operations';

export interface RuleIndex {
  readonly rules: ReadonlyMap<string, CatalogueRule>;
}

let cached: RuleIndex | undefined;

/** The kit's catalogue, read once per process. */
export function defaultRuleIndex(): RuleIndex {
  cached ??= { rules: new Map(loadCatalogue().rules.map((r) => [r.id, r])) };
  return cached;
}

export function ruleIndexOf(rules: readonly CatalogueRule[]): RuleIndex {
  return { rules: new Map(rules.map((r) => [r.id, r])) };
}

/** Whole-word mention of `token` in a quote (backticks and table pipes are words' edges too). */
function mentions(quote: string, token: string): boolean {
  if (!token) return false;
  if (token.startsWith('`')) return quote.includes(token);
  const esc = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_])${esc}($|[^A-Za-z0-9_])`).test(quote);
}

/** What a check looked at, to find the rule it checks among the scenario's tags. */
export interface CheckHint {
  readonly field?: string;
  readonly expected?: string;
  /** The errorcode of the part looked at: the Errors table's row of that code speaks for the part. */
  readonly errorcode?: string;
}

/**
 * The rules a check without a named rule checks, from the scenario's `@rule` tags. The tags whose quote names the
 * field looked at, with those that name the expected value or end in it (`3DS-NEXT-U` for "U"), the Errors row of
 * the part's code (`ERR-60022`), and those whose quote names no field at all (a row of a field table is quoted
 * without its field: "It is returned only for enrolled cards."). When no tag names the field, the check is the
 * scenario's own claim and every tag stands behind it (attribution `scenario`): a fault is then never put on a
 * rule the scenario does not check, and never missed on the one it does.
 */
export function rulesForCheck(tags: readonly string[], hint: CheckHint, index: RuleIndex = defaultRuleIndex()): { rules: string[]; attribution: Attribution } {
  if (tags.length <= 1) return { rules: [...tags], attribution: 'scenario' };
  const hit = tagsAbout(tags, hint.field, [hint.expected], hint.errorcode, index);
  return hit.length > 0 && hit.length < tags.length ? { rules: hit, attribution: 'field' } : { rules: [...tags], attribution: 'scenario' };
}

/** `rulesForCheck`'s choice among tags; empty when no tag names `field`. */
function tagsAbout(tags: readonly string[], field: string | undefined, values: readonly (string | undefined)[], errorcode: string | undefined, index: RuleIndex): string[] {
  if (!field) return [];
  const quoteOf = (id: string): string => index.rules.get(id)?.quote ?? '';
  const named = tags.filter((t) => mentions(quoteOf(t), field));
  if (named.length === 0) return [];
  return tags.filter(
    (t) =>
      named.includes(t) ||
      !quoteOf(t).includes('`') ||
      (errorcode !== undefined && t === `ERR-${errorcode}`) ||
      values.some((v) => v !== undefined && v !== '' && (mentions(quoteOf(t), `\`${v}\``) || t.endsWith(`-${v.toUpperCase()}`))),
  );
}

/**
 * The rules of the parts as a whole: "The response holds one part per request type, in the same order." They say
 * how many parts there are, of which type, in which order, and nothing of the values inside a part.
 */
export const PARTS_RULES: ReadonlySet<string> = new Set(['ENV-ORDER', 'ENV-RESPONSE-ONE-PART-PER-TYPE']);

/**
 * The rules a failed check of a value in a part breaks, once the parts were there, one per requested type and in
 * order: never the rules of the parts as a whole, which that answer kept, even when the scenario that met the value
 * is tagged with them (a combined request's scenario checks its parts' values too). The scenario's other rules
 * stand; with none left, the rule the document ties the field to (the sentence requiring it in that part, its
 * format or value list; `errorcode` and `errormessage`: the Errors table's "Every response part has ..."), else the
 * check is the field's fault of form (FIELD-TYPES, per field).
 */
export function rulesForPartValue(rules: readonly string[], field: string, partType: string | undefined, index: RuleIndex = defaultRuleIndex()): string[] {
  const kept = rules.filter((r) => !PARTS_RULES.has(r));
  if (kept.length > 0 || rules.length === 0) return kept;
  const has = (id: string | undefined): id is string => id !== undefined && index.rules.has(id);
  const own = [
    partType !== undefined ? presenceRuleOf(partType, field) : undefined,
    BY_FIELD.enum[field],
    BY_FIELD.pattern[field],
    ['errorcode', 'errormessage'].includes(field) ? 'ERR-PART-FIELDS' : undefined,
  ].find(has);
  return [own ?? `FIELD-TYPES:${field}`];
}

/** The field a violation is about: its last name (`response[1].maskedpan` -> `maskedpan`). */
export function leafOf(field: string): string {
  const names = field.split(/[.[\]]/).filter((s) => s !== '' && !/^\d+$/.test(s));
  return names.length ? names[names.length - 1] : '';
}

/**
 * A lookup table keyed by names that come off the wire (a part's field, a finding's leaf): without a prototype, so
 * that a field named `constructor` or `toString` finds nothing rather than Object's own function.
 */
function table<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

/** Field-specific rules of the catalogue, by the kind of finding. */
const BY_FIELD: Readonly<Record<string, Readonly<Record<string, string>>>> = table({
  pattern: table({
    maskedpan: 'FIELD-MASKEDPAN',
    transactionstartedtimestamp: 'FIELD-TIMESTAMP',
    settleduedate: 'FIELD-SETTLEDUEDATE',
    baseamount: 'FIELD-BASEAMOUNT-MINOR-UNITS',
    securityresponseaddress: 'SEC-RESULT-DIGIT',
    securityresponsepostcode: 'SEC-RESULT-DIGIT',
    securityresponsesecuritycode: 'SEC-RESULT-DIGIT',
  }),
  // A value of a fixed format ("Format `YYYY-MM-DD HH:MM:SS`") of another length breaks the format, not a length
  // of the field tables (the Common response fields give these two no length: the dictionary's comes from the format).
  maxLength: table({ transactionstartedtimestamp: 'FIELD-TIMESTAMP', settleduedate: 'FIELD-SETTLEDUEDATE' }),
  minLength: table({ transactionstartedtimestamp: 'FIELD-TIMESTAMP', settleduedate: 'FIELD-SETTLEDUEDATE' }),
  enum: table({
    accounttypedescription: 'FIELD-ACCOUNTTYPE-PAYMENTS',
    securityresponseaddress: 'SEC-RESULT-DIGIT',
    securityresponsepostcode: 'SEC-RESULT-DIGIT',
    securityresponsesecuritycode: 'SEC-RESULT-DIGIT',
    fraudcontrolshieldstatuscode: 'RISKDEC-SHIELD-VALUES',
    transactionactive: 'SUB-TRANSACTIONACTIVE-VALUES',
    status: '3DS-STATUS',
    version: 'VER-JSON',
    billingtelephonetype: 'FIELD-TELEPHONETYPE',
  }),
  forbidden: table({
    acsurl: '3DS-ACSURL-ONLY-ENROLLED',
    pareq: '3DS-PAREQ-ONLY-ENROLLED',
  }),
  required: table({
    requestreference: 'ENV-REQUESTREFERENCE',
    secrand: 'ENV-SECRAND',
    version: 'VER-JSON',
    response: 'TRANSPORT-RESPONSE-BODY',
    errorcode: 'ERR-PART-FIELDS',
    errormessage: 'ERR-PART-FIELDS',
  }),
});

// "The STORE response holds ...": the listed fields, as schemas/operations.ts reads the sentence.
const STORE_LISTED: ReadonlySet<string> = new Set(PART_SHAPES.STORE.requiredOnSuccess);
const CARD_PARTS = new Set(['AUTH', 'ACCOUNTCHECK', 'THREEDQUERY', 'STORE', 'RISKDEC']);
const PAYMENT_PARTS = new Set(['AUTH', 'ACCOUNTCHECK']);

/**
 * The sentence that requires a field in a successful part of a type, by the rule that quotes it; undefined where
 * no sentence does (the Common response fields give no part that must hold the field): dropping it is then
 * equivalent to the reference. One table for the field boundary phase's presence examples and for a schema
 * finding of a missing field: the part's field missing breaks that sentence, whichever scenario met it.
 */
export function presenceRuleOf(type: string, field: string): string | undefined {
  // "The STORE response holds `transactionreference`, ..."
  if (type === 'STORE') return STORE_LISTED.has(field) ? 'STORE-RESPONSE-FIELDS' : undefined;
  // "It identifies the transaction and is the value used as `parenttransactionreference` later."
  if (field === 'transactionreference') return 'FIELD-TRANSACTIONREFERENCE';
  // "Responses return a masked form in `maskedpan`": every part about a card.
  if (field === 'maskedpan') return CARD_PARTS.has(type) ? 'FIELD-MASKEDPAN' : undefined;
  if (PAYMENT_PARTS.has(type)) {
    // "`authcode`, `acquirerresponsecode`: present when the bank was contacted" (AUTH; ACCOUNTCHECK is "shaped as an AUTH part").
    if (field === 'authcode' || field === 'acquirerresponsecode') return 'AUTH-BANK-CONTACTED';
    if (field === 'transactionstartedtimestamp') return 'FIELD-TIMESTAMP';
    if (field === 'settleduedate') return 'FIELD-SETTLEDUEDATE';
  }
  // "`ACCOUNTCHECK`: validates address, postcode and security code".
  if (type === 'ACCOUNTCHECK' && field.startsWith('securityresponse')) return 'AC-VALIDATES';
  // "In a response, the SUBSCRIPTION part carries `RECUR`." (schemas/operations.ts: the part requires it.)
  if (type === 'SUBSCRIPTION' && field === 'accounttypedescription') return 'SUB-RECUR';
  // "Check `transactionactive`, the timing fields and the amount in the SUBSCRIPTION part."
  if (type === 'SUBSCRIPTION' && ['transactionactive', 'subscriptionbegindate', 'subscriptionunit', 'subscriptionfrequency', 'subscriptionfinalnumber', 'baseamount'].includes(field))
    return 'SUB-AUTH-FIRST-PAYMENT';
  // "1 part with `enrolled`, `xid`, and for enrolled cards `acsurl`, `md`, `pareq`".
  if (type === 'THREEDQUERY' && ['enrolled', 'xid', 'acsurl', 'md', 'pareq'].includes(field)) return '3DS-QUERY-RESPONSE';
  // "It returns a shield status code".
  if (type === 'RISKDEC' && field === 'fraudcontrolshieldstatuscode') return 'RISKDEC-SHIELD';
  // "`status`: Returned if enrolled": the AUTH part of an enrolled card (the only AUTH that carries it).
  if (type === 'AUTH' && field === 'status') return '3DS-STATUS';
  // "Echoed from the request", in the part types the field dictionary's `ECHOES` says give the field back (the
  // request sent it: the field boundary phase's rows and the generated gallery's send every field of their row).
  if (echoedBy(type, field)) return 'FIELD-ECHO';
  return undefined;
}

/**
 * The rule a finding on the form of a response field's value breaks: its value list's rule for a listed field
 * (`status`: 3DS-STATUS), else its format's (`transactionstartedtimestamp`: FIELD-TIMESTAMP); undefined for a field
 * with neither (FIELD-TYPES). The field boundary phase tags its examples of an answer's fields with it, so that one
 * value of the wrong form is one rule whichever reader met it (src/boundary/responses.ts).
 */
export function formRuleOf(field: string, listed: boolean): string | undefined {
  return listed ? BY_FIELD.enum[field] : BY_FIELD.pattern[field];
}

/** By the kind of finding alone. */
const BY_KIND: Readonly<Record<string, string>> = table({
  masked: 'FIELD-MASKEDPAN',
  echo: 'FIELD-ECHO',
  'all-values-strings': 'FIELD-STRINGS',
  maxLength: 'FIELD-LENGTHS',
  minLength: 'FIELD-LENGTHS',
  pattern: 'FIELD-TYPES',
  enum: 'FIELD-TYPES',
  'ok-message': 'ERR-0',
  'code-spelling': 'ERR-PART-FIELDS',
  'part-order': 'ENV-ORDER',
  'no-row': 'ENV-TYPES-NAMED',
  'request-type': 'ENV-RESPONSE-ONE-PART-PER-TYPE',
  'one-part-per-type': 'ENV-RESPONSE-ONE-PART-PER-TYPE',
  type: 'TRANSPORT-RESPONSE-BODY',
  required: 'TRANSPORT-RESPONSE-BODY',
  minItems: 'ENV-RESPONSE-ONE-PART-PER-TYPE',
});

const collapse = (s: string): string => s.replace(/`/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

/** Findings about what a part of a row holds (presence, fixed values, its type): the row's rule, so the scenario's. */
const ROW_KINDS = new Set(['required', 'forbidden', 'fixed', 'request-type', 'minItems']);

/**
 * Findings about the parts of the answer as a whole (their count, their order): the envelope's rule, whatever
 * scenario carried the answer. A target that answers combined requests in reverse order breaks "The response holds
 * one part per request type, in the same order" once, not the rule of every field-boundary scenario that sent one.
 */
const PARTS_KINDS = new Set(['one-part-per-type', 'part-order']);

export interface FindingContext {
  /** The request type of the part the field sits in. */
  readonly partType?: string;
  /** The request type that was asked for at that place. */
  readonly requestedType?: string;
  /** Every request type asked for, in order. */
  readonly requestedTypes?: readonly string[];
  /** The request type of each part of the answer, in order. */
  readonly answeredTypes?: readonly (string | undefined)[];
  /** The scenario's `@rule` tags. */
  readonly tags?: readonly string[];
  /** The value the finding saw, where it has one. */
  readonly value?: unknown;
  /** The form the answer came in: in XML a field is missing where its element sits elsewhere. */
  readonly format?: 'json' | 'xml';
}

/**
 * The catalogue rules a schema finding on an answer breaks.
 * - Format, length and value-list findings (`pattern`, `maxLength`, `enum`, `masked`, strings): the rule of the
 *   field, whatever scenario carried the answer: a per-field entry of the catalogue (`FIELD-LENGTHS:billingemail`),
 *   the field's own rule, the rule quoting the document's words the finding cites, then the kind's rule.
 * - Findings on the parts as a whole (their count, their order): the envelope's rule, whatever scenario carried
 *   the answer (ENV-ORDER, ENV-RESPONSE-ONE-PART-PER-TYPE).
 * - Findings on what a row's part holds (a field missing or forbidden, a fixed value, the part's type): the
 *   scenario's tags that speak of the field (or of the part's request type), else the rule quoting the finding's
 *   words, the field's rule for that kind, and last every tag of the scenario (the row it is about).
 * A rule the catalogue lacks is never returned while one it has fits.
 */
export function rulesForViolation(v: Pick<Violation, 'field' | 'rule' | 'message'>, index: RuleIndex = defaultRuleIndex(), ctx: FindingContext = {}): string[] {
  const leaf = leafOf(v.field);
  const rules = baseRulesForViolation(v, leaf, index, ctx).map((id) => (PER_FIELD.has(id) && leaf && !id.includes(':') ? `${id}:${leaf}` : id));
  return withSentencesOfTheirOwn(v, leaf, rules, index);
}

/**
 * Findings of a field's form that a sentence of its own states besides the field tables, whichever scenario met
 * them: "Every response part has `errorcode` (string)", and "`baseamount` has at most 13 digits" (Limits, 2).
 */
const ALSO_BROKEN: Readonly<Record<string, Readonly<Record<string, string>>>> = table({
  'all-values-strings': table({ errorcode: 'ERR-PART-FIELDS' }),
  maxLength: table({ baseamount: 'LIMIT-BASEAMOUNT' }),
});

function withSentencesOfTheirOwn(v: Pick<Violation, 'rule'>, leaf: string, rules: string[], index: RuleIndex): string[] {
  const also = ALSO_BROKEN[v.rule]?.[leaf];
  if (also === undefined || !index.rules.has(also) || rules.includes(also)) return rules;
  return [...rules, also];
}

function baseRulesForViolation(v: Pick<Violation, 'field' | 'rule' | 'message'>, leaf: string, index: RuleIndex, ctx: FindingContext): string[] {
  const has = (id: string | undefined): id is string => id !== undefined && index.rules.has(id);
  if (leaf === 'requesttypedescription' && (v.rule === 'part-order' || v.rule === 'request-type') && ctx.requestedType !== undefined && ctx.partType !== ctx.requestedType) {
    // A part that is not of the type asked for at its place: a requested type elsewhere is out of order; any other
    // type (`auth` for `AUTH`) leaves the requested one without its part.
    // The scenario's row that names the type asked for (AC-SHAPE: "with `requesttypedescription` `ACCOUNTCHECK`")
    // speaks for it; never every tag of a scenario that merely carried the answer.
    // Parts missing from an answer whose others keep the requested order shift those others to earlier places:
    // the one cause is the missing part, not the order.
    const short = ctx.requestedTypes !== undefined && ctx.answeredTypes !== undefined && isShortInOrder(ctx.answeredTypes, ctx.requestedTypes);
    if (short && has('ENV-RESPONSE-ONE-PART-PER-TYPE')) return ['ENV-RESPONSE-ONE-PART-PER-TYPE'];
    const misplaced = ctx.requestedTypes === undefined ? v.rule === 'part-order' : ctx.partType !== undefined && ctx.requestedTypes.includes(ctx.partType);
    const row = misplaced ? [] : tagsAbout(ctx.tags ?? [], ctx.requestedType, [], undefined, index);
    const id = misplaced ? 'ENV-ORDER' : 'ENV-RESPONSE-ONE-PART-PER-TYPE';
    if (row.length > 0) return row;
    if (has(id)) return [id];
  }
  if (PARTS_KINDS.has(v.rule) && has(BY_KIND[v.rule])) return [BY_KIND[v.rule]];
  // A code of the Errors table written otherwise (`00000` for `0`): its row's fault ("| `0` | any | Successful"),
  // whichever scenario met it, not the fault of every check that then reads the part as failed.
  if (v.rule === 'code-spelling') {
    const code = misspeltCode(ctx.value) ?? /code ([0-9]+) written otherwise/.exec(v.message)?.[1];
    if (has(`ERR-${code}`)) return [`ERR-${code}`];
  }
  const fieldRule = BY_FIELD[v.rule]?.[leaf] ?? (v.rule === 'required' && ctx.partType !== undefined ? presenceRuleOf(ctx.partType, leaf) : undefined);
  const kindRule = fieldRule ?? BY_KIND[v.rule];
  if (kindRule && has(`${kindRule}:${leaf}`)) return [`${kindRule}:${leaf}`];
  const tags = ctx.tags ?? [];
  // A finding the document ties to one sentence of its own (a part's missing field: "The STORE response holds
  // ...", "the SUBSCRIPTION part carries `RECUR`"; an acsurl for a card not enrolled) breaks that sentence,
  // whichever scenario met it.
  // In XML a part's field is missing where its element sits elsewhere: the scenario's rule that quotes the field's
  // XML location (`/fraudcontrol/shieldstatuscode`) speaks for it before the sentence requiring the field.
  const xmlPath = ctx.format === 'xml' && v.rule === 'required' ? FIELD[leaf]?.response?.xml : undefined;
  const located = xmlPath ? tags.filter((t) => index.rules.get(t)?.quote.includes(`/${xmlPath}`)) : [];
  if (located.length > 0) return located;
  if (has(fieldRule)) return [fieldRule];
  // `errorcode` 0 with a message of another outcome ("Decline"): the code is the suspect, so the scenario that
  // expects that outcome speaks for it, with the row of 0. A misspelt `Ok` ("ok", "OK ") is the message's fault
  // alone: ERR-0, not every tag of every scenario that met it.
  if (v.rule === 'ok-message' && !(typeof ctx.value === 'string' && ctx.value.trim().toLowerCase() === 'ok') && tags.length > 0) {
    return has(BY_KIND[v.rule]) && !tags.includes(BY_KIND[v.rule]) ? [...tags, BY_KIND[v.rule]] : [...tags];
  }
  if (ROW_KINDS.has(v.rule)) {
    const field = leaf === 'requesttypedescription' ? undefined : leaf;
    const hit = field ? tagsAbout(tags, field, [], undefined, index) : [];
    const typed = hit.length === 0 && ctx.requestedType ? tagsAbout(tags, ctx.requestedType, [], undefined, index) : [];
    const found = hit.length > 0 ? hit : typed;
    if (found.length > 0) return found;
  }
  // The document's own words, quoted in the finding (`("Every response part has ...")`).
  for (const m of v.message.matchAll(/\("([^"]*\s[^"]*)"\)/g)) {
    if (m[1].length < 20) continue;
    const words = collapse(m[1]);
    const hit = [...index.rules.values()].find((r) => collapse(r.quote).includes(words));
    if (hit) return [hit.id];
  }
  if (ROW_KINDS.has(v.rule) && tags.length > 0) return [...tags];
  if (has(BY_KIND[v.rule])) return [BY_KIND[v.rule]];
  return [has('FIELD-TYPES') ? 'FIELD-TYPES' : (kindRule ?? v.rule)];
}

/**
 * The findings that are causes, of all a validation reports on one answer. A value outside its list (`"Y "` for
 * `status`, `"recur"` for a SUBSCRIPTION's `RECUR`) breaks the list (or the row's fixed value), and a listed value's
 * length and characters follow from the list: its length and type-class findings say the same fault again, and
 * would put it on FIELD-LENGTHS and FIELD-TYPES besides the list's rule. Validate still reports them all.
 */
export function causeFindings<T extends Pick<Violation, 'field' | 'rule'>>(findings: readonly T[]): T[] {
  const fixed = new Set(findings.filter((f) => f.rule === 'fixed').map((f) => f.field));
  const listed = new Set(findings.filter((f) => f.rule === 'fixed' || f.rule === 'enum').map((f) => f.field));
  if (listed.size === 0) return [...findings];
  return findings.filter((f) => !(listed.has(f.field) && FORM_KINDS.has(f.rule)) && !(f.rule === 'enum' && fixed.has(f.field)));
}

/** Fewer parts than requested types, each of a requested type, in the requested order. */
function isShortInOrder(answered: readonly (string | undefined)[], requested: readonly string[]): boolean {
  if (answered.length >= requested.length) return false;
  let at = 0;
  for (const t of answered) {
    while (at < requested.length && requested[at] !== t) at++;
    if (at === requested.length) return false;
    at++;
  }
  return true;
}

/** Findings of a value's form, which a listed value satisfies. */
const FORM_KINDS = new Set(['pattern', 'maxLength', 'minLength']);

/** Rules of every field, whose findings are reported per field (`FIELD-LENGTHS:billingemail`: a matrix row each). */
const PER_FIELD = new Set(['FIELD-LENGTHS', 'FIELD-TYPES', 'FIELD-STRINGS']);

/** The first rule of `rulesForViolation` (the finding without a scenario). */
export function ruleForViolation(v: Pick<Violation, 'field' | 'rule' | 'message'>, index: RuleIndex = defaultRuleIndex(), ctx: FindingContext = {}): string {
  return rulesForViolation(v, index, ctx)[0];
}

// "`baseamount`, `currencyiso3a`, `orderreference`, `accounttypedescription`, `credentialsonfile` | Echoed from the request."
const ECHOED: ReadonlySet<string> = new Set(ECHOED_FIELDS);

/**
 * The rule a value breaks that differs between the JSON and the XML answer of the same step (src/wire/twins.ts):
 * the rule quoting the field's XML location (`/security/address`: XML-SECURITY-PATHS), else the sentence about
 * the field's value (the Errors row of the part's code, the echo, the mask, the parent reference), else the scenario's tags that
 * speak of the field, else the sentence that requires the field in that part, else "The same operations are also
 * offered as an XML request block" (XML-REQUEST-BLOCK): an operation answered otherwise in XML is not the same
 * operation. The field is there in both forms (or its element elsewhere): a presence rule comes after the value's.
 */
export function ruleForFormatDifference(field: string, partType: string | undefined, tags: readonly string[], errorcode?: string, index: RuleIndex = defaultRuleIndex()): string[] {
  const has = (id: string | undefined): id is string => id !== undefined && index.rules.has(id);
  // A part's result told otherwise: the Errors table's row of the code the JSON answer gave ("| `0` | any | Successful;
  // `errormessage` is `Ok`"), where its "Where" column holds the part's type: `30000` is a THREEDQUERY's row, so an
  // AUTH answered 30000 in one form and taken in the other breaks no sentence of that row.
  const row = errorcode === undefined ? undefined : ERROR[errorcode];
  if ((field === 'errorcode' || field === 'errormessage') && row && has(`ERR-${row.code}`) && rowHolds(row, partType)) return [`ERR-${row.code}`];
  const xmlPath = FIELD[field]?.response?.xml;
  if (xmlPath && xmlPath.includes('/')) {
    const located = [...index.rules.values()].filter((r) => r.formats?.includes('xml') && r.quote.includes(`/${xmlPath}`)).map((r) => r.id);
    if (located.length > 0) return located;
  }
  const value = VALUE_RULES[field] ?? (ECHOED.has(field) ? 'FIELD-ECHO' : undefined);
  if (has(value)) return [value];
  const named = tagsAbout(tags, field, [], undefined, index);
  if (named.length > 0 && named.length < tags.length) return named;
  const presence = partType !== undefined ? presenceRuleOf(partType, field) : undefined;
  if (has(presence)) return [presence];
  return has('XML-REQUEST-BLOCK') ? ['XML-REQUEST-BLOCK'] : [...tags];
}

/** Does an Errors row's "Where" cell hold the part's type (`any` holds every one)? */
function rowHolds(row: ErrorRow, partType: string | undefined): boolean {
  return partType === undefined || row.where === 'any' || (row.where as readonly string[]).includes(partType);
}

/** The sentences about a response field's value, by field. */
const VALUE_RULES: Readonly<Record<string, string>> = table({
  maskedpan: 'FIELD-MASKEDPAN',
  parenttransactionreference: 'FIELD-PARENT',
  transactionreference: 'FIELD-TRANSACTIONREFERENCE',
  errorcode: 'ERR-PART-FIELDS',
  errormessage: 'ERR-PART-FIELDS',
});
