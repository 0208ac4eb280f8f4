/**
 * Valid requests in the context of one target: the row's request (./requests) with the values that must name
 * something the target knows put in place: the merchant site, the profile's test cards, cache tokens the target
 * issued, and references of transactions it made. A random `parenttransactionreference` is valid by the field
 * dictionary but names nothing, so a target refuses it for a reason of its own; with the context, a generated
 * request is one the target has every reason to accept.
 *
 * Which earlier transaction a row may name as its parent is read from the document, row by row (PARENT_KINDS).
 */
import fc from 'fast-check';
import { FIELD } from '../schemas/fields';
import { OPERATIONS, type OperationRow } from '../schemas/operations';
import type { RequestObject } from '../src/wire/types';
import { requestFor, rowOf } from './requests';

/** A test card of the profile (`securitycode` may be unknown). */
export interface ContextCard {
  readonly pan: string;
  readonly expirydate: string;
  readonly securitycode?: string;
}

/** What an earlier transaction was, as far as a child request cares. */
export type ParentKind = 'AUTH' | 'ACCOUNTCHECK' | 'STORE' | 'THREEDQUERY-N' | 'RISKDEC-ACCEPT' | 'SUBSCRIPTION';

export interface RequestContext {
  /** The merchant site every request names. */
  readonly site: string;
  /** The profile's test cards: the only card numbers ever sent. */
  readonly cards: readonly ContextCard[];
  /** The currency the target's test site takes (a random three letters is valid but may be no currency). */
  readonly currency?: string;
  /** Cache tokens the target issued (test-control API). */
  readonly cachetokens?: readonly string[];
  /** References of transactions the target made, by kind. */
  readonly parents?: Readonly<Partial<Record<ParentKind, readonly string[]>>>;
}

/**
 * The parents each row may name, with the document's reason:
 * - AUTH after 3-D Secure, card not enrolled or unknown, and Subscription, card not enrolled: "Send AUTH with
 *   `parenttransactionreference` (the THREEDQUERY's `transactionreference`)" (enrolment `N`, `U`);
 * - THREEDQUERY: "A stored card (STORE) can be referenced in a THREEDQUERY" (rule 7) and "send the RISKDEC's
 *   `transactionreference` as `parenttransactionreference` of the THREEDQUERY" (rule 5; an ACCEPT, so that the
 *   query is not refused with 60107);
 * - Risk decision after a payment: "(the payment's reference)";
 * - the AUTH-field rows and STORE: "A later request inherits details (card, billing, delivery, other submitted
 *   fields) from an earlier one" and "Fields sent in an ACCOUNTCHECK are inherited by its child requests";
 * - TRANSACTIONUPDATE: "the SUBSCRIPTION's `transactionreference`"; TRANSACTIONQUERY: any transaction.
 */
export const PARENT_KINDS: Readonly<Record<string, readonly ParentKind[]>> = {
  'auth-3ds-not-enrolled': ['THREEDQUERY-N'],
  'subscription-not-enrolled': ['THREEDQUERY-N'],
  threedquery: ['STORE', 'RISKDEC-ACCEPT'],
  'riskdec-after-payment': ['AUTH'],
  auth: ['AUTH', 'ACCOUNTCHECK'],
  accountcheck: ['AUTH', 'ACCOUNTCHECK'],
  'riskdec-then-auth': ['AUTH', 'ACCOUNTCHECK'],
  'auth-then-riskdec': ['AUTH', 'ACCOUNTCHECK'],
  store: ['AUTH', 'ACCOUNTCHECK'],
  transactionupdate: ['SUBSCRIPTION'],
  transactionquery: ['AUTH', 'ACCOUNTCHECK', 'STORE', 'THREEDQUERY-N', 'RISKDEC-ACCEPT', 'SUBSCRIPTION'],
};

/** The references a row may name in this context. */
export function parentsFor(row: OperationRow, ctx: RequestContext): string[] {
  return (PARENT_KINDS[row.id] ?? []).flatMap((k) => [...(ctx.parents?.[k] ?? [])]);
}

/** The row with only the card sources this context can fill; `undefined` when it can fill none it needs. */
export function rowInContext(row: OperationRow, ctx: RequestContext): OperationRow | undefined {
  const parents = parentsFor(row, ctx).length > 0;
  const has = (f: string): boolean =>
    f === 'parenttransactionreference' ? parents : f === 'cachetoken' ? (ctx.cachetokens?.length ?? 0) > 0 : f === 'pan' || f === 'expirydate' ? ctx.cards.length > 0 : true;
  if (!row.required.every(has)) return undefined;
  if (row.publicShape && !parents) return undefined;
  if (!row.cardSource) return row;
  const cardSource = row.cardSource.filter((set) => set.every(has));
  return cardSource.length > 0 ? { ...row, cardSource } : undefined;
}

/** The rows of the table a context can make valid requests of. */
export function rowsInContext(ctx: RequestContext, rows: readonly OperationRow[] = OPERATIONS): OperationRow[] {
  return rows.flatMap((r) => rowInContext(r, ctx) ?? []);
}

/**
 * A valid request object of a row (by row or id) in a target's context: the context's site, currency, cards (with
 * their own expiry dates; no security code where the profile gives none), cache tokens and parents wherever the
 * request sends them. "`billingcountryiso2a`: Two-letter country code": two random letters are not necessarily a
 * country, so a request in context names only the countries the document names ("the United States, Great Britain
 * or Canada"), or none.
 */
export function requestInContext(row: OperationRow | string, ctx: RequestContext): fc.Arbitrary<RequestObject> {
  const base = rowOf(row);
  const r = rowInContext(base, ctx);
  if (!r) throw new Error(`generators: the context cannot fill a request of row '${base.id}' (no card, cache token or parent it needs)`);
  return requestFor(r, {
    cards: ctx.cards,
    cardExpiry: true,
    switchingValuesOnly: true,
    known: {
      sitereference: [ctx.site],
      currencyiso3a: ctx.currency === undefined ? undefined : [ctx.currency],
      cachetoken: ctx.cachetokens,
      parenttransactionreference: parentsFor(base, ctx),
    },
  });
}

/** Fields whose value names something in the target (a site, a token, a transaction, an ACS exchange). */
export const REFERENCE_FIELDS: readonly string[] = ['sitereference', 'cachetoken', 'parenttransactionreference', 'md', 'pares'].filter((f) => FIELD[f] !== undefined);
