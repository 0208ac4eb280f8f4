/**
 * A valid request object for an operation row of the "Request types" table (schemas/operations.ts): the row's
 * request types, every required field, recommended and optional fields sometimes, one of the row's card sources,
 * the row's fixed values, never a forbidden field. Card numbers come only from src/testdata.ts's TEST_CARDS
 * (Luhn-valid test cards): a random PAN could be a real customer's.
 */
import fc from 'fast-check';
import { FIELD, FIELDS } from '../schemas/fields';
import { OPERATION, OPERATIONS, type OperationRow } from '../schemas/operations';
import { TYPE_CLASSES } from '../schemas/typeclasses';
import { TEST_CARDS, type TestCard } from '../src/testdata';
import type { RequestObject } from '../src/wire/types';
import { fieldRecord, LEFT_OUT, type RecordField } from './record';
import { amount, classString, fieldValue, laxFieldValue, positiveAmount, sideFor } from './values';

/** Any of the test cards. */
export const testCard: fc.Arbitrary<TestCard> = fc.constantFrom(...Object.values(TEST_CARDS));

export function rowOf(row: OperationRow | string): OperationRow {
  if (typeof row !== 'string') return row;
  const found = OPERATION[row];
  if (!found) throw new Error(`generators: no operation row '${row}' in schemas/operations.ts`);
  return found;
}

/** A field that may hold either of two values, settled once the whole object is known (`validatedWhen`). */
class Conditional {
  constructor(
    readonly strict: string,
    readonly lax: string,
  ) {}
}

/** `{"value": ...}` items of the public `filter` shape. */
const valueItems = (arb: fc.Arbitrary<string>, minLength: number, maxLength: number): fc.Arbitrary<{ value: string }[]> =>
  fc.array(
    arb.map((value) => ({ value })),
    { minLength, maxLength },
  );

/**
 * The public `filter` shape (public-facts.md): lists of `{value}` keyed by field name. TRANSACTIONQUERY may name
 * several transactions (`transactionreference` "may repeat"); TRANSACTIONUPDATE names the one to change. With known
 * values, the references and the site are the target's.
 */
export function filterValue(row: OperationRow, known: KnownValues = {}): fc.Arbitrary<Record<string, { value: string }[]>> {
  const many = row.requesttypes.includes('TRANSACTIONQUERY');
  return fc.record(
    {
      transactionreference: valueItems(oneOfKnown(known.parenttransactionreference) ?? fieldValue('transactionreference', 'response'), 1, many ? 3 : 1),
      sitereference: valueItems(oneOfKnown(known.sitereference) ?? fieldValue('sitereference', 'request'), 1, 1),
    },
    { noNullPrototype: true, requiredKeys: ['transactionreference'] },
  );
}

/** `updates`: "a new `baseamount`" (Request types table), and sometimes `transactionactive` (States and transitions). */
export function updatesValue(): fc.Arbitrary<Record<string, string>> {
  return fc.record({ baseamount: positiveAmount('request'), transactionactive: fieldValue('transactionactive', 'request') }, { noNullPrototype: true, requiredKeys: ['baseamount'] });
}

/** A whole number of at least 1 within a numeric field's length, written without leading zeros. */
function positiveNumber(name: string): fc.Arbitrary<string> {
  const { def, side } = sideFor(name, 'request');
  const restMax = side.maxLength === undefined ? undefined : side.maxLength - 1;
  const nonZero = TYPE_CLASSES[def.type].alphabet.replace('0', '');
  return fc.tuple(fc.constantFrom(...nonZero), classString(def.type, 0, restMax)).map(([first, rest]) => first + rest);
}

/**
 * Fields that switch another field's check on (`billingcountryiso2a` for `billingpostcode`): half the time they
 * take one of the switching values, so that both sides of the condition are generated.
 */
const CONDITION_VALUES: ReadonlyMap<string, readonly string[]> = new Map(FIELDS.flatMap((d) => (d.validatedWhen ? [[d.validatedWhen.field, d.validatedWhen.values] as const] : [])));

/** A card as a request carries it: one of the kit's test cards, or a target's (whose security code may be unknown). */
export interface RequestCard {
  readonly pan: string;
  readonly expirydate: string;
  readonly securitycode?: string;
}

/** Fields whose value must name something a target knows: its site, its currency, its cache tokens, its transactions. */
export type KnownValues = Readonly<Partial<Record<'sitereference' | 'currencyiso3a' | 'cachetoken' | 'parenttransactionreference', readonly string[]>>>;

const oneOfKnown = (values: readonly string[] | undefined): fc.Arbitrary<string> | undefined => (values && values.length > 0 ? fc.constantFrom(...values) : undefined);

export interface RequestOptions {
  /** The cards to draw from (default: all of TEST_CARDS). */
  readonly cards?: readonly RequestCard[];
  /** `expirydate` is the drawn card's own, not a generated date (a target may check that they match). */
  readonly cardExpiry?: boolean;
  /** Fields that take one of the listed values whenever they are sent. */
  readonly known?: KnownValues;
  /** Fields that switch another's check on send only the switching values (the document names those countries). */
  readonly switchingValuesOnly?: boolean;
}

/** The arbitrary of one field of a row's request; `undefined` when the field cannot be sent with this card. */
function fieldArb(row: OperationRow, name: string, card: RequestCard, options: RequestOptions): fc.Arbitrary<unknown> | undefined {
  switch (name) {
    case 'pan':
      return fc.constant(card.pan);
    case 'securitycode':
      // A target's card whose security code the profile does not give: none is sent.
      return card.securitycode === undefined ? undefined : fc.constant(card.securitycode);
    case 'expirydate':
      if (options.cardExpiry) return fc.constant(card.expirydate);
      break;
    case 'filter':
      return filterValue(row, options.known);
  }
  const known = oneOfKnown(options.known?.[name as keyof KnownValues]);
  if (known) return known;
  const fixed = row.fixed?.[name];
  if (fixed) return fc.constantFrom(...fixed);
  switch (name) {
    case 'baseamount':
      return amount(row.zeroAmount === true);
    // "`subscriptionnumber`: Number of the payment. It starts at `1` for a new subscription" and
    // "`subscriptionfrequency`: Number of units between payments": neither is ever zero.
    case 'subscriptionnumber':
    case 'subscriptionfrequency':
      return positiveNumber(name);
    case 'updates':
      return updatesValue();
  }
  const triggers = CONDITION_VALUES.get(name);
  if (triggers) return options.switchingValuesOnly ? fc.constantFrom(...triggers) : fc.oneof(fc.constantFrom(...triggers), fieldValue(name, 'request'));
  if (FIELD[name]?.validatedWhen) {
    return fc.tuple(fieldValue(name, 'request'), laxFieldValue(name, 'request')).map(([s, l]) => new Conditional(s, l));
  }
  return fieldValue(name, 'request');
}

const unique = (names: readonly string[]): string[] => [...new Set(names)];

/** A valid request object for one operation row (by row or by id). */
export function requestFor(row: OperationRow | string, options: RequestOptions = {}): fc.Arbitrary<RequestObject> {
  const r = rowOf(row);
  const cards: fc.Arbitrary<RequestCard> = options.cards && options.cards.length > 0 ? fc.constantFrom(...options.cards) : testCard;
  const sources: readonly (readonly string[])[] = r.cardSource && r.cardSource.length > 0 ? r.cardSource : [[]];
  const forbidden = new Set(r.forbidden ?? []);
  // The record arbitrary of one (card, card source) pair is the same every time: built once per pair, not once per
  // generated request (the chainer runs for every value; building the record was most of a fuzz case's cost).
  const built = new Map<RequestCard, Map<readonly string[], fc.Arbitrary<RequestObject>>>();
  return fc.tuple(cards, fc.constantFrom(...sources)).chain(([card, source]) => {
    let perSource = built.get(card);
    if (!perSource) built.set(card, (perSource = new Map()));
    let arb = perSource.get(source);
    if (!arb) perSource.set(source, (arb = recordFor(r, card, source, forbidden, options)));
    return arb;
  });
}

/**
 * The fields of a request of a row, for one card and one card source, built in one object: conditional values
 * settled (`validatedWhen`), and an alias spelling (`billingprefix`) dropped when its canonical field is sent.
 */
function recordFor(r: OperationRow, card: RequestCard, source: readonly string[], forbidden: ReadonlySet<string>, options: RequestOptions): fc.Arbitrary<RequestObject> {
  const required = new Set(unique([...r.required, ...source]).filter((n) => !forbidden.has(n)));
  const names = unique([...required, ...(r.recommended ?? []), ...(r.optional ?? [])]).filter((n) => !forbidden.has(n));
  const fields: RecordField[] = [];
  for (const name of names) {
    const arb = fieldArb(r, name, card, options);
    if (arb) fields.push({ name, arb, required: required.has(name) });
  }
  // What each field's value depends on, looked up once per record rather than on every draw: the canonical field
  // that makes an alias spelling unsent, and the field that switches a conditional value's check on.
  const index = new Map(fields.map((f, i) => [f.name, i]));
  const plan = fields.map(({ name }) => {
    const def = FIELD[name];
    const when = def?.validatedWhen;
    return { name, canonical: def?.aliasOf === undefined ? undefined : index.get(def.aliasOf), switching: when && index.get(when.field), switchValues: when?.values ?? [] };
  });
  const types = r.requesttypes;
  return fieldRecord(fields, (values) => {
    const out: RequestObject = { requesttypedescriptions: [...types] };
    for (let i = 0; i < plan.length; i++) {
      const v = values[i];
      if (v === LEFT_OUT) continue;
      const { name, canonical, switching, switchValues } = plan[i];
      if (canonical !== undefined && values[canonical] !== LEFT_OUT) continue;
      if (v instanceof Conditional) {
        const sw = switching === undefined ? LEFT_OUT : values[switching];
        out[name] = sw !== LEFT_OUT && switchValues.includes(String(sw)) ? v.strict : v.lax;
      } else {
        out[name] = v;
      }
    }
    return out;
  });
}

/** A row of the table and a valid request object for it. */
export function anyRequest(options: RequestOptions = {}): fc.Arbitrary<{ row: OperationRow; request: RequestObject }> {
  return fc.constantFrom(...OPERATIONS).chain((row) => requestFor(row, options).map((request) => ({ row, request })));
}
