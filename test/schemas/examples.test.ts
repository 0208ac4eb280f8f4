/**
 * Every schema accepts the document's own examples: a request object per row of the Request types table, as the
 * row lists its fields, and a response part per request type with the fields the document lists for it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REQUEST_TYPES } from '../../schemas/fields';
import { OPERATIONS } from '../../schemas/operations';
import { selectRow, validateRequestEnvelope, validateRequestObject, validateResponseEnvelope, validateResponsePart } from '../../src/validate';
import { example } from './fixtures';

for (const row of OPERATIONS) {
  test(`request example of "${row.title}" is accepted and recognised as row ${row.id}`, () => {
    const obj = example('requests', row.id);
    assert.equal(selectRow(obj)?.id, row.id);
    assert.deepEqual(validateRequestObject(obj), []);
    assert.deepEqual(validateRequestEnvelope({ alias: 'webservices@example.test', version: '1.00', request: [obj] }), []);
  });
}

for (const type of REQUEST_TYPES) {
  test(`response example of a ${type} part is accepted`, () => {
    const part = example('responses', type);
    assert.equal(part.requesttypedescription, type);
    assert.deepEqual(validateResponsePart(part), []);
    assert.deepEqual(validateResponseEnvelope({ requestreference: 'A0bc12345', version: '1.00', response: [part], secrand: 'Kq8Vz3' }, [type]), []);
  });
}

test('an AUTH request as real SDKs send it (libraryversion, requestreference, versioninfo) is accepted', () => {
  assert.deepEqual(validateRequestEnvelope(example('envelopes', 'auth-sdk.request')), []);
});

test('a combined AUTH and SUBSCRIPTION response is accepted with the parts in the requested order', () => {
  assert.deepEqual(validateResponseEnvelope(example('envelopes', 'subscription.response'), ['AUTH', 'SUBSCRIPTION']), []);
});
