/**
 * The field dictionary: every field the interface document names, once. JSON Schemas, XML mappings, fuzz
 * generators and the reference gateway's field check are all derived from this file and never retyped.
 *
 * A field has a side for each direction it travels in. Lengths can differ by direction (`md` is 1024 in the
 * THREEDQUERY response and 65536 in the AUTH request), so they live on the side. XML paths are relative to the
 * `request` element (requests) or the `response` element (responses); `@name` is an attribute, `.` is the text of
 * the element named before it (`billing/amount/.` is the amount's text, `billing/amount/@currencycode` its
 * currency). Where neither the document nor public-facts.md gives an XML path, the path is cardspec's choice and
 * `xmlChoice` says so, so that the README can list every such choice.
 */
import type { TypeClass } from './typeclasses';

/** Section headings of the interface document, quoted as the document spells them. */
export const SECTION = {
  envelope: 'Resources and their fields > Envelope',
  common: 'Resources and their fields > Common request fields',
  subscription: 'Resources and their fields > Subscription fields',
  billing: 'Resources and their fields > Billing fields (STORE and other requests)',
  threeds: 'Resources and their fields > 3-D Secure fields',
  response: 'Resources and their fields > Common response fields',
  security: 'Resources and their fields > Security check results',
  riskdec: 'Resources and their fields > RISKDEC response fields',
  store: 'Resources and their fields > STORE response fields',
  transport: 'Endpoints > Transport',
  requestTypes: 'Endpoints > Request types (the fields sent in the request object)',
  rules: 'Endpoints > Rules tied to the operations',
  acs: "Endpoints > Customer redirect to the issuer's ACS (browser, not JSON)",
  states: 'States and transitions',
  errors: 'Errors',
  limits: 'Limits',
  versioning: 'Versioning',
  authentication: 'Authentication',
  what: 'What the service does',
} as const;

export type Direction = 'request' | 'response';

export interface FieldSide {
  readonly minLength?: number;
  readonly maxLength?: number;
  /** The values the document lists; where it lists them only as examples, see `examples` instead. */
  readonly values?: readonly string[];
  /** XML path, relative to the request or response element. */
  readonly xml: string;
}

/** What kind of secret a field holds, so that the one masking function knows what to hide. */
export type Sensitivity = 'pan' | 'securitycode' | 'acs-secret';

export interface FieldDef {
  readonly name: string;
  readonly type: TypeClass;
  readonly section: string;
  /** The document's own words for the field, shortened. */
  readonly meaning: string;
  readonly request?: FieldSide;
  readonly response?: FieldSide;
  /** Values the document shows in its examples only ("The example uses `MONTH`"): never enforced. */
  readonly examples?: readonly string[];
  /**
   * Where the document's type class, read to the letter, would refuse values that real clients must send (an
   * Accept header is "Alphanumeric" but holds `/`, `;` and `,`), the kit checks only for printable text, and
   * says why here. The documented class is still recorded in `type`.
   */
  readonly lenient?: string;
  /** A list of values of this field's type rather than one value (only `requesttypedescriptions`). */
  readonly list?: boolean;
  readonly sensitive?: Sensitivity;
  /**
   * How SDKs and merchants' code spell this secret under their own key (`cvv`, `cardNumber`): a client under the
   * contract gate, or an adapter's log, may send or print it there, and it is the same secret (principle 4). Not
   * fields of the document: the gateway, the schemas and the generators never read them; only masking and the
   * leak scan do (src/redact.ts `sensitivityOfKey`). A key matches when it, or its ending (`card_cvv`, `cardCvv`,
   * `payment-card-number`), spells one of these or the field's own name, case and `_`/`-` ignored. Words as
   * general as `number` are left out: a phone number under `phone_number` is not a card number (a Luhn-valid
   * number is masked wherever it stands anyway).
   */
  readonly spellings?: readonly string[];
  /** Why the XML path is cardspec's own choice rather than the public format's. */
  readonly xmlChoice?: string;
  /** Another spelling of a field (the document's STORE example sends `billingprefix`). */
  readonly aliasOf?: string;
  /** Set where the field comes from public-facts.md, not from the document: never a reason to fail a target. */
  readonly source?: 'public-facts';
  /** The two follow-up structures of the public shape: `filter` (lists of `{value}`) and `updates` (fields). */
  readonly structure?: 'filter' | 'updates' | 'records';
  /**
   * The type-class check applies only when another field has one of these values ("Validated only when the
   * country is the United States, Great Britain or Canada. It is not validated for other or missing countries.").
   * Length is always checked.
   */
  readonly validatedWhen?: { readonly field: string; readonly values: readonly string[] };
  /**
   * The document returns the field only on some accounts, in its own words: a target that never returns it is one
   * of the others, and the check of the field's form does not apply to it (never a gap that keeps PASSED away).
   */
  readonly someAccounts?: string;
}

const NO_PUBLIC_XML = 'not in the document nor in public-facts.md: cardspec places it beside its group';

export const REQUEST_TYPES = ['AUTH', 'SUBSCRIPTION', 'THREEDQUERY', 'ACCOUNTCHECK', 'STORE', 'RISKDEC', 'TRANSACTIONUPDATE', 'TRANSACTIONQUERY'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

/**
 * "| `baseamount`, `currencyiso3a`, `orderreference`, `accounttypedescription`, `credentialsonfile` | Echoed from the
 * request. |" (Common response fields), with the part types that give each field back when the request object sent
 * it. The sentence says what an echo is (the value sent), not which parts carry which field; the document's example
 * parts show that (test/fixtures/examples), and two sentences: "The STORE response holds ... `orderreference`,
 * `accounttypedescription` (`CARDSTORE`)", and ACCOUNTCHECK answers "1 part shaped as an AUTH part". The examples:
 * AUTH, THREEDQUERY, RISKDEC and SUBSCRIPTION parts carry `baseamount` and `currencyiso3a`; AUTH, THREEDQUERY, RISKDEC
 * and STORE parts `accounttypedescription` (the SUBSCRIPTION part carries its own `RECUR`, no echo); the AUTH and
 * SUBSCRIPTION parts of a subscription `credentialsonfile`; only the STORE part `orderreference` (the subscription
 * example and the risk decision after a payment leave it out of parts whose request sent it). A part type not listed
 * for a field may leave the field out (the document does not show it there: never a failure); a part that carries
 * an echoed field carries the value sent, whatever its type. One list for every reader: the check of an answer
 * against its request (src/validate/response.ts `echoViolations`: the suite's invariant on every answer, the fuzz
 * oracle, the contract gate, the proxy), the presence rules (src/rules/attribution.ts `presenceRuleOf`: the field
 * boundary phase and the generated gallery's classifier), the scenario steps, and the reference gateway, which
 * echoes every one of them wherever it was sent. The key order is the sentence's.
 */
export const ECHOES: Readonly<Record<string, readonly RequestType[]>> = {
  baseamount: ['AUTH', 'ACCOUNTCHECK', 'THREEDQUERY', 'RISKDEC', 'SUBSCRIPTION'],
  currencyiso3a: ['AUTH', 'ACCOUNTCHECK', 'THREEDQUERY', 'RISKDEC', 'SUBSCRIPTION'],
  orderreference: ['STORE'],
  accounttypedescription: ['AUTH', 'ACCOUNTCHECK', 'THREEDQUERY', 'RISKDEC', 'STORE'],
  credentialsonfile: ['AUTH', 'ACCOUNTCHECK', 'SUBSCRIPTION'],
};

/** Whether a part of `type` gives `field` back when its request object sent it (`ECHOES`). */
export function echoedBy(type: string, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(ECHOES, field) && (ECHOES[field] as readonly string[]).includes(type);
}

export const SHIELD_STATUSES = ['ACCEPT', 'CHALLENGE', 'DENY', 'NOSCORE'] as const;
export const SECURITY_RESULTS = ['0', '1', '2', '4'] as const;

const f = (def: FieldDef): FieldDef => def;

export const FIELDS: readonly FieldDef[] = [
  // ---- Envelope -------------------------------------------------------------------------------------------------
  f({ name: 'alias', type: 'text', section: SECTION.envelope, meaning: 'Identifies the operator account.', request: { xml: '../alias' } }),
  f({
    name: 'version',
    type: 'text',
    section: SECTION.envelope,
    meaning: 'Interface version; the value used is `1.00`.',
    request: { values: ['1.00'], xml: '../@version' },
    response: { values: ['1.00'], xml: '../@version' },
  }),
  f({ name: 'requestreference', type: 'text', section: SECTION.envelope, meaning: 'Reference of the call.', response: { xml: '../requestreference' } }),
  f({ name: 'secrand', type: 'text', section: SECTION.envelope, meaning: 'Random string of varying length.', response: { xml: '../secrand' }, xmlChoice: NO_PUBLIC_XML }),

  // ---- Common request fields ------------------------------------------------------------------------------------
  f({
    name: 'requesttypedescriptions',
    type: 'alpha',
    list: true,
    section: SECTION.common,
    meaning: 'Request types to run, in order.',
    request: { minLength: 1, maxLength: 20, xml: '@type' },
  }),
  f({
    name: 'requesttypedescription',
    type: 'alpha',
    section: SECTION.response,
    meaning: 'The request type of this part.',
    response: { maxLength: 20, xml: '@type' },
  }),
  f({
    name: 'sitereference',
    type: 'alphanumeric-underscore',
    section: SECTION.common,
    meaning: 'The merchant site identifier.',
    request: { maxLength: 50, xml: 'operation/sitereference' },
    response: { maxLength: 50, xml: 'operation/sitereference' },
  }),
  f({
    name: 'accounttypedescription',
    type: 'alpha',
    section: SECTION.common,
    meaning: '`ECOM` or `MOTO` for payments; `ECOM` only for THREEDQUERY; `CARDSTORE` for STORE; `FRAUDCONTROL` for RISKDEC; `RECUR` in a SUBSCRIPTION part.',
    request: { maxLength: 20, values: ['ECOM', 'MOTO', 'CARDSTORE', 'FRAUDCONTROL'], xml: 'operation/accounttypedescription' },
    response: { maxLength: 20, values: ['ECOM', 'MOTO', 'CARDSTORE', 'FRAUDCONTROL', 'RECUR'], xml: 'operation/accounttypedescription' },
  }),
  f({
    name: 'currencyiso3a',
    type: 'alpha',
    section: SECTION.common,
    meaning: 'Three-letter currency code.',
    request: { minLength: 3, maxLength: 3, xml: 'billing/amount/@currencycode' },
    response: { minLength: 3, maxLength: 3, xml: 'billing/amount/@currencycode' },
  }),
  f({
    name: 'baseamount',
    type: 'numeric',
    section: SECTION.common,
    meaning: 'Amount in minor units, with no commas or decimal points.',
    request: { minLength: 1, maxLength: 13, xml: 'billing/amount/.' },
    response: { minLength: 1, maxLength: 13, xml: 'billing/amount/.' },
  }),
  f({
    name: 'orderreference',
    type: 'alphanumeric-symbols',
    section: SECTION.common,
    meaning: "Merchant's order reference.",
    request: { maxLength: 255, xml: 'merchant/orderreference' },
    response: { maxLength: 255, xml: 'merchant/orderreference' },
  }),
  f({
    name: 'pan',
    type: 'numeric',
    section: SECTION.common,
    meaning: 'Card number.',
    sensitive: 'pan',
    spellings: ['cardnumber', 'cardno', 'cardnum', 'ccnumber', 'creditcardnumber', 'primaryaccountnumber', 'accountnumber'],
    request: { minLength: 12, maxLength: 19, xml: 'billing/payment/pan' },
  }),
  f({
    name: 'expirydate',
    type: 'date-month',
    section: SECTION.common,
    meaning: 'Card expiry.',
    request: { minLength: 7, maxLength: 7, xml: 'billing/payment/expirydate' },
    response: { minLength: 7, maxLength: 7, xml: 'billing/payment/expirydate' },
  }),
  f({
    name: 'securitycode',
    type: 'numeric',
    section: SECTION.common,
    meaning: 'Recommended for security code checks. Never stored. Must not be sent in STORE.',
    sensitive: 'securitycode',
    spellings: ['cvv', 'cvv2', 'cvc', 'cvc2', 'cv2', 'csc', 'cvn', 'cardcode', 'cardverificationvalue', 'cardverificationcode'],
    request: { minLength: 3, maxLength: 4, xml: 'billing/payment/securitycode' },
  }),
  f({
    name: 'parenttransactionreference',
    type: 'alphanumeric-hyphens',
    section: SECTION.common,
    meaning: '`transactionreference` of an earlier request whose data is inherited.',
    request: { maxLength: 25, xml: 'operation/parenttransactionreference' },
    response: { maxLength: 25, xml: 'operation/parenttransactionreference' },
  }),
  f({
    name: 'credentialsonfile',
    type: 'numeric',
    section: SECTION.common,
    meaning: '`1` states that the submitted credentials are stored for later subscription payments.',
    request: { maxLength: 1, xml: 'operation/credentialsonfile' },
    response: { maxLength: 1, xml: 'operation/credentialsonfile' },
    xmlChoice: NO_PUBLIC_XML,
  }),

  // ---- Subscription fields --------------------------------------------------------------------------------------
  f({
    name: 'subscriptiontype',
    type: 'alpha',
    section: SECTION.subscription,
    meaning: 'The example uses `RECURRING`.',
    examples: ['RECURRING'],
    request: { maxLength: 11, xml: 'subscription/@type' },
    response: { maxLength: 11, xml: 'subscription/@type' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'subscriptionunit',
    type: 'alpha',
    section: SECTION.subscription,
    meaning: 'The example uses `MONTH`.',
    examples: ['MONTH'],
    request: { maxLength: 5, xml: 'subscription/unit' },
    response: { maxLength: 5, xml: 'subscription/unit' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'subscriptionfrequency',
    type: 'numeric',
    section: SECTION.subscription,
    meaning: 'Number of units between payments.',
    request: { minLength: 1, maxLength: 11, xml: 'subscription/frequency' },
    response: { minLength: 1, maxLength: 11, xml: 'subscription/frequency' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'subscriptionnumber',
    type: 'numeric',
    section: SECTION.subscription,
    meaning: 'Number of the payment. It starts at `1` for a new subscription.',
    request: { minLength: 1, maxLength: 5, xml: 'subscription/number' },
    response: { minLength: 1, maxLength: 5, xml: 'subscription/number' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'subscriptionfinalnumber',
    type: 'numeric',
    section: SECTION.subscription,
    meaning: 'Last payment number after which automatic payments stop. `0` means payments continue until deactivated.',
    request: { minLength: 1, maxLength: 5, xml: 'subscription/finalnumber' },
    response: { minLength: 1, maxLength: 5, xml: 'subscription/finalnumber' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'subscriptionbegindate',
    type: 'date',
    section: SECTION.subscription,
    meaning: "Date of the scheduled payments' start.",
    request: { minLength: 10, maxLength: 10, xml: 'subscription/begindate' },
    response: { minLength: 10, maxLength: 10, xml: 'subscription/begindate' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'transactionactive',
    type: 'numeric',
    section: SECTION.subscription,
    meaning: 'Subscription status: `0` inactive, `1` active, `2` pending (default); on a STORE, `1` enabled and `0` disabled.',
    request: { minLength: 1, maxLength: 1, values: ['0', '1', '2'], xml: 'operation/transactionactive' },
    response: { minLength: 1, maxLength: 1, values: ['0', '1', '2'], xml: 'operation/transactionactive' },
    xmlChoice: NO_PUBLIC_XML,
  }),

  // ---- Billing fields -------------------------------------------------------------------------------------------
  ...(
    [
      ['billingpremise', 25, 'House number or first address line.', 'billing/premise'],
      ['billingstreet', 127, 'Street.', 'billing/street'],
      ['billingtown', 127, 'Town.', 'billing/town'],
      ['billingcounty', 127, 'County. For US addresses, the state.', 'billing/county'],
      ['billingprefixname', 25, 'Name prefix.', 'billing/name/prefix'],
      ['billingfirstname', 127, 'First name.', 'billing/name/first'],
      ['billingmiddlename', 127, 'Middle name.', 'billing/name/middle'],
      ['billinglastname', 127, 'Last name.', 'billing/name/last'],
      ['billingsuffixname', 25, 'Name suffix.', 'billing/name/suffix'],
    ] as const
  ).map(([name, maxLength, meaning, xml]) => f({ name, type: 'alphanumeric-symbols', section: SECTION.billing, meaning, request: { maxLength, xml }, response: { maxLength, xml } })),
  f({
    name: 'billingprefix',
    type: 'alphanumeric-symbols',
    section: SECTION.billing,
    meaning: 'The STORE example sends `billingprefix`; the field table names `billingprefixname`. Accepted as the same prefix.',
    aliasOf: 'billingprefixname',
    request: { maxLength: 25, xml: 'billing/name/prefix' },
  }),
  f({
    name: 'billingcountryiso2a',
    type: 'alpha',
    section: SECTION.billing,
    meaning: 'Two-letter country code.',
    request: { minLength: 2, maxLength: 2, xml: 'billing/country' },
    response: { minLength: 2, maxLength: 2, xml: 'billing/country' },
  }),
  f({
    name: 'billingpostcode',
    type: 'alphanumeric',
    section: SECTION.billing,
    meaning: 'Validated only when the country is the United States, Great Britain or Canada.',
    validatedWhen: { field: 'billingcountryiso2a', values: ['US', 'GB', 'CA'] },
    request: { maxLength: 25, xml: 'billing/postcode' },
    response: { maxLength: 25, xml: 'billing/postcode' },
  }),
  f({
    name: 'billingemail',
    type: 'email',
    section: SECTION.billing,
    meaning: 'At most 64 characters before the `@`.',
    request: { maxLength: 255, xml: 'billing/email' },
    response: { maxLength: 255, xml: 'billing/email' },
  }),
  f({
    name: 'billingtelephonetype',
    type: 'char',
    section: SECTION.billing,
    meaning: '`H` home, `M` mobile, `W` work.',
    request: { minLength: 1, maxLength: 1, values: ['H', 'M', 'W'], xml: 'billing/telephone/@type' },
    response: { minLength: 1, maxLength: 1, values: ['H', 'M', 'W'], xml: 'billing/telephone/@type' },
  }),
  f({
    name: 'billingtelephone',
    type: 'numeric-symbols',
    section: SECTION.billing,
    meaning: 'Digits 0-9, spaces, and the characters `+ - ( )`.',
    request: { maxLength: 20, xml: 'billing/telephone/.' },
    response: { maxLength: 20, xml: 'billing/telephone/.' },
  }),

  // ---- Customer (delivery) fields: public facts, not the document ------------------------------------------------
  // "request/customer/{name/..., premise, street, town, postcode, country, email, telephone@type, ip, ...} for
  // delivery details" (public-facts.md, XML 3.67 element paths); the JSON names are the public SDKs' (customer...,
  // as billing... for the billing block). Known so that they are checked like the billing fields they mirror rather
  // than refused as unknown; `source` makes every finding on them a warning, never a reason to fail.
  ...(
    [
      ['customerpremise', 25, 'House number or first address line of the delivery address.', 'customer/premise'],
      ['customerstreet', 127, 'Street of the delivery address.', 'customer/street'],
      ['customertown', 127, 'Town of the delivery address.', 'customer/town'],
      ['customercounty', 127, 'County of the delivery address. For US addresses, the state.', 'customer/county'],
      ['customerprefixname', 25, 'Name prefix of the customer.', 'customer/name/prefix'],
      ['customerfirstname', 127, 'First name of the customer.', 'customer/name/first'],
      ['customermiddlename', 127, 'Middle name of the customer.', 'customer/name/middle'],
      ['customerlastname', 127, 'Last name of the customer.', 'customer/name/last'],
      ['customersuffixname', 25, 'Name suffix of the customer.', 'customer/name/suffix'],
    ] as const
  ).map(([name, maxLength, meaning, xml]) => f({ name, type: 'alphanumeric-symbols', section: SECTION.billing, meaning, source: 'public-facts', request: { maxLength, xml } })),
  f({
    name: 'customercountryiso2a',
    type: 'alpha',
    section: SECTION.billing,
    meaning: 'Two-letter country code of the delivery address.',
    source: 'public-facts',
    request: { minLength: 2, maxLength: 2, xml: 'customer/country' },
  }),
  f({
    name: 'customerpostcode',
    type: 'alphanumeric',
    section: SECTION.billing,
    meaning: 'Postcode of the delivery address; like `billingpostcode`, validated only for the United States, Great Britain or Canada.',
    source: 'public-facts',
    validatedWhen: { field: 'customercountryiso2a', values: ['US', 'GB', 'CA'] },
    request: { maxLength: 25, xml: 'customer/postcode' },
  }),
  f({
    name: 'customeremail',
    type: 'email',
    section: SECTION.billing,
    meaning: "The customer's email address.",
    source: 'public-facts',
    request: { maxLength: 255, xml: 'customer/email' },
  }),
  f({
    name: 'customertelephonetype',
    type: 'char',
    section: SECTION.billing,
    meaning: '`H` home, `M` mobile, `W` work (as `billingtelephonetype`).',
    source: 'public-facts',
    request: { minLength: 1, maxLength: 1, values: ['H', 'M', 'W'], xml: 'customer/telephone/@type' },
  }),
  f({
    name: 'customertelephone',
    type: 'numeric-symbols',
    section: SECTION.billing,
    meaning: "The customer's telephone number: digits 0-9, spaces, and the characters `+ - ( )` (as `billingtelephone`).",
    source: 'public-facts',
    request: { maxLength: 20, xml: 'customer/telephone/.' },
  }),
  ...(
    [
      ['customerip', "The customer's IP address (IPv4 or IPv6).", 'customer/ip'],
      ['customerforwardedip', 'The IP address a proxy forwarded for the customer (IPv4 or IPv6).', 'customer/forwardedip'],
    ] as const
  ).map(([name, meaning, xml]) =>
    f({
      name,
      type: 'alphanumeric-symbols',
      section: SECTION.billing,
      meaning,
      source: 'public-facts',
      request: { maxLength: 45, xml },
    }),
  ),

  // ---- 3-D Secure fields ----------------------------------------------------------------------------------------
  f({
    name: 'termurl',
    type: 'url',
    section: SECTION.threeds,
    meaning: "Merchant address to which the issuer's ACS returns the customer's browser.",
    request: { maxLength: 1024, xml: 'merchant/termurl' },
  }),
  f({
    name: 'accept',
    type: 'alphanumeric',
    section: SECTION.threeds,
    meaning: "Exact HTTP accept header of the customer's user agent.",
    lenient: 'An exact Accept header holds `/`, `,`, `;`, `*` and `=`, which plain Alphanumeric would refuse.',
    request: { maxLength: 1024, xml: 'customer/accept' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'useragent',
    type: 'alphanumeric',
    section: SECTION.threeds,
    meaning: 'Exact HTTP user-agent header. Strongly recommended.',
    lenient: 'An exact User-Agent header holds `/`, `(`, `)`, `;` and `.`, which plain Alphanumeric would refuse.',
    request: { maxLength: 255, xml: 'customer/useragent' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'cachetoken',
    type: 'alphanumeric-hyphens',
    section: SECTION.threeds,
    meaning: "Reference to the customer's payment details, as posted to the merchant after the customer submits the payment form.",
    request: { minLength: 1, xml: 'operation/cachetoken' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'md',
    type: 'alphanumeric-symbols',
    section: SECTION.threeds,
    meaning: '3-D Secure reference of the transaction. It must be submitted in full, unmodified.',
    sensitive: 'acs-secret',
    request: { minLength: 1, maxLength: 65536, xml: 'threedsecure/md' },
    response: { minLength: 1, maxLength: 1024, xml: 'threedsecure/md' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'pareq',
    type: 'alphanumeric-symbols',
    section: SECTION.threeds,
    meaning: 'Authentication request, returned only for enrolled cards.',
    response: { minLength: 1, maxLength: 2048, xml: 'threedsecure/pareq' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'pares',
    type: 'alphanumeric-symbols',
    section: SECTION.threeds,
    meaning: 'Must be the value returned by the ACS, unmodified.',
    sensitive: 'acs-secret',
    request: { minLength: 1, maxLength: 1024, xml: 'threedsecure/pares' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'acsurl',
    type: 'url',
    section: SECTION.threeds,
    meaning: 'ACS address; returned only for enrolled cards.',
    response: { maxLength: 1024, xml: 'threedsecure/acsurl' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'xid',
    type: 'alphanumeric',
    section: SECTION.threeds,
    meaning: 'Transaction identifier assigned by the service acting as the merchant plug-in.',
    lenient: '3-D Secure v1 XIDs are Base64, holding `+`, `/` and `=`.',
    response: { maxLength: 255, xml: 'threedsecure/xid' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'enrolled',
    type: 'char',
    section: SECTION.threeds,
    meaning: '`Y` enrolled, `N` not enrolled, `U` unable to determine.',
    response: { minLength: 1, maxLength: 1, values: ['Y', 'N', 'U'], xml: 'threedsecure/enrolled' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'status',
    type: 'char',
    section: SECTION.threeds,
    meaning: '`Y` authenticated, `N` not authenticated, `A` attempt made but not completed, `U` unable to authenticate.',
    response: { minLength: 1, maxLength: 1, values: ['Y', 'N', 'A', 'U'], xml: 'threedsecure/status' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'cavv',
    type: 'alphanumeric',
    section: SECTION.threeds,
    meaning: 'Returned if enrolled and authenticated.',
    lenient: 'CAVVs are Base64, holding `+`, `/` and `=`.',
    response: { maxLength: 32, xml: 'threedsecure/cavv' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'eci',
    type: 'alphanumeric',
    section: SECTION.threeds,
    meaning: 'Returned if enrolled and authenticated.',
    response: { maxLength: 2, xml: 'threedsecure/eci' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'threedversion',
    type: 'numeric',
    section: SECTION.threeds,
    meaning: 'Protocol version. Returned only for accounts with certain acquiring banks.',
    someAccounts: 'Returned only for accounts with certain acquiring banks.',
    lenient: 'Protocol versions are written with dots (`1.0.2`), which plain Numeric would refuse.',
    response: { maxLength: 6, xml: 'threedsecure/version' },
    xmlChoice: NO_PUBLIC_XML,
  }),

  // ---- Common response fields -----------------------------------------------------------------------------------
  f({
    name: 'transactionreference',
    type: 'alphanumeric-hyphens',
    section: SECTION.response,
    meaning: 'Identifies the transaction; the value used as `parenttransactionreference` later.',
    response: { minLength: 1, maxLength: 25, xml: 'transactionreference' },
  }),
  f({ name: 'errorcode', type: 'numeric', section: SECTION.errors, meaning: 'Result of the part (string).', response: { minLength: 1, xml: 'error/code' } }),
  f({
    name: 'errordata',
    type: 'text',
    list: true,
    section: SECTION.errors,
    meaning: 'A list naming the field(s) behind an error, e.g. `["pan"]` with 30000 (public-facts.md).',
    source: 'public-facts',
    response: { xml: 'error/data' },
  }),
  f({ name: 'errormessage', type: 'text', section: SECTION.errors, meaning: 'Result of the part; `Ok` on success.', response: { xml: 'error/message' } }),
  f({
    name: 'transactionstartedtimestamp',
    type: 'timestamp',
    section: SECTION.response,
    meaning: 'Format `YYYY-MM-DD HH:MM:SS`.',
    response: { minLength: 19, maxLength: 19, xml: 'timestamp' },
  }),
  f({
    name: 'filter',
    type: 'text',
    section: SECTION.requestTypes,
    meaning: 'TRANSACTIONQUERY and TRANSACTIONUPDATE: an object of lists of `{"value": ...}` (public shape; the document: not shown).',
    source: 'public-facts',
    structure: 'filter',
    request: { xml: 'filter' },
  }),
  f({
    name: 'updates',
    type: 'text',
    section: SECTION.requestTypes,
    meaning: 'TRANSACTIONUPDATE: an object of the fields to change (public shape; the document: not shown).',
    source: 'public-facts',
    structure: 'updates',
    request: { xml: 'updates' },
  }),
  f({
    name: 'found',
    type: 'numeric',
    section: SECTION.requestTypes,
    meaning: 'TRANSACTIONQUERY: how many records were found (public shape; the document: not shown).',
    source: 'public-facts',
    response: { xml: 'found' },
  }),
  f({
    name: 'records',
    type: 'text',
    section: SECTION.requestTypes,
    meaning: 'TRANSACTIONQUERY: the records found, each shaped as a response part (public shape; the document: not shown).',
    source: 'public-facts',
    structure: 'records',
    response: { xml: 'record' },
  }),
  f({
    name: 'settleduedate',
    type: 'date',
    section: SECTION.response,
    meaning: 'Format `YYYY-MM-DD`.',
    response: { minLength: 10, maxLength: 10, xml: 'settlement/settleduedate' },
  }),
  f({
    name: 'settlestatus',
    type: 'numeric',
    section: SECTION.response,
    meaning: 'Settlement status code, a string of digits.',
    request: { minLength: 1, xml: 'settlement/settlestatus' },
    response: { minLength: 1, xml: 'settlement/settlestatus' },
  }),
  ...(
    [
      ['livestatus', 'Meaning of its values: not shown (`0` in the examples).', 'live'],
      ['dccenabled', 'Meaning of its values: not shown (`0` in the examples).', 'dcc/enabled'],
      ['splitfinalnumber', 'Meaning of its values: not shown (`1` in the examples).', 'splitfinalnumber'],
    ] as const
  ).map(([name, meaning, xml]) => f({ name, type: 'numeric', section: SECTION.response, meaning, response: { xml }, xmlChoice: NO_PUBLIC_XML })),
  ...(
    [
      ['issuer', 'Card issuer name.', 'issuer'],
      ['merchantname', 'Merchant data.', 'merchant/merchantname'],
      ['merchantnumber', 'Merchant data.', 'merchant/merchantnumber'],
      ['tid', 'Merchant data.', 'merchant/tid'],
      ['operatorname', 'Operator data.', 'merchant/operatorname'],
      ['authcode', 'Bank authorisation code; present when the bank was contacted.', 'authcode'],
      ['acquirerresponsecode', 'Bank response code; present when the bank was contacted.', 'acquirerresponsecode'],
    ] as const
  ).map(([name, meaning, xml]) => f({ name, type: 'text', section: SECTION.response, meaning, response: { xml }, xmlChoice: NO_PUBLIC_XML })),
  f({
    name: 'paymenttypedescription',
    type: 'text',
    section: SECTION.response,
    meaning: 'Payment type name. Real XML clients also send it as `payment@type` (public-facts.md).',
    request: { xml: 'billing/payment/@type' },
    response: { xml: 'billing/payment/@type' },
  }),
  f({
    name: 'issuercountryiso2a',
    type: 'alpha',
    section: SECTION.response,
    meaning: 'Card issuer country code.',
    response: { minLength: 2, maxLength: 2, xml: 'issuercountry' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'merchantcountryiso2a',
    type: 'alpha',
    section: SECTION.response,
    meaning: 'Merchant country code.',
    response: { minLength: 2, maxLength: 2, xml: 'merchant/merchantcountryiso2a' },
    xmlChoice: NO_PUBLIC_XML,
  }),
  f({
    name: 'maskedpan',
    type: 'alphanumeric-symbols',
    section: SECTION.response,
    meaning: 'Masked card number: the middle digits replaced by `#`.',
    response: { minLength: 12, maxLength: 19, xml: 'billing/payment/pan' },
  }),

  // ---- Security check results -----------------------------------------------------------------------------------
  ...(
    [
      ['securityresponseaddress', 'security/address'],
      ['securityresponsepostcode', 'security/postcode'],
      ['securityresponsesecuritycode', 'security/securitycode'],
    ] as const
  ).map(([name, xml]) =>
    f({
      name,
      type: 'numeric',
      section: SECTION.security,
      meaning: '`0` not given, `1` not checked, `2` matched, `4` not matched.',
      response: { minLength: 1, maxLength: 1, values: SECURITY_RESULTS, xml },
    }),
  ),

  // ---- RISKDEC response fields ----------------------------------------------------------------------------------
  f({
    name: 'fraudcontrolshieldstatuscode',
    type: 'alpha',
    section: SECTION.riskdec,
    meaning: '`ACCEPT`, `CHALLENGE`, `DENY`, `NOSCORE` (the parent AUTH was declined before checks ran).',
    response: { maxLength: 10, values: SHIELD_STATUSES, xml: 'fraudcontrol/shieldstatuscode' },
  }),
  f({
    name: 'acquirerrecommendedaction',
    type: 'char',
    section: SECTION.riskdec,
    meaning: '`C` continue, `S` stop. Only a recommendation.',
    response: { minLength: 1, maxLength: 1, values: ['C', 'S'], xml: 'fraudcontrol/recommendedaction' },
  }),
  f({
    name: 'fraudcontrolreference',
    type: 'alphanumeric',
    section: SECTION.riskdec,
    meaning: 'Unique reference of the check.',
    lenient: 'References of the fraud-control service hold hyphens in public examples.',
    response: { maxLength: 255, xml: 'fraudcontrol/reference' },
  }),
  f({
    name: 'fraudcontrolresponsecode',
    type: 'numeric',
    section: SECTION.riskdec,
    meaning: 'Code mapped to a description of the results.',
    response: { maxLength: 4, xml: 'fraudcontrol/responsecode' },
  }),
  f({
    name: 'rulecategoryflag',
    type: 'alphanumeric',
    section: SECTION.riskdec,
    meaning: 'Identifies the condition that caused `DENY` or `CHALLENGE`.',
    lenient: 'Rule flags are written with underscores in public examples.',
    response: { maxLength: 255, xml: 'fraudcontrol/categoryflag' },
  }),
  f({
    name: 'rulecategorymessage',
    type: 'text',
    section: SECTION.riskdec,
    meaning: 'Description of that condition.',
    response: { xml: 'fraudcontrol/categorymessage' },
  }),
];

/** The dictionary by field name. */
// Looked up by names read off the wire: with no prototype, a field named `constructor` or `__proto__` is unknown,
// not Object's own function.
export const FIELD: Readonly<Record<string, FieldDef>> = Object.assign(Object.create(null) as Record<string, FieldDef>, Object.fromEntries(FIELDS.map((d) => [d.name, d])));

export function fieldsFor(direction: Direction): FieldDef[] {
  return FIELDS.filter((d) => d[direction] !== undefined);
}

/** The envelope-level fields are not part of a request object or a response part. */
export const ENVELOPE_FIELDS = new Set(['alias', 'version', 'requestreference', 'secrand']);
