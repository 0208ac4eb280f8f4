/**
 * The one test of "is this target live?", shared by `cardspec run` and `cardspec fuzz`: both send payments and
 * requests that break the document on purpose, which is only acceptable on a test site (public-facts.md, "test
 * site references start with `test_`"). Anything else is refused unless the caller says `--allow-live` in so many
 * words.
 *
 * And the one test of "is this host loopback?": `cardspec run` warns about plain HTTP off loopback, `cardspec serve`
 * about listening off it.
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

/**
 * A host on this machine only: `localhost`, `127.0.0.0/8`, `::1` (bare, as `--host` takes it, or bracketed, as
 * a URL's hostname has it).
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
