/**
 * The transport as the document shows it ("Endpoints > Transport"): method and path, request headers, basic
 * authentication. What went on the wire is read back from the exchange, so a scenario states what was sent.
 */
import { Then } from '@cucumber/cucumber';
import type { CardspecWorld } from './world';

Then('the request went as a POST to the JSON path with {string} and {string}', function (this: CardspecWorld, h1: string, h2: string) {
  const ex = this.last.exchange;
  const path = new URL(ex.url).pathname;
  this.check(path === this.profile.paths.json, `the request went to ${path}; the document's path is {base_url}/json/ (profile: ${this.profile.paths.json})`);
  const sent = Object.fromEntries(Object.entries(ex.requestHeaders).map(([k, v]) => [k.toLowerCase(), v]));
  for (const h of [h1, h2]) {
    const [name, value] = h.split(/:\s*/, 2);
    this.check(sent[name.toLowerCase()] === value, `the request's ${name} header was ${JSON.stringify(sent[name.toLowerCase()])}; the document shows "${value}"`);
  }
  this.check(sent.authorization !== undefined, 'the request carried no basic authentication');
});
