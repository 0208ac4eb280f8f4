/**
 * The field boundary phase (features/field-boundaries.feature, written from the field dictionary by src/boundary):
 * a request of one row with one field set to a boundary value, then whether the target took it or refused it.
 * Each check names the example's rule, qualified by the field (`FIELD-LENGTHS:billingemail`).
 */
import { Then } from '@cucumber/cucumber';
import { boundaryCase, type BoundaryCase } from '../src/boundary/cases';
import { buildRequest, operationByTitle, type CardSource } from '../src/target/requests';
import type { CardRole } from '../src/target/profile';
import { cardOf, requestStep } from './support';
import type { CardspecWorld } from './world';

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
    [c.rule],
  );
});

Then('{word} {string} is refused', function (this: CardspecWorld, field: string, _label: string) {
  const c = caseOf(this);
  const parts = this.last.parts;
  const ok = parts.filter((p) => p.errorcode === '0');
  this.check(parts.length > 0 && ok.length < parts.length, `${field} "${c.label}" was taken: every part answered errorcode "0"; the field must be refused`, [c.rule]);
  // "`30000` THREEDQUERY: Invalid field."
  const query = parts.find((p) => p.requesttypedescription === 'THREEDQUERY');
  if (query) this.check(query.errorcode === '30000', `the THREEDQUERY refused ${field} "${c.label}" with errorcode ${show(query.errorcode)}; an invalid field is 30000`, [c.rule]);
  // Which field a refusal names (`errordata`) is public facts only: shown, never a failure.
  const named = parts.map((p) => p.errordata).find((d) => Array.isArray(d));
  if (Array.isArray(named) && !named.includes(field)) this.log(`The refusal names ${JSON.stringify(named)}, not ${field} (errordata is a public fact; not a failure).`);
});
