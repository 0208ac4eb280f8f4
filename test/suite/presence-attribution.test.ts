/**
 * A part's missing field breaks the sentence that requires it in that part (one table, src/rules/attribution.ts
 * `presenceRuleOf`, read by the field boundary phase's presence examples too), never the tags of whichever scenario
 * met it: a SUBSCRIPTION part without accounttypedescription failed 38 rules of the SUBSCRIPTION scenarios.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presenceRule } from '../../src/boundary/responses';
import { presenceRuleOf, rulesForViolation } from '../../src/rules/attribution';

const missing = (field: string, at = 1) => ({ field: `response[${at}].${field}`, rule: 'required', message: `response[${at}].${field} is missing: required in a successful part` });
const SUB_TAGS = ['SUB-COMBINED', 'SUB-REQUIRES-AUTH', 'SUB-NO-3DS', 'SUB-OWN-REFERENCE', 'FIELD-ECHO', 'SUB-STATE-PENDING'];

test('a SUBSCRIPTION part without a field its sentence requires: that sentence, whatever scenario met it', () => {
  const ctx = { partType: 'SUBSCRIPTION', requestedType: 'SUBSCRIPTION', requestedTypes: ['AUTH', 'SUBSCRIPTION'], tags: SUB_TAGS };
  // "In a response, the SUBSCRIPTION part carries `RECUR`."
  assert.deepEqual(rulesForViolation(missing('accounttypedescription'), undefined, ctx), ['SUB-RECUR']);
  // "Check `transactionactive`, the timing fields and the amount in the SUBSCRIPTION part."
  assert.deepEqual(rulesForViolation(missing('transactionactive'), undefined, ctx), ['SUB-AUTH-FIRST-PAYMENT']);
  assert.deepEqual(rulesForViolation(missing('baseamount'), undefined, ctx), ['SUB-AUTH-FIRST-PAYMENT']);
  // "It identifies the transaction and is the value used as `parenttransactionreference` later."
  assert.deepEqual(rulesForViolation(missing('transactionreference'), undefined, ctx), ['FIELD-TRANSACTIONREFERENCE']);
});

test('the boundary phase and the attribution read one table', () => {
  assert.equal(presenceRule, presenceRuleOf);
  assert.equal(presenceRuleOf('SUBSCRIPTION', 'accounttypedescription'), 'SUB-RECUR');
  assert.equal(presenceRuleOf('STORE', 'transactionstartedtimestamp'), 'STORE-RESPONSE-FIELDS');
  assert.equal(presenceRuleOf('AUTH', 'issuer'), undefined);
  // A field no sentence requires in a part (the 3-D Secure values of an AUTH are its scenario's): the tags decide.
  const cavv = rulesForViolation(missing('cavv', 0), undefined, { partType: 'AUTH', requestedType: 'AUTH', tags: ['3DS-STATUS', '3DS-CAVV-ECI'] });
  assert.ok(cavv.includes('3DS-CAVV-ECI'), cavv.join(', '));
});

test('in XML a field missing where its element sits elsewhere is the rule quoting its XML location', () => {
  const shield = missing('fraudcontrolshieldstatuscode', 0);
  const ctx = { partType: 'RISKDEC', requestedType: 'RISKDEC', tags: ['XML-FRAUDCONTROL-PATHS'] };
  assert.deepEqual(rulesForViolation(shield, undefined, { ...ctx, format: 'xml' }), ['XML-FRAUDCONTROL-PATHS']);
  // In JSON there is no location to miss: the sentence that requires the shield status.
  assert.deepEqual(rulesForViolation(shield, undefined, { ...ctx, format: 'json' }), ['RISKDEC-SHIELD']);
});
