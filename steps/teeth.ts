/**
 * Checks of sentences that the flows' steps did not reach: a request type sent without the one it requires, a
 * reference that must be unique, the scheme of the ACS address.
 */
import { Then, When } from '@cucumber/cucumber';
import type { CardRole } from '../src/client/profile';
import { buildRequest, operationByTitle } from '../src/client/requests';
import { cardOf } from './support';
import type { CardspecWorld } from './world';

const show = (v: unknown): string => (v === undefined ? 'absent' : JSON.stringify(v));

// "Subscription requires `AUTH` and `SUBSCRIPTION`": the row's fields, with one of its request types alone.
When('the merchant sends {string} with the {card}, naming only {word}', async function (this: CardspecWorld, title: string, role: CardRole, type: string) {
  const row = operationByTitle(title);
  const today = row.required.includes('subscriptionbegindate') ? await this.today() : '';
  const request = buildRequest(row, { profile: this.profile, site: this.site, today, orderreference: this.nextOrderReference() }, { card: cardOf(this, role) });
  await this.send({ ...request, requesttypedescriptions: [type] }, { lenient: true });
});

Then('{txn} and {txn} have different {word} values', function (this: CardspecWorld, a: string, b: string, field: string) {
  const va = this.entry(a).part[field];
  const vb = this.entry(b).part[field];
  this.check(typeof va === 'string' && va !== '' && typeof vb === 'string' && vb !== '' && va !== vb, `${a}'s ${field} is ${show(va)} and ${b}'s is ${show(vb)}: each must have its own`);
});

// "The customer's browser sends an HTTPS POST to `acsurl`": an HTTPS address. A target the kit reaches over plain
// HTTP is a test target (the built-in gateway on loopback): its ACS may share its scheme.
Then("the acsurl of {txn} is an HTTPS address, or the plain HTTP target's own scheme", function (this: CardspecWorld, name: string) {
  const acsurl = this.entry(name).part.acsurl;
  const own = new URL(this.last.exchange.url).protocol;
  let scheme: string;
  try {
    scheme = new URL(String(acsurl)).protocol;
  } catch {
    scheme = '';
  }
  this.check(
    scheme === 'https:' || (own === 'http:' && scheme === own),
    `${name}'s acsurl is ${show(acsurl)}; the browser posts to it over HTTPS${own === 'http:' ? ' (or, for a plain HTTP test target, its own scheme)' : ''}`,
  );
});
