/**
 * The test-control API (docs/architecture.md): the reference gateway's one extension, off unless enabled. It moves
 * the clock (running settlement and the subscription engine for every midnight passed), mints cache tokens (what
 * the JavaScript library would have posted to the merchant), and shows ledger records, masked.
 */
import { FIELD } from '../../schemas/fields';
import { checkValue } from '../../schemas/check';
import { addMonths, parseTimestamp } from '../calendar';
import { securityResult } from './parts';
import { randomHex } from './random';
import type { Runtime } from './runtime';
import { recordView } from './view';

export interface JsonReply {
  status: number;
  body: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (error: string): JsonReply => ({ status: 400, body: { error } });

/** Most a single move may span (cardspec's choice): ten years of midnights is still a quick run. */
const MAX_ADVANCE_DAYS = 3660;
const DAY_MS = 86_400_000;

function moveClock(rt: Runtime, body: unknown): JsonReply {
  if (!isObject(body)) return bad('expected {"advanceSeconds":N}, {"advanceDays":N}, {"advanceMonths":N} or {"set":"YYYY-MM-DD HH:MM:SS"}');
  const now = rt.clock.now();
  let target: number;
  const keys = Object.keys(body);
  if (keys.length !== 1) return bad('give exactly one of advanceSeconds, advanceDays, advanceMonths, set');
  const [key] = keys;
  const value = body[key];
  if (key === 'set') {
    const t = typeof value === 'string' ? parseTimestamp(value) : undefined;
    if (t === undefined) return bad('"set" must be a time "YYYY-MM-DD HH:MM:SS"');
    if (t < now) return bad('the gateway clock does not go back');
    target = t;
  } else {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return bad(`"${key}" must be a whole number, 0 or more`);
    if (key === 'advanceSeconds') target = now + value * 1000;
    else if (key === 'advanceDays') target = now + value * DAY_MS;
    else if (key === 'advanceMonths') target = addMonths(now, value);
    else return bad(`unknown key "${key}"`);
  }
  if (target - now > MAX_ADVANCE_DAYS * DAY_MS) return bad(`one move may span at most ${MAX_ADVANCE_DAYS} days`);
  const run = rt.engine.runUntil(target);
  rt.clock.setTo(target);
  return { status: 200, body: { now: rt.clock.timestamp(), settled: run.settled, payments: run.payments } };
}

function mintToken(rt: Runtime, body: unknown): JsonReply {
  if (!isObject(body)) return bad('expected {"pan","expirydate","securitycode"?}');
  for (const name of ['pan', 'expirydate'] as const) {
    const p = checkValue(FIELD[name], 'request', body[name]);
    if (p || body[name] === undefined) return bad(`${name}: ${p?.message ?? 'is required'}`);
  }
  if (body.securitycode !== undefined) {
    const p = checkValue(FIELD.securitycode, 'request', body.securitycode);
    if (p) return bad(`securitycode: ${p.message}`);
  }
  // Groups of at most eight characters: a longer run of digits could pass the Luhn check and be masked as a card
  // number on its way out, handing the client a token the gateway no longer knows.
  const cachetoken = `${randomHex(4)}-${randomHex(4)}-${randomHex(4)}-${randomHex(4)}`;
  rt.ledger.addToken(cachetoken, {
    card: rt.ledger.card(body.pan as string, body.expirydate as string),
    // Only the result of the check is kept: "Never stored."
    securitycodeResult: securityResult('securitycode', body.securitycode as string | undefined),
  });
  return { status: 200, body: { cachetoken } };
}

/** Answers a control call; `body` is the parsed JSON body (undefined for GET). */
export function control(rt: Runtime, method: string, path: string, query: URLSearchParams, body: unknown): JsonReply {
  const sub = path.slice('/_cardspec/'.length);
  if (sub === 'clock') {
    if (method === 'GET') return { status: 200, body: { now: rt.clock.timestamp() } };
    if (method === 'POST') return moveClock(rt, body);
    return { status: 405, body: { error: 'use GET or POST' } };
  }
  if (sub === 'cachetokens') {
    if (method === 'POST') return mintToken(rt, body);
    return { status: 405, body: { error: 'use POST' } };
  }
  if (sub === 'ledger') {
    // What the ledger holds now (docs/gateway.md, "What the ledger keeps").
    if (method !== 'GET') return { status: 405, body: { error: 'use GET' } };
    return { status: 200, body: rt.ledger.stats() };
  }
  if (sub === 'transactions' || sub.startsWith('transactions/')) {
    if (method !== 'GET') return { status: 405, body: { error: 'use GET' } };
    if (sub === 'transactions') {
      const parent = query.get('parenttransactionreference');
      if (!parent) return bad('give ?parenttransactionreference=<ref>');
      return { status: 200, body: { records: rt.ledger.children(parent).map((r) => recordView(r, true)) } };
    }
    let ref: string;
    try {
      ref = decodeURIComponent(sub.slice('transactions/'.length));
    } catch {
      return bad('the transaction reference is not URL-encoded properly');
    }
    const rec = rt.ledger.get(ref);
    if (!rec) return { status: 404, body: { error: `no transaction ${ref}` } };
    return { status: 200, body: recordView(rec, true) };
  }
  return { status: 404, body: { error: `no control call ${path}; see docs/gateway.md` } };
}
