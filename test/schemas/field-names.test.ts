/**
 * The dictionary is looked up by names read off the wire (a request's fields, an answer's, `updates`, a filter's
 * keys): a field named like one of Object's own properties is not a field of the document.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIELD } from '../../schemas/fields';
import { isKnownRequestField } from '../../src/wire/reading';

const OWN_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

test("a name of Object's own properties finds no field in the dictionary", () => {
  for (const name of OWN_NAMES) {
    assert.equal(FIELD[name], undefined, name);
    assert.equal(isKnownRequestField(name), false, name);
  }
  assert.equal(FIELD.pan?.name, 'pan', 'a field of the tables is still found');
});
