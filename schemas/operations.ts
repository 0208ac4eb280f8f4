/**
 * The document's "Request types" table, row by row, and what each response part holds. With fields.ts this is
 * the whole source the JSON Schemas, the generators and the gateway's request check are derived from.
 *
 * Reading rules, written down once:
 * - a field named in a row's "Fields" cell is required, unless the field table itself says it may be left out:
 *   `credentialsonfile` ("If it is omitted, the service tries to set the correct value itself") and `securitycode`
 *   ("Not strictly required, but recommended") are then `recommended`;
 * - "the fields of AUTH" and "AUTH fields" mean the card may come as `pan`+`expirydate`, as a `cachetoken`, or
 *   through `parenttransactionreference` (Inheritance); the document shows no full AUTH field list, so any of the
 *   three satisfies the row (`cardSource`);
 * - the ordinary AUTH of rule 1 ("the merchant may run an ordinary AUTH without 3-D Secure") has no row of its
 *   own; it is listed here, marked `fromRule`, because every other payment flow leans on it.
 */
import { ECHOES, SECTION, type RequestType } from './fields';

export interface OperationRow {
  /** Stable identifier, also the schema file name stem. */
  readonly id: string;
  /** The document's "Operation" cell. */
  readonly title: string;
  readonly requesttypes: readonly RequestType[];
  readonly required: readonly string[];
  readonly recommended?: readonly string[];
  /** Fields the row names as optional ("optional billing fields"). */
  readonly optional?: readonly string[];
  /** Values a field must take in this operation (`accounttypedescription`). */
  readonly fixed?: Readonly<Record<string, readonly string[]>>;
  /** Fields the document forbids in this operation. */
  readonly forbidden?: readonly string[];
  /**
   * The row's "Fields" cell ends in "only": the request sends its fields and no other field of the document; the
   * rest is inherited from the parent ("all other data is inherited from the THREEDQUERY").
   */
  readonly only?: boolean;
  /** Where the card may come from, when the row leaves it open. Each entry is a set of fields sent together. */
  readonly cardSource?: readonly (readonly string[])[];
  /** `baseamount` may be `0` (ACCOUNTCHECK); elsewhere it must be greater than zero. */
  readonly zeroAmount?: boolean;
  /** The document's "Fields" cell, quoted. */
  readonly quote: string;
  readonly section: string;
  /** Set when the row is read from a rule rather than from the table. */
  readonly fromRule?: string;
  /** Set when the row's shape is the public one because the document says "not shown". */
  readonly publicShape?: boolean;
}

const SUBSCRIPTION_FIELDS = ['subscriptiontype', 'subscriptionunit', 'subscriptionfrequency', 'subscriptionnumber', 'subscriptionfinalnumber', 'subscriptionbegindate'] as const;

export const BILLING_FIELDS = [
  'billingpremise',
  'billingstreet',
  'billingtown',
  'billingcounty',
  'billingcountryiso2a',
  'billingpostcode',
  'billingemail',
  'billingtelephonetype',
  'billingtelephone',
  'billingprefixname',
  'billingprefix',
  'billingfirstname',
  'billingmiddlename',
  'billinglastname',
  'billingsuffixname',
] as const;

const PAYMENT_ACCOUNTS = ['ECOM', 'MOTO'] as const;
const CARD_SOURCES = [['pan', 'expirydate'], ['cachetoken'], ['parenttransactionreference']] as const;

export const OPERATIONS: readonly OperationRow[] = [
  {
    id: 'threedquery',
    title: '3-D Secure enrolment check',
    requesttypes: ['THREEDQUERY'],
    required: ['termurl', 'accept', 'currencyiso3a', 'accounttypedescription', 'sitereference', 'baseamount'],
    recommended: ['useragent'],
    fixed: { accounttypedescription: ['ECOM'] },
    // The row requires `cachetoken`; rule 7 adds that a stored card can be referenced instead.
    cardSource: [['cachetoken'], ['parenttransactionreference']],
    quote: 'required: `termurl`, `accept`, `cachetoken`, `currencyiso3a`, `accounttypedescription` (`ECOM`), `sitereference`, `baseamount`; recommended: `useragent`',
    section: SECTION.requestTypes,
  },
  {
    id: 'auth-3ds-enrolled',
    title: 'AUTH after 3-D Secure, enrolled card',
    requesttypes: ['AUTH'],
    required: ['md', 'pares'],
    only: true,
    quote: '`md`, `pares` only; all other data is inherited from the THREEDQUERY',
    section: SECTION.requestTypes,
  },
  {
    id: 'auth-3ds-not-enrolled',
    title: 'AUTH after 3-D Secure, card not enrolled or unknown',
    requesttypes: ['AUTH'],
    required: ['sitereference', 'parenttransactionreference'],
    only: true,
    quote: '`sitereference`, `parenttransactionreference` only',
    section: SECTION.requestTypes,
  },
  {
    id: 'subscription-enrolled',
    title: 'Subscription, enrolled card',
    requesttypes: ['AUTH', 'SUBSCRIPTION'],
    required: ['sitereference', 'accounttypedescription', 'currencyiso3a', 'baseamount', 'orderreference', ...SUBSCRIPTION_FIELDS, 'md', 'pares'],
    recommended: ['credentialsonfile'],
    optional: ['transactionactive'],
    fixed: { accounttypedescription: PAYMENT_ACCOUNTS },
    quote: '`sitereference`, `accounttypedescription`, `currencyiso3a`, `baseamount`, `orderreference`, the subscription fields, `credentialsonfile`, `md`, `pares`',
    section: SECTION.requestTypes,
  },
  {
    id: 'subscription-not-enrolled',
    title: 'Subscription, card not enrolled',
    requesttypes: ['AUTH', 'SUBSCRIPTION'],
    required: ['sitereference', 'accounttypedescription', 'currencyiso3a', 'baseamount', 'orderreference', ...SUBSCRIPTION_FIELDS, 'parenttransactionreference'],
    recommended: ['credentialsonfile'],
    optional: ['transactionactive'],
    fixed: { accounttypedescription: PAYMENT_ACCOUNTS },
    quote: 'as above, with `parenttransactionreference` in place of `md` and `pares`',
    section: SECTION.requestTypes,
  },
  {
    id: 'subscription-no-3ds',
    title: 'Subscription without 3-D Secure',
    requesttypes: ['AUTH', 'SUBSCRIPTION'],
    required: ['sitereference', 'accounttypedescription', 'currencyiso3a', 'baseamount', 'orderreference', ...SUBSCRIPTION_FIELDS, 'pan', 'expirydate'],
    recommended: ['credentialsonfile', 'securitycode'],
    optional: ['transactionactive'],
    fixed: { accounttypedescription: PAYMENT_ACCOUNTS },
    quote: 'as above, with `pan`, `expirydate`, `securitycode`',
    section: SECTION.requestTypes,
  },
  {
    id: 'auth',
    title: 'Ordinary AUTH without 3-D Secure',
    requesttypes: ['AUTH'],
    required: ['sitereference', 'accounttypedescription', 'currencyiso3a', 'baseamount'],
    recommended: ['securitycode'],
    optional: ['orderreference', ...BILLING_FIELDS],
    fixed: { accounttypedescription: PAYMENT_ACCOUNTS },
    cardSource: CARD_SOURCES,
    quote: 'THREEDQUERY: when the `errorcode` is not `0`, the merchant may run an ordinary AUTH without 3-D Secure.',
    section: SECTION.rules,
    fromRule: 'Rules tied to the operations, 1',
  },
  {
    id: 'accountcheck',
    title: 'Account check',
    requesttypes: ['ACCOUNTCHECK'],
    required: ['sitereference', 'accounttypedescription', 'currencyiso3a', 'baseamount'],
    recommended: ['billingpremise', 'billingpostcode', 'securitycode'],
    optional: BILLING_FIELDS,
    fixed: { accounttypedescription: PAYMENT_ACCOUNTS },
    cardSource: CARD_SOURCES,
    zeroAmount: true,
    quote: 'the fields of AUTH; `baseamount` may be `0`; normally `billingpremise`, `billingpostcode`, `pan`, `expirydate`, `securitycode`',
    section: SECTION.requestTypes,
  },
  {
    id: 'store',
    title: 'Card store',
    requesttypes: ['STORE'],
    required: ['sitereference', 'orderreference', 'accounttypedescription'],
    optional: BILLING_FIELDS,
    fixed: { accounttypedescription: ['CARDSTORE'] },
    forbidden: ['securitycode'],
    // "Details may be inherited through `parenttransactionreference`" (Card store state table).
    cardSource: [['pan', 'expirydate'], ['parenttransactionreference']],
    quote: '`sitereference`, `orderreference`, `pan`, `expirydate`, `accounttypedescription` (`CARDSTORE`), optional billing fields',
    section: SECTION.requestTypes,
  },
  {
    id: 'riskdec-card',
    title: 'Risk decision on card data',
    requesttypes: ['RISKDEC'],
    required: ['sitereference', 'accounttypedescription', 'currencyiso3a', 'baseamount', 'orderreference', 'pan', 'expirydate'],
    recommended: ['securitycode'],
    fixed: { accounttypedescription: ['FRAUDCONTROL'] },
    quote: '`sitereference`, `accounttypedescription` (`FRAUDCONTROL`), `currencyiso3a`, `baseamount`, `orderreference`, `pan`, `expirydate`, `securitycode`',
    section: SECTION.requestTypes,
  },
  {
    id: 'riskdec-after-payment',
    title: 'Risk decision after a payment',
    requesttypes: ['RISKDEC'],
    required: ['sitereference', 'accounttypedescription', 'currencyiso3a', 'baseamount', 'orderreference', 'parenttransactionreference'],
    fixed: { accounttypedescription: ['FRAUDCONTROL'] },
    quote: "`sitereference`, `accounttypedescription` (`FRAUDCONTROL`), `currencyiso3a`, `baseamount`, `orderreference`, `parenttransactionreference` (the payment's reference)",
    section: SECTION.requestTypes,
  },
  {
    id: 'riskdec-then-auth',
    title: 'Combined, risk decision first',
    requesttypes: ['RISKDEC', 'AUTH'],
    required: ['sitereference', 'accounttypedescription', 'currencyiso3a', 'baseamount'],
    recommended: ['securitycode'],
    optional: ['orderreference', ...BILLING_FIELDS],
    fixed: { accounttypedescription: PAYMENT_ACCOUNTS },
    cardSource: CARD_SOURCES,
    quote: 'AUTH fields, for example `cachetoken`',
    section: SECTION.requestTypes,
  },
  {
    id: 'auth-then-riskdec',
    title: 'Combined, risk decision last',
    requesttypes: ['AUTH', 'RISKDEC'],
    required: ['sitereference', 'accounttypedescription', 'currencyiso3a', 'baseamount'],
    recommended: ['securitycode'],
    optional: ['orderreference', ...BILLING_FIELDS],
    fixed: { accounttypedescription: PAYMENT_ACCOUNTS },
    cardSource: CARD_SOURCES,
    quote: 'AUTH fields, for example `cachetoken`',
    section: SECTION.requestTypes,
  },
  {
    id: 'transactionupdate',
    title: 'Amount change for a subscription',
    requesttypes: ['TRANSACTIONUPDATE'],
    required: ['filter', 'updates'],
    quote: "the SUBSCRIPTION's `transactionreference` and a new `baseamount`",
    section: SECTION.requestTypes,
    publicShape: true,
  },
  {
    id: 'transactionquery',
    title: 'Query of stored details',
    requesttypes: ['TRANSACTIONQUERY'],
    required: ['filter'],
    quote: 'identifies the STORE transaction; the card number is masked in the response',
    section: SECTION.requestTypes,
    publicShape: true,
  },
];

export const OPERATION: Readonly<Record<string, OperationRow>> = Object.fromEntries(OPERATIONS.map((o) => [o.id, o]));

/** What a successful response part of each request type holds, by the document. */
export interface PartShape {
  readonly type: RequestType;
  /** Fields a successful part (errorcode `0`) must carry. */
  readonly requiredOnSuccess: readonly string[];
  /** Fields the part carries only in some cases: `when` names the case. */
  readonly conditional?: readonly { readonly when: Readonly<Record<string, string>>; readonly require: readonly string[] }[];
  /** Fixed values on success. */
  readonly fixed?: Readonly<Record<string, readonly string[]>>;
  readonly quote: string;
}

export const PART_SHAPES: Readonly<Record<RequestType, PartShape>> = {
  THREEDQUERY: {
    type: 'THREEDQUERY',
    requiredOnSuccess: ['transactionreference', 'enrolled', 'xid'],
    conditional: [{ when: { enrolled: 'Y' }, require: ['acsurl', 'md', 'pareq'] }],
    quote: '1 part with `enrolled`, `xid`, and for enrolled cards `acsurl`, `md`, `pareq`; also `threedversion` on some accounts',
  },
  AUTH: {
    type: 'AUTH',
    requiredOnSuccess: ['transactionreference'],
    conditional: [{ when: { enrolled: 'Y', status: 'Y' }, require: ['cavv', 'eci', 'xid'] }],
    quote: '1 AUTH part with `enrolled`, `xid`, `status`, `cavv`, `eci`',
  },
  SUBSCRIPTION: {
    type: 'SUBSCRIPTION',
    requiredOnSuccess: ['transactionreference', 'transactionactive', 'accounttypedescription', 'baseamount'],
    fixed: { accounttypedescription: ['RECUR'] },
    quote: 'Check `transactionactive`, the timing fields and the amount in the SUBSCRIPTION part.',
  },
  ACCOUNTCHECK: {
    type: 'ACCOUNTCHECK',
    requiredOnSuccess: ['transactionreference'],
    quote: '1 part shaped as an AUTH part, with `requesttypedescription` `ACCOUNTCHECK`',
  },
  STORE: {
    type: 'STORE',
    // Every field the sentence lists (errorcode and errormessage are in every part): one list, read by the schemas,
    // the generators and the boundary phase's presence checks.
    requiredOnSuccess: [
      'transactionreference',
      'transactionactive',
      'requesttypedescription',
      'orderreference',
      'accounttypedescription',
      'maskedpan',
      'paymenttypedescription',
      'issuer',
      'issuercountryiso2a',
      'merchantname',
      'operatorname',
      'livestatus',
      'transactionstartedtimestamp',
    ],
    fixed: { accounttypedescription: ['CARDSTORE'], transactionactive: ['0', '1'] },
    quote: 'The STORE response holds `transactionreference`, `transactionactive` (`0` or `1`, default `1`), ... `accounttypedescription` (`CARDSTORE`), `maskedpan`, ...',
  },
  RISKDEC: {
    type: 'RISKDEC',
    requiredOnSuccess: ['transactionreference', 'fraudcontrolshieldstatuscode'],
    quote: 'It returns a shield status code that recommends accepting, investigating or refusing a transaction.',
  },
  TRANSACTIONUPDATE: { type: 'TRANSACTIONUPDATE', requiredOnSuccess: [], quote: 'shape not shown' },
  TRANSACTIONQUERY: { type: 'TRANSACTIONQUERY', requiredOnSuccess: [], quote: 'shape not shown' },
};

/**
 * The fields "Echoed from the request" (Common response fields), in the sentence's order: read by the gateway, which
 * echoes them, and by the check of an answer against the request it answers. Which part types must give each back:
 * `ECHOES` of the field dictionary.
 */
export const ECHOED_FIELDS: readonly string[] = Object.keys(ECHOES);

/** The operation rows whose request types match, most specific first is left to the caller. */
export function rowsFor(requesttypes: readonly string[]): OperationRow[] {
  return OPERATIONS.filter((o) => o.requesttypes.length === requesttypes.length && o.requesttypes.every((t, i) => t === requesttypes[i]));
}

/** The request types that take a field, and those that require it: the dictionary's view of the table. */
export function usage(field: string): { takenBy: string[]; requiredBy: string[] } {
  const takenBy = OPERATIONS.filter((o) => o.required.includes(field) || o.recommended?.includes(field) || o.optional?.includes(field) || o.cardSource?.some((s) => s.includes(field))).map(
    (o) => o.id,
  );
  const requiredBy = OPERATIONS.filter((o) => o.required.includes(field)).map((o) => o.id);
  return { takenBy, requiredBy };
}
