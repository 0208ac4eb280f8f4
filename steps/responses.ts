/**
 * What the merchant checks in an answer. Schema checks already ran on every answer (steps/world.ts); these are the
 * checks of the document's sentences, and each failure names the scenario's `@rule` tags (or its own rule).
 */
import { Then } from '@cucumber/cucumber';
import type { CardRole } from '../src/target/profile';
import { cardOf } from './support';
import type { CardspecWorld } from './world';

const show = (v: unknown): string => (v === undefined ? 'absent' : JSON.stringify(v));

Then('{txn} succeeded', function (this: CardspecWorld, name: string) {
  const part = this.entry(name).part;
  this.check(part.errorcode === '0', `${name} has errorcode ${show(part.errorcode)} (${show(part.errormessage)}); "0" means successful`);
});

Then('{txn} failed', function (this: CardspecWorld, name: string) {
  const part = this.entry(name).part;
  this.check(typeof part.errorcode === 'string' && part.errorcode !== '0', `${name} has errorcode ${show(part.errorcode)}; a failed part has a non-zero errorcode`);
});

Then('{txn} has errorcode {string}', function (this: CardspecWorld, name: string, code: string) {
  const part = this.entry(name).part;
  this.check(part.errorcode === code, `${name} has errorcode ${show(part.errorcode)} (${show(part.errormessage)}); expected "${code}"`);
});

Then("{txn}'s {word} is {string}", function (this: CardspecWorld, name: string, field: string, value: string) {
  const actual = this.entry(name).part[field];
  this.check(actual === value, `${name}'s ${field} is ${show(actual)}; expected "${value}"`);
});

Then("{txn}'s {word} is not {string}", function (this: CardspecWorld, name: string, field: string, value: string) {
  const actual = this.entry(name).part[field];
  this.check(actual !== value, `${name}'s ${field} is "${value}"; it must not be`);
});

Then('{txn} holds {fields}', function (this: CardspecWorld, name: string, fields: string[]) {
  const part = this.entry(name).part;
  const missing = fields.filter((f) => part[f] === undefined || part[f] === '');
  this.check(missing.length === 0, `${name} does not hold ${missing.join(', ')}`);
});

Then('{txn} does not hold {fields}', function (this: CardspecWorld, name: string, fields: string[]) {
  const part = this.entry(name).part;
  const present = fields.filter((f) => part[f] !== undefined && part[f] !== '');
  this.check(present.length === 0, `${name} holds ${present.join(', ')}, which it must not`);
});

Then("{txn}'s {word} is {txn}'s {word}", function (this: CardspecWorld, a: string, fa: string, b: string, fb: string) {
  const va = this.entry(a).part[fa];
  const vb = this.entry(b).part[fb];
  this.check(va !== undefined && va === vb, `${a}'s ${fa} is ${show(va)}; ${b}'s ${fb} is ${show(vb)}: they must be equal`);
});

Then("{txn}'s transactionreference differs from {txn}'s", function (this: CardspecWorld, a: string, b: string) {
  const va = this.entry(a).part.transactionreference;
  const vb = this.entry(b).part.transactionreference;
  this.check(va !== vb, `${a} and ${b} have the same transactionreference ${show(va)}; each part has its own`);
});

Then('{txn} echoes {fields}', function (this: CardspecWorld, name: string, fields: string[]) {
  const { part, request } = this.entry(name);
  const wrong = fields.filter((f) => part[f] !== request[f]).map((f) => `${f}: sent ${show(request[f])}, answered ${show(part[f])}`);
  this.check(wrong.length === 0, `${name} does not echo what was sent: ${wrong.join('; ')}`);
});

Then("{txn}'s maskedpan masks the {card}", function (this: CardspecWorld, name: string, role: CardRole) {
  const pan = cardOf(this, role).pan;
  const masked = this.entry(name).part.maskedpan;
  // "with the middle digits replaced by `#`": same length, a run of `#` in the middle, the card's own digits around it.
  const m = typeof masked === 'string' ? /^([0-9]+)(#+)([0-9]+)$/.exec(masked) : null;
  const ok = m !== null && (masked as string).length === pan.length && pan.startsWith(m[1]) && pan.endsWith(m[3]);
  this.check(ok, `${name}'s maskedpan is ${show(masked)}; expected the card's number with the middle digits replaced by "#"`, ['FIELD-MASKEDPAN']);
});

Then('the response has {int} part(s): {types}', function (this: CardspecWorld, count: number, types: string[]) {
  const got = this.last.parts.map((p) => p.requesttypedescription);
  this.check(
    got.length === count && types.length === count && types.every((t, i) => got[i] === t),
    `the response holds ${got.length} part(s) (${got.join(', ')}); expected ${count}: ${types.join(', then ')}`,
  );
});

Then('the call was not successful', function (this: CardspecWorld) {
  const ok = this.last.parts.filter((p) => p.errorcode === '0');
  this.check(ok.length === 0, `the call was answered with ${ok.length} successful part(s) (errorcode "0")`);
});

Then('the answer carries {fields}', function (this: CardspecWorld, fields: string[]) {
  const env = this.last.exchange.envelope ?? {};
  const missing = fields.filter((f) => env[f] === undefined);
  this.check(missing.length === 0, `the answer envelope does not carry ${missing.join(', ')}`);
});

Then("the answer's {word} is {string}", function (this: CardspecWorld, field: string, value: string) {
  const actual = this.last.exchange.envelope?.[field];
  this.check(actual === value, `the answer's ${field} is ${show(actual)}; expected "${value}"`);
});

Then('every value in the answer is a string', function (this: CardspecWorld) {
  const bad: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
    else if (typeof v !== 'string') bad.push(`${path} is ${v === null ? 'null' : typeof v}`);
  };
  walk(this.last.exchange.envelope, '');
  this.check(bad.length === 0, `values that are not strings: ${bad.join(', ')}`);
});

Then('the two answers carry different {word} values', function (this: CardspecWorld, field: string) {
  const [a, b] = this.calls.slice(-2).map((c) => c.exchange.envelope?.[field]);
  this.check(typeof a === 'string' && typeof b === 'string' && a !== '' && a !== b, `${field} is ${show(a)} in one answer and ${show(b)} in the next; a random string differs`);
});

Then('both calls went to the same endpoint', function (this: CardspecWorld) {
  const urls = new Set(this.calls.map((c) => c.exchange.url));
  this.check(this.calls.length >= 2 && urls.size === 1, `the calls went to ${[...urls].join(', ')}; one endpoint takes every operation`);
});

/**
 * A TRANSACTIONQUERY's record of a transaction becomes "the queried <TYPE>", so that the usual checks apply to it.
 * (The query's answer shape is "not shown"; records are read from `records`, the public shape.)
 */
Then('the TRANSACTIONQUERY found {txn}', function (this: CardspecWorld, name: string) {
  const query = this.entry('the TRANSACTIONQUERY');
  const ref = this.entry(name).part.transactionreference;
  const records = Array.isArray(query.part.records) ? query.part.records : [];
  const record = records.find((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && (r as Record<string, unknown>).transactionreference === ref);
  if (!record) this.fail(`the TRANSACTIONQUERY's records (${records.length}) do not include ${name} (${show(ref)})`);
  const type = this.entry(name).type;
  this.ledger.set(`the queried ${type}`, { ...query, name: `the queried ${type}`, type, part: record });
});
