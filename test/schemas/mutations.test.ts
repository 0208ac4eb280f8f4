/**
 * Every schema rejects one mutation of each constraint of every field it knows, generated from the dictionary:
 * a JSON number ("All values ... are strings"), one character over the maximum, one under the minimum, a value
 * outside the listed ones, a character outside the type class, and, per row and part, each required field
 * missing. Each mutation must produce a violation naming that field and that rule, and the unmutated object must
 * not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { objectFields } from '../../schemas/build';
import { FIELD, REQUEST_TYPES, type Direction, type FieldDef, type FieldSide } from '../../schemas/fields';
import { OPERATIONS, PART_SHAPES } from '../../schemas/operations';
import { validateAgainstRow, validateRequestEnvelope, validateResponseEnvelope } from '../../src/validate';
import { checkPart } from '../../src/validate/response';
import type { Violation } from '../../src/validate';
import { example } from './fixtures';
import { badCharacters, lengthened, outsideList, shortened, validValue } from './samples';

type Obj = Record<string, unknown>;
interface Mutation {
  readonly what: string;
  readonly value: unknown;
  /** Where the violation must be reported. */
  readonly at: string;
  readonly rule: string;
}

/** The mutations of one field, from its dictionary entry alone. */
function mutations(def: FieldDef, side: FieldSide, valid: string): Mutation[] {
  const wrap = (v: unknown): unknown => (def.list ? [v] : v);
  const at = def.list ? `${def.name}[0]` : def.name;
  const out: Mutation[] = [{ what: 'a JSON number', value: wrap(1), at, rule: 'all-values-strings' }];
  if (def.list) out.push({ what: 'a string, not a list', value: valid, at: def.name, rule: 'type' });
  if (side.maxLength !== undefined) out.push({ what: 'length + 1', value: wrap(lengthened(def, valid, side.maxLength + 1)), at, rule: 'maxLength' });
  if (side.minLength !== undefined && side.minLength > 0) {
    out.push({ what: 'length - 1', value: wrap(shortened(valid, side.minLength - 1)), at, rule: 'minLength' });
  }
  const outside = outsideList(def, side);
  if (outside !== undefined) out.push({ what: 'a value outside the list', value: wrap(outside), at, rule: 'enum' });
  const bad = badCharacters(def, side);
  if (bad !== undefined) out.push({ what: 'a character outside the type class', value: wrap(bad), at, rule: 'pattern' });
  return out;
}

const has = (vs: readonly Violation[], field: string, rule: string): boolean => vs.some((v) => v.field === field && v.rule === rule);

/** Runs every field's mutations on `base` with `check`; returns what was not caught, or caught unmutated. */
function mutateAll(direction: Direction, base: Obj, check: (o: Obj) => Violation[], label: string): string[] {
  const misses: string[] = [];
  let tried = 0;
  for (const def of objectFields(direction)) {
    const side = def[direction];
    if (!side || def.structure) continue;
    const given = base[def.name];
    const scalar = def.list ? (Array.isArray(given) ? given[0] : undefined) : given;
    const valid = typeof scalar === 'string' ? scalar : validValue(def, side);
    // The one conditional class check applies only when its condition holds: make it hold.
    const when: Obj = def.validatedWhen ? { [def.validatedWhen.field]: def.validatedWhen.values[0] } : {};
    const unmutated = { ...base, ...when, [def.name]: def.list ? [valid] : valid };
    const clean = check(unmutated);
    for (const m of mutations(def, side, valid)) {
      tried++;
      if (has(clean, m.at, m.rule)) misses.push(`${label}: ${def.name} valid value ${JSON.stringify(valid)} already reports ${m.rule}`);
      const found = check({ ...unmutated, [def.name]: m.value });
      if (!has(found, m.at, m.rule)) {
        misses.push(`${label}: ${def.name} with ${m.what} not reported as ${m.rule} at ${m.at} (got ${found.map((v) => `${v.field}:${v.rule}`).join(', ') || 'nothing'})`);
      }
    }
  }
  assert.ok(tried > 50, `${label}: only ${tried} mutations`);
  return misses;
}

for (const row of OPERATIONS) {
  test(`request.${row.id}.schema.json rejects a mutation of each constraint of every request field`, () => {
    const base = example('requests', row.id);
    assert.deepEqual(
      mutateAll('request', base, (o) => validateAgainstRow(o, row), row.id),
      [],
    );
  });

  test(`request.${row.id}.schema.json rejects the row with each required field missing`, () => {
    const base = example('requests', row.id);
    const misses: string[] = [];
    for (const field of ['requesttypedescriptions', ...row.required]) {
      const { [field]: _gone, ...without } = base;
      if (!has(validateAgainstRow(without, row), field, 'required')) misses.push(field);
    }
    assert.deepEqual(misses, []);
  });
}

for (const type of REQUEST_TYPES) {
  const shape = PART_SHAPES[type];
  test(`response.${type}.schema.json rejects a mutation of each constraint of every response field`, () => {
    const base = example('responses', type);
    assert.deepEqual(
      mutateAll('response', base, (o) => checkPart(o, '', type), type),
      [],
    );
  });

  test(`response.${type}.schema.json rejects a part with each required field missing`, () => {
    const base = example('responses', type);
    const misses: string[] = [];
    const required = ['errorcode', 'errormessage', ...shape.requiredOnSuccess];
    for (const field of required) {
      const { [field]: _gone, ...without } = base;
      if (!has(checkPart(without, '', type), field, 'required')) misses.push(field);
    }
    for (const c of shape.conditional ?? []) {
      for (const field of c.require) {
        const { [field]: _gone, ...without } = { ...base, ...c.when };
        if (!has(checkPart(without, '', type), field, 'required')) misses.push(`${field} when ${JSON.stringify(c.when)}`);
      }
    }
    assert.deepEqual(misses, []);
  });
}

test('the envelopes reject a mutation of each envelope field and each envelope field missing', () => {
  const misses: string[] = [];
  const cases: [Direction, Obj, (o: Obj) => Violation[]][] = [
    ['request', example('envelopes', 'auth-sdk.request'), (o) => validateRequestEnvelope(o)],
    ['response', example('envelopes', 'subscription.response'), (o) => validateResponseEnvelope(o)],
  ];
  for (const [direction, base, check] of cases) {
    assert.deepEqual(check(base), []);
    for (const name of Object.keys(base)) {
      const def = FIELD[name];
      const side = def?.[direction];
      if (!def || !side) continue;
      for (const m of mutations(def, side, String(base[name]))) {
        if (!has(check({ ...base, [name]: m.value }), m.at, m.rule)) misses.push(`${direction} ${name}: ${m.what}`);
      }
      const { [name]: _gone, ...without } = base;
      if (!has(check(without), name, 'required')) misses.push(`${direction} ${name}: missing`);
    }
  }
  assert.deepEqual(misses, []);
});
