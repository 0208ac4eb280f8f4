/**
 * The test-control API hands out cache tokens that survive the masking every control answer goes through: a token
 * holding a long Luhn-valid digit run would come back masked and be refused by the gateway that minted it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkValue } from '../../schemas/check';
import { FIELD } from '../../schemas/fields';
import { findCardNumbers } from '../../src/redact';
import { card, useGateway } from './helpers';

const client = useGateway();

describe('test-control cache tokens', () => {
  it('every minted token is a valid cachetoken with no digit run a masking function would take for a card', async () => {
    for (let i = 0; i < 400; i++) {
      const r = await client.control('POST', 'cachetokens', card('authorised'));
      const token = r.body.cachetoken;
      assert.equal(typeof token, 'string');
      assert.equal(checkValue(FIELD.cachetoken, 'request', token), null, String(token));
      assert.deepEqual(findCardNumbers(String(token)), []);
      assert.doesNotMatch(String(token), /[0-9]{12}/);
    }
  });
});
