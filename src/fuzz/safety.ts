/**
 * Fuzzing sends many requests, most of them invalid on purpose: only on a test site unless `--allow-live`. The
 * detection is the one `cardspec run` uses too (src/client/safety.ts).
 */
import { liveSiteRefusal } from '../client/safety';

export { isTestSite, TEST_SITE_PREFIX } from '../client/safety';

/** Why fuzzing this site is refused, or `undefined` when it may go ahead. */
export function checkSafety(site: string, allowLive: boolean): string | undefined {
  return liveSiteRefusal(site, allowLive, 'fuzzing sends many requests, most of them invalid on purpose', 'fuzz');
}
