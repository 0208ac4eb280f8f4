/**
 * The catalogue of client cases, generated from the document's tables (schemas/errors.ts, schemas/operations.ts,
 * the 3-D Secure state table, the field dictionary's lengths) rather than written out one by one:
 *
 * - 3-D Secure: each `enrolled` value of the THREEDQUERY answer, and each ACS outcome (`status`) of the AUTH after it;
 * - Errors: each error code for each request type its "Where" cell names (`any`: every type), from the one way the
 *   reference gateway gives it (PRODUCERS); code `0` comes with every successful case below;
 * - Request types: every row of the Request types table, answered successfully (every part type and combination);
 * - Answers: the subscription, card store, account check, risk decision and follow-up answers of the state tables;
 * - Unknown: fields and an error code the document does not list;
 * - Boundaries: answered fields at the length the field tables allow, and a `secrand` of 1 and of 256 characters;
 * - Account: an account whose alias is not its user name.
 *
 * `uncoveredRows()` names what no case covers: a test holds it empty.
 */
import { ERRORS } from '../../schemas/errors';
import { FIELD, REQUEST_TYPES, type RequestType } from '../../schemas/fields';
import { OPERATION, OPERATIONS } from '../../schemas/operations';
import { ERR } from '../gateway';
import { errorPart } from '../gateway/parts';
import type { AcsStatus, CardName } from '../testdata';
import type { RequestObject } from '../wire/types';
import type { CaseGroup, ClientCase } from './case';
import * as steps from './steps';
import type { CaseContext } from './steps';

type Draft = Omit<ClientCase, 'parts' | 'severity' | 'compare'> & { parts?: readonly RequestType[]; severity?: ClientCase['severity']; compare?: readonly string[] };

const rowTypes = (row: string): readonly RequestType[] => OPERATION[row].requesttypes;

function make(d: Draft): ClientCase {
  const parts = d.parts ?? rowTypes(d.row);
  if (d.expect.length !== parts.length) throw new Error(`case ${d.id}: ${d.expect.length} codes expected for ${parts.length} parts`);
  return { ...d, parts, severity: d.severity ?? 'error', compare: d.compare ?? [] };
}

/** Letters of the "Alphanumeric incl. symbols" class, spread deterministically. */
const filler = (n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/='): string =>
  Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');

const maxLength = (field: string): number => {
  const n = FIELD[field]?.response?.maxLength;
  if (n === undefined) throw new Error(`the field dictionary gives no response length for ${field}`);
  return n;
};

// ---- 3-D Secure: the enrolment states and the ACS outcomes ----------------------------------------------------------

const THREEDQUERY_FIELDS = ['enrolled', 'xid', 'acsurl', 'md', 'pareq', 'threedversion'];
const AUTH_3DS_FIELDS = ['enrolled', 'xid', 'status', 'cavv', 'eci', 'settlestatus', 'parenttransactionreference'];

const ENROLMENT: readonly { value: 'Y' | 'N' | 'U'; card: CardName; rule: string; what: string }[] = [
  { value: 'Y', card: 'authorised', rule: '3DS-NEXT-Y', what: 'enrolled Y, with acsurl, md and pareq (kept in full)' },
  { value: 'N', card: 'notEnrolled', rule: '3DS-NEXT-N', what: 'enrolled N' },
  { value: 'U', card: 'enrolmentUnknown', rule: '3DS-NEXT-U', what: 'enrolled U' },
];

/** The ACS outcomes of the 3-D Secure fields table (`status`), each from the test card that gives it. */
const ACS_OUTCOMES: readonly { status: AcsStatus; card: CardName; code: string; rules: string[]; what: string }[] = [
  { status: 'Y', card: 'authorised', code: '0', rules: ['3DS-AUTH-ENROLLED', '3DS-STATUS', '3DS-CAVV-ECI', 'ERR-0'], what: 'authenticated (status Y, cavv, eci) and authorised' },
  { status: 'N', card: 'acsNotAuthenticated', code: '60022', rules: ['ERR-60022', '3DS-60022-SETTLE', '3DS-STATUS'], what: '60022 Unauthenticated (status N, settlestatus 3)' },
  { status: 'A', card: 'acsAttempted', code: '0', rules: ['3DS-STATUS'], what: 'attempt made but not completed (status A)' },
  { status: 'U', card: 'acsUnavailable', code: '0', rules: ['3DS-STATUS'], what: 'unable to authenticate (status U)' },
];

const threeds: ClientCase[] = [
  ...ENROLMENT.map((e) =>
    make({
      id: `threedquery-enrolled-${e.value}`,
      title: `THREEDQUERY answered ${e.what}`,
      group: '3-D Secure',
      rules: [e.rule, '3DS-QUERY-RESPONSE'],
      row: 'threedquery',
      expect: ['0'],
      compare: THREEDQUERY_FIELDS,
      states: [`enrolled ${e.value}`],
      prepare: (ctx) => steps.threedquery(ctx, e.card),
    }),
  ),
  ...ACS_OUTCOMES.map((o) =>
    make({
      id: o.code === '0' ? `auth-3ds-status-${o.status}` : `auth-${o.code}`,
      title: `AUTH after 3-D Secure (enrolled Y, the ACS answered ${o.status}): ${o.what}`,
      group: '3-D Secure',
      rules: o.rules,
      row: 'auth-3ds-enrolled',
      expect: [o.code],
      compare: AUTH_3DS_FIELDS,
      states: ['enrolled Y', `status ${o.status}`],
      prepare: (ctx) => steps.authEnrolled(ctx, o.card, o.status),
    }),
  ),
  make({
    id: 'auth-70000',
    title: 'AUTH after 3-D Secure answered 70000: authenticated, then declined by the bank',
    group: '3-D Secure',
    rules: ['ERR-70000', '3DS-STATUS'],
    row: 'auth-3ds-enrolled',
    expect: ['70000'],
    compare: AUTH_3DS_FIELDS,
    states: ['enrolled Y', 'status Y'],
    prepare: (ctx) => steps.authEnrolled(ctx, 'declined', 'Y'),
  }),
  ...(['N', 'U'] as const).map((value) =>
    make({
      id: `auth-3ds-enrolled-${value}`,
      title: `AUTH after 3-D Secure on a card answered enrolled ${value}: sent with parenttransactionreference`,
      group: '3-D Secure',
      rules: ['3DS-AUTH-NOT-ENROLLED', 'INHERIT-PARENT-ECHO'],
      row: 'auth-3ds-not-enrolled',
      expect: ['0'],
      compare: ['enrolled', 'parenttransactionreference', 'settlestatus', 'authcode'],
      states: [`enrolled ${value}`],
      prepare: (ctx) => steps.authNotEnrolled(ctx, value === 'N' ? 'notEnrolled' : 'enrolmentUnknown'),
    }),
  ),
];

// ---- Errors: each code for each request type it applies to ----------------------------------------------------------

interface Producer {
  readonly row: string;
  readonly prepare: (ctx: CaseContext) => RequestObject;
  /** The codes of all the parts (a combined request answers one code per part). */
  readonly expect?: readonly string[];
  readonly mutation?: ClientCase['mutation'];
  readonly how: string;
}

/** Every part of the answer replaced by the gateway's own 99999 part (where no test card reaches the type). */
const unknownErrorEverywhere: ClientCase['mutation'] = { part: (part) => errorPart(String(part.requesttypedescription), ERR.unknown) };

/** How the reference gateway gives each (code, request type) of the Errors table. */
const PRODUCERS: Readonly<Record<string, Producer>> = {
  '30000:THREEDQUERY': { row: 'threedquery', how: 'a cache token the service does not hold', prepare: (ctx) => steps.threedquery(ctx, { cachetoken: 'cardspec-expired-cachetoken-0000' }) },
  '60031:THREEDQUERY': { row: 'threedquery', how: 'a Diners card', prepare: (ctx) => steps.threedquery(ctx, 'no3ds') },
  '60107:THREEDQUERY': {
    row: 'threedquery',
    how: 'on a RISKDEC that gave CHALLENGE (rule 5)',
    prepare: (ctx) => steps.threedquery(ctx, { parent: String(steps.ok(ctx, steps.riskdecCard(ctx, 'threedquery-60107-riskdec', 'shieldChallenge')).transactionreference) }),
  },
  '60025:AUTH': { row: 'auth', how: 'on a site of category 6012, without its fields', prepare: (ctx) => steps.authWithToken(ctx, 'auth-60025', 'authorised', site6012(ctx)) },
  '60025:ACCOUNTCHECK': { row: 'accountcheck', how: 'on a site of category 6012, without its fields', prepare: (ctx) => steps.accountcheck(ctx, 'accountcheck-60025', { site: site6012(ctx) }) },
  '99999:THREEDQUERY': { row: 'threedquery', how: 'the unknown-error test card', prepare: (ctx) => steps.threedquery(ctx, 'unknownError') },
  '99999:AUTH': { row: 'auth', how: 'the unknown-error test card', prepare: (ctx) => steps.authWithToken(ctx, 'auth-99999', 'unknownError') },
  '99999:SUBSCRIPTION': {
    row: 'subscription-no-3ds',
    expect: ['99999', '99999'],
    how: 'the unknown-error test card',
    prepare: (ctx) => steps.subscription(ctx, 'subscription-99999', 'no-3ds', {}, 'unknownError'),
  },
  '99999:ACCOUNTCHECK': { row: 'accountcheck', how: 'the unknown-error test card', prepare: (ctx) => steps.accountcheck(ctx, 'accountcheck-99999', { card: 'unknownError' }) },
  '99999:STORE': { row: 'store', how: 'the unknown-error test card', prepare: (ctx) => steps.store(ctx, 'store-99999', 'unknownError') },
  '99999:RISKDEC': { row: 'riskdec-card', how: 'the unknown-error test card', prepare: (ctx) => steps.riskdecCard(ctx, 'riskdec-99999', 'unknownError') },
  '99999:TRANSACTIONUPDATE': {
    row: 'transactionupdate',
    how: 'changed on the wire (no test card reaches a follow-up)',
    mutation: unknownErrorEverywhere,
    prepare: (ctx) => steps.transactionupdate(ctx, steps.subscriptionRef(ctx, 'transactionupdate-99999'), { baseamount: '2000' }),
  },
  '99999:TRANSACTIONQUERY': {
    row: 'transactionquery',
    how: 'changed on the wire (no test card reaches a follow-up)',
    mutation: unknownErrorEverywhere,
    prepare: (ctx) => steps.transactionquery(ctx, steps.storedRef(ctx, 'transactionquery-99999')),
  },
};

function site6012(ctx: CaseContext): string {
  if (!ctx.site6012) throw new Error('the account has no site of merchant category 6012 (60025 needs one; see docs/gateway.md)');
  return ctx.site6012;
}

/** The (code, request type) pairs of the Errors table: `any` is every request type. */
export function errorRows(): { code: string; type: RequestType }[] {
  return ERRORS.flatMap((e) => (e.where === 'any' ? REQUEST_TYPES : e.where).map((type) => ({ code: e.code, type })));
}

const ERROR_FIELDS = ['errordata', 'settlestatus', 'status', 'enrolled'];

const errors: ClientCase[] = errorRows()
  .filter(({ code, type }) => code !== '0' && !threeds.some((c) => c.id === `${type.toLowerCase()}-${code}`))
  .flatMap(({ code, type }) => {
    const p = PRODUCERS[`${code}:${type}`];
    if (!p) return [];
    const parts = rowTypes(p.row);
    return [
      make({
        id: `${type.toLowerCase()}-${code}`,
        title: `${type} answered ${code} (${p.how})`,
        group: 'Errors',
        rules: [`ERR-${code}`],
        row: p.row,
        expect: p.expect ?? parts.map(() => code),
        compare: ERROR_FIELDS,
        prepare: p.prepare,
        mutation: p.mutation,
      }),
    ];
  });

// ---- Request types: every row, answered successfully ---------------------------------------------------------------

const SUB_FIELDS = [
  'accounttypedescription',
  'transactionactive',
  'baseamount',
  'parenttransactionreference',
  'subscriptionnumber',
  'subscriptionfinalnumber',
  'subscriptionbegindate',
  'settlestatus',
];
const RISKDEC_FIELDS = [
  'fraudcontrolshieldstatuscode',
  'acquirerrecommendedaction',
  'fraudcontrolreference',
  'fraudcontrolresponsecode',
  'rulecategoryflag',
  'rulecategorymessage',
  'parenttransactionreference',
];
const AUTH_FIELDS = ['baseamount', 'currencyiso3a', 'orderreference', 'accounttypedescription', 'settlestatus', 'authcode', 'maskedpan', 'parenttransactionreference'];
const SECURITY_FIELDS = ['securityresponseaddress', 'securityresponsepostcode', 'securityresponsesecuritycode'];
const STORE_FIELDS = ['transactionactive', 'accounttypedescription', 'maskedpan', 'orderreference', 'paymenttypedescription', 'transactionstartedtimestamp'];

const rows: ClientCase[] = [
  make({
    id: 'auth',
    title: 'An ordinary AUTH (rule 1), authorised, the request fields echoed',
    group: 'Request types',
    rules: ['ERR-0', 'FIELD-ECHO'],
    row: 'auth',
    expect: ['0'],
    compare: AUTH_FIELDS,
    prepare: (ctx) => steps.authWithToken(ctx, 'auth'),
  }),
  ...(['enrolled', 'not-enrolled', 'no-3ds'] as const).map((how) =>
    make({
      id: `subscription-${how}`,
      title: `AUTH+SUBSCRIPTION (${OPERATION[`subscription-${how}`].title.toLowerCase()}): two parts, AUTH then SUBSCRIPTION, each with its own reference`,
      group: 'Request types',
      rules: [how === 'enrolled' ? 'SUB-ENROLLED' : how === 'not-enrolled' ? 'SUB-NOT-ENROLLED' : 'SUB-NO-3DS', 'SUB-COMBINED', 'ENV-ORDER', 'SUB-OWN-REFERENCE', 'SUB-RECUR'],
      row: `subscription-${how}`,
      expect: ['0', '0'],
      compare: SUB_FIELDS,
      prepare: (ctx) => steps.subscription(ctx, `subscription-${how}`, how),
    }),
  ),
  make({
    id: 'accountcheck',
    title: 'ACCOUNTCHECK with baseamount 0: one part shaped as an AUTH part, the security checks matched',
    group: 'Request types',
    rules: ['AC-SHAPE', 'SEC-RESULT-2'],
    row: 'accountcheck',
    expect: ['0'],
    compare: [...AUTH_FIELDS, ...SECURITY_FIELDS],
    prepare: (ctx) => steps.accountcheck(ctx, 'accountcheck'),
  }),
  make({
    id: 'store',
    title: 'STORE: one STORE part, transactionactive 1, the card masked',
    group: 'Request types',
    rules: ['STORE-SHAPE', 'STORE-RESPONSE-FIELDS', 'STORE-STATE-ENABLED', 'FIELD-MASKEDPAN'],
    row: 'store',
    expect: ['0'],
    compare: STORE_FIELDS,
    prepare: (ctx) => steps.store(ctx, 'store'),
  }),
  make({
    id: 'riskdec-card',
    title: 'RISKDEC on card data answered ACCEPT',
    group: 'Request types',
    rules: ['RISKDEC-CARD', 'RISKDEC-SHIELD-VALUES', 'RISKDEC-RECOMMENDATION'],
    row: 'riskdec-card',
    expect: ['0'],
    compare: RISKDEC_FIELDS,
    prepare: (ctx) => steps.riskdecCard(ctx, 'riskdec-card'),
  }),
  make({
    id: 'riskdec-challenge',
    title: 'RISKDEC after a payment answered CHALLENGE, S, a rule flag',
    group: 'Request types',
    rules: ['RISKDEC-AFTER-PAYMENT', 'RISKDEC-SHIELD-VALUES', 'RISKDEC-RECOMMENDATION'],
    row: 'riskdec-after-payment',
    expect: ['0'],
    compare: RISKDEC_FIELDS,
    prepare: (ctx) => steps.riskdecAfterPayment(ctx, 'riskdec-challenge', 'shieldChallenge'),
  }),
  make({
    id: 'riskdec-then-auth',
    title: '["RISKDEC","AUTH"]: two parts, the AUTH on the RISKDEC',
    group: 'Request types',
    rules: ['RISKDEC-FIRST', 'ENV-ORDER'],
    row: 'riskdec-then-auth',
    expect: ['0', '0'],
    compare: [...RISKDEC_FIELDS, ...AUTH_FIELDS],
    prepare: (ctx) => steps.combined(ctx, 'riskdec-then-auth', 'riskdec-then-auth'),
  }),
  make({
    id: 'auth-then-riskdec',
    title: '["AUTH","RISKDEC"]: two parts, the RISKDEC on the AUTH',
    group: 'Request types',
    rules: ['RISKDEC-LAST', 'ENV-ORDER'],
    row: 'auth-then-riskdec',
    expect: ['0', '0'],
    compare: [...RISKDEC_FIELDS, ...AUTH_FIELDS],
    prepare: (ctx) => steps.combined(ctx, 'auth-then-riskdec', 'auth-then-riskdec'),
  }),
  make({
    id: 'transactionupdate',
    title: "TRANSACTIONUPDATE of a subscription's baseamount (rule 3), answered 0 (the shape is the public one)",
    group: 'Request types',
    rules: ['SUB-AMOUNT-UPDATE', 'SUB-UPDATE-SHAPE'],
    severity: 'warning',
    row: 'transactionupdate',
    expect: ['0'],
    compare: ['errordata'],
    prepare: (ctx) => steps.transactionupdate(ctx, steps.subscriptionRef(ctx, 'transactionupdate'), { baseamount: '2000' }),
  }),
  make({
    id: 'transactionquery',
    title: 'TRANSACTIONQUERY of a stored card: the records as a list of objects, the card masked (the shape is the public one)',
    group: 'Request types',
    rules: ['STORE-QUERY-SHAPE', 'STORE-QUERY-MASKED'],
    severity: 'warning',
    row: 'transactionquery',
    expect: ['0'],
    compare: ['found', 'records'],
    prepare: (ctx) => steps.transactionquery(ctx, steps.storedRef(ctx, 'transactionquery')),
  }),
];

// ---- Answers of the state tables --------------------------------------------------------------------------------------

const answers: ClientCase[] = [
  ...(
    [
      ['1', 'SUB-STATE-ACTIVE', 'active'],
      ['0', 'SUB-STATE-INACTIVE', 'inactive'],
    ] as const
  ).map(([value, rule, word]) =>
    make({
      id: `subscription-transactionactive-${value}`,
      title: `AUTH+SUBSCRIPTION sent with transactionactive ${value}: the SUBSCRIPTION part ${word} (${value})`,
      group: 'Answers',
      rules: [rule, 'SUB-TRANSACTIONACTIVE-VALUES'],
      row: 'subscription-no-3ds',
      expect: ['0', '0'],
      compare: SUB_FIELDS,
      prepare: (ctx) => steps.subscription(ctx, `subscription-transactionactive-${value}`, 'no-3ds', { transactionactive: value }),
    }),
  ),
  make({
    id: 'subscription-pending',
    title: 'AUTH+SUBSCRIPTION without transactionactive: the SUBSCRIPTION part pending (2)',
    group: 'Answers',
    rules: ['SUB-STATE-PENDING', 'SUB-TRANSACTIONACTIVE-VALUES'],
    row: 'subscription-not-enrolled',
    expect: ['0', '0'],
    compare: SUB_FIELDS,
    prepare: (ctx) => steps.subscription(ctx, 'subscription-pending', 'not-enrolled', {}, 'notEnrolled2'),
  }),
  ...(
    [
      ['notMatched', '4', 'SEC-RESULT-4', 'not matched (4)'],
      ['notChecked', '1', 'SEC-RESULT-1', 'not checked (1)'],
    ] as const
  ).map(([how, digit, rule, what]) =>
    make({
      id: `accountcheck-security-${digit}`,
      title: `ACCOUNTCHECK whose security checks are ${what}`,
      group: 'Answers',
      rules: [rule, 'SEC-RESULT-DIGIT', 'AC-VALIDATES'],
      row: 'accountcheck',
      expect: ['0'],
      compare: SECURITY_FIELDS,
      prepare: (ctx) => steps.accountcheck(ctx, `accountcheck-security-${digit}`, { security: how }),
    }),
  ),
  make({
    id: 'riskdec-deny',
    title: 'RISKDEC on card data answered DENY',
    group: 'Answers',
    rules: ['RISKDEC-SHIELD-VALUES', 'RISKDEC-RECOMMENDATION'],
    row: 'riskdec-card',
    expect: ['0'],
    compare: RISKDEC_FIELDS,
    prepare: (ctx) => steps.riskdecCard(ctx, 'riskdec-deny', 'shieldDeny'),
  }),
  make({
    id: 'riskdec-noscore',
    title: 'RISKDEC after a declined payment answered NOSCORE',
    group: 'Answers',
    rules: ['RISKDEC-SHIELD-VALUES', 'RISKDEC-AFTER-PAYMENT'],
    row: 'riskdec-after-payment',
    expect: ['0'],
    compare: RISKDEC_FIELDS,
    prepare: (ctx) => steps.riskdecAfterPayment(ctx, 'riskdec-noscore', 'declined2'),
  }),
  make({
    id: 'store-disable',
    title: 'TRANSACTIONUPDATE of a stored card to transactionactive 0 (disabled), answered 0',
    group: 'Answers',
    rules: ['STORE-STATE-DISABLE', 'STORE-FOLLOWUP-SHAPES'],
    severity: 'warning',
    row: 'transactionupdate',
    expect: ['0'],
    compare: ['errordata'],
    prepare: (ctx) => steps.transactionupdate(ctx, steps.storedRef(ctx, 'store-disable'), { transactionactive: '0' }),
  }),
  make({
    id: 'payment-suspend',
    title: 'TRANSACTIONUPDATE of a payment to settlestatus 2 (suspended, as recommended after CHALLENGE), answered 0',
    group: 'Answers',
    rules: ['RISKDEC-SUSPEND-AFTER-AUTH', 'SUB-UPDATE-SHAPE'],
    severity: 'warning',
    row: 'transactionupdate',
    expect: ['0'],
    compare: ['errordata'],
    prepare: (ctx) => steps.transactionupdate(ctx, steps.paymentRef(ctx, 'payment-suspend'), { settlestatus: '2' }),
  }),
  make({
    id: 'transactionquery-subscription',
    title: 'TRANSACTIONQUERY of a subscription: one record (the shape is the public one)',
    group: 'Answers',
    rules: ['STORE-FOLLOWUP-SHAPES'],
    severity: 'warning',
    row: 'transactionquery',
    expect: ['0'],
    compare: ['found', 'records'],
    prepare: (ctx) => steps.transactionquery(ctx, steps.subscriptionRef(ctx, 'transactionquery-subscription')),
  }),
  ...(
    [
      [
        'store-reenable',
        'a stored card disabled before, to transactionactive 1 (enabled again)',
        ['STORE-STATE-REENABLE', 'STORE-FOLLOWUP-SHAPES'],
        (ctx: CaseContext) => {
          const stored = steps.storedRef(ctx, 'store-reenable');
          steps.ok(ctx, steps.transactionupdate(ctx, stored, { transactionactive: '0' }));
          return steps.transactionupdate(ctx, stored, { transactionactive: '1' });
        },
      ],
      [
        'subscription-deactivate',
        'a subscription to transactionactive 0 (payments stop)',
        ['SUB-STATE-DEACTIVATE', 'SUB-UPDATE-SHAPE'],
        (ctx: CaseContext) => steps.transactionupdate(ctx, steps.subscriptionRef(ctx, 'subscription-deactivate'), { transactionactive: '0' }),
      ],
      [
        'subscription-finalnumber',
        "a subscription's subscriptionfinalnumber to a greater value (payments resume)",
        ['SUB-STATE-RESUME', 'SUB-UPDATE-SHAPE'],
        (ctx: CaseContext) => steps.transactionupdate(ctx, steps.subscriptionRef(ctx, 'subscription-finalnumber'), { subscriptionfinalnumber: '24' }),
      ],
    ] as const
  ).map(([id, what, rules, prepare]) =>
    make({ id, title: `TRANSACTIONUPDATE of ${what}, answered 0`, group: 'Answers', rules: [...rules], severity: 'warning', row: 'transactionupdate', expect: ['0'], compare: ['errordata'], prepare }),
  ),
  make({
    id: 'riskdec-then-threedquery',
    title: 'THREEDQUERY on a RISKDEC that gave ACCEPT (rule 5), answered enrolled Y',
    group: 'Answers',
    rules: ['RISKDEC-BEFORE-3DS', '3DS-QUERY-RESPONSE'],
    row: 'threedquery',
    expect: ['0'],
    compare: THREEDQUERY_FIELDS,
    prepare: (ctx) => steps.threedquery(ctx, { parent: String(steps.ok(ctx, steps.riskdecCard(ctx, 'riskdec-then-threedquery')).transactionreference) }),
  }),
  make({
    id: 'threeds-auth-then-riskdec',
    title: 'RISKDEC on the AUTH that followed a THREEDQUERY (rule 6), answered ACCEPT',
    group: 'Answers',
    rules: ['RISKDEC-AFTER-3DS-AUTH', 'RISKDEC-AFTER-PAYMENT'],
    row: 'riskdec-after-payment',
    expect: ['0'],
    compare: RISKDEC_FIELDS,
    prepare: (ctx) => {
      const auth = steps.ok(ctx, steps.authNotEnrolled(ctx, 'notEnrolled'));
      return { ...steps.riskdecAfterPayment(ctx, 'threeds-auth-then-riskdec'), parenttransactionreference: String(auth.transactionreference) };
    },
  }),
  make({
    id: 'accountcheck-then-auth',
    title: 'An AUTH on an ACCOUNTCHECK: the card inherited, the parent reference answered',
    group: 'Answers',
    rules: ['AC-INHERITED', 'INHERIT-PARENT-ECHO'],
    row: 'auth',
    expect: ['0'],
    compare: AUTH_FIELDS,
    prepare: (ctx) => ({
      requesttypedescriptions: [...OPERATION.auth.requesttypes],
      ...steps.payment(ctx, 'accountcheck-then-auth'),
      parenttransactionreference: String(steps.ok(ctx, steps.accountcheck(ctx, 'accountcheck-then-auth-check')).transactionreference),
    }),
  }),
  make({
    id: 'stored-card-threedquery',
    title: 'A THREEDQUERY on a stored card (rule 7), answered enrolled Y',
    group: 'Answers',
    rules: ['3DS-STORED-CARD', '3DS-QUERY-RESPONSE'],
    row: 'threedquery',
    expect: ['0'],
    compare: THREEDQUERY_FIELDS,
    prepare: (ctx) => steps.threedquery(ctx, { parent: steps.storedRef(ctx, 'stored-card-threedquery') }),
  }),
  make({
    id: 'stored-card-auth',
    title: 'An AUTH on a stored card: the card inherited, the parent reference answered',
    group: 'Answers',
    rules: ['INHERIT-CHILD', 'INHERIT-PARENT-ECHO'],
    row: 'auth',
    expect: ['0'],
    compare: AUTH_FIELDS,
    prepare: (ctx) => ({ requesttypedescriptions: [...OPERATION.auth.requesttypes], ...steps.payment(ctx, 'stored-card-auth'), parenttransactionreference: steps.storedRef(ctx, 'stored-card-auth') }),
  }),
];

// ---- Unknown fields and codes ---------------------------------------------------------------------------------------

const unknown: ClientCase[] = [
  make({
    id: 'unknown-response-fields',
    title: 'An AUTH part carrying fields the document does not name (a text, a list, an object)',
    // "The full list of fields accepted in an AUTH request: not shown": real answers carry more than the tables list.
    group: 'Unknown',
    rules: ['FIELD-AUTH-FIELD-LIST'],
    severity: 'warning',
    row: 'auth',
    expect: ['0'],
    compare: ['settlestatus', 'cardspecunknownfield', 'cardspecunknownlist', 'cardspecunknownobject'],
    prepare: (ctx) => steps.authWithToken(ctx, 'unknown-response-fields'),
    mutation: { part: (part) => ({ ...part, cardspecunknownfield: 'a value the client does not know', cardspecunknownlist: ['1', '2'], cardspecunknownobject: { nested: 'x' } }) },
  }),
  make({
    id: 'unknown-envelope-fields',
    title: 'An answer whose envelope carries a field the document does not name',
    group: 'Unknown',
    rules: ['FIELD-AUTH-FIELD-LIST'],
    severity: 'warning',
    row: 'auth',
    expect: ['0'],
    envelope: ['cardspecunknownenvelopefield'],
    observedIn: 'envelope',
    prepare: (ctx) => steps.authWithToken(ctx, 'unknown-envelope-fields'),
    mutation: { envelope: (env) => ({ ...env, cardspecunknownenvelopefield: 'x' }) },
  }),
  make({
    id: 'unknown-errorcode',
    title: 'An AUTH answered with an error code the document does not list ("Other codes exist")',
    group: 'Unknown',
    rules: ['ERR-OTHER-CODES', 'ERR-PART-FIELDS'],
    row: 'auth',
    expect: ['12345'],
    compare: ERROR_FIELDS,
    prepare: (ctx) => steps.authWithToken(ctx, 'unknown-errorcode'),
    mutation: { part: (part) => ({ ...part, errorcode: '12345', errormessage: 'An error code the client has not seen' }) },
  }),
];

// ---- Boundaries: answered fields at their longest, secrand short and long ------------------------------------------

/** The THREEDQUERY answer's fields with a length in the field tables, each at that length (an enrolled card). */
const BOUNDED_3DS = ['md', 'pareq', 'acsurl', 'xid'] as const;

const boundaries: ClientCase[] = [
  ...BOUNDED_3DS.map((field) =>
    make({
      id: `boundary-${field}-${maxLength(field)}`,
      title: `THREEDQUERY answered with ${field} of ${maxLength(field)} characters, the most the field table allows`,
      group: 'Boundaries',
      rules: field === 'md' ? ['3DS-MD-PARES-UNMODIFIED', 'LIMIT-FIELD-LENGTHS'] : ['3DS-QUERY-RESPONSE', 'LIMIT-FIELD-LENGTHS'],
      row: 'threedquery',
      expect: ['0'],
      compare: THREEDQUERY_FIELDS,
      prepare: (ctx) => steps.threedquery(ctx, 'authorised'),
      mutation: {
        part: (part) => ({
          ...part,
          [field]:
            field === 'acsurl'
              ? `${String(part.acsurl)}?pad=${filler(maxLength(field) - String(part.acsurl).length - 5, 'abcdefghijklmnopqrstuvwxyz0123456789')}`
              : filler(maxLength(field), field === 'xid' ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789' : undefined),
        }),
      },
    }),
  ),
  make({
    id: `boundary-transactionreference-${maxLength('transactionreference')}`,
    title: `An AUTH answered with a transactionreference of ${maxLength('transactionreference')} characters`,
    group: 'Boundaries',
    rules: ['FIELD-TRANSACTIONREFERENCE', 'LIMIT-FIELD-LENGTHS'],
    row: 'auth',
    expect: ['0'],
    compare: AUTH_FIELDS,
    prepare: (ctx) => steps.authWithToken(ctx, 'boundary-transactionreference'),
    mutation: { part: (part) => ({ ...part, transactionreference: `99-9-${filler(maxLength('transactionreference') - 5, '0123456789')}` }) },
  }),
  make({
    id: 'boundary-orderreference-255',
    title: 'An AUTH sent with an orderreference of 255 characters, echoed in full',
    group: 'Boundaries',
    rules: ['FIELD-ECHO', 'LIMIT-FIELD-LENGTHS'],
    row: 'auth',
    expect: ['0'],
    compare: AUTH_FIELDS,
    prepare: (ctx) => ({ ...steps.authWithToken(ctx, 'boundary-orderreference'), orderreference: `cardspec-${filler(255 - 9, 'abcdefghijklmnopqrstuvwxyz0123456789-_')}` }),
  }),
  make({
    id: 'boundary-rulecategorymessage-long',
    title: 'A RISKDEC answered CHALLENGE whose rulecategorymessage ("no defined length") is 4096 characters',
    group: 'Boundaries',
    rules: ['RISKDEC-SHIELD-VALUES'],
    row: 'riskdec-card',
    expect: ['0'],
    compare: RISKDEC_FIELDS,
    prepare: (ctx) => steps.riskdecCard(ctx, 'boundary-rulecategorymessage', 'shieldChallenge'),
    mutation: { part: (part) => ({ ...part, rulecategorymessage: filler(4096, 'abcdefghijklmnopqrstuvwxyz .,') }) },
  }),
  ...(
    [
      ['short', 1],
      ['long', 256],
    ] as const
  ).map(([word, n]) =>
    make({
      id: `secrand-${word}`,
      title: `An answer whose secrand is ${n} character${n === 1 ? '' : 's'} long ("Random string of varying length")`,
      group: 'Boundaries',
      rules: ['ENV-SECRAND'],
      row: 'auth',
      expect: ['0'],
      observedIn: 'envelope',
      prepare: (ctx) => steps.authWithToken(ctx, `secrand-${word}`),
      mutation: { envelope: (env) => ({ ...env, secrand: filler(n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789') }) },
    }),
  ),
];

// ---- Account --------------------------------------------------------------------------------------------------------

const account: ClientCase[] = [
  make({
    id: 'alias-not-username',
    title: 'An account whose alias is not its user name: the SDK must send the alias it is given, not the user name',
    group: 'Account',
    rules: ['SEC-ALIAS', 'ENV-ALIAS'],
    row: 'auth',
    expect: ['0'],
    compare: AUTH_FIELDS,
    account: 'aliased',
    prepare: (ctx) => steps.authWithToken(ctx, 'alias-not-username'),
  }),
];

export const CLIENT_CASES: readonly ClientCase[] = [...threeds, ...errors, ...rows, ...answers, ...unknown, ...boundaries, ...account];

/** The cases of a group, in catalogue order. */
export const casesOf = (group: CaseGroup): ClientCase[] => CLIENT_CASES.filter((c) => c.group === group);

/** The (code, type) pairs a case covers: each answered part's request type with the code it is answered with. */
export const coveredErrors = (c: ClientCase): string[] => c.parts.map((type, i) => `${c.expect[i]}:${type}`);

/** The 3-D Secure states of the document: each `enrolled` value and each `status` value. */
export const THREEDS_STATES: readonly string[] = [...ENROLMENT.map((e) => `enrolled ${e.value}`), ...['Y', 'N', 'A', 'U'].map((s) => `status ${s}`)];

/**
 * What no case covers: rows of the Errors table (`errors 60022 AUTH`), rows of the Request types table
 * (`request types store`) and 3-D Secure states (`3-D Secure status A`). Empty for the catalogue as shipped.
 */
export function uncoveredRows(cases: readonly ClientCase[] = CLIENT_CASES): string[] {
  const errorsCovered = new Set(cases.flatMap(coveredErrors));
  const rowsCovered = new Set(cases.map((c) => c.row));
  const statesCovered = new Set(cases.flatMap((c) => c.states ?? []));
  return [
    ...errorRows()
      .filter(({ code, type }) => !errorsCovered.has(`${code}:${type}`))
      .map(({ code, type }) => `errors ${code} ${type}`),
    ...OPERATIONS.filter((o) => !rowsCovered.has(o.id)).map((o) => `request types ${o.id}`),
    ...THREEDS_STATES.filter((s) => !statesCovered.has(s)).map((s) => `3-D Secure ${s}`),
  ];
}
