/**
 * The earlier steps a client case needs (a THREEDQUERY, the ACS, a payment, a stored card), run in-process through
 * the gateway's core before the adapter starts, so that the adapter makes exactly one call per case. And the request
 * objects the adapter is given, one builder per row of the Request types table, from the reference gateway's test
 * cards (src/testdata.ts): the answers are the gateway's own.
 */
import { OPERATION } from '../../schemas/operations';
import type { Runtime } from '../gateway';
import { processEnvelope } from '../gateway';
import { acsComplete } from '../gateway/acs';
import { control } from '../gateway/control';
import { MCC_6012_FIELDS, SECURITY_TRIGGERS, TEST_CARDS, type AcsStatus, type CardName, type UserConfig } from '../testdata';
import type { RequestObject, ResponsePart } from '../wire/types';

export interface CaseContext {
  readonly rt: Runtime;
  /** The account the adapter is given (for most cases the first of the configuration). */
  readonly user: UserConfig;
  /** A site of that account with card store and fraud control, outside category 6012. */
  readonly site: string;
  /** A site of that account whose merchant category is 6012 (`60025`), when it has one. */
  readonly site6012?: string;
  /** `http://host:port` of the gateway, as the adapter reaches it (`acsurl` is built from it). */
  readonly baseUrl: string;
}

/** One request object through the gateway's core, as the user (not an observed call: the adapter's is the one). */
export function callInProcess(ctx: CaseContext, request: RequestObject): ResponsePart[] {
  const env = processEnvelope(ctx.rt, { alias: ctx.user.alias, version: '1.00', request: [request] }, { user: ctx.user, format: 'json', baseUrl: ctx.baseUrl });
  return Array.isArray(env.response) ? (env.response as ResponsePart[]) : [];
}

/** An earlier step that must succeed: its first part. */
export function ok(ctx: CaseContext, request: RequestObject): ResponsePart {
  const parts = callInProcess(ctx, request);
  const failed = parts.find((p) => p.errorcode !== '0');
  if (parts.length === 0 || failed) {
    const types = Array.isArray(request.requesttypedescriptions) ? (request.requesttypedescriptions as string[]).join('+') : '?';
    throw new Error(`the case's earlier ${types} was answered errorcode ${String(failed?.errorcode ?? 'none')}`);
  }
  return parts[0];
}

const ref = (part: ResponsePart): string => String(part.transactionreference);

/** What the JavaScript library would have posted to the merchant for a test card (the control API's cache token). */
export function token(ctx: CaseContext, name: CardName): string {
  const c = TEST_CARDS[name];
  const r = control(ctx.rt, 'POST', '/_cardspec/cachetokens', new URLSearchParams(), { pan: c.pan, expirydate: c.expirydate, securitycode: c.securitycode });
  const body = r.body as { cachetoken?: string; error?: string };
  if (!body.cachetoken) throw new Error(`no cache token: ${body.error ?? r.status}`);
  return body.cachetoken;
}

export const cardFields = (name: CardName): RequestObject => {
  const c = TEST_CARDS[name];
  return { pan: c.pan, expirydate: c.expirydate, securitycode: c.securitycode };
};

export const payment = (ctx: CaseContext, id: string, site: string = ctx.site): RequestObject => ({
  sitereference: site,
  accounttypedescription: 'ECOM',
  currencyiso3a: 'GBP',
  baseamount: '1050',
  orderreference: `cardspec-case-${id}`,
});

export const SUBSCRIPTION: RequestObject = {
  subscriptiontype: 'RECURRING',
  subscriptionunit: 'MONTH',
  subscriptionfrequency: '1',
  subscriptionnumber: '1',
  subscriptionfinalnumber: '12',
  subscriptionbegindate: '2026-02-05',
  credentialsonfile: '1',
};

const BROWSER = {
  termurl: 'https://merchant.example/return',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  useragent: 'Mozilla/5.0 (X11; Linux x86_64) cardspec client case',
};

/** The THREEDQUERY row: the card as a cache token (or a parent, rule 5). */
export function threedquery(ctx: CaseContext, card: CardName | { parent: string } | { cachetoken: string }): RequestObject {
  const source = typeof card === 'string' ? { cachetoken: token(ctx, card) } : 'parent' in card ? { parenttransactionreference: card.parent } : card;
  return {
    requesttypedescriptions: [...OPERATION.threedquery.requesttypes],
    ...BROWSER,
    ...source,
    currencyiso3a: 'GBP',
    accounttypedescription: 'ECOM',
    sitereference: ctx.site,
    baseamount: '1050',
  };
}

/** THREEDQUERY for an enrolled card, then the ACS with an outcome: the `md` and `pares` the AUTH is to send. */
export function authenticated(ctx: CaseContext, card: CardName, outcome: AcsStatus): { md: string; pares: string } {
  const query = ok(ctx, threedquery(ctx, card));
  const form = new URLSearchParams({ PaReq: String(query.pareq), TermUrl: BROWSER.termurl, MD: String(query.md), outcome });
  const page = acsComplete(ctx.rt, form);
  const pares = ctx.rt.ledger.get(ref(query))?.threeds?.pares;
  if (page.status !== 200 || pares === undefined) throw new Error(`the emulated ACS refused the case's authentication (${page.status})`);
  return { md: String(query.md), pares };
}

/** "AUTH after 3-D Secure, enrolled card": `md`, `pares` only. */
export const authEnrolled = (ctx: CaseContext, card: CardName, outcome: AcsStatus): RequestObject => ({
  requesttypedescriptions: [...OPERATION['auth-3ds-enrolled'].requesttypes],
  ...authenticated(ctx, card, outcome),
});

/** "AUTH after 3-D Secure, card not enrolled or unknown": `sitereference`, `parenttransactionreference` only. */
export const authNotEnrolled = (ctx: CaseContext, card: CardName): RequestObject => ({
  requesttypedescriptions: [...OPERATION['auth-3ds-not-enrolled'].requesttypes],
  sitereference: ctx.site,
  parenttransactionreference: ref(ok(ctx, threedquery(ctx, card))),
});

/** The ordinary AUTH of rule 1, with a cache token. */
export const authWithToken = (ctx: CaseContext, id: string, card: CardName = 'authorised', site?: string): RequestObject => ({
  requesttypedescriptions: [...OPERATION.auth.requesttypes],
  ...payment(ctx, id, site),
  cachetoken: token(ctx, card),
});

/** The three subscription rows: enrolled (md, pares), not enrolled (parent), without 3-D Secure (the card). */
export function subscription(ctx: CaseContext, id: string, how: 'enrolled' | 'not-enrolled' | 'no-3ds', extra: RequestObject = {}, card?: CardName): RequestObject {
  const row = OPERATION[`subscription-${how}`];
  const source =
    how === 'enrolled'
      ? authenticated(ctx, card ?? 'authorised', 'Y')
      : how === 'not-enrolled'
        ? { parenttransactionreference: ref(ok(ctx, threedquery(ctx, card ?? 'notEnrolled'))) }
        : cardFields(card ?? 'authorised');
  return { requesttypedescriptions: [...row.requesttypes], ...payment(ctx, id), ...SUBSCRIPTION, ...extra, ...source };
}

/** The account check row: "normally `billingpremise`, `billingpostcode`, `pan`, `expirydate`, `securitycode`". */
export function accountcheck(ctx: CaseContext, id: string, opts: { card?: CardName; amount?: string; security?: 'matched' | 'notMatched' | 'notChecked'; site?: string } = {}): RequestObject {
  const s = opts.security ?? 'matched';
  return {
    requesttypedescriptions: [...OPERATION.accountcheck.requesttypes],
    ...payment(ctx, id, opts.site),
    baseamount: opts.amount ?? '0',
    billingpremise: SECURITY_TRIGGERS.billingpremise[s],
    billingpostcode: SECURITY_TRIGGERS.billingpostcode[s],
    ...cardFields(opts.card ?? 'authorised'),
    securitycode: SECURITY_TRIGGERS.securitycode[s],
  };
}

/** The card store row, with billing fields. */
export const store = (ctx: CaseContext, id: string, card: CardName = 'authorised'): RequestObject => {
  const { pan, expirydate } = cardFields(card);
  return {
    requesttypedescriptions: [...OPERATION.store.requesttypes],
    sitereference: ctx.site,
    orderreference: `cardspec-case-${id}`,
    accounttypedescription: 'CARDSTORE',
    pan,
    expirydate,
    billingfirstname: 'Ada',
    billinglastname: 'Lovelace',
    billingpremise: '789',
    billingpostcode: 'TE45 6ST',
    billingcountryiso2a: 'GB',
  };
};

const fraudControl = (ctx: CaseContext, id: string): RequestObject => ({ ...payment(ctx, id), accounttypedescription: 'FRAUDCONTROL' });

/** "Risk decision on card data". */
export const riskdecCard = (ctx: CaseContext, id: string, card: CardName = 'authorised'): RequestObject => ({
  requesttypedescriptions: [...OPERATION['riskdec-card'].requesttypes],
  ...fraudControl(ctx, id),
  ...cardFields(card),
});

/** "Risk decision after a payment": an ordinary AUTH in-process first (a declined one for `NOSCORE`). */
export function riskdecAfterPayment(ctx: CaseContext, id: string, card: CardName = 'authorised'): RequestObject {
  const [paid] = callInProcess(ctx, authWithToken(ctx, `${id}-payment`, card));
  if (!paid?.transactionreference) throw new Error(`the case's earlier AUTH was answered errorcode ${String(paid?.errorcode)} without a reference`);
  return { requesttypedescriptions: [...OPERATION['riskdec-after-payment'].requesttypes], ...fraudControl(ctx, id), parenttransactionreference: ref(paid) };
}

/** The combined rows: `["RISKDEC","AUTH"]` and `["AUTH","RISKDEC"]`, "AUTH fields, for example `cachetoken`". */
export const combined = (ctx: CaseContext, id: string, row: 'riskdec-then-auth' | 'auth-then-riskdec', card: CardName = 'authorised'): RequestObject => ({
  ...authWithToken(ctx, id, card),
  requesttypedescriptions: [...OPERATION[row].requesttypes],
});

/** The follow-ups in their public shape: `filter` (lists of `{value}`) and, for an update, `updates`. */
export const transactionupdate = (ctx: CaseContext, target: string, updates: Record<string, string>): RequestObject => ({
  requesttypedescriptions: [...OPERATION.transactionupdate.requesttypes],
  filter: { sitereference: [{ value: ctx.site }], transactionreference: [{ value: target }] },
  updates,
});

export const transactionquery = (ctx: CaseContext, target: string): RequestObject => ({
  requesttypedescriptions: [...OPERATION.transactionquery.requesttypes],
  filter: { sitereference: [{ value: ctx.site }], transactionreference: [{ value: target }] },
});

/** The SUBSCRIPTION part's reference of an AUTH+SUBSCRIPTION made in-process. */
export function subscriptionRef(ctx: CaseContext, id: string): string {
  const parts = callInProcess(ctx, subscription(ctx, `${id}-subscription`, 'no-3ds'));
  const sub = parts.find((p) => p.requesttypedescription === 'SUBSCRIPTION');
  if (!sub || sub.errorcode !== '0') throw new Error(`the case's earlier AUTH+SUBSCRIPTION was answered errorcode ${String(sub?.errorcode)}`);
  return ref(sub);
}

export const storedRef = (ctx: CaseContext, id: string): string => ref(ok(ctx, store(ctx, `${id}-store`)));
export const paymentRef = (ctx: CaseContext, id: string): string => ref(ok(ctx, authWithToken(ctx, `${id}-payment`)));

/** The fields a 6012 site wants (src/testdata.ts): left out on purpose for `60025`. */
export const MCC_FIELDS: readonly string[] = MCC_6012_FIELDS;
