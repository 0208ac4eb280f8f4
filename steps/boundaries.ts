/**
 * The field boundary phase (features/field-boundaries.feature, written from the field dictionary by src/boundary):
 * a request of one row with one field set to a boundary value, then whether the target took it or refused it.
 * Each check names the example's rule, qualified by the field (`FIELD-LENGTHS:billingemail`).
 */
import { Then, When } from '@cucumber/cucumber';
import { checkValue } from '../schemas/check';
import { misspeltCode } from '../schemas/errors';
import { FIELD } from '../schemas/fields';
import { boundaryCase, type BoundaryCase } from '../src/boundary/cases';
import { rulesForViolation } from '../src/rules/attribution';
import { Target, type Exchange } from '../src/client/target';
import type { RequestObject, ResponsePart } from '../src/wire/types';
import { buildRequest, operationByTitle, type CardSource } from '../src/client/requests';
import type { CardRole } from '../src/client/profile';
import { cardOf, requestStep } from './support';
import { ScenarioSkipped, type CardspecWorld } from './world';
import { NOT_APPLICABLE_MEDIA_TYPE } from '../src/report/messages';

const sentCase = new WeakMap<CardspecWorld, BoundaryCase>();

async function sendCase(world: CardspecWorld, title: string, source: CardSource, field: string, label: string): Promise<void> {
  const row = operationByTitle(title);
  const c = boundaryCase(row.id, field, label);
  if (!c) world.fail(`no boundary case "${label}" of ${field} for "${title}": run \`npm run boundaries\` to write the feature again`);
  sentCase.set(world, c);
  const overrides: Record<string, string | undefined> = { ...c.also, [field]: c.value };
  const today = row.required.includes('subscriptionbegindate') ? await world.today() : '';
  const request = buildRequest(row, { profile: world.profile, site: world.site, today, orderreference: world.nextOrderReference() }, source, overrides);
  await world.send(request);
}

requestStep('the merchant sends {string} with the {card}, {word} {string}', async function (this: CardspecWorld, [title, role, field, label]) {
  await sendCase(this, title as string, { card: cardOf(this, role as CardRole) }, field as string, label as string);
});

requestStep('the merchant sends {string} with a cache token for the {card}, {word} {string}', async function (this: CardspecWorld, [title, role, field, label]) {
  const row = operationByTitle(title as string);
  const source = await this.paymentPageCard(cardOf(this, role as CardRole), row);
  await sendCase(this, title as string, source, field as string, label as string);
});

const show = (v: unknown): string => (v === undefined ? 'absent' : JSON.stringify(v));

function caseOf(world: CardspecWorld): BoundaryCase {
  const c = sentCase.get(world);
  if (!c) world.fail('no boundary case was sent in this scenario');
  return c;
}

Then('{word} {string} is taken', function (this: CardspecWorld, field: string, _label: string) {
  const c = caseOf(this);
  const parts = this.last.parts;
  const failed = parts.filter((p) => p.errorcode !== '0');
  this.check(
    parts.length > 0 && failed.length === 0,
    `${field} ${c.value === undefined ? 'left out' : `"${c.label}"`} was not taken: ${failed.map((p) => `${String(p.requesttypedescription)} errorcode ${show(p.errorcode)} (${show(p.errormessage)})`).join('; ') || 'no part'}`,
    [c.rule, ...(c.alsoRules ?? [])],
  );
});

Then('{word} {string} is refused', function (this: CardspecWorld, field: string, _label: string) {
  const c = caseOf(this);
  const parts = this.last.parts;
  const ok = parts.filter((p) => p.errorcode === '0');
  this.check(parts.length > 0 && ok.length < parts.length, `${field} "${c.label}" was taken: every part answered errorcode "0"; the field must be refused`, [c.rule, ...(c.alsoRules ?? [])]);
  // "`30000` THREEDQUERY: Invalid field."
  const query = parts.find((p) => p.requesttypedescription === 'THREEDQUERY');
  if (query)
    this.check(query.errorcode === '30000', `the THREEDQUERY refused ${field} "${c.label}" with errorcode ${show(query.errorcode)}; an invalid field is 30000`, [c.rule, ...(c.alsoRules ?? [])]);
  // Which field a refusal names (`errordata`) is public facts only: shown, never a failure.
  const named = parts.map((p) => p.errordata).find((d) => Array.isArray(d));
  if (Array.isArray(named) && !named.includes(field)) this.log(`The refusal names ${JSON.stringify(named)}, not ${field} (errordata is a public fact; not a failure).`);
});

// ---- the answers' fields ---------------------------------------------------------------------------------------

/**
 * One answer per row, per target and format, shared by the examples of that row: each example reads one field of
 * it. Sent without the schema check of every other step (it would fail every example on any one field's fault):
 * the example checks its own field, under its own rule.
 */
const answers = new WeakMap<object, Map<string, Promise<{ request: RequestObject; exchange: Exchange }>>>();
const answered = new WeakMap<CardspecWorld, Exchange>();

async function answerOf(world: CardspecWorld, title: string, source: () => Promise<CardSource>): Promise<void> {
  const row = operationByTitle(title);
  let byRow = answers.get(world.target);
  if (!byRow) answers.set(world.target, (byRow = new Map()));
  let pending = byRow.get(row.id);
  if (!pending) {
    pending = (async () => {
      const today = row.required.includes('subscriptionbegindate') ? await world.today() : '';
      const request = buildRequest(row, { profile: world.profile, site: world.site, today, orderreference: world.nextOrderReference() }, await source());
      return { request, exchange: await world.target.send(request) };
    })();
    byRow.set(row.id, pending);
  }
  const { request, exchange } = await pending;
  world.attach(Target.attachment(exchange, request), 'application/json');
  if (exchange.error) {
    byRow.delete(row.id);
    world.fail(`${exchange.error} (${exchange.format.toUpperCase()} POST ${exchange.url})`, ['TRANSPORT-RESPONSE-BODY']);
  }
  answered.set(world, exchange);
}

When('the merchant has the answer to {string} with the {card}', async function (this: CardspecWorld, title: string, role: CardRole) {
  await answerOf(this, title, async () => ({ card: cardOf(this, role) }));
});

When('the merchant has the answer to {string} with a cache token for the {card}', async function (this: CardspecWorld, title: string, role: CardRole) {
  await answerOf(this, title, () => this.paymentPageCard(cardOf(this, role), operationByTitle(title)));
});

/**
 * The answer has no part of a type the request named: "One per request type" (Envelope) is what broke, not the
 * field this example was about (a target that drops the SUBSCRIPTION part is one cause, not one per field).
 */
function missingPart(world: CardspecWorld, type: string, parts: readonly ResponsePart[]): never {
  const seen = parts.map((p) => String(p.requesttypedescription)).join(', ') || 'none';
  return world.fail(`the answer holds no ${type} part (${seen}): the response holds one part per request type`, ['ENV-RESPONSE-ONE-PART-PER-TYPE']);
}

/**
 * "All values in JSON requests and responses are strings": a value of another JSON type (`"errorcode": 0`) breaks
 * that rule, under its field (`FIELD-STRINGS:errorcode`), and not the rule of every example that reads the part
 * (these answers are read without the schema check that would name it first).
 */
function stringOrFail(world: CardspecWorld, type: string, field: string, value: unknown): void {
  if (value === undefined || typeof value === 'string') return;
  world.fail(
    `the ${type} part's ${field} is ${value === null ? 'null' : `a ${typeof value}`}; all values in JSON requests and responses are strings`,
    rulesForViolation({ field, rule: 'all-values-strings', message: '' }),
  );
}

Then("the {word} part's {word} is in its documented form", function (this: CardspecWorld, type: string, field: string) {
  const exchange = answered.get(this);
  if (!exchange) this.fail('no answer was read in this scenario');
  const rule = this.rules.find((r) => r.endsWith(`:${field}`)) ?? 'FIELD-TYPES';
  const parts = Array.isArray(exchange.envelope?.response) ? (exchange.envelope!.response as ResponsePart[]) : [];
  const part = parts.find((p) => p.requesttypedescription === type);
  if (!part) missingPart(this, type, parts);
  const value = part[field];
  // Whether a part carries the field is not this example's question (the row's own rules ask it): an absent field
  // was not checked, so the example is skipped, never passed.
  if (value === undefined) {
    // "Returned only for accounts with certain acquiring banks": a target that never returns it is one of the others.
    const some = FIELD[field].someAccounts;
    if (some) {
      this.attach(`not applicable to this target: the ${type} part does not carry ${field} ("${some}"), so there is no form to check`, NOT_APPLICABLE_MEDIA_TYPE);
      return 'skipped';
    }
    throw new ScenarioSkipped(`the ${type} part does not carry ${field}, so its form could not be checked`);
  }
  stringOrFail(this, type, field, value);
  const problem = checkValue(FIELD[field], 'response', value, part as Record<string, unknown>);
  this.check(problem === null, `the ${type} part's ${field} is ${show(value)}: ${problem?.message ?? ''} (${FIELD[field].section})`, [rule]);
});

Then('the {word} part holds {word}', function (this: CardspecWorld, type: string, field: string) {
  const exchange = answered.get(this);
  if (!exchange) this.fail('no answer was read in this scenario');
  const rule = this.rules.find((r) => r.endsWith(`:${field}`)) ?? 'FIELD-TYPES';
  const parts = Array.isArray(exchange.envelope?.response) ? (exchange.envelope!.response as ResponsePart[]) : [];
  const part = parts.find((p) => p.requesttypedescription === type);
  if (!part) missingPart(this, type, parts);
  stringOrFail(this, type, 'errorcode', part.errorcode);
  // `00000` for `0`: the Errors row's fault (code-spelling), as the schema check of every other step reads it.
  const misspelt = misspeltCode(part.errorcode);
  if (misspelt !== undefined)
    this.fail(
      { message: `the ${type} part has errorcode ${show(part.errorcode)}: code ${misspelt} written otherwise`, field: 'errorcode', expected: `"${misspelt}"`, seen: show(part.errorcode) },
      rulesForViolation({ field: 'errorcode', rule: 'code-spelling', message: '' }, undefined, { value: part.errorcode }),
    );
  this.check(part.errorcode === '0', `the ${type} part has errorcode ${show(part.errorcode)}; a successful part was expected`, [rule]);
  this.check(part[field] !== undefined && part[field] !== '', `the ${type} part does not hold ${field} (${rule.split(':')[0]})`, [rule]);
});
