/**
 * JSON against XML (src/wire/twins.ts): "The same operations are also offered as an XML request block", so the
 * same step answered in the two forms holds the same values after mapping, except what each run made for itself
 * (an order reference, a cache token) and what the target makes per transaction (GENERATED, each with its quote).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareTwins, GENERATED, type TwinCall } from '../../src/wire/twins';
import { ruleForFormatDifference } from '../../src/rules/attribution';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIELD } from '../../schemas/fields';

const store = (orderreference: string, ref: string, extra: Record<string, unknown> = {}): TwinCall => ({
  request: { requesttypedescriptions: ['STORE'], sitereference: 'test_site12345', orderreference, pan: '4111111111111111', expirydate: '12/2030', accounttypedescription: 'CARDSTORE' },
  parts: [
    {
      requesttypedescription: 'STORE',
      transactionreference: ref,
      orderreference,
      maskedpan: '411111######1111',
      errorcode: '0',
      errormessage: 'Ok',
      transactionstartedtimestamp: ref.endsWith('1') ? '2026-01-05 09:00:00' : '2026-02-07 10:11:12',
      ...extra,
    },
  ],
});

const auth = (parent: string, ref: string, part: Record<string, unknown> = {}): TwinCall => ({
  request: { requesttypedescriptions: ['AUTH'], sitereference: 'test_site12345', parenttransactionreference: parent, baseamount: '1050', currencyiso3a: 'GBP' },
  parts: [{ requesttypedescription: 'AUTH', transactionreference: ref, parenttransactionreference: parent, baseamount: '1050', errorcode: '0', errormessage: 'Ok', ...part }],
});

describe('the JSON and the XML answer of the same step', () => {
  it('agree when each echoes its own run values and the target makes its own references and timestamps', () => {
    const json = [store('cardspec-aaa-1', '1-2-1'), auth('1-2-1', '1-2-2')];
    const xml = [store('cardspec-bbb-1', '1-9-1'), auth('1-9-1', '1-9-2')];
    assert.deepEqual(compareTwins(json, xml), []);
  });

  it('differ where a value is trimmed, reformatted or missing in one form', () => {
    const json = [store('cardspec-aaa-1', '1-2-1'), auth('1-2-1', '1-2-2', { settlestatus: '0', issuer: 'Test Issuer' })];
    const cut = store('cardspec-bbb-1', '1-9-1', { maskedpan: '4111########1111' });
    const xml = [{ ...cut, parts: [{ ...cut.parts[0], orderreference: 'cardspec-bbb' }] }, auth('1-9-1', '1-9-2', { baseamount: '10.50', issuer: 'Test Issuer ' })];
    const got = compareTwins(json, xml).map((d) => `${d.call}:${d.path}:${d.first ?? '-'}:${d.second ?? '-'}`);
    assert.deepEqual(
      got.sort(),
      ['0:maskedpan:411111######1111:4111########1111', '0:orderreference:cardspec-aaa-1:cardspec-bbb', '1:baseamount:1050:10.50', '1:issuer:Test Issuer:Test Issuer ', '1:settlestatus:0:-'].sort(),
    );
  });

  it('never differ where the document says "not shown": public-facts fields, a target\'s own fields, a follow-up\'s shape', () => {
    // errordata is public facts ("The full list of error codes is not shown"), vendorfield no field of the document, and
    // TRANSACTIONQUERY's answer "shape not shown": a difference there is no fault of either form.
    const json = [store('o-1', '1-2-1', { errordata: ['pan'], vendorfield: 'a' })];
    const xml = [store('o-2', '1-9-1', { vendorfield: 'b' })];
    assert.deepEqual(compareTwins(json, xml), []);
    const query = (found: string, issuer: string): TwinCall => ({
      request: { requesttypedescriptions: ['TRANSACTIONQUERY'], sitereference: 'test_site12345' },
      parts: [{ requesttypedescription: 'TRANSACTIONQUERY', errorcode: '0', errormessage: 'Ok', found, issuer }],
    });
    assert.deepEqual(compareTwins([query('24', 'A')], [query('25', 'B')]), []);
    // The same difference in a documented field of a documented part is still one.
    const cut = store('o-2', '1-9-1', { errordata: ['pan'], issuer: 'B' });
    assert.deepEqual(
      compareTwins([store('o-1', '1-2-1', { issuer: 'A' })], [cut]).map((d) => d.field),
      ['issuer'],
    );
  });

  it('differ where a generated value names another transaction in one form only (a reference swapped with its parent)', () => {
    const json = [store('o-1', '1-2-1'), auth('1-2-1', '1-2-2')];
    const xml = [store('o-2', '1-9-1'), auth('1-9-1', '1-9-1')];
    const got = compareTwins(json, xml);
    assert.deepEqual(
      got.map((d) => [d.call, d.field, d.partType]),
      [[1, 'transactionreference', 'AUTH']],
    );
  });

  it('stop at a step that sent another request in the other run, and skip a call not compared', () => {
    const json = [store('o-1', '1-2-1'), auth('1-2-1', '1-2-2')];
    const other = { ...store('o-2', '1-9-1'), request: { ...store('o-2', '1-9-1').request, billingpostcode: 'TE45 6ST' } };
    assert.deepEqual(compareTwins(json, [other, auth('1-9-1', 'X')]), []);
    assert.deepEqual(compareTwins([undefined, auth('1-2-1', '1-2-2')], [undefined, auth('1-9-1', '1-9-2')]), []);
  });

  it('lists each field allowed to differ with the document words that make it per transaction, verbatim', () => {
    const collapse = (t: string): string => t.replace(/\s+/g, ' ');
    const doc = collapse(fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'spec', 'card-payment-web-service.md'), 'utf8'));
    for (const g of GENERATED) {
      assert.ok(FIELD[g.field]?.response, `${g.field} is no response field of the dictionary`);
      assert.ok(doc.includes(collapse(g.quote)), `${g.field}: not the document's words: ${g.quote}`);
    }
  });
});

describe('the rule a difference between the forms breaks', () => {
  it('is the rule quoting the field XML location, else the rule of its value', () => {
    assert.deepEqual(ruleForFormatDifference('securityresponseaddress', 'AUTH', ['SEC-RESULT-2']), ['XML-SECURITY-PATHS']);
    assert.deepEqual(ruleForFormatDifference('rulecategorymessage', 'RISKDEC', ['RISKDEC-SHIELD']), ['XML-FRAUDCONTROL-PATHS']);
    assert.deepEqual(ruleForFormatDifference('maskedpan', 'STORE', ['STORE-RESPONSE-FIELDS', 'STORE-STATE-ENABLED']), ['FIELD-MASKEDPAN']);
    assert.deepEqual(ruleForFormatDifference('orderreference', 'AUTH', ['AUTH-AUTHORISE']), ['FIELD-ECHO']);
    assert.deepEqual(ruleForFormatDifference('errormessage', 'AUTH', ['AUTH-AUTHORISE'], '0'), ['ERR-0']);
    assert.deepEqual(ruleForFormatDifference('issuer', 'AUTH', ['AUTH-AUTHORISE']), ['XML-REQUEST-BLOCK']);
  });

  it('names an Errors row only for the request types of its "Where" column', () => {
    assert.deepEqual(ruleForFormatDifference('errorcode', 'THREEDQUERY', ['3DS-QUERY'], '30000'), ['ERR-30000']);
    assert.deepEqual(ruleForFormatDifference('errorcode', 'AUTH', ['AUTH-AUTHORISE'], '30000'), ['ERR-PART-FIELDS']);
    assert.deepEqual(ruleForFormatDifference('errorcode', 'ACCOUNTCHECK', ['AC-ZERO'], '60025'), ['ERR-60025']);
    assert.deepEqual(ruleForFormatDifference('errorcode', 'RISKDEC', ['RISKDEC-SHIELD'], '99999'), ['ERR-99999']);
  });
});
