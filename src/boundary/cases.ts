/**
 * The field boundary phase, derived from the field dictionary (schemas/fields.ts) and the Request types table
 * (schemas/operations.ts), never retyped: for every request field an operation carries, the longest value
 * accepted, one longer refused, one shorter refused, a value of each character kind outside the field's type class
 * refused, each listed value taken and an unlisted one refused, and the formats (dates, URL, email); for the rows
 * that fix what must be sent, a required field left out refused and a recommended one left out taken.
 *
 * Each case names the rule it checks, qualified by the field (`FIELD-LENGTHS:billingemail`), so the traceability
 * matrix has a row per field and constraint. features/field-boundaries.feature is written from these cases by
 * scripts/boundaries.ts (a test keeps it current); steps/boundaries.ts resolves a case's value by its label.
 */
import { FIELD, type FieldDef } from '../../schemas/fields';
import { OPERATION, type OperationRow } from '../../schemas/operations';
import { TYPE_CLASSES, type TypeClass } from '../../schemas/typeclasses';

export type Expectation = 'takes' | 'refuses';

export interface BoundaryCase {
  /** The row of the Request types table (schemas/operations.ts id). */
  readonly row: string;
  readonly field: string;
  /** What the case is, as the feature file reads it ("one longer (256)"): also the key its value is found by. */
  readonly label: string;
  /** The value sent; `undefined` leaves the field out. */
  readonly value: string | undefined;
  /** Other fields the case needs (the country a postcode is validated for). */
  readonly also?: Readonly<Record<string, string>>;
  readonly expect: Expectation;
  /** The rule it checks, qualified by the field: `FIELD-LENGTHS:billingemail`. */
  readonly rule: string;
  /** Other rules the same observation checks (a length case: Limits, 1, LIMIT-FIELD-LENGTHS), qualified alike. */
  readonly alsoRules?: readonly string[];
  /** A value the XML form cannot carry (a control character): the case runs in JSON only. */
  readonly jsonOnly?: boolean;
}

/** The rows the phase sends, each with what the card is: the card itself, or a cache token of it (THREEDQUERY). */
export const BOUNDARY_ROWS: readonly { readonly id: string; readonly cachetoken?: boolean; readonly requires?: readonly string[] }[] = [
  { id: 'auth' },
  { id: 'accountcheck' },
  { id: 'subscription-no-3ds' },
  { id: 'store', requires: ['cardstore'] },
  { id: 'riskdec-card', requires: ['fraudcontrol'] },
  { id: 'threedquery', cachetoken: true, requires: ['cachetokens'] },
];

/** Fields that carry the card or a link to earlier data: the phase does not replace them with made-up values. */
const LINKS = new Set(['cachetoken', 'parenttransactionreference', 'md', 'pares']);

/**
 * Fields whose value means something beyond its form (an account, a currency, a card, a date the engine schedules,
 * a state): a made-up value at the longest length could be refused for what it means, so no "longest taken" case.
 * Their other cases (one longer, outside the class, lists) still run. `baseamount`: "the maximum can be lower
 * depending on the acquiring bank" (Limits, 2), so 13 digits need not be taken.
 */
const MEANINGFUL = new Set([
  'sitereference',
  'accounttypedescription',
  'currencyiso3a',
  'baseamount',
  'pan',
  'expirydate',
  'securitycode',
  'billingcountryiso2a',
  'subscriptiontype',
  'subscriptionunit',
  'subscriptionbegindate',
  'transactionactive',
  'credentialsonfile',
  'billingtelephonetype',
  'billingpremise',
  'billingpostcode',
]);

/** Digits of a number whose value matters, padded to the longest length with leading zeros (`00000000001` is 1). */
const ZERO_PADDED = new Set(['subscriptionfrequency', 'subscriptionnumber', 'subscriptionfinalnumber']);

/** A well-formed value of the field for the length `n` (the class's first allowed character, or its format). */
export function valueOfLength(def: FieldDef, n: number): string {
  switch (def.type) {
    case 'email': {
      // "At most 64 characters before the `@`": the local part stays short, the domain takes the rest.
      const local = 'a'.repeat(Math.min(8, Math.max(1, n - 8)));
      const domainLen = n - local.length - 1 - 5;
      return `${local}@${'d'.repeat(Math.max(1, domainLen))}.test`;
    }
    case 'url': {
      const head = 'https://merchant.example.test/';
      return head + 'p'.repeat(Math.max(0, n - head.length));
    }
    case 'numeric':
    case 'numeric-symbols':
      return ZERO_PADDED.has(def.name) ? '1'.padStart(n, '0') : '1'.repeat(n);
    case 'date':
      return '2026-01-05'.padEnd(n, '0').slice(0, n);
    case 'date-month':
      return '12/2031'.padEnd(n, '0').slice(0, n);
    default:
      return 'A'.repeat(n);
  }
}

/** A sample value of the field, well formed (what an optional field is sent with when it is not the one tested). */
export function sampleValue(def: FieldDef): string {
  if (def.request?.values) return def.request.values[0];
  if (def.examples) return def.examples[0];
  if (def.type === 'numeric-symbols') return '+44 (0)20 7946-0000';
  return valueOfLength(def, Math.min(def.request?.maxLength ?? 8, def.type === 'email' || def.type === 'url' ? 40 : 8));
}

/** The kinds of character outside a class: one case per kind, so that a gateway admitting one kind is caught. */
const KINDS: readonly { readonly kind: string; readonly test: RegExp }[] = [
  { kind: 'a letter', test: /^[A-Za-z]$/ },
  { kind: 'a digit', test: /^[0-9]$/ },
  { kind: 'a space', test: /^ $/ },
  { kind: 'an underscore', test: /^_$/ },
  { kind: 'a hyphen', test: /^-$/ },
  // Control characters are what these two classes are about.
  // eslint-disable-next-line no-control-regex
  { kind: 'a symbol', test: /^[^A-Za-z0-9 _\-\u0000-\u001f]$/ },
  // eslint-disable-next-line no-control-regex
  { kind: 'a control character', test: /^[\u0000-\u001f\u007f]$/ },
];

function outsidersByKind(type: TypeClass): { kind: string; char: string }[] {
  const out: { kind: string; char: string }[] = [];
  for (const char of TYPE_CLASSES[type].outsiders) {
    const kind = KINDS.find((k) => k.test.test(char))?.kind;
    if (kind && !out.some((o) => o.kind === kind)) out.push({ kind, char });
  }
  return out;
}

const printable = (c: string): string => (c < ' ' || c === '\u007f' ? `U+${c.charCodeAt(0).toString(16).padStart(4, '0')}` : `'${c}'`);

/** The fields a row carries that the phase may set: required, recommended and optional, not links, not forbidden. */
export function fieldsOf(row: OperationRow): string[] {
  const names = [...row.required, ...(row.recommended ?? []), ...(row.optional ?? []), ...(row.cardSource?.[0] ?? [])];
  if (row.requesttypes.includes('STORE') || row.requesttypes.includes('RISKDEC') || row.requesttypes.includes('AUTH')) names.push('pan', 'expirydate');
  const forbidden = new Set(row.forbidden ?? []);
  return [...new Set(names)].filter((f) => !LINKS.has(f) && !forbidden.has(f) && FIELD[f]?.request && !FIELD[f].aliasOf && !FIELD[f].source);
}

/** The rule a field's value-list case checks, by row: the document's sentence listing those values. */
function valuesRule(row: OperationRow, field: string): string {
  if (field === 'billingtelephonetype') return 'FIELD-TELEPHONETYPE';
  if (field === 'transactionactive') return 'SUB-TRANSACTIONACTIVE-VALUES';
  if (field === 'accounttypedescription') {
    if (row.id === 'threedquery') return 'FIELD-ACCOUNTTYPE-THREEDQUERY';
    if (row.id === 'store') return 'STORE-SHAPE';
    if (row.id.startsWith('riskdec-card')) return 'RISKDEC-CARD';
    return 'FIELD-ACCOUNTTYPE-PAYMENTS';
  }
  return 'FIELD-TYPES';
}

/** The rule of a row's "Fields" cell: what a required field left out breaks. */
const ROW_RULE: Readonly<Record<string, string>> = {
  threedquery: '3DS-QUERY-REQUEST',
  store: 'STORE-SHAPE',
  'riskdec-card': 'RISKDEC-CARD',
  'subscription-no-3ds': 'SUB-NO-3DS',
};

/** Fields a row names as recommended, and the rule that says leaving one out is allowed. */
const RECOMMENDED_RULE: Readonly<Record<string, string>> = {
  useragent: '3DS-USERAGENT',
  securitycode: 'FIELD-SECURITYCODE-OPTIONAL',
  credentialsonfile: 'FIELD-CREDENTIALSONFILE-OMITTED',
};

/** A country whose postcodes the document does not validate (any but the United States, Great Britain and Canada). */
const OTHER_COUNTRY = 'FR';

function casesOfField(row: OperationRow, field: string): BoundaryCase[] {
  const def = FIELD[field];
  const side = def.request!;
  const out: BoundaryCase[] = [];
  const add = (label: string, value: string | undefined, expect: Expectation, rule: string, extra: Partial<BoundaryCase> = {}): void => {
    // "Field length limits are listed in the field tables" (Limits, 1): every length case checks it too.
    // "`baseamount` has at most 13 digits" (Limits, 2): an amount longer than that breaks that sentence too.
    const amount = field === 'baseamount' && expect === 'refuses' ? ['LIMIT-BASEAMOUNT'] : [];
    const more = rule === 'FIELD-LENGTHS' ? { alsoRules: [`LIMIT-FIELD-LENGTHS:${field}`, ...amount] } : {};
    out.push({ row: row.id, field, label, value, expect, rule: `${rule}:${field}`, ...more, ...extra });
  };
  const fixed = row.fixed?.[field];
  const allowed = fixed ?? side.values;
  const max = side.maxLength;
  const min = side.minLength;
  const formatted = ['email', 'url', 'date', 'date-month'].includes(def.type);

  // ---- lengths: "The number is the maximum length, unless a range is given."
  if (max !== undefined && max <= 4096) {
    if (!MEANINGFUL.has(field) && !allowed && !def.examples && !(min !== undefined && min === max)) add(`longest (${max})`, valueOfLength(def, max), 'takes', 'FIELD-LENGTHS');
    add(`one longer (${max + 1})`, valueOfLength(def, max + 1), 'refuses', 'FIELD-LENGTHS');
  }
  if (min !== undefined && min > 1) add(`one shorter (${min - 1})`, valueOfLength(def, min - 1), 'refuses', 'FIELD-LENGTHS');

  // ---- type classes: each kind of character outside the field's class.
  if (!def.lenient && !formatted && !allowed && def.type !== 'text' && def.type !== 'char' && !def.validatedWhen) {
    const base = allowed?.[0] ?? (field === 'pan' ? '4111111111111111' : valueOfLength(def, Math.max(min ?? 1, Math.min(max ?? 4, 4))));
    const telephone = field === 'billingtelephone';
    for (const { kind, char } of outsidersByKind(def.type)) {
      const value = base.slice(0, -1) + char;
      add(`with ${kind} (${printable(char)})`, value, 'refuses', telephone ? 'FIELD-TELEPHONE-ALPHABET' : 'FIELD-TYPES', char < ' ' || char === '\u007f' ? { jsonOnly: true } : {});
    }
  }
  if (def.validatedWhen) {
    // "Validated only when the country is the United States, Great Britain or Canada."
    const country = def.validatedWhen.values[0];
    for (const { kind, char } of outsidersByKind(def.type)) {
      add(`with ${kind} (${printable(char)}) for ${country}`, `TE1${char}1ST`, 'refuses', 'FIELD-POSTCODE-VALIDATION', { also: { [def.validatedWhen.field]: country } });
    }
    // "It is not validated for other or missing countries": the same value taken for a country not listed, and for none.
    const other = OTHER_COUNTRY;
    if (!def.validatedWhen.values.includes(other)) add(`with a symbol ('#') for ${other}`, 'TE1#1ST', 'takes', 'FIELD-POSTCODE-VALIDATION', { also: { [def.validatedWhen.field]: other } });
    add(`with a symbol ('#') and no country`, 'TE1#1ST', 'takes', 'FIELD-POSTCODE-VALIDATION');
  }
  if (field === 'billingtelephone') {
    // "Digits 0-9, spaces, and the characters `+ - ( )`": every one of them taken.
    add('of every allowed character', '+44 (0)20 7946-0000', 'takes', 'FIELD-TELEPHONE-ALPHABET');
  }

  // ---- value lists: each listed value taken, an unlisted one refused.
  if (allowed) {
    const rule = valuesRule(row, field);
    for (const v of allowed) add(`listed '${v}'`, v, 'takes', rule);
    const others = (side.values ?? []).filter((v) => !allowed.includes(v));
    for (const v of others.slice(0, 1)) add(`'${v}', not listed for this row`, v, 'refuses', rule);
    const unlisted = def.type === 'numeric' ? '9' : def.type === 'char' ? 'X' : 'XXXX';
    if (!(side.values ?? []).includes(unlisted)) add(`unlisted '${unlisted}'`, unlisted, 'refuses', rule);
    // The document names these values exactly: with a surrounding space or in another letter case they are others.
    const first = allowed[0];
    const recased = first.toLowerCase() === first ? first.toUpperCase() : first.toLowerCase();
    if (recased !== first && !(side.values ?? []).includes(recased)) add(`listed '${first}' in another letter case`, recased, 'refuses', rule);
    add(`listed '${first}' with a leading space`, ` ${first}`, 'refuses', rule);
    add(`listed '${first}' with a trailing space`, `${first} `, 'refuses', rule);
  }

  // ---- formats.
  if (def.type === 'email') {
    add('with 64 characters before the @', `${'l'.repeat(64)}@example.test`, 'takes', 'FIELD-EMAIL-LOCALPART');
    add('with 65 characters before the @', `${'l'.repeat(65)}@example.test`, 'refuses', 'FIELD-EMAIL-LOCALPART');
    add('without an @', 'customer.example.test', 'refuses', 'FIELD-TYPES');
  }
  if (def.type === 'url') add('not a URL', 'merchant example test', 'refuses', 'FIELD-TYPES');
  if (def.type === 'date') add('written YYYY/MM/DD', '2026/01/05', 'refuses', 'FIELD-TYPES');
  if (def.type === 'date-month') add('with month 13', '13/2031', 'refuses', 'FIELD-TYPES');

  // ---- amounts: "It must be greater than zero, except that ACCOUNTCHECK allows `0`."
  if (field === 'baseamount') add('of 0', '0', row.zeroAmount ? 'takes' : 'refuses', 'FIELD-BASEAMOUNT-POSITIVE');

  // ---- what a row requires or recommends.
  const rowRule = ROW_RULE[row.id];
  if (rowRule && row.required.includes(field)) add('left out (required)', undefined, 'refuses', rowRule);
  if (row.recommended?.includes(field) && RECOMMENDED_RULE[field]) add('left out (recommended)', undefined, 'takes', RECOMMENDED_RULE[field]);
  return out;
}

/** Every case of the phase, in a stable order: by row, then by field as the row lists them. */
export function boundaryCases(): BoundaryCase[] {
  const out: BoundaryCase[] = [];
  for (const r of BOUNDARY_ROWS) {
    const row = OPERATION[r.id];
    for (const field of fieldsOf(row)) out.push(...casesOfField(row, field));
  }
  return out;
}

let byKey: Map<string, BoundaryCase> | undefined;

/** The case of a row, field and label (what a step of the feature names). */
export function boundaryCase(row: string, field: string, label: string): BoundaryCase | undefined {
  byKey ??= new Map(boundaryCases().map((c) => [`${c.row}\u0000${c.field}\u0000${c.label}`, c]));
  return byKey.get(`${row}\u0000${field}\u0000${label}`);
}
