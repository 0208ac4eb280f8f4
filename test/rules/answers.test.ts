/**
 * The invariants of an answer (src/rules/answers.ts), the one registry the steps and the fuzz oracles read: each
 * names the rule its finding breaks, the field's rule where a field broke, whatever scenario or case carried the
 * answer; a right answer gives nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORACLE, ruleOfFailure, type CaseRun } from '../../src/fuzz/oracles';
import { answerFindings, ANSWER_INVARIANTS, securityCodePaths, type Answer } from '../../src/rules/answers';
import { TEST_CARDS } from '../../src/testdata';

const PAN = TEST_CARDS.authorised.pan;
const AUTH = {
  requesttypedescription: 'AUTH',
  errorcode: '0',
  errormessage: 'Ok',
  transactionreference: '12-9-1001',
  maskedpan: '411111######1111',
  baseamount: '1050',
  currencyiso3a: 'GBP',
  orderreference: 'order-1',
  accounttypedescription: 'ECOM',
  authcode: 'TEST12',
  acquirerresponsecode: '00',
  settlestatus: '0',
  transactionstartedtimestamp: '2026-01-05 09:00:00',
  settleduedate: '2026-01-05',
};
const REQUEST = { requesttypedescriptions: ['AUTH'], pan: PAN, baseamount: '1050', currencyiso3a: 'GBP', orderreference: 'order-1', accounttypedescription: 'ECOM' };

const answer = (part: Record<string, unknown>, over: Partial<Answer> = {}): Answer => ({
  envelope: { requestreference: 'A1', version: '1.00', response: [part], secrand: 'abcdefgh' },
  format: 'json',
  requested: ['AUTH'],
  request: REQUEST,
  pans: [PAN],
  ...over,
});
const RESUMED = ANSWER_INVARIANTS.find((i) => i.name === 'subscription-number')!;
const rules = (a: Answer): string[] => [...new Set(answerFindings(a).map((f) => f.rule))];

describe('the invariants of an answer', () => {
  it('find nothing in a right answer', () => {
    assert.deepEqual(answerFindings(answer(AUTH)), []);
  });

  it('name the rule of the field that broke, whichever invariant found it', () => {
    // "Responses return a masked form in `maskedpan`, with the middle digits replaced by `#`."
    assert.deepEqual(rules(answer({ ...AUTH, maskedpan: '411111******1111' })), ['FIELD-MASKEDPAN']);
    // "| `transactionstartedtimestamp` | Format `YYYY-MM-DD HH:MM:SS`. |"
    assert.deepEqual(rules(answer({ ...AUTH, transactionstartedtimestamp: '05/01/2026 09:00:00' })), ['FIELD-TIMESTAMP']);
    // "Echoed from the request": a cut orderreference, in a scenario about anything else.
    assert.deepEqual(rules(answer({ ...AUTH, orderreference: 'order' })), ['FIELD-ECHO']);
    // A full card number in any field of an answer.
    assert.deepEqual(rules(answer({ ...AUTH, maskedpan: PAN })), ['FIELD-MASKEDPAN']);
    // "The security code is never stored."
    assert.deepEqual(rules(answer({ ...AUTH, securitycode: '123' })), ['STORE-NO-BANK']);
  });

  it('name every place a security code comes back, nested, in any case, as the last step of an XML key', () => {
    // The walk that spells no path (most answers hold none) must agree with the one that does.
    const env = {
      response: [
        { ...AUTH, SecurityCode: '123' },
        { ...AUTH, extra: [{ deeper: { 'security/securitycode': 'x' } }, 'securitycode'] },
        { ...AUTH, securitycode: '', other: { securitycodes: '1' } },
      ],
      securitycode: 0,
    };
    assert.deepEqual(securityCodePaths(env), ['response[0].SecurityCode', 'response[1].extra[0].deeper.security/securitycode', 'securitycode']);
    assert.deepEqual(securityCodePaths({ response: [AUTH, { ...AUTH, securitycode: '' }] }), []);
    assert.deepEqual(securityCodePaths([{ securitycode: '1' }], 'at'), ['at[0].securitycode']);
    assert.deepEqual(securityCodePaths('securitycode'), []);
    // The leaf is what follows the last '/': twelve characters that spell securitycode, and nothing else.
    const keys = ['a/b/SECURITYCODE', '/securitycode', 'xsecuritycode', 'securitycode/', 'securitycode/x', 'a/securitycod/e', 'a/securitycodes', 'securitycode/securitycode'];
    assert.deepEqual(securityCodePaths(Object.fromEntries(keys.map((k) => [k, '1']))), ['a/b/SECURITYCODE', '/securitycode', 'securitycode/securitycode']);
  });

  it('leave the merchant its own text: a reference that holds a card number is an echo, not a leak', () => {
    const request = { ...REQUEST, orderreference: `ref-${PAN}` };
    assert.deepEqual(answerFindings(answer({ ...AUTH, orderreference: `ref-${PAN}` }, { request })), []);
  });

  it('hold a resumed subscription to the number sent in every part that numbers it', () => {
    // "To resume a former subscription, send the next number (for example `4` after 3 payments)."
    const TIMING = { transactionactive: '2', subscriptionbegindate: '2026-02-05', subscriptionunit: 'MONTH', subscriptionfrequency: '1', subscriptionfinalnumber: '12' };
    const request = { ...REQUEST, requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], subscriptionnumber: '4' };
    const sub = { ...AUTH, requesttypedescription: 'SUBSCRIPTION', accounttypedescription: 'RECUR', transactionreference: '12-9-1002', subscriptionnumber: '4', ...TIMING };
    const both = (s: Record<string, unknown>, req: Record<string, unknown> = request): Answer =>
      answer(AUTH, { envelope: { requestreference: 'A1', version: '1.00', response: [AUTH, s], secrand: 'abcdefgh' }, requested: ['AUTH', 'SUBSCRIPTION'], request: req });
    assert.deepEqual(rules(both(sub)), []);
    // The next payment's number (5) is as good as the first one's; the part may leave it out.
    assert.deepEqual(rules(both({ ...sub, subscriptionnumber: '5' })), []);
    assert.deepEqual(rules(both({ ...sub, subscriptionnumber: undefined })), []);
    // The count restarted: below the number sent.
    assert.deepEqual(rules(both({ ...sub, subscriptionnumber: '1' })), ['SUB-NUMBER-RESUME']);
    assert.deepEqual(rules(both({ ...sub, subscriptionnumber: '3' })), ['SUB-NUMBER-RESUME']);
    // The finding says which part, by its place in the answer's list: an owner need not read it from the line.
    assert.deepEqual(
      RESUMED.find(both({ ...sub, subscriptionnumber: '3' })).map((f) => [f.partIndex, f.part, f.field]),
      [[1, 'SUBSCRIPTION', 'subscriptionnumber']],
    );
    assert.deepEqual(
      RESUMED.find(both({ ...AUTH, subscriptionnumber: '2' }, request)).map((f) => f.partIndex),
      [1],
    );
    // A new subscription (1 sent) and a failed part are not a resume.
    assert.deepEqual(rules(both({ ...sub, subscriptionnumber: '1' }, { ...request, subscriptionnumber: '1' })), []);
    assert.deepEqual(rules(both({ ...sub, errorcode: '70000', errormessage: 'Decline', subscriptionnumber: '1' })), []);
    // Counted as checked only where it applied: a resume sent, a part that numbers the subscription.
    const looks = (s: Record<string, unknown>, req: Record<string, unknown> = request): boolean => RESUMED.looksAt!(s, both(s, req));
    assert.equal(looks(sub), true);
    assert.equal(looks({ ...sub, subscriptionnumber: undefined }), false);
    assert.equal(looks({ ...sub, subscriptionnumber: '2' }, { ...request, subscriptionnumber: '1' }), false);
    assert.equal(looks({ ...sub, subscriptionnumber: '2' }, { ...request, subscriptionnumber: undefined }), false);
  });

  it('hold every part where the sentence applies, failed parts and second parts too', () => {
    const parts = (request: Record<string, unknown>, ...response: Record<string, unknown>[]): Answer =>
      answer(AUTH, { envelope: { requestreference: 'A1', version: '1.00', response, secrand: 'abcdefgh' }, requested: response.map((p) => String(p.requesttypedescription)), request });
    const FAILED = { requesttypedescription: 'SUBSCRIPTION', errorcode: '60022', errormessage: 'Unauthenticated' };
    const UNAUTH = { ...AUTH, errorcode: '60022', errormessage: 'Unauthenticated', authcode: undefined, acquirerresponsecode: undefined, settlestatus: '3' };
    const subRequest = { ...REQUEST, requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'] };
    // "In a response, the SUBSCRIPTION part carries `RECUR`": a failed SUBSCRIPTION part may leave it out, not say ECOM.
    assert.deepEqual(rules(parts(subRequest, UNAUTH, FAILED)), []);
    assert.deepEqual(rules(parts(subRequest, UNAUTH, { ...FAILED, accounttypedescription: 'ECOM' })), ['SUB-RECUR']);

    // `cavv`, `eci`: "Returned if enrolled and authenticated".
    const threeds = { ...REQUEST, pan: undefined, md: 'MD1', pares: 'PARES1' };
    const enrolled = { ...AUTH, enrolled: 'Y', xid: 'eGlk', status: 'Y', cavv: 'Y2F2dg==', eci: '05' };
    assert.deepEqual(rules(parts(threeds, enrolled)), []);
    assert.deepEqual(rules(parts(threeds, { ...enrolled, status: 'A', cavv: undefined, eci: '06' })), []);
    assert.deepEqual(rules(parts(threeds, { ...enrolled, status: 'U' })), ['3DS-CAVV-ECI']);
    assert.deepEqual(rules(parts(threeds, { ...enrolled, status: 'U', cavv: undefined })), ['3DS-CAVV-ECI']);
    assert.deepEqual(rules(parts(REQUEST, { ...AUTH, enrolled: 'N', cavv: 'Y2F2dg==' })), ['3DS-CAVV-ECI']);
    // `status`: "Returned if enrolled", in the AUTH part of AUTH+SUBSCRIPTION too.
    assert.deepEqual(rules(parts({ ...threeds, requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'] }, { ...enrolled, status: undefined, cavv: undefined, eci: undefined })), ['3DS-STATUS']);
    assert.deepEqual(rules(parts(REQUEST, { ...AUTH, enrolled: 'Y' })), []);

    // "The acquiring bank is not contacted": no bank answer in a STORE part; a security code not checked (1) says nothing.
    const store = { requesttypedescriptions: ['STORE'], pan: PAN, orderreference: 'order-1', accounttypedescription: 'CARDSTORE' };
    const STORE = {
      transactionreference: '12-9-1002',
      transactionactive: '1',
      requesttypedescription: 'STORE',
      orderreference: 'order-1',
      accounttypedescription: 'CARDSTORE',
      maskedpan: '411111######1111',
      paymenttypedescription: 'VISA',
      issuer: 'Test Issuer',
      issuercountryiso2a: 'GB',
      merchantname: 'test merchant',
      operatorname: 'operator',
      livestatus: '0',
      transactionstartedtimestamp: '2026-01-05 09:00:00',
      errorcode: '0',
      errormessage: 'Ok',
    };
    assert.deepEqual(rules(parts(store, STORE)), []);
    assert.deepEqual(rules(parts(store, { ...STORE, securityresponsesecuritycode: '1' })), []);
    assert.deepEqual(rules(parts(store, { ...STORE, securityresponsesecuritycode: '2' })), ['STORE-NO-BANK']);
    assert.deepEqual(rules(parts(store, { ...STORE, acquirerresponsecode: '00' })), ['STORE-NO-BANK']);

    // "Present when the response part was based on an earlier request": every successful part of a child.
    const child = { ...store, parenttransactionreference: '12-9-1001' };
    assert.deepEqual(rules(parts(child, { ...STORE, parenttransactionreference: '12-9-1001' })), []);
    assert.deepEqual(rules(parts(child, STORE)), ['INHERIT-PARENT-ECHO']);
    assert.deepEqual(rules(parts(child, { requesttypedescription: 'STORE', errorcode: '30000', errormessage: 'Invalid field' })), []);

    // "present when the bank was contacted": a bank's decline (70000) of an ACCOUNTCHECK as of an AUTH.
    const check = { ...REQUEST, requesttypedescriptions: ['ACCOUNTCHECK'] };
    const DECLINED = { ...AUTH, requesttypedescription: 'ACCOUNTCHECK', errorcode: '70000', errormessage: 'Decline', authcode: undefined, acquirerresponsecode: '05', settlestatus: '3' };
    assert.deepEqual(rules(parts(check, DECLINED)), []);
    assert.deepEqual(rules(parts(check, { ...DECLINED, acquirerresponsecode: undefined })), ['AUTH-BANK-CONTACTED']);
  });

  it('hold the sentences of a combined request, a 60022, the security results and the XML locations wherever they apply', () => {
    const parts = (request: Record<string, unknown>, response: Record<string, unknown>[], over: Partial<Answer> = {}): Answer =>
      answer(AUTH, {
        envelope: { requestreference: 'A1', version: '1.00', response, secrand: 'abcdefgh' },
        requested: response.map((p) => String(p.requesttypedescription)),
        request,
        ...over,
      });
    const RISKDEC = {
      transactionreference: '12-9-1003',
      requesttypedescription: 'RISKDEC',
      parenttransactionreference: '12-9-1001',
      baseamount: '1050',
      currencyiso3a: 'GBP',
      orderreference: 'order-1',
      fraudcontrolshieldstatuscode: 'NOSCORE',
      errorcode: '0',
      errormessage: 'Ok',
    };
    const last = { ...REQUEST, requesttypedescriptions: ['AUTH', 'RISKDEC'] };
    const DECLINED = { ...AUTH, errorcode: '70000', errormessage: 'Decline', authcode: undefined, acquirerresponsecode: '05', settlestatus: '3' };
    // "the RISKDEC part carries the AUTH's reference in `parenttransactionreference`": after a declined AUTH too.
    assert.deepEqual(rules(parts(last, [DECLINED, RISKDEC])), []);
    assert.deepEqual(rules(parts(last, [DECLINED, { ...RISKDEC, parenttransactionreference: undefined }])), ['RISKDEC-LAST']);
    // "the AUTH part's `parenttransactionreference` is the RISKDEC's `transactionreference`".
    const first = { ...REQUEST, requesttypedescriptions: ['RISKDEC', 'AUTH'] };
    const risk = { ...RISKDEC, transactionreference: '12-9-1000', parenttransactionreference: undefined, fraudcontrolshieldstatuscode: 'ACCEPT' };
    assert.deepEqual(rules(parts(first, [risk, { ...AUTH, parenttransactionreference: '12-9-1000' }])), []);
    assert.deepEqual(rules(parts(first, [risk, { ...AUTH, parenttransactionreference: '12-9-0999' }])), ['RISKDEC-FIRST']);

    // "`status` is `N` and settlestatus is `3`. The acquirer is not contacted.": whatever made the 60022.
    const threeds = { requesttypedescriptions: ['AUTH'], md: 'MD1', pares: 'PARES1' };
    const UNAUTH = { ...AUTH, errorcode: '60022', errormessage: 'Unauthenticated', authcode: undefined, acquirerresponsecode: undefined, enrolled: 'Y', status: 'N', settlestatus: '3' };
    assert.deepEqual(rules(parts(threeds, [UNAUTH])), []);
    assert.deepEqual(rules(parts(threeds, [{ ...UNAUTH, settlestatus: '0' }])), ['3DS-60022-SETTLE']);
    assert.deepEqual(rules(parts(threeds, [{ ...UNAUTH, status: 'Y' }])), ['3DS-60022-SETTLE']);
    // The row is the AUTH after 3-D Secure of an enrolled card: with md and pares sent, both are stated, a refusal of
    // an md the target does not know too; a 60022 of any other request states them where it carries them.
    const refused = { requesttypedescription: 'AUTH', errorcode: '60022', errormessage: 'Unauthenticated', status: 'N', settlestatus: '3' };
    assert.deepEqual(rules(parts(threeds, [refused])), []);
    assert.deepEqual(rules(parts(threeds, [{ ...refused, status: undefined, settlestatus: undefined }])), ['3DS-60022-SETTLE']);
    assert.deepEqual(rules(parts(threeds, [{ ...UNAUTH, status: undefined }])), ['3DS-STATUS']);
    assert.deepEqual(rules(parts({ ...REQUEST }, [{ ...UNAUTH, status: undefined, settlestatus: undefined }])), []);

    // "present when the bank was contacted": an AUTH the bank authorised, the later part of AUTH+RISKDEC's first too.
    const ACCEPTED = { ...RISKDEC, parenttransactionreference: AUTH.transactionreference, fraudcontrolshieldstatuscode: 'ACCEPT' };
    assert.deepEqual(rules(parts(last, [AUTH, ACCEPTED])), []);
    assert.deepEqual(rules(parts(last, [{ ...AUTH, authcode: undefined }, ACCEPTED])), ['AUTH-BANK-CONTACTED']);
    // "Identifies the condition that caused `DENY` or `CHALLENGE`": a RISKDEC before an AUTH as on its own.
    const CHALLENGE = { ...risk, fraudcontrolshieldstatuscode: 'CHALLENGE', rulecategoryflag: 'F' };
    assert.deepEqual(rules(parts(first, [CHALLENGE, { ...AUTH, parenttransactionreference: '12-9-1000' }])), []);
    assert.deepEqual(
      rules(
        parts(first, [
          { ...CHALLENGE, rulecategoryflag: undefined },
          { ...AUTH, parenttransactionreference: '12-9-1000' },
        ]),
      ),
      ['RISKDEC-CATEGORYFLAG'],
    );

    // "`cavv`, `eci`: Returned if enrolled and authenticated": in the AUTH part of a subscription too, and after a decline.
    const AUTHENTICATED = { ...AUTH, enrolled: 'Y', xid: 'WElEMTIzNA==', status: 'Y', cavv: 'AAABBBCCC', eci: '05' };
    const subscribed = { ...threeds, requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'] };
    assert.deepEqual(rules(parts(threeds, [AUTHENTICATED])), []);
    assert.ok(
      rules(
        parts(subscribed, [
          { ...AUTHENTICATED, eci: undefined },
          { requesttypedescription: 'SUBSCRIPTION', errorcode: '0', errormessage: 'Ok' },
        ]),
      ).includes('3DS-CAVV-ECI'),
    );
    assert.ok(rules(parts(threeds, [{ ...DECLINED, enrolled: 'Y', xid: 'WElEMTIzNA==', status: 'Y', eci: '05' }])).includes('3DS-CAVV-ECI'));

    // "`0` | Not given": never for what the request itself sent; in a child, the field it added.
    const SEC = { ...AUTH, securityresponseaddress: '2', securityresponsepostcode: '2', securityresponsesecuritycode: '2' };
    const billing = { ...REQUEST, billingpremise: '789', billingpostcode: 'TE45 6ST', securitycode: '123' };
    assert.deepEqual(rules(parts(billing, [SEC])), []);
    assert.deepEqual(rules(parts(REQUEST, [{ ...SEC, securityresponseaddress: '0', securityresponsepostcode: '0', securityresponsesecuritycode: '0' }])), []);
    assert.deepEqual(rules(parts(billing, [{ ...SEC, securityresponsepostcode: '0' }])), ['SEC-RESULT-0']);
    const child = { requesttypedescriptions: ['ACCOUNTCHECK'], parenttransactionreference: '12-9-1000', billingpostcode: 'TE45 6ST' };
    const CHECK = { ...SEC, requesttypedescription: 'ACCOUNTCHECK', parenttransactionreference: '12-9-1000' };
    assert.deepEqual(rules(parts(child, [CHECK])), []);
    assert.deepEqual(rules(parts(child, [{ ...CHECK, securityresponsepostcode: '0' }])), ['INHERIT-EXTRA-FIELDS']);

    // "`ECOM` or `MOTO` for payments": a payment on a stored card does not take the STORE's CARDSTORE.
    const stored = { requesttypedescriptions: ['AUTH'], parenttransactionreference: '12-9-1000', accounttypedescription: 'ECOM' };
    assert.deepEqual(rules(parts(stored, [{ ...AUTH, parenttransactionreference: '12-9-1000' }])), []);
    assert.ok(rules(parts(stored, [{ ...AUTH, parenttransactionreference: '12-9-1000', accounttypedescription: 'CARDSTORE' }])).includes('FIELD-ACCOUNTTYPE-PAYMENTS'));

    // The XML locations: a field of /fraudcontrol or /security elsewhere under its block, in any request's part.
    const xml = (part: Record<string, unknown>): Answer => parts(last, [DECLINED, part], { format: 'xml' });
    const DENY = { ...RISKDEC, fraudcontrolshieldstatuscode: 'DENY', rulecategoryflag: 'F' };
    assert.deepEqual(rules(xml(DENY)), []);
    assert.deepEqual(rules(xml({ ...DENY, rulecategoryflag: undefined, 'fraudcontrol/rulecategoryflag': 'F' })), ['XML-FRAUDCONTROL-PATHS']);
    assert.deepEqual(rules(xml({ ...DENY, 'fraudcontrol/score': '12' })), []);
    assert.deepEqual(rules(parts(REQUEST, [{ ...SEC, securityresponsesecuritycode: undefined, 'security/securityresponsesecuritycode': '2' }], { format: 'xml' })), ['XML-SECURITY-PATHS']);
  });

  it("hold the records a TRANSACTIONQUERY returns to their fields' types, each on its field's rule", () => {
    const query = (...records: Record<string, unknown>[]): Answer =>
      answer(AUTH, {
        envelope: {
          requestreference: 'A1',
          version: '1.00',
          response: [{ requesttypedescription: 'TRANSACTIONQUERY', errorcode: '0', errormessage: 'Ok', found: String(records.length), records }],
          secrand: 'abcdefgh',
        },
        requested: ['TRANSACTIONQUERY'],
        request: { requesttypedescriptions: ['TRANSACTIONQUERY'] },
      });
    const payment = { ...AUTH, accounttypedescription: 'RECUR', transactionstartedtimestamp: '2026-01-12 00:00:00' };
    assert.deepEqual(rules(query(payment)), []);
    // "| `transactionstartedtimestamp` | Format `YYYY-MM-DD HH:MM:SS`. |": midnight is 00:00:00 of its day, never 24:00:00.
    assert.deepEqual(rules(query(AUTH, { ...payment, transactionstartedtimestamp: '2026-01-11 24:00:00' })), ['FIELD-TIMESTAMP']);
    assert.deepEqual(rules(query({ ...payment, settleduedate: '2026-13-12' })), ['FIELD-SETTLEDUEDATE']);
    // A timestamp in another format is the format's fault even when only its length shows it (ISO 8601 with T and Z).
    assert.deepEqual(rules(query({ ...payment, transactionstartedtimestamp: '2026-01-12T00:00:00Z' })), ['FIELD-TIMESTAMP']);
    // "In a response, the SUBSCRIPTION part carries `RECUR`": a SUBSCRIPTION read back too.
    const sub = { transactionreference: '12-9-1002', requesttypedescription: 'SUBSCRIPTION', accounttypedescription: 'RECUR', errorcode: '0', errormessage: 'Ok' };
    assert.deepEqual(rules(query(payment, sub)), []);
    assert.deepEqual(rules(query(payment, { ...sub, accounttypedescription: 'ECOM' })), ['SUB-RECUR']);
    // "with the middle digits replaced by `#`": a record's mask too, whichever filter found it.
    assert.deepEqual(rules(query({ ...payment, maskedpan: '411111######1111' })), []);
    assert.deepEqual(rules(query({ ...payment, maskedpan: '411111******1111' })), ['FIELD-MASKEDPAN']);
    // Which fields a record holds is the query's shape ("not shown"): a record with few fields is no finding.
    assert.deepEqual(rules(query({ transactionreference: '12-9-1001', requesttypedescription: 'AUTH' })), []);
  });

  it('hold the parts to the requested types only where the document fixes them', () => {
    const two: Answer = { ...answer(AUTH), requested: ['RISKDEC', 'AUTH'] };
    assert.deepEqual(rules(two), ['ENV-RESPONSE-ONE-PART-PER-TYPE']);
    assert.deepEqual(rules({ ...two, requested: undefined }), []);
  });

  it("are the fuzz oracles' checks: a schema failure of a case names the field's rule, not the body's", () => {
    assert.deepEqual(
      ANSWER_INVARIANTS.map((i) => i.name),
      [
        'schema',
        'echoed',
        'no-full-pan',
        'no-security-code',
        'subscription-number',
        'subscription-recur',
        'authenticated-only',
        'authenticated-carries',
        'enrolled-status',
        'store-no-bank',
        'parent-echo',
        'declined-by-bank',
        'query-records',
        'combined-parent',
        'unauthenticated-not-contacted',
        'sent-not-given',
        'payment-account-type',
        'xml-locations',
        'authorised-by-bank',
        'suspicious-flagged',
      ],
    );
    const a = answer({ ...AUTH, maskedpan: '411111******1111' });
    const run: CaseRun = {
      case: { row: 'auth', request: REQUEST },
      format: 'json',
      body: '',
      expect: { expectation: { kind: 'open', why: 'test' }, parts: ['AUTH'] },
      exchange: {
        format: 'json',
        url: 'http://127.0.0.1:1/json/',
        status: 200,
        headers: {},
        requestHeaders: {},
        requestText: '',
        responseText: '',
        envelope: a.envelope as CaseRun['exchange']['envelope'],
        durationMs: 1,
      },
    };
    const oracle = ORACLE['envelope-schema'];
    assert.notEqual(oracle.check(run, { pans: [PAN] }), undefined);
    assert.equal(ruleOfFailure(oracle, run), 'FIELD-MASKEDPAN');
  });
});

describe('when the steps tell an invariant', () => {
  it('tell the schema at once and the consequences of a fault at the scenario end', () => {
    // A cut echo or an unmasked card is often what a fault a scenario checks more precisely leaves behind (an
    // over-long amount taken and cut: LIMIT-BASEAMOUNT): steps/world.ts tells these only when the scenario held.
    assert.deepEqual(
      ANSWER_INVARIANTS.filter((i) => i.deferred).map((i) => i.name),
      [
        'echoed',
        'no-full-pan',
        'no-security-code',
        'subscription-recur',
        'authenticated-only',
        'authenticated-carries',
        'enrolled-status',
        'store-no-bank',
        'parent-echo',
        'declined-by-bank',
        'query-records',
        'combined-parent',
        'unauthenticated-not-contacted',
        'sent-not-given',
        'payment-account-type',
        'xml-locations',
        'authorised-by-bank',
        'suspicious-flagged',
      ],
    );
  });
});
