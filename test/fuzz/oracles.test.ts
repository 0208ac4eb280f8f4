/** The oracles on answers made by hand: each must catch what it names and pass what is right. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { CaseExpectation } from '../../src/fuzz/expect';
import { holdsAny, ORACLE, ORACLES, type CaseRun } from '../../src/fuzz/oracles';
import type { Exchange } from '../../src/client/target';
import { TEST_CARDS } from '../../src/testdata';

const PAN = TEST_CARDS.authorised.pan;
const ctx = { pans: [PAN] };
const OK_PART = { requesttypedescription: 'AUTH', errorcode: '0', errormessage: 'Ok', transactionreference: '12-9-1001', maskedpan: '411111######1111' };

function exchange(envelope: unknown, extra: Partial<Exchange> = {}): Exchange {
  return {
    format: 'json',
    url: 'http://127.0.0.1:1/json/',
    status: 200,
    headers: { 'content-type': 'application/json' },
    requestHeaders: {},
    requestText: '',
    responseText: '',
    envelope: envelope as Exchange['envelope'],
    durationMs: 1,
    ...extra,
  };
}

function run(parts: unknown[], expect: CaseExpectation['expectation'] = { kind: 'open', why: 'test' }, extra: Partial<Exchange> = {}, request: Record<string, unknown> = { pan: PAN }): CaseRun {
  return {
    case: { row: 'auth', request },
    format: 'json',
    body: '',
    expect: { expectation: expect, parts: ['AUTH'] },
    exchange: exchange({ requestreference: 'A1', version: '1.00', response: parts, secrand: 'abcdefgh' }, extra),
  };
}

const verdict = async (name: string, r: CaseRun): Promise<string | undefined> => (ORACLE[name].applies(r) ? ORACLE[name].check(r, ctx) : 'n/a');

describe('oracles', () => {
  it('every oracle names a rule of the catalogue form and says what it checks', () => {
    for (const o of ORACLES) {
      assert.match(o.rule, /^[A-Z0-9]+(-[A-Z0-9]+)+$/);
      assert.ok(o.checks.length > 10);
    }
  });

  it('a clean answer passes every oracle that applies', async () => {
    const r = run([OK_PART], { kind: 'valid', row: { id: 'auth' } as never });
    for (const o of ORACLES) if (o.applies(r)) assert.equal(await o.check(r, ctx), undefined, o.name);
  });

  it('transport: no answer, and no answer in time, are told apart', async () => {
    const reset = run([], undefined, { envelope: undefined, status: undefined, headers: {}, error: 'the connection to x was closed before any answer (ECONNRESET)' });
    assert.match((await verdict('answered', reset)) ?? '', /ECONNRESET/);
    assert.equal(await verdict('within-timeout', reset), undefined);
    const hung = run([], undefined, { envelope: undefined, status: undefined, headers: {}, error: 'no answer arrived from x within 100 ms: the target hung' });
    assert.equal(await verdict('answered', hung), undefined);
    assert.match((await verdict('within-timeout', hung)) ?? '', /within 100 ms/);
  });

  it('5xx, another format, a bad envelope, parts out of order, parts without errorcode', async () => {
    assert.equal(await verdict('no-5xx', run([OK_PART], undefined, { status: 503 })), 'HTTP 503');
    assert.match((await verdict('same-format', run([], undefined, { envelope: undefined, error: 'the answer is HTML or XML, not a JSON envelope' }))) ?? '', /not a JSON envelope/);
    assert.ok(await verdict('envelope-schema', run([{ ...OK_PART, baseamount: 1050 }])));
    assert.ok(await verdict('one-part-per-type', run([OK_PART, OK_PART])));
    assert.match((await verdict('errorcode-errormessage', run([{ requesttypedescription: 'AUTH', errorcode: 0, errormessage: 'Ok' }]))) ?? '', /string errorcode/);
  });

  it('valid requests refused, invalid ones accepted, errordata naming another field', async () => {
    const refused = { requesttypedescription: 'AUTH', errorcode: '30000', errormessage: 'Invalid field', errordata: ['pan'] };
    assert.match((await verdict('valid-not-refused', run([refused], { kind: 'valid', row: { id: 'auth' } as never }))) ?? '', /30000/);
    const bad = { kind: 'invalid' as const, fields: ['baseamount'], why: 'too long', rule: 'LIMIT-FIELD-LENGTHS' };
    assert.match((await verdict('invalid-refused', run([OK_PART], bad))) ?? '', /baseamount is invalid/);
    assert.equal(await verdict('invalid-refused', run([{ ...refused, errordata: ['baseamount'] }], bad)), undefined);
    assert.match((await verdict('invalid-field-named', run([refused], bad))) ?? '', /errordata names pan/);
    assert.equal(ORACLE['invalid-field-named'].severity, 'warning');
    const unknown = { kind: 'refused' as const, fields: ['requesttypedescriptions'], why: 'unknown', rule: 'ENV-TYPES-NAMED' };
    assert.ok(await verdict('unknown-type-refused', run([OK_PART], unknown)));
  });

  it('the walk for card numbers says what a search of the answer written as JSON says', () => {
    const pans = [PAN, '5100000000000008'];
    // JSON values, some holding a card number in a key, a string or a number, alone or inside other text.
    const holder = fc.oneof(
      fc.constantFrom(...pans),
      fc.tuple(fc.string(), fc.constantFrom(...pans), fc.string()).map((p) => p.join('')),
      fc.constant(Number(PAN)),
    );
    const value = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        holder,
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(fc.string(), holder.map(String)), tie('v'), { maxKeys: 4 }),
      ),
    })).v;
    fc.assert(
      fc.property(value, (v) => {
        assert.equal(
          holdsAny(v, pans),
          pans.some((p) => (JSON.stringify(v) ?? '').includes(p)),
          JSON.stringify(v),
        );
      }),
      { numRuns: 500, seed: 20260105 },
    );
  });

  it('echoed: a successful part gives back the echoed fields as sent; an empty value sent is not sent', async () => {
    const sent = { pan: PAN, baseamount: '1050', currencyiso3a: 'GBP', orderreference: 'order-1' };
    const part = { ...OK_PART, baseamount: '1050', currencyiso3a: 'GBP', orderreference: 'order-1' };
    assert.equal(await verdict('echoed', run([part], undefined, {}, sent)), undefined);
    assert.match((await verdict('echoed', run([{ ...part, orderreference: 'order-' }], undefined, {}, sent))) ?? '', /orderreference of the AUTH part/);
    assert.match((await verdict('echoed', run([{ ...part, baseamount: '1051' }], undefined, {}, sent))) ?? '', /baseamount/);
    // A number for the string is a fault of its type (envelope-schema), not a second fault of its echo.
    assert.equal(await verdict('echoed', run([{ ...part, baseamount: 1050 }], undefined, {}, sent)), undefined);
    // A failed part is not held to it, nor a value the request left empty (inherited or set by the service).
    assert.equal(await verdict('echoed', run([{ ...part, errorcode: '70000', errormessage: 'Decline', baseamount: '1' }], undefined, {}, sent)), undefined);
    assert.equal(await verdict('echoed', run([part], undefined, {}, { ...sent, currencyiso3a: '' })), undefined);
    assert.equal(await verdict('echoed', run([{ ...part, currencyiso3a: 'USD' }], undefined, {}, { ...sent, currencyiso3a: '' })), undefined);
    // XML: judged against what the block carried (`sent`), not the case's value it could not hold.
    const xml = { ...run([{ ...part, orderreference: '\uFFFDA' }], undefined, {}, { ...sent, orderreference: '\u0000A' }), format: 'xml' as const, sent: { ...sent, orderreference: '\uFFFDA' } };
    assert.equal(await verdict('echoed', xml), undefined);
  });

  it('card data: a full card number anywhere, a security code under any path', async () => {
    assert.match((await verdict('no-full-pan', run([{ ...OK_PART, maskedpan: PAN }]))) ?? '', /part 1 maskedpan/);
    assert.match((await verdict('no-full-pan', run([{ ...OK_PART, errormessage: `bad card ${PAN}x` }]))) ?? '', /errormessage/);
    // The merchant's own text given back unchanged is not the card; the card number sent as `pan` given back is.
    const reference = `A${PAN}111`;
    assert.equal(await verdict('no-full-pan', run([{ ...OK_PART, orderreference: reference }], undefined, {}, { pan: PAN, orderreference: reference })), undefined);
    assert.equal(await verdict('no-full-pan', run([{ ...OK_PART, orderreference: reference.slice(0, -2) }], undefined, {}, { pan: PAN, orderreference: reference })), undefined);
    assert.match((await verdict('no-full-pan', run([{ ...OK_PART, orderreference: PAN }], undefined, {}, { pan: PAN, orderreference: reference }))) ?? '', /part 1 orderreference/);
    assert.match((await verdict('no-full-pan', run([{ ...OK_PART, pan: PAN }]))) ?? '', /part 1 pan/);
    assert.match((await verdict('no-security-code', run([{ ...OK_PART, records: [{ 'billing/payment/securitycode': '123' }] }]))) ?? '', /securitycode/);
    assert.equal(await verdict('no-security-code', run([{ ...OK_PART, securityresponsesecuritycode: '2' }])), undefined);
  });
});
