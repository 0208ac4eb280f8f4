/**
 * Client conformance cases: the other direction, as Autobahn's fuzzing server does for WebSocket clients. Each case
 * puts the stand-in gateway in a state where the next call gets one documented answer (enrolled Y, N, U; 60022;
 * 70000; two parts; a CHALLENGE; unknown extra fields; a short or long `secrand`; an error code the client does not
 * know), gives the client's adapter the request to send, and then checks that what the client reported is what the
 * gateway answered. Earlier steps a case needs (a THREEDQUERY, the ACS, a payment) are run in-process, so the adapter
 * makes exactly one call per case. The adapter protocol is in docs/contract.md.
 *
 * Answers are the reference gateway's own, from its test cards (src/testdata.ts); only what no test card can give
 * (unknown fields, another `secrand`, an unlisted error code) is changed on the wire through the `mutate` hook.
 */
import { OPERATION } from '../../schemas/operations';
import type { GatewayMutation, Runtime } from '../gateway';
import { processEnvelope } from '../gateway';
import { acsComplete } from '../gateway/acs';
import { control } from '../gateway/control';
import { TEST_CARDS, type AcsStatus, type CardName, type UserConfig } from '../testdata';
import type { RequestObject, ResponsePart } from '../wire/types';
import type { Severity } from './checks';

export interface CaseContext {
  readonly rt: Runtime;
  readonly user: UserConfig;
  readonly site: string;
  /** `http://host:port` of the gateway, as the adapter reaches it (`acsurl` is built from it). */
  readonly baseUrl: string;
}

export interface ClientCase {
  readonly id: string;
  readonly title: string;
  /** The rules of features/rules.yaml the client is held to. */
  readonly rules: readonly string[];
  /** `warning` where the case rests on what the document does not show: it fails the gate only with `--strict`. */
  readonly severity: Severity;
  /** Fields of each part the client must report as answered, besides requesttypedescription, errorcode, transactionreference. */
  readonly report: readonly string[];
  /** Runs the earlier steps in-process and gives the request object the adapter is to send. */
  prepare(ctx: CaseContext): RequestObject;
  /** How the gateway's answer to that call is changed, where no test card can give it. */
  readonly mutation?: GatewayMutation;
}

/** Fields every part is checked on. */
export const ALWAYS_REPORTED = ['requesttypedescription', 'errorcode', 'transactionreference'] as const;

// ---- earlier steps, in-process ------------------------------------------------------------------------------------

/** One request object through the gateway's core, as the user (not an observed call: the adapter's is the one). */
function call(ctx: CaseContext, request: RequestObject): ResponsePart[] {
  const env = processEnvelope(ctx.rt, { alias: ctx.user.alias, version: '1.00', request: [request] }, { user: ctx.user, format: 'json', baseUrl: ctx.baseUrl });
  return Array.isArray(env.response) ? (env.response as ResponsePart[]) : [];
}

function ok(ctx: CaseContext, request: RequestObject): ResponsePart {
  const [part] = call(ctx, request);
  if (part?.errorcode !== '0') throw new Error(`the case's earlier ${String((request.requesttypedescriptions as string[]).join('+'))} was answered errorcode ${String(part?.errorcode)}`);
  return part;
}

/** What the JavaScript library would have posted to the merchant for a test card (the control API's cache token). */
function token(ctx: CaseContext, name: CardName): string {
  const c = TEST_CARDS[name];
  const r = control(ctx.rt, 'POST', '/_cardspec/cachetokens', new URLSearchParams(), { pan: c.pan, expirydate: c.expirydate, securitycode: c.securitycode });
  const body = r.body as { cachetoken?: string; error?: string };
  if (!body.cachetoken) throw new Error(`no cache token: ${body.error ?? r.status}`);
  return body.cachetoken;
}

const payment = (ctx: CaseContext, id: string): RequestObject => ({
  sitereference: ctx.site,
  accounttypedescription: 'ECOM',
  currencyiso3a: 'GBP',
  baseamount: '1050',
  orderreference: `cardspec-case-${id}`,
});

function threedquery(ctx: CaseContext, card: CardName): RequestObject {
  return {
    requesttypedescriptions: ['THREEDQUERY'],
    termurl: 'https://merchant.example/return',
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    useragent: 'Mozilla/5.0 (X11; Linux x86_64) cardspec client case',
    cachetoken: token(ctx, card),
    currencyiso3a: 'GBP',
    accounttypedescription: 'ECOM',
    sitereference: ctx.site,
    baseamount: '1050',
  };
}

/** THREEDQUERY for an enrolled card, then the ACS with an outcome: the `md` and `pares` the AUTH is to send. */
function authenticated(ctx: CaseContext, card: CardName, outcome: AcsStatus): RequestObject {
  const query = ok(ctx, threedquery(ctx, card));
  const ref = String(query.transactionreference);
  const form = new URLSearchParams({ PaReq: String(query.pareq), TermUrl: 'https://merchant.example/return', MD: String(query.md), outcome });
  const page = acsComplete(ctx.rt, form);
  const pares = ctx.rt.ledger.get(ref)?.threeds?.pares;
  if (page.status !== 200 || pares === undefined) throw new Error(`the emulated ACS refused the case's authentication (${page.status})`);
  return { requesttypedescriptions: ['AUTH'], md: String(query.md), pares };
}

function authWithToken(ctx: CaseContext, id: string, card: CardName = 'authorised'): RequestObject {
  return { requesttypedescriptions: ['AUTH'], ...payment(ctx, id), cachetoken: token(ctx, card) };
}

// ---- the cases ----------------------------------------------------------------------------------------------------

const randomLetters = (n: number): string => Array.from({ length: n }, (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[(i * 7 + 3) % 62]).join('');

export const CLIENT_CASES: readonly ClientCase[] = [
  {
    id: 'threedquery-enrolled-Y',
    title: 'THREEDQUERY answered enrolled Y, with acsurl, md and pareq',
    rules: ['3DS-NEXT-Y', '3DS-QUERY-RESPONSE'],
    severity: 'error',
    report: ['enrolled', 'xid', 'acsurl', 'md', 'pareq'],
    prepare: (ctx) => threedquery(ctx, 'authorised'),
  },
  {
    id: 'threedquery-enrolled-N',
    title: 'THREEDQUERY answered enrolled N',
    rules: ['3DS-NEXT-N'],
    severity: 'error',
    report: ['enrolled', 'xid'],
    prepare: (ctx) => threedquery(ctx, 'notEnrolled'),
  },
  {
    id: 'threedquery-enrolled-U',
    title: 'THREEDQUERY answered enrolled U',
    rules: ['3DS-NEXT-U'],
    severity: 'error',
    report: ['enrolled', 'xid'],
    prepare: (ctx) => threedquery(ctx, 'enrolmentUnknown'),
  },
  {
    id: 'auth-60022',
    title: 'AUTH after 3-D Secure answered 60022 Unauthenticated (status N, settlestatus 3)',
    rules: ['ERR-60022', '3DS-60022-SETTLE'],
    severity: 'error',
    report: ['errormessage', 'status', 'settlestatus', 'enrolled'],
    prepare: (ctx) => authenticated(ctx, 'acsNotAuthenticated', 'N'),
  },
  {
    id: 'auth-70000',
    title: 'AUTH after 3-D Secure answered 70000: authenticated, then declined by the bank',
    rules: ['ERR-70000'],
    severity: 'error',
    report: ['errormessage', 'status', 'settlestatus'],
    prepare: (ctx) => authenticated(ctx, 'declined', 'Y'),
  },
  {
    id: 'subscription-two-parts',
    title: 'AUTH+SUBSCRIPTION answered with two parts, AUTH then SUBSCRIPTION, each with its own reference',
    rules: ['SUB-COMBINED', 'ENV-ORDER', 'SUB-OWN-REFERENCE'],
    severity: 'error',
    report: ['accounttypedescription', 'transactionactive', 'baseamount', 'parenttransactionreference'],
    prepare: (ctx) => {
      const query = ok(ctx, threedquery(ctx, 'notEnrolled'));
      return {
        requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'],
        ...payment(ctx, 'subscription-two-parts'),
        subscriptiontype: 'RECURRING',
        subscriptionunit: 'MONTH',
        subscriptionfrequency: '1',
        subscriptionnumber: '1',
        subscriptionfinalnumber: '12',
        subscriptionbegindate: '2026-02-05',
        credentialsonfile: '1',
        parenttransactionreference: String(query.transactionreference),
      };
    },
  },
  {
    id: 'riskdec-then-auth',
    title: '["RISKDEC","AUTH"] answered with two parts, the AUTH on the RISKDEC',
    rules: ['RISKDEC-FIRST', 'ENV-ORDER'],
    severity: 'error',
    report: ['fraudcontrolshieldstatuscode', 'parenttransactionreference'],
    prepare: (ctx) => ({ ...authWithToken(ctx, 'riskdec-then-auth'), requesttypedescriptions: ['RISKDEC', 'AUTH'] }),
  },
  {
    id: 'riskdec-challenge',
    title: 'RISKDEC after a payment answered CHALLENGE',
    rules: ['RISKDEC-SHIELD-VALUES', 'RISKDEC-AFTER-PAYMENT'],
    severity: 'error',
    report: ['fraudcontrolshieldstatuscode', 'acquirerrecommendedaction', 'rulecategoryflag', 'parenttransactionreference'],
    prepare: (ctx) => {
      const paid = ok(ctx, authWithToken(ctx, 'riskdec-challenge', 'shieldChallenge'));
      const row = OPERATION['riskdec-after-payment'];
      return {
        requesttypedescriptions: [...row.requesttypes],
        ...payment(ctx, 'riskdec-challenge'),
        accounttypedescription: 'FRAUDCONTROL',
        parenttransactionreference: String(paid.transactionreference),
      };
    },
  },
  {
    id: 'unknown-response-fields',
    title: 'An AUTH answer carrying fields the document does not name (in the part and the envelope)',
    // "The full list of fields accepted in an AUTH request: not shown": real answers carry more than the tables list.
    rules: ['FIELD-AUTH-FIELD-LIST'],
    severity: 'warning',
    report: ['settlestatus'],
    prepare: (ctx) => authWithToken(ctx, 'unknown-response-fields'),
    mutation: {
      part: (part) => ({ ...part, cardspecunknownfield: 'a value the client does not know', cardspecunknownlist: ['1', '2'] }),
      envelope: (env) => ({ ...env, cardspecunknownenvelopefield: 'x' }),
    },
  },
  {
    id: 'unknown-errorcode',
    title: 'An AUTH answered with an error code the document does not list',
    rules: ['ERR-NONZERO-FAILED', 'ERR-PART-FIELDS'],
    severity: 'error',
    report: ['errormessage'],
    prepare: (ctx) => authWithToken(ctx, 'unknown-errorcode'),
    mutation: { part: (part) => ({ ...part, errorcode: '12345', errormessage: 'An error code the client has not seen' }) },
  },
  {
    id: 'secrand-short',
    title: 'An answer whose secrand is one character long',
    rules: ['ENV-SECRAND'],
    severity: 'error',
    report: [],
    prepare: (ctx) => authWithToken(ctx, 'secrand-short'),
    mutation: { envelope: (env) => ({ ...env, secrand: 'Q' }) },
  },
  {
    id: 'secrand-long',
    title: 'An answer whose secrand is 256 characters long',
    rules: ['ENV-SECRAND'],
    severity: 'error',
    report: [],
    prepare: (ctx) => authWithToken(ctx, 'secrand-long'),
    mutation: { envelope: (env) => ({ ...env, secrand: randomLetters(256) }) },
  },
];

/** Fields whose values are never written in a problem: references of the 3-D Secure exchange. */
const SECRET_KEYS = new Set(['md', 'pareq', 'pares']);

/** What the client reported wrong, comparing its parts with the parts the gateway answered. */
export function compareParts(kase: ClientCase, answered: readonly ResponsePart[], reported: readonly unknown[]): string[] {
  const problems: string[] = [];
  if (reported.length !== answered.length) problems.push(`the client reported ${reported.length} part(s); the gateway answered ${answered.length}`);
  answered.forEach((part, i) => {
    const got = reported[i];
    if (typeof got !== 'object' || got === null || Array.isArray(got)) {
      if (i < reported.length) problems.push(`part ${i + 1} was reported as ${Array.isArray(got) ? 'a list' : typeof got}, not an object`);
      return;
    }
    const rep = got as Record<string, unknown>;
    for (const key of [...ALWAYS_REPORTED, ...kase.report]) {
      const want = part[key];
      if (typeof want !== 'string') continue;
      const have = rep[key];
      if (have === want) continue;
      if (have === undefined) problems.push(`part ${i + 1} (${String(part.requesttypedescription)}): ${key} was not reported`);
      else if (SECRET_KEYS.has(key)) problems.push(`part ${i + 1} (${String(part.requesttypedescription)}): ${key} was reported changed (${String(have).length} characters; ${want.length} answered): it must be kept in full, unmodified`);
      else problems.push(`part ${i + 1} (${String(part.requesttypedescription)}): ${key} was reported as ${JSON.stringify(have)}; the gateway answered ${JSON.stringify(want)}`);
    }
  });
  return problems;
}
