/**
 * What the request checks remember of earlier answers that the ledger does not keep. The ledger holds transactions,
 * never a `cachetoken` ("never `pan`, `securitycode`, `md`, `pares`, `cachetoken`"), and a failed part makes no
 * transaction; but two of the document's next steps hang on them:
 *   - a cache token is "the customer's payment details, as posted to the merchant after the customer submits the
 *     payment form": a payment on the token of a THREEDQUERY answered enrolled `Y` skips the ACS (3DS-NEXT-Y);
 *   - an AUTH+SUBSCRIPTION whose SUBSCRIPTION part failed made no subscription, only the AUTH: an amount change on
 *     that AUTH's reference is not on "the SUBSCRIPTION reference" (SUB-AMOUNT-UPDATE).
 * Kept per ledger (a gate's, or the proxy's observed one), so the gate and the proxy remember alike, and bounded as
 * the ledger is: the oldest entries are forgotten first, and a gate left up for days holds no more than one of minutes.
 */
import type { Ledger } from '../gateway';

const MAX = 10_000;

export interface Recall {
  /** cache token -> the reference of the THREEDQUERY that answered it enrolled `Y` with errorcode `0` */
  readonly enrolledTokens: Map<string, string>;
  /** AUTH reference -> the errorcode of the SUBSCRIPTION part answered beside it (a failed one: no subscription) */
  readonly failedSubscriptions: Map<string, string>;
}

const recalls = new WeakMap<Ledger, Recall>();

export function recallOf(ledger: Ledger): Recall {
  let r = recalls.get(ledger);
  if (!r) recalls.set(ledger, (r = { enrolledTokens: new Map(), failedSubscriptions: new Map() }));
  return r;
}

/** Remembers `key` (the newest last), forgetting the oldest beyond the bound. */
export function remember(map: Map<string, string>, key: string, value: string): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
}
