/**
 * The few transactions a fuzz run makes first, so that generated requests can name things the target knows:
 * cache tokens (test-control API), an AUTH, an ACCOUNTCHECK, a STORE, a THREEDQUERY of a card not enrolled, an
 * ACCEPTed RISKDEC and a SUBSCRIPTION. Each is sent the way the conformance suite sends it
 * (src/client/requests.ts); one that fails only narrows what the fuzzer generates, and says so.
 */
import type { ParentKind, RequestContext } from '../../generators/context';
import type { RateLimiter } from './pace';
import { redactText } from '../redact';
import type { ControlClient } from '../client/control';
import type { Profile, ProfileCard } from '../client/profile';
import { buildRequest, operationByTitle, type CardSource } from '../client/requests';
import type { Target } from '../client/target';
import type { RequestObject, ResponsePart } from '../wire/types';

export interface Pool {
  readonly context: RequestContext;
  /** Every transaction the pool made, with the request object it was made of (what a child inherits). */
  readonly made: ReadonlyMap<string, RequestObject>;
  /** What could not be made, and what the fuzzer does without it. */
  readonly problems: readonly string[];
  /** The target's date (`YYYY-MM-DD`) at the start. */
  readonly today: string;
}

export interface PoolOptions {
  readonly target: Target;
  readonly control?: ControlClient;
  readonly profile: Profile;
  readonly site: string;
  /** A prefix for order references, unique to the run. */
  readonly runId: string;
  /** `--rate`: the setup requests wait for it too. */
  readonly rate?: RateLimiter;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The profile's test cards, each number once. */
export function profileCards(profile: Profile): ProfileCard[] {
  const seen = new Map<string, ProfileCard>();
  for (const c of Object.values(profile.cards)) if (c && !seen.has(c.pan)) seen.set(c.pan, c);
  return [...seen.values()];
}

export async function buildPool(opts: PoolOptions): Promise<Pool> {
  const { target, control, profile, site } = opts;
  const caps = profile.capabilities;
  const problems: string[] = [];
  const parents: Partial<Record<ParentKind, string[]>> = {};
  const cachetokens: string[] = [];
  const made = new Map<string, RequestObject>();
  const add = (kind: ParentKind, ref: string): void => {
    (parents[kind] ??= []).push(ref);
  };

  let today = new Date().toISOString().slice(0, 10);
  if (control && caps.clock) {
    try {
      today = (await control.now()).slice(0, 10);
    } catch (e) {
      problems.push(redactText(`the target's clock could not be read (${(e as Error).message}); dates count from today`));
    }
  }

  let orders = 0;
  const send = async (title: string, source: CardSource, want: (parts: ResponsePart[]) => string | undefined, why: string): Promise<string | undefined> => {
    const row = operationByTitle(title);
    const request = buildRequest(row, { profile, site, today, orderreference: `cardspec-fuzz-${opts.runId}-${++orders}` }, source);
    await opts.rate?.take();
    const ex = await target.send(request);
    const parts = isObject(ex.envelope) && Array.isArray(ex.envelope.response) ? (ex.envelope.response as unknown[]).filter(isObject) : [];
    const ref = ex.error ? undefined : want(parts);
    if (ref !== undefined) made.set(ref, request);
    if (ref === undefined) {
      const what = ex.error ?? parts.map((p) => `${String(p.requesttypedescription)} ${String(p.errorcode)} ${String(p.errormessage)}`).join('; ');
      problems.push(redactText(`setup: "${title}" did not give a transaction (${what || 'no parts'}); ${why}`));
    }
    return ref;
  };
  const ok =
    (i = 0) =>
    (parts: ResponsePart[]): string | undefined => {
      const p = parts[i];
      return p && p.errorcode === '0' && typeof p.transactionreference === 'string' ? p.transactionreference : undefined;
    };

  const authorised = profile.cards.authorised ?? profile.cards.notEnrolled;
  const notEnrolled = profile.cards.notEnrolled;
  if (!authorised) {
    problems.push('setup: the profile has no "authorised" nor "not enrolled" card; only requests with a card number are generated');
  }

  if (control && caps.cachetokens) {
    for (const card of [authorised, notEnrolled]) {
      if (!card) continue;
      try {
        cachetokens.push(await control.cachetoken({ pan: card.pan, expirydate: card.expirydate, securitycode: card.securitycode }));
      } catch (e) {
        problems.push(redactText(`setup: no cache token (${(e as Error).message}); requests with a cachetoken are not generated`));
        break;
      }
    }
  }

  if (authorised) {
    const auth = await send('Ordinary AUTH without 3-D Secure', { card: authorised }, ok(), 'no request names an AUTH as its parent');
    if (auth) add('AUTH', auth);
    const ac = await send('Account check', { card: authorised }, ok(), 'no request names an ACCOUNTCHECK as its parent');
    if (ac) add('ACCOUNTCHECK', ac);
    if (caps.cardstore) {
      const store = await send('Card store', { card: authorised }, ok(), 'no THREEDQUERY names a stored card');
      if (store) add('STORE', store);
    }
    if (caps.fraudcontrol) {
      const accept = (parts: ResponsePart[]): string | undefined => (parts[0]?.fraudcontrolshieldstatuscode === 'ACCEPT' ? ok()(parts) : undefined);
      const riskdec = await send('Risk decision on card data', { card: authorised }, accept, 'no THREEDQUERY names a RISKDEC');
      if (riskdec) add('RISKDEC-ACCEPT', riskdec);
    }
    const sub = await send('Subscription without 3-D Secure', { card: authorised }, ok(1), 'no TRANSACTIONUPDATE is generated');
    if (sub) add('SUBSCRIPTION', sub);
  }
  if (notEnrolled) {
    const source: CardSource | undefined = cachetokens.length > 1 ? { cachetoken: cachetokens[1] } : parents.STORE && authorised === notEnrolled ? { parent: parents.STORE[0] } : undefined;
    if (source) {
      const enrolledN = (parts: ResponsePart[]): string | undefined => (parts[0]?.enrolled === 'N' || parts[0]?.enrolled === 'U' ? ok()(parts) : undefined);
      const query = await send('3-D Secure enrolment check', source, enrolledN, 'no AUTH after 3-D Secure of a card not enrolled is generated');
      if (query) add('THREEDQUERY-N', query);
    }
  }

  const context: RequestContext = { site, cards: profileCards(profile), currency: profile.currency, cachetokens, parents };
  return { context, made, problems, today };
}
