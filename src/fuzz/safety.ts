/**
 * Fuzzing sends many requests, most of them invalid on purpose. Against the public service that is only acceptable
 * on a test site: public-facts.md, "test site references start with `test_`". Anything else is refused unless the
 * caller says `--allow-live` in so many words.
 */

export const TEST_SITE_PREFIX = 'test_';

export function isTestSite(site: string): boolean {
  return site.startsWith(TEST_SITE_PREFIX);
}

/** Why fuzzing this site is refused, or `undefined` when it may go ahead. */
export function checkSafety(site: string, allowLive: boolean): string | undefined {
  if (isTestSite(site) || allowLive) return undefined;
  return `the site "${site}" is not a test site (test site references start with "${TEST_SITE_PREFIX}"); fuzzing sends many requests, most of them invalid on purpose. Give --allow-live to fuzz it anyway.`;
}
