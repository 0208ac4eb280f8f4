/**
 * What the merchant checks in an answer. Schema checks already ran on every answer (steps/world.ts); these are the
 * checks of the document's sentences. Each is a check of one rule: the one the step names, else the scenario's tag
 * whose quote speaks of the field looked at (steps/world.ts `expectRule`), with what was expected and seen.
 */
import { Then } from '@cucumber/cucumber';
import { ERROR } from '../schemas/errors';
import type { CardRole } from '../src/client/profile';
import { masksPan } from '../src/suite/generated/cards';
import { cardOf, echoesToCheck } from './support';
import { ScenarioSkipped, type CardspecWorld } from './world';

const show = (v: unknown): string => (v === undefined ? 'absent' : JSON.stringify(v));

/** A part's errorcode, as a hint to the rule a check of it checks (the Errors table's row). */
const codeOf = (part: Record<string, unknown>): string | undefined => (typeof part.errorcode === 'string' ? part.errorcode : undefined);

/** An expected error code checks its row of the Errors table (`ERR-<code>`) when the scenario is tagged with it. */
const errorRule = (world: CardspecWorld, code: string): string | undefined => (world.rules.includes(`ERR-${code}`) ? `ERR-${code}` : undefined);

Then('{txn} succeeded', function (this: CardspecWorld, name: string) {
  const part = this.entry(name).part;
  this.check(
    part.errorcode === '0',
    { message: `${name} has errorcode ${show(part.errorcode)} (${show(part.errormessage)}); "0" means successful`, field: 'errorcode', expected: '"0" (successful)', seen: show(part.errorcode) },
    this.rules,
  );
});

Then('{txn} failed', function (this: CardspecWorld, name: string) {
  const part = this.entry(name).part;
  this.check(
    typeof part.errorcode === 'string' && part.errorcode !== '0',
    { message: `${name} has errorcode ${show(part.errorcode)}; a failed part has a non-zero errorcode`, field: 'errorcode', expected: 'a non-zero errorcode', seen: show(part.errorcode) },
    this.rules,
  );
});

Then('{txn} has errorcode {string}', function (this: CardspecWorld, name: string, code: string) {
  const part = this.entry(name).part;
  this.check(
    part.errorcode === code,
    { message: `${name} has errorcode ${show(part.errorcode)} (${show(part.errormessage)}); expected "${code}"`, field: 'errorcode', expected: code, seen: show(part.errorcode) },
    errorRule(this, code),
  );
});

/**
 * A part as the Errors table's row of its code says: that `errorcode`, an `errormessage` ("Every response part has
 * `errorcode` (string) and `errormessage`"), and the wording where the row fixes it (`Ok`, `Unauthenticated`).
 */
Then('{txn} has errorcode {string}, with an errormessage as the Errors table says', function (this: CardspecWorld, name: string, code: string) {
  const part = this.entry(name).part;
  const row = ERROR[code];
  if (!row) this.fail(`"${code}" is no code of the Errors table`);
  this.check(
    part.errorcode === code,
    {
      message: `${name} has errorcode ${show(part.errorcode)} (${show(part.errormessage)}); expected "${code}"`,
      field: 'errorcode',
      expected: code,
      seen: show(part.errorcode),
      errorcode: codeOf(part),
    },
    `ERR-${code}`,
  );
  this.check(
    typeof part.errormessage === 'string' && part.errormessage !== '',
    {
      message: `${name} (errorcode "${code}") has errormessage ${show(part.errormessage)}; every response part has one`,
      field: 'errormessage',
      expected: 'an errormessage',
      seen: show(part.errormessage),
      errorcode: codeOf(part),
    },
    'ERR-PART-FIELDS',
  );
  if (row.message !== undefined)
    this.check(
      part.errormessage === row.message,
      {
        message: `${name}'s errormessage is ${show(part.errormessage)}; with errorcode "${code}" it is "${row.message}"`,
        field: 'errormessage',
        expected: row.message,
        seen: show(part.errormessage),
        errorcode: codeOf(part),
      },
      `ERR-${code}`,
    );
});

Then("{txn}'s {word} is {string}", function (this: CardspecWorld, name: string, field: string, value: string) {
  const part = this.entry(name).part;
  const actual = part[field];
  this.check(actual === value, { message: `${name}'s ${field} is ${show(actual)}; expected "${value}"`, field, expected: value, seen: show(actual), errorcode: codeOf(part) });
});

// A record a TRANSACTIONQUERY returned: which fields it holds is the query's shape ("not shown"), so a record without
// the field cannot show the value; the scenario is then skipped (checked nowhere), never passed.
Then("{txn}'s {word}, where its record shows one, is {string}", function (this: CardspecWorld, name: string, field: string, value: string) {
  const part = this.entry(name).part;
  const actual = part[field];
  if (actual === undefined) throw new ScenarioSkipped(`${name} carries no ${field} in the target's record (the shape of a TRANSACTIONQUERY is not shown)`);
  this.check(actual === value, { message: `${name}'s ${field} is ${show(actual)}; expected "${value}"`, field, expected: value, seen: show(actual), errorcode: codeOf(part) });
});

// A value the document leaves to the site (which currencies it takes): refused, the scenario has nothing to check.
Then('{txn} succeeded, unless the target does not take that currency', function (this: CardspecWorld, name: string) {
  const part = this.entry(name).part;
  if (part.errorcode !== '0') throw new ScenarioSkipped(`${name} was refused (errorcode ${show(part.errorcode)}): the target does not take the currency sent, which the document leaves to the site`);
});

Then("{txn}'s {word} is not {string}", function (this: CardspecWorld, name: string, field: string, value: string) {
  const part = this.entry(name).part;
  const actual = part[field];
  this.check(actual !== value, { message: `${name}'s ${field} is "${value}"; it must not be`, field, expected: `not "${value}"`, seen: show(actual), errorcode: codeOf(part) });
});

Then('{txn} holds {fields}', function (this: CardspecWorld, name: string, fields: string[]) {
  const part = this.entry(name).part;
  const missing = fields.filter((f) => part[f] === undefined || part[f] === '');
  this.check(missing.length === 0, {
    message: `${name} does not hold ${missing.join(', ')}`,
    field: missing[0] ?? fields[0],
    expected: `${fields.join(', ')} present`,
    seen: `${missing.join(', ')} absent`,
    errorcode: codeOf(part),
  });
});

Then('{txn} does not hold {fields}', function (this: CardspecWorld, name: string, fields: string[]) {
  const part = this.entry(name).part;
  const present = fields.filter((f) => part[f] !== undefined && part[f] !== '');
  this.check(present.length === 0, {
    message: `${name} holds ${present.join(', ')}, which it must not`,
    field: present[0] ?? fields[0],
    expected: `${fields.join(', ')} absent`,
    seen: `${present.join(', ')} present`,
    errorcode: codeOf(part),
  });
});

Then("{txn}'s {word} is {txn}'s {word}", function (this: CardspecWorld, a: string, fa: string, b: string, fb: string) {
  const va = this.entry(a).part[fa];
  const vb = this.entry(b).part[fb];
  this.check(va !== undefined && va === vb, { message: `${a}'s ${fa} is ${show(va)}; ${b}'s ${fb} is ${show(vb)}: they must be equal`, field: fa, expected: show(vb), seen: show(va) });
});

Then("{txn}'s transactionreference differs from {txn}'s", function (this: CardspecWorld, a: string, b: string) {
  const va = this.entry(a).part.transactionreference;
  const vb = this.entry(b).part.transactionreference;
  this.check(va !== vb, {
    message: `${a} and ${b} have the same transactionreference ${show(va)}; each part has its own`,
    field: 'transactionreference',
    expected: 'a reference of its own',
    seen: show(va),
  });
});

// A field "Echoed from the request" that the part's type is not shown giving back (the field dictionary's `ECHOES`)
// may be left out; carried, it is the value sent. The other fields named (a subscription's) are held as written.
Then('{txn} echoes {fields}', function (this: CardspecWorld, name: string, fields: string[]) {
  const { part, request } = this.entry(name);
  const checked = echoesToCheck(this, name, fields);
  const differs = checked.filter((f) => part[f] !== request[f]);
  const wrong = differs.map((f) => `${f}: sent ${show(request[f])}, answered ${show(part[f])}`);
  this.check(
    wrong.length === 0,
    { message: `${name} does not echo what was sent: ${wrong.join('; ')}`, field: differs[0] ?? checked[0], expected: 'the value sent', seen: wrong.join('; ') },
    'FIELD-ECHO',
  );
});

// "1 part shaped as an AUTH part": every field the other part holds, save those only the other request's own fields
// put there (an echo of a field this request did not send, a parent it did not name).
Then('{txn} holds every field {txn} holds', function (this: CardspecWorld, name: string, model: string) {
  const { part, request } = this.entry(name);
  const other = this.entry(model);
  const missing = Object.keys(other.part).filter((f) => part[f] === undefined && !(other.request[f] !== undefined && request[f] === undefined));
  this.check(missing.length === 0, {
    message: `${name} lacks ${missing.join(', ')}, which ${model} holds: it is not shaped as that part`,
    field: missing[0] ?? 'requesttypedescription',
    expected: `every field ${model} holds`,
    seen: `without ${missing.join(', ')}`,
  });
});

// A card number of a length the field table allows ("Numeric | 12-19") that one request type takes is not refused
// as a field by another: a refusal naming other fields, or the card refused by both, is about something else.
Then('{txn} takes the card number {txn} took', function (this: CardspecWorld, name: string, model: string) {
  const { part, request } = this.entry(name);
  const other = this.entry(model);
  const pan = typeof request.pan === 'string' ? request.pan : undefined;
  if (pan === undefined || other.request.pan !== pan) this.fail(`${name} and ${model} were not sent the same card number`);
  if (other.part.errorcode !== '0')
    throw new ScenarioSkipped(`${model} refused the card number of ${pan.length} digits too (errorcode ${show(other.part.errorcode)}): the target does not take this card`);
  const data = Array.isArray(part.errordata) ? part.errordata : undefined;
  if (part.errorcode !== '0' && data !== undefined && data.length > 0 && !data.includes('pan'))
    throw new ScenarioSkipped(`${name} was refused for ${data.map(String).join(', ')}, not for its card number`);
  this.check(part.errorcode === '0', {
    message: `${name} refused the card number of ${pan.length} digits that ${model} took (errorcode ${show(part.errorcode)}); the field table allows 12 to 19 digits`,
    field: 'pan',
    expected: `the card number taken, as ${model} took it`,
    seen: show(part.errorcode),
  });
});

Then("{txn}'s maskedpan masks the {card}", function (this: CardspecWorld, name: string, role: CardRole) {
  checkMask(this, name, cardOf(this, role).pan);
});

// Which card a payment was made with, as its answer shows it (the masked number): a check of the scenario's rule
// (a child's own card, an inherited one), not of the mask's form.
Then('{txn} was made with the {card}', function (this: CardspecWorld, name: string, role: CardRole) {
  const masked = this.entry(name).part.maskedpan;
  this.check(masksPan(cardOf(this, role).pan, masked), {
    message: `${name}'s maskedpan is ${show(masked)}, which is not the "${role}" card's number masked: the payment was made with another card`,
    field: 'maskedpan',
    expected: `the "${role}" card`,
    seen: show(masked),
  });
});

// A card number the scenario made (a length of the field table): the target may refuse a card it does not know;
// a refused card without a mask leaves nothing to check, which is a skip, never a pass.
Then("{txn}'s maskedpan masks the card number sent", function (this: CardspecWorld, name: string) {
  const { part, request } = this.entry(name);
  const pan = typeof request.pan === 'string' ? request.pan : undefined;
  if (!pan) this.fail(`${name} answers a request that sent no card number`);
  if (part.maskedpan === undefined && part.errorcode !== '0')
    throw new ScenarioSkipped(`${name} refused the card number of ${pan.length} digits (errorcode ${show(part.errorcode)}): no maskedpan to check`);
  checkMask(this, name, pan);
});

// "with the middle digits replaced by `#`": same length, a run of `#` in the middle, the card's own digits around it.
function checkMask(world: CardspecWorld, name: string, pan: string): void {
  const masked = world.entry(name).part.maskedpan;
  // A STORE read back with the number in full breaks the query's own sentence ("the card number is masked in the
  // response"), not only the mask's form; a mask of another form (`*`) is the form's fault alone.
  const unmaskedStore = name === 'the queried STORE' && typeof masked === 'string' && masked.includes(pan);
  world.check(
    masksPan(pan, masked),
    {
      message: `${name}'s maskedpan is ${show(masked)}; expected the card's number of ${pan.length} digits with the middle digits replaced by "#"`,
      field: 'maskedpan',
      expected: 'the middle digits replaced by "#"',
      seen: show(masked),
    },
    unmaskedStore ? ['STORE-QUERY-MASKED', 'FIELD-MASKEDPAN'] : 'FIELD-MASKEDPAN',
  );
}

// "must be submitted in full and unmodified": an AUTH with a changed md or pares is no authenticated, authorised one.
Then('{txn} was not answered as authenticated', function (this: CardspecWorld, name: string) {
  const part = this.entry(name).part;
  this.check(
    !(part.errorcode === '0' && part.status === 'Y'),
    {
      message: `${name} answers errorcode "0" with status "Y" (authenticated) to a changed md or pares; only the values the ACS returned, in full and unmodified, authenticate`,
      field: 'status',
      expected: 'not authenticated and authorised',
      seen: `errorcode ${show(part.errorcode)}, status ${show(part.status)}`,
    },
    '3DS-MD-PARES-UNMODIFIED',
  );
});

Then('the response has {int} part(s): {types}', function (this: CardspecWorld, count: number, types: string[]) {
  const got = this.last.parts.map((p) => p.requesttypedescription);
  this.check(got.length === count && types.length === count && types.every((t, i) => got[i] === t), {
    message: `the response holds ${got.length} part(s) (${got.join(', ')}); expected ${count}: ${types.join(', then ')}`,
    field: 'requesttypedescription',
    expected: types.join(', '),
    seen: got.join(', '),
  });
});

Then('the call was not successful', function (this: CardspecWorld) {
  const ok = this.last.parts.filter((p) => p.errorcode === '0');
  this.check(ok.length === 0, `the call was answered with ${ok.length} successful part(s) (errorcode "0")`);
});

Then('the answer carries {fields}', function (this: CardspecWorld, fields: string[]) {
  const env = this.last.exchange.envelope ?? {};
  const missing = fields.filter((f) => env[f] === undefined);
  this.check(missing.length === 0, {
    message: `the answer envelope does not carry ${missing.join(', ')}`,
    field: missing[0] ?? fields[0],
    expected: `${fields.join(', ')} present`,
    seen: `${missing.join(', ')} absent`,
  });
});

Then("the answer's {word} is {string}", function (this: CardspecWorld, field: string, value: string) {
  const actual = this.last.exchange.envelope?.[field];
  this.check(actual === value, { message: `the answer's ${field} is ${show(actual)}; expected "${value}"`, field, expected: value, seen: show(actual) });
});

Then('every value in the answer is a string', function (this: CardspecWorld) {
  const bad: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k);
    else if (typeof v !== 'string') bad.push(`${path} is ${v === null ? 'null' : typeof v}`);
  };
  walk(this.last.exchange.envelope, '');
  this.check(bad.length === 0, { message: `values that are not strings: ${bad.join(', ')}`, expected: 'strings', seen: bad.slice(0, 3).join(', ') }, 'FIELD-STRINGS');
});

Then('the two answers carry different {word} values', function (this: CardspecWorld, field: string) {
  const [a, b] = this.calls.slice(-2).map((c) => c.exchange.envelope?.[field]);
  this.check(typeof a === 'string' && typeof b === 'string' && a !== '' && a !== b, {
    message: `${field} is ${show(a)} in one answer and ${show(b)} in the next; a random string differs`,
    field,
    expected: 'a different value each time',
    seen: show(b),
  });
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
  this.named.set(`the queried ${type}`, { ...query, name: `the queried ${type}`, type, part: record });
});
