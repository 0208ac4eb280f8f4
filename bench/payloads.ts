/**
 * What the gateway rows send: the document's own example requests (test/fixtures/examples/requests/), for the
 * built-in profile's user and test cards. The same bytes go to every server of a row (reference gateway, bare
 * server, Prism), so that the rows differ only in the server.
 *
 * - AUTH: the ordinary AUTH example (card data, billing fields): the gateway's busiest path.
 * - THREEDQUERY + AUTH: the flow "3-D Secure enrolment check", then "AUTH after 3-D Secure, card not enrolled or
 *   unknown" (Request types table) with the THREEDQUERY's `transactionreference` as `parenttransactionreference`.
 *   The card behind the cachetoken is the not-enrolled test card, so the pair needs no ACS round trip.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_CONFIG, TEST_CARDS } from '../src/testdata';
import { buildRequestEnvelope, JSON_CONTENT_TYPE } from '../src/wire/json';
import type { RequestObject } from '../src/wire/types';
import { ROOT } from './child';

/** Stands for the THREEDQUERY's reference in the AUTH that follows it; replaced per pair by the load generator. */
export const PARENT_PLACEHOLDER = '__CARDSPEC_PARENT__';
/** The card whose cachetoken the THREEDQUERY carries (enrolled `N`: the AUTH follows with the parent reference). */
export const PAIR_CARD = TEST_CARDS.notEnrolled;

const USER = DEFAULT_CONFIG.users[0];

export interface Payloads {
  readonly headers: Readonly<Record<string, string>>;
  readonly auth: string;
  readonly threedquery: string;
  /** The AUTH after the THREEDQUERY, with `PARENT_PLACEHOLDER` where the reference goes. */
  readonly authAfter: string;
}

function example(row: string): RequestObject {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'examples', 'requests', `${row}.json`), 'utf8')) as RequestObject;
}

/** The built-in user's basic-auth header (never printed). */
export function authorization(): string {
  return 'Basic ' + Buffer.from(`${USER.username}:${USER.password}`).toString('base64');
}

export function buildPayloads(cachetoken: string): Payloads {
  const envelope = (obj: RequestObject): string => JSON.stringify(buildRequestEnvelope(USER.alias, obj));
  return {
    headers: { 'content-type': JSON_CONTENT_TYPE, accept: JSON_CONTENT_TYPE, authorization: authorization() },
    auth: envelope(example('auth')),
    threedquery: envelope({ ...example('threedquery'), cachetoken }),
    authAfter: envelope({ ...example('auth-3ds-not-enrolled'), parenttransactionreference: PARENT_PLACEHOLDER }),
  };
}

/** A cachetoken from a gateway's test-control API, for the pair's card ("as posted to the merchant"). */
export async function cachetokenFrom(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/_cardspec/cachetokens`, {
    method: 'POST',
    headers: { 'content-type': JSON_CONTENT_TYPE },
    body: JSON.stringify({ pan: PAIR_CARD.pan, expirydate: PAIR_CARD.expirydate, securitycode: PAIR_CARD.securitycode }),
  });
  const body = (await res.json()) as { cachetoken?: unknown };
  if (res.status !== 200 || typeof body.cachetoken !== 'string') throw new Error(`the gateway gave no cachetoken (HTTP ${res.status})`);
  return body.cachetoken;
}

/** One POST of a payload; the answer's text. */
export async function postJson(baseUrl: string, headers: Readonly<Record<string, string>>, body: string): Promise<string> {
  const res = await fetch(`${baseUrl}/json/`, { method: 'POST', headers: { ...headers }, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST /json/ answered HTTP ${res.status}`);
  return text;
}

const REFERENCE = /"transactionreference":"([^"]*)"/;

/** The first `transactionreference` of an answer (the load generator uses the same expression). */
export function referenceOf(answer: string): string | undefined {
  return REFERENCE.exec(answer)?.[1];
}
export const REFERENCE_SOURCE = REFERENCE.source;

/** An answer the kit counts as a success: HTTP 200 and a first part with errorcode "0". */
export const OK_MARK = '"errorcode":"0"';
