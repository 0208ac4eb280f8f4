/**
 * What the merchant sends. Each step names a row of the document's "Request types" table by its Operation title
 * ("3-D Secure enrolment check", "Account check", ...) and where the card comes from; the request object is built
 * from that row (src/client/requests.ts) and the table under the step, if any, adds or removes fields.
 */
import { Given, When, type DataTable } from '@cucumber/cucumber';
import type { CardRole } from '../src/client/profile';
import { buildRequest, filterFor, operationByTitle, type CardSource } from '../src/client/requests';
import type { RequestObject } from '../src/wire/types';
import { panOfLength } from '../src/suite/generated/cards';
import { changed } from '../src/suite/changes';
import { ScenarioSkipped } from './world';
import { NOT_APPLICABLE_MEDIA_TYPE } from '../src/report/messages';
import { cardOf, requestStep, tableFields } from './support';
import type { CardspecWorld, Sent } from './world';

interface SendExtras {
  readonly lenient?: boolean;
  readonly auth?: { user: string; password: string } | null;
  readonly name?: string;
}

/** Extra fields every request of the scenario carries (the category 6012 fields). */
const extraFields = new WeakMap<CardspecWorld, Record<string, string>>();

async function requestFor(world: CardspecWorld, title: string, source: CardSource, table: DataTable | undefined): Promise<RequestObject> {
  const row = operationByTitle(title);
  const overrides = { ...extraFields.get(world), ...(await tableFields(world, table)) };
  const needsToday = row.required.includes('subscriptionbegindate') && !('subscriptionbegindate' in overrides);
  const today = needsToday ? await world.today() : '';
  return buildRequest(row, { profile: world.profile, site: world.site, today, orderreference: world.nextOrderReference() }, source, overrides);
}

async function sendOperation(world: CardspecWorld, title: string, source: CardSource, table: DataTable | undefined, extras: SendExtras = {}): Promise<Sent> {
  const request = await requestFor(world, title, source, table);
  return world.send(request, extras);
}

// ---- where the card comes from ------------------------------------------------------------------------------

requestStep('the merchant sends {string} with the {card}', async function (this: CardspecWorld, [title, role], table, name) {
  await sendOperation(this, title as string, { card: cardOf(this, role as CardRole) }, table, { name });
});

requestStep('the merchant sends {string} with the parent {txn}', async function (this: CardspecWorld, [title, parent], table, name) {
  await sendOperation(this, title as string, { parent: referenceOf(this, parent as string) }, table, { name });
});

// A child that carries a card of its own besides its parent ("Extra fields may be added to the child").
requestStep('the merchant sends {string} with the parent {txn} and the {card}', async function (this: CardspecWorld, [title, parent, role], table, name) {
  await sendOperation(this, title as string, { parent: referenceOf(this, parent as string), card: cardOf(this, role as CardRole) }, table, { name });
});

// Two currencies for one parent and child: the profile names one, so the parent is sent in another (a target that
// does not take it skips the scenario: "Three-letter currency code", which ones a site takes is not shown) and the
// child in the profile's own, over its parent's.
const OTHER_CURRENCIES = ['USD', 'EUR', 'GBP'];
requestStep("the merchant sends {string} with the {card} in a currency other than the profile's", async function (this: CardspecWorld, [title, role], table, name) {
  const request = await requestFor(this, title as string, { card: cardOf(this, role as CardRole) }, table);
  await this.send({ ...request, currencyiso3a: OTHER_CURRENCIES.find((c) => c !== this.profile.currency)! }, { name });
});

requestStep("the merchant sends {string} with the parent {txn} in the profile's currency", async function (this: CardspecWorld, [title, parent], table, name) {
  const request = await requestFor(this, title as string, { parent: referenceOf(this, parent as string) }, table);
  await this.send({ ...request, currencyiso3a: this.profile.currency }, { name });
});

requestStep('the merchant sends {string} with the md and pares of {txn}', async function (this: CardspecWorld, [title, query], table, name) {
  const acs = this.entry(query as string).acs;
  if (!acs) this.fail(`${query as string} has not been through the ACS yet: no md and pares to send`);
  await sendOperation(this, title as string, { md: acs.md, pares: acs.pares }, table, { name });
});

// "The ACS return values `md` and `pares` must be submitted in full and unmodified": one of them changed.
requestStep('the merchant sends {string} with the md and pares of {txn}, the {word} {change}', async function (this: CardspecWorld, [title, query, field, change], table, name) {
  const acs = this.entry(query as string).acs;
  if (!acs) this.fail(`${query as string} has not been through the ACS yet: no md and pares to send`);
  const values = { md: acs.md, pares: acs.pares };
  if (field !== 'md' && field !== 'pares') this.fail(`only md or pares is changed here, not ${field as string}`);
  const value = changed(values[field], change as string);
  if (value === undefined) throw new ScenarioSkipped(`the ${field} the ACS returned has no letter, so it has no other letter case`);
  await sendOperation(this, title as string, { ...values, [field]: value }, table, { name });
});

// "The ACS return values `md` and `pares` must be submitted in full and unmodified": values that no ACS issued at
// all, made fresh for each scenario (the md and pares of a real authentication are the ACS's, never these).
requestStep('the merchant sends {string} with an md and a pares no ACS issued', async function (this: CardspecWorld, [title], table, name) {
  const made = this.nextOrderReference();
  await sendOperation(this, title as string, { md: `${made}-md`, pares: `${made}-pares` }, table, { name });
});

// The card data in a THREEDQUERY: the document's row takes a cachetoken; public facts say the live service takes
// pan and expirydate too (capabilities.threedqueryPan). A target that does not is not at fault: not applicable.
requestStep('the merchant sends {string} with the card data of the {card}', async function (this: CardspecWorld, [title, role], table, name) {
  if (!this.profile.capabilities.threedqueryPan || this.profile.unavailable?.threedqueryPan) {
    this.attach(
      `not applicable to this target: it is not known to take the card data (pan and expirydate) in a "${title as string}" (capabilities.threedqueryPan, a public fact; the document's row takes a cachetoken)`,
      NOT_APPLICABLE_MEDIA_TYPE,
    );
    return 'skipped';
  }
  await sendOperation(this, title as string, { card: cardOf(this, role as CardRole) }, table, { name });
  return undefined;
});

requestStep('the merchant sends {string} with a cache token for the {card}', async function (this: CardspecWorld, [title, role], table, name) {
  const card = cardOf(this, role as CardRole);
  const source = await this.paymentPageCard(card, operationByTitle(title as string));
  await sendOperation(this, title as string, source, table, { name });
});

// A card number of a length the field table allows, made by the kit (Luhn-valid), with the authorised card's expiry.
requestStep('the merchant sends {string} with a card number of {int} digits', async function (this: CardspecWorld, [title, length], table, name) {
  const known = cardOf(this, 'authorised');
  await sendOperation(this, title as string, { card: { ...known, pan: panOfLength(length as number) } }, table, { name });
});

When('the merchant sends the same request again', async function (this: CardspecWorld) {
  await this.send(this.last.request);
});

// ---- the site and the account --------------------------------------------------------------------------------

Given("the merchant's site has the merchant category code 6012", function (this: CardspecWorld) {
  const site = this.profile.sites.mcc6012;
  if (!site) this.fail(`the profile "${this.profile.name}" names no category 6012 site: tag the scenario @requires:mcc6012`);
  this.site = site;
});

Given('the merchant adds the fields mandated for category 6012 to each request', function (this: CardspecWorld) {
  const fields = this.profile.mcc6012Fields;
  if (!fields) this.fail(`the profile "${this.profile.name}" lists no category 6012 fields: tag the scenario @requires:mcc6012`);
  extraFields.set(this, { ...fields });
});

Given('the merchant no longer adds the fields mandated for category 6012', function (this: CardspecWorld) {
  extraFields.delete(this);
});

Given("the merchant's site does not have card store and fraud control enabled", function (this: CardspecWorld) {
  const site = this.profile.sites.withoutFeatures;
  if (!site) this.fail(`the profile "${this.profile.name}" names no such site: tag the scenario @requires:featuresOff`);
  this.site = site;
});

// ---- authentication ------------------------------------------------------------------------------------------

requestStep('the merchant sends {string} with the {card} without basic authentication', async function (this: CardspecWorld, [title, role], table) {
  await sendOperation(this, title as string, { card: cardOf(this, role as CardRole) }, table, { lenient: true, auth: null });
});

requestStep('the merchant sends {string} with the {card} and a wrong password', async function (this: CardspecWorld, [title, role], table) {
  const user = this.parameters.user ?? this.parameters.alias;
  const password = `${this.parameters.password ?? ''}-wrong`;
  await sendOperation(this, title as string, { card: cardOf(this, role as CardRole) }, table, { lenient: true, auth: { user, password } });
});

// The credentials the document names ("a user name and password, sent as `<USERNAME>:<PASSWORD>`"), one changed.
requestStep('the merchant sends {string} with the {card} and the {credential} {change}', async function (this: CardspecWorld, [title, role, credential, change], table) {
  const user = this.parameters.user ?? this.parameters.alias;
  const password = this.parameters.password ?? '';
  const auth = { user, password };
  const key = credential === 'user name' ? 'user' : 'password';
  const value = changed(auth[key], change as string);
  if (value === undefined) throw new ScenarioSkipped(`the ${credential as string} has no letter, so it has no other letter case`);
  await sendOperation(this, title as string, { card: cardOf(this, role as CardRole) }, table, { lenient: true, auth: { ...auth, [key]: value } });
});

// ---- follow-up operations (public shape: the document shows none) -----------------------------------------------

requestStep('the merchant sends a TRANSACTIONUPDATE of {txn}', async function (this: CardspecWorld, [target], table, name) {
  const updates = await tableFields(this, table);
  const request: RequestObject = {
    requesttypedescriptions: ['TRANSACTIONUPDATE'],
    filter: filterFor(this.site, referenceOf(this, target as string)),
    updates: Object.fromEntries(Object.entries(updates).filter(([, v]) => v !== undefined)),
  };
  await this.send(request, { name });
});

When('the merchant sends a TRANSACTIONQUERY of {txn}', async function (this: CardspecWorld, name: string) {
  await this.send({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: filterFor(this.site, referenceOf(this, name)) });
});

// "identifies the STORE transaction": how is not shown; the public filter identifies it by its orderreference too.
When('the merchant sends a TRANSACTIONQUERY of {txn} by its orderreference', async function (this: CardspecWorld, name: string) {
  // The orderreference the merchant sent (its own record of the order), not what the answer echoed.
  const order = this.entry(name).request.orderreference;
  if (typeof order !== 'string' || order === '') throw new ScenarioSkipped(`${name} was sent without an orderreference to identify it by`);
  await this.send({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { sitereference: [{ value: this.site }], orderreference: [{ value: order }] } });
});

// The transactions made on a parent, by the public filter `parenttransactionreference` ("Query of stored details":
// how a query identifies what it returns is not shown).
When('the merchant sends a TRANSACTIONQUERY of the children of {txn}', async function (this: CardspecWorld, name: string) {
  const parent = referenceOf(this, name);
  await this.send({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { sitereference: [{ value: this.site }], parenttransactionreference: [{ value: parent }] } });
});

/** The `transactionreference` of a named transaction: what `parenttransactionreference` and filters carry. */
export function referenceOf(world: CardspecWorld, name: string): string {
  const ref = world.field(name, 'transactionreference');
  if (!ref) world.fail(`${name} has no transactionreference to refer to`, ['FIELD-TRANSACTIONREFERENCE']);
  return ref;
}
