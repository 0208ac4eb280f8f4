/**
 * The one test of "is this target live?", shared by `cardspec run` and `cardspec fuzz`: both send payments and
 * requests that break the document on purpose, which is only acceptable on a test site (public-facts.md, "test
 * site references start with `test_`"). Anything else is refused unless the caller says `--allow-live` in so many
 * words.
 */

export const TEST_SITE_PREFIX = 'test_';

export function isTestSite(site: string): boolean {
  return site.startsWith(TEST_SITE_PREFIX);
}

/**
 * Why sending to this site is refused, or `undefined` when it may go ahead. `doing` says what the command does
 * ("fuzzing sends many requests, most of them invalid on purpose") and `verb` what --allow-live lets it do.
 */
export function liveSiteRefusal(site: string, allowLive: boolean, doing: string, verb: string): string | undefined {
  if (isTestSite(site) || allowLive) return undefined;
  return `the site "${site}" is not a test site (test site references start with "${TEST_SITE_PREFIX}"); ${doing}. Give --allow-live to ${verb} it anyway.`;
}
