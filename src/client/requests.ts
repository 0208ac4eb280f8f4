/**
 * What the merchant sends: a request object for one row of the document's "Request types" table
 * (schemas/operations.ts), filled from the profile. Which fields go in comes from the row (required, then
 * recommended); a field's fixed values (`accounttypedescription`) and example values (`subscriptiontype`) come
 * from the row and the dictionary. Only the values the document leaves open are chosen here, in `CHOSEN`.
 */
import { FIELD } from '../../schemas/fields';
import { OPERATIONS, type OperationRow } from '../../schemas/operations';
import { addUnits } from '../calendar';
import type { RequestObject } from '../wire/types';
import type { Profile, ProfileCard } from './profile';

/** Values the document leaves to the merchant: cardspec's choices, none of them a rule. */
export const CHOSEN: Readonly<Record<string, string>> = {
  baseamount: '1050',
  termurl: 'https://merchant.example.test/3ds/return',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  useragent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  subscriptionfrequency: '1',
  subscriptionnumber: '1',
  subscriptionfinalnumber: '12',
  credentialsonfile: '1',
  billingpremise: '1',
  billingpostcode: 'TE1 1ST',
};

/** Fields that carry the card or a link to earlier data: they come from the `CardSource`, never from defaults. */
const SOURCE_FIELDS = new Set(['pan', 'expirydate', 'securitycode', 'cachetoken', 'parenttransactionreference', 'md', 'pares']);

/** Where the card comes from (one or more of these, as the scenario says). */
export interface CardSource {
  readonly card?: ProfileCard;
  readonly cachetoken?: string;
  readonly parent?: string;
  readonly md?: string;
  readonly pares?: string;
}

export interface BuildContext {
  readonly profile: Profile;
  readonly site: string;
  /** The target's date (`YYYY-MM-DD`): subscription dates are counted from it. */
  readonly today: string;
  /** A fresh order reference for this request. */
  readonly orderreference: string;
}

/** The row with this "Operation" title, or an error naming the titles there are. */
export function operationByTitle(title: string): OperationRow {
  const row = OPERATIONS.find((o) => o.title === title);
  if (!row) throw new Error(`no operation "${title}" in the Request types table; the operations are: ${OPERATIONS.map((o) => `"${o.title}"`).join(', ')}`);
  return row;
}

/**
 * `YYYY-MM-DD` plus whole days or months (a month from the 31st falls back to the month's last day). The
 * reference gateway's own arithmetic, so that the kit's "a month later" is the gateway's.
 */
export function addToDate(date: string, count: number, unit: 'day' | 'month'): string {
  return addUnits(date, count, unit === 'day' ? 'DAY' : 'MONTH');
}

function defaultValue(name: string, row: OperationRow, ctx: BuildContext): string | undefined {
  const fixed = row.fixed?.[name];
  if (fixed) return fixed[0];
  const examples = FIELD[name]?.examples;
  if (examples) return examples[0];
  switch (name) {
    case 'sitereference':
      return ctx.site;
    case 'currencyiso3a':
      return ctx.profile.currency;
    case 'orderreference':
      return ctx.orderreference;
    case 'subscriptionbegindate':
      // The second payment one period after the first, the usual monthly subscription.
      return addToDate(ctx.today, 1, 'month');
    case 'billingpremise':
    case 'billingpostcode':
      return ctx.profile.security?.[name].matched ?? CHOSEN[name];
    default:
      return CHOSEN[name];
  }
}

/**
 * The request object of a row. `overrides` sets fields, or removes them when the value is `undefined`; they are
 * applied last, so a scenario can send exactly what it means to.
 */
export function buildRequest(row: OperationRow, ctx: BuildContext, source: CardSource, overrides: Readonly<Record<string, string | undefined>> = {}): RequestObject {
  const obj: Record<string, unknown> = { requesttypedescriptions: [...row.requesttypes] };
  for (const name of [...row.required, ...(row.recommended ?? [])]) {
    // Source fields come from `source`; overridden ones from `overrides` (their default may need what is absent).
    if (SOURCE_FIELDS.has(name) || name in overrides) continue;
    const v = defaultValue(name, row, ctx);
    if (v !== undefined) obj[name] = v;
  }
  const forbidden = new Set(row.forbidden ?? []);
  const takesSecuritycode = !forbidden.has('securitycode') && [...row.required, ...(row.recommended ?? [])].includes('securitycode');
  if (source.card) {
    obj.pan = source.card.pan;
    obj.expirydate = source.card.expirydate;
    if (takesSecuritycode && source.card.securitycode) obj.securitycode = source.card.securitycode;
  }
  if (source.cachetoken !== undefined) obj.cachetoken = source.cachetoken;
  if (source.parent !== undefined) obj.parenttransactionreference = source.parent;
  if (source.md !== undefined) obj.md = source.md;
  if (source.pares !== undefined) obj.pares = source.pares;
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete obj[k];
    else obj[k] = v;
  }
  return obj;
}

/** The public shape of a follow-up's `filter` (public-facts.md): lists of `{"value": ...}`. */
export function filterFor(site: string, ref: string): Record<string, { value: string }[]> {
  return { sitereference: [{ value: site }], transactionreference: [{ value: ref }] };
}
