/**
 * Attribution: a failed assertion breaks the rule it checks, not every `@rule` tag of its scenario; the scenario's
 * other rules are "blocked by" it; a schema finding breaks the rule of the field that broke.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKS_MEDIA_TYPE, parseChecks } from '../../src/rules/checks';
import { brokenOf, parseMessages, type ScenarioResult } from '../../src/report/messages';
import { buildMatrix, type RunMeta } from '../../src/report/model';
import type { CatalogueRule } from '../../src/rules/catalogue';
import { defaultRuleIndex, ruleForViolation, ruleIndexOf, rulesForCheck, rulesForPartValue, rulesForViolation } from '../../src/rules/attribution';

const META: RunMeta = { target: 't', profile: 'p', formats: ['json'], kitVersion: '0', interfaceVersions: { json: '1.00', xml: '3.67' } };

describe('a schema finding breaks the rule of the field that broke', () => {
  const index = defaultRuleIndex();
  it('maskedpan without "#" is FIELD-MASKEDPAN, whatever scenario carried it', () => {
    assert.equal(ruleForViolation({ field: 'response[0].maskedpan', rule: 'masked', message: 'must be masked' }, index), 'FIELD-MASKEDPAN');
  });
  it('a length, a string type and a timestamp format go to their field rules', () => {
    assert.equal(ruleForViolation({ field: 'response[0].orderreference', rule: 'maxLength', message: 'x' }, index), 'FIELD-LENGTHS:orderreference');
    assert.equal(ruleForViolation({ field: 'response[0].baseamount', rule: 'all-values-strings', message: 'x' }, index), 'FIELD-STRINGS:baseamount');
    // "Every response part has `errorcode` (string)": an errorcode that is no string breaks that sentence too.
    assert.deepEqual(rulesForViolation({ field: 'response[0].errorcode', rule: 'all-values-strings', message: 'x' }, index), ['FIELD-STRINGS:errorcode', 'ERR-PART-FIELDS']);
    // "`baseamount` has at most 13 digits": an amount answered longer breaks Limits, 2 besides its field table row.
    assert.deepEqual(rulesForViolation({ field: 'response[0].baseamount', rule: 'maxLength', message: 'x' }, index), ['FIELD-LENGTHS:baseamount', 'LIMIT-BASEAMOUNT']);
    assert.equal(ruleForViolation({ field: 'response[1].transactionstartedtimestamp', rule: 'pattern', message: 'x' }, index), 'FIELD-TIMESTAMP');
    assert.equal(ruleForViolation({ field: 'response[0].acsurl', rule: 'forbidden', message: 'x' }, index), '3DS-ACSURL-ONLY-ENROLLED');
  });
  it('a finding that quotes the document goes to the rule quoting the same words', () => {
    const v = {
      field: 'response[0].errormessage',
      rule: 'required',
      message: 'response[0].errormessage is missing: required in every response part ("Every response part has `errorcode` (string) and `errormessage`")',
    };
    assert.equal(ruleForViolation(v, index), 'ERR-PART-FIELDS');
  });
  it("parts out of order or missing break the envelope's rule, not the tags of the scenario that carried them", () => {
    // A target answering ["AUTH","SUBSCRIPTION"] in reverse order met the field-boundary scenarios too: one cause.
    const tags = ['FIELD-TYPES:currencyiso3a', 'LIMIT-FIELD-LENGTHS:currencyiso3a', 'SUB-STATE-PENDING'];
    const order = { field: 'response[0].requesttypedescription', rule: 'part-order', message: 'part 1 is "SUBSCRIPTION" where "AUTH" was requested' };
    assert.deepEqual(rulesForViolation(order, index, { tags, partType: 'SUBSCRIPTION', requestedType: 'AUTH' }), ['ENV-ORDER']);
    // A part of a type not asked for (`auth` where `AUTH` was): the requested type has no part, whichever finding says so.
    const boundary = ['FIELD-TYPES:currencyiso3a', 'LIMIT-FIELD-LENGTHS:currencyiso3a'];
    for (const rule of ['part-order', 'request-type']) {
      const wrong = { field: 'response[0].requesttypedescription', rule, message: 'must be "AUTH" in a AUTH part (it is "auth")' };
      assert.deepEqual(rulesForViolation(wrong, index, { tags: boundary, partType: 'auth', requestedType: 'AUTH', requestedTypes: ['AUTH'] }), ['ENV-RESPONSE-ONE-PART-PER-TYPE']);
      // ... unless the scenario's row names the type asked for: "1 part ..., with `requesttypedescription` `ACCOUNTCHECK`".
      const labelled = { ...wrong, message: 'must be "ACCOUNTCHECK"' };
      assert.deepEqual(rulesForViolation(labelled, index, { tags: ['AC-SHAPE', 'ERR-0'], partType: 'AUTH', requestedType: 'ACCOUNTCHECK', requestedTypes: ['ACCOUNTCHECK'] }), ['AC-SHAPE']);
    }
    assert.deepEqual(rulesForViolation(order, index, { tags, partType: 'SUBSCRIPTION', requestedType: 'AUTH', requestedTypes: ['AUTH', 'SUBSCRIPTION'] }), ['ENV-ORDER']);
    const count = { field: 'response', rule: 'one-part-per-type', message: 'response holds 1 part(s) for 2 requested type(s)' };
    assert.deepEqual(rulesForViolation(count, index, { tags }), ['ENV-RESPONSE-ONE-PART-PER-TYPE']);
  });
  it('a misspelt "Ok" with errorcode 0 is the Errors row of 0 (ERR-0) alone, not the rules of the scenario that carried it', () => {
    const v = { field: 'response[0].errormessage', rule: 'ok-message', message: 'response[0].errormessage must be "Ok" when errorcode is "0"' };
    for (const value of ['ok', 'OK', 'Ok ']) {
      assert.deepEqual(rulesForViolation(v, index, { tags: ['STORE-SHAPE', 'STORE-NO-BANK', 'STORE-RESPONSE-FIELDS'], partType: 'STORE', requestedType: 'STORE', value }), ['ERR-0']);
      assert.deepEqual(rulesForViolation(v, index, { tags: ['3DS-ENROLMENT-CHECK', '3DS-QUERY-RESPONSE'], partType: 'THREEDQUERY', requestedType: 'THREEDQUERY', value }), ['ERR-0']);
    }
  });
  it('errorcode 0 with the message of another outcome ("Decline") puts the code in doubt: the scenario expecting that outcome, and ERR-0', () => {
    const v = { field: 'response[0].errormessage', rule: 'ok-message', message: 'response[0].errormessage must be "Ok" when errorcode is "0"' };
    assert.deepEqual(rulesForViolation(v, index, { tags: ['ERR-NONZERO-FAILED', 'ERR-70000'], partType: 'AUTH', requestedType: 'AUTH', value: 'Decline' }), [
      'ERR-NONZERO-FAILED',
      'ERR-70000',
      'ERR-0',
    ]);
  });
  it('a finding tied to one sentence breaks that sentence alone, not the tags of the scenario that met it', () => {
    // A STORE part without transactionstartedtimestamp, met by a scenario about the kept card: "The STORE response holds ...".
    const missing = { field: 'response[0].transactionstartedtimestamp', rule: 'required', message: 'response[0].transactionstartedtimestamp is missing' };
    assert.deepEqual(rulesForViolation(missing, index, { tags: ['STORE-KEEPS-CARD', 'STORE-NO-BANK', 'SEC-RESULT-0'], partType: 'STORE', requestedType: 'STORE' }), ['STORE-RESPONSE-FIELDS']);
    const acsurl = { field: 'response[0].acsurl', rule: 'forbidden', message: 'response[0].acsurl must not be present' };
    assert.deepEqual(rulesForViolation(acsurl, index, { tags: ['3DS-QUERY-RESPONSE', '3DS-NEXT-N', '3DS-ACSURL-ONLY-ENROLLED'], partType: 'THREEDQUERY', requestedType: 'THREEDQUERY' }), [
      '3DS-ACSURL-ONLY-ENROLLED',
    ]);
  });
  it('a per-field entry of the catalogue wins (FIELD-LENGTHS:<field>)', () => {
    const rules: CatalogueRule[] = [
      { id: 'FIELD-LENGTHS', section: '', quote: 'q', status: 'testable' },
      { id: 'FIELD-LENGTHS:billingemail', section: '', quote: 'q', status: 'testable' },
      { id: 'FIELD-TYPES', section: '', quote: 'q', status: 'testable' },
    ];
    assert.equal(ruleForViolation({ field: 'response[0].billingemail', rule: 'maxLength', message: 'x' }, ruleIndexOf(rules)), 'FIELD-LENGTHS:billingemail');
    assert.equal(ruleForViolation({ field: 'response[0].billingtown', rule: 'maxLength', message: 'x' }, ruleIndexOf(rules)), 'FIELD-LENGTHS:billingtown');
    // A rule the catalogue lacks is never returned while one it has fits.
    assert.equal(ruleForViolation({ field: 'response[0].maskedpan', rule: 'masked', message: 'x' }, ruleIndexOf(rules)), 'FIELD-TYPES:maskedpan');
  });
});

describe('a check without a named rule checks the scenario tag that speaks of its field', () => {
  const rules: CatalogueRule[] = [
    { id: 'A-FIRST', section: '', quote: 'The part holds `orderreference`.', status: 'testable' },
    { id: 'B-STATUS', section: '', quote: '`status` is `Y` when authenticated.', status: 'testable' },
    { id: 'C-BANK', section: '', quote: '`authcode`: present when the bank was contacted.', status: 'testable' },
    { id: 'D-ROW', section: '', quote: 'It is returned only for enrolled cards.', status: 'testable' },
    { id: 'ERR-60022', section: '', quote: '| `60022` | The acquirer was not contacted. |', status: 'testable' },
    { id: '3DS-NEXT-U', section: '', quote: '| `U` | resubmit |', status: 'testable' },
  ];
  const index = ruleIndexOf(rules);
  it("the tags naming the field, the expected value, the part's error row, and the tags naming no field", () => {
    assert.deepEqual(rulesForCheck(['A-FIRST', 'B-STATUS'], { field: 'status', expected: 'Y' }, index), { rules: ['B-STATUS'], attribution: 'field' });
    assert.deepEqual(rulesForCheck(['A-FIRST', 'C-BANK', 'ERR-60022'], { field: 'authcode', errorcode: '60022' }, index), { rules: ['C-BANK', 'ERR-60022'], attribution: 'field' });
    assert.deepEqual(rulesForCheck(['A-FIRST', 'B-STATUS', '3DS-NEXT-U'], { field: 'status', expected: 'U' }, index), { rules: ['B-STATUS', '3DS-NEXT-U'], attribution: 'field' });
    assert.deepEqual(rulesForCheck(['A-FIRST', 'B-STATUS', 'D-ROW'], { field: 'status' }, index), { rules: ['B-STATUS', 'D-ROW'], attribution: 'field' });
  });
  it('no tag naming the field: every tag (the claim of the scenario); one tag: that one', () => {
    assert.deepEqual(rulesForCheck(['A-FIRST', 'B-STATUS'], { field: 'cavv' }, index), { rules: ['A-FIRST', 'B-STATUS'], attribution: 'scenario' });
    assert.deepEqual(rulesForCheck(['A-FIRST', 'B-STATUS'], {}, index), { rules: ['A-FIRST', 'B-STATUS'], attribution: 'scenario' });
    assert.deepEqual(rulesForCheck(['B-STATUS'], {}, index), { rules: ['B-STATUS'], attribution: 'scenario' });
    assert.deepEqual(rulesForCheck([], {}, index), { rules: [], attribution: 'scenario' });
  });
});

/** Messages of one scenario, tagged A and B, whose failed check is of rule C (with a passing check of A first). */
function messagesOf(checks: unknown, error: string): string {
  const lines: unknown[] = [
    { testRunStarted: { timestamp: { seconds: 1, nanos: 0 } } },
    { gherkinDocument: { uri: 'f.feature', feature: { name: 'F', children: [{ scenario: { id: 's1', location: { line: 3 }, examples: [] } }] } } },
    { pickle: { id: 'p1', uri: 'f.feature', name: 'S', astNodeIds: ['s1'], tags: [{ name: '@rule:A' }, { name: '@rule:B' }], steps: [{ id: 'ps1', text: 'a step' }] } },
    { testCase: { id: 'tc1', pickleId: 'p1', testSteps: [{ id: 'ts1', pickleStepId: 'ps1' }] } },
    { testCaseStarted: { id: 'st1', testCaseId: 'tc1', timestamp: { seconds: 1, nanos: 0 } } },
    {
      testStepFinished: {
        testCaseStartedId: 'st1',
        testStepId: 'ts1',
        testStepResult: { status: 'FAILED', message: error, exception: { type: 'Error', message: error }, duration: { seconds: 0, nanos: 0 } },
      },
    },
    { attachment: { testCaseStartedId: 'st1', mediaType: CHECKS_MEDIA_TYPE, contentEncoding: 'IDENTITY', body: JSON.stringify(checks) } },
    { testCaseFinished: { testCaseStartedId: 'st1', willBeRetried: false } },
    { testRunFinished: { timestamp: { seconds: 2, nanos: 0 }, success: false } },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n');
}

describe('the reports read the checks: the failure breaks its rule and blocks the others', () => {
  const checks = {
    checks: [
      { rule: 'A', ok: true, attribution: 'scenario' },
      { rule: 'C', ok: false, attribution: 'field', field: 'maskedpan', expected: '#', seen: '4111**1111', message: 'maskedpan is not masked with #' },
    ],
  };
  const r = parseMessages(messagesOf(checks, '[C] maskedpan is not masked with #'), 'json');
  const s = r.scenarios[0] as ScenarioResult;

  it("broken is the failed check's rule; the tags it did not break are blocked", () => {
    assert.equal(s.verdict, 'failed');
    assert.deepEqual(s.broken, ['C']);
    assert.deepEqual(s.blocked, ['A', 'B']);
    assert.deepEqual(s.checked, ['A']);
    assert.equal(s.failedChecks?.[0].field, 'maskedpan');
  });

  it('the matrix: C failed (though no scenario is tagged with it), A and B blocked by C, not failed', () => {
    const rules: CatalogueRule[] = ['A', 'B', 'C'].map((id) => ({ id, section: '', quote: id, status: 'testable' as const }));
    const m = buildMatrix(META, rules, r.scenarios);
    const v = Object.fromEntries(m.rules.map((row) => [row.id, row.overall]));
    assert.equal(v.C.verdict, 'failed');
    assert.equal(v.A.verdict, 'blocked');
    assert.equal(v.B.verdict, 'blocked');
    assert.match(v.A.reason ?? '', /blocked by C/);
  });

  it('without check records, the rule IDs in the message bracket, else every tag', () => {
    assert.deepEqual(brokenOf([], '[TRANSPORT-RESPONSE-BODY] connection refused', ['A', 'B']), ['TRANSPORT-RESPONSE-BODY']);
    assert.deepEqual(brokenOf([], 'TypeError: x is undefined', ['A', 'B']), ['A', 'B']);
    const legacy = parseMessages(messagesOf({ checks: [] }, '[B] wrong'), 'json').scenarios[0];
    assert.deepEqual(legacy.broken, ['B']);
    assert.deepEqual(legacy.blocked, ['A']);
  });

  it('an unreadable checks attachment is left out, never a crash', () => {
    assert.deepEqual(parseChecks('not json'), []);
    assert.deepEqual(
      parseChecks('{"checks":[{"rule":1},{"rule":"X","ok":false}]}').map((c) => c.rule),
      ['X'],
    );
  });
});

it('a value in a part never breaks the rules of the parts as a whole', () => {
  // "The response holds one part per request type, in the same order": nothing of the values inside a part.
  assert.deepEqual(rulesForPartValue(['RISKDEC-FIRST', 'ENV-ORDER'], 'errorcode', 'AUTH'), ['RISKDEC-FIRST']);
  // With no other rule, the field's own: the sentence requiring it in that part, its list, the Errors table's.
  assert.deepEqual(rulesForPartValue(['ENV-ORDER'], 'accounttypedescription', 'SUBSCRIPTION'), ['SUB-RECUR']);
  assert.deepEqual(rulesForPartValue(['ENV-ORDER', 'ENV-RESPONSE-ONE-PART-PER-TYPE'], 'errorcode', 'AUTH'), ['ERR-PART-FIELDS']);
  assert.deepEqual(rulesForPartValue(['ENV-ORDER'], 'status', 'AUTH'), ['3DS-STATUS']);
  assert.deepEqual(rulesForPartValue(['ENV-ORDER'], 'issuer', 'AUTH'), ['FIELD-TYPES:issuer']);
  assert.deepEqual(rulesForPartValue(['AUTH-AUTHORISE'], 'errorcode', 'AUTH'), ['AUTH-AUTHORISE']);
});
