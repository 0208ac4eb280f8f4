/**
 * src/gateway/envelope-text.ts: the gateway's JSON answers are written by per-shape writers instead of
 * `JSON.stringify`, and must be the very same text whatever an envelope holds: the gateway's own answers of every
 * kind, and anything a variant of the self-check gallery may put in one (other values, other types, a cycle).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { envelopeText, envelopeTextBytes } from '../../src/gateway/envelope-text';
import { processEnvelope } from '../../src/gateway/core';
import { createRuntime } from '../../src/gateway/runtime';
import { buildRequestEnvelope } from '../../src/wire/json';
import type { CallContext } from '../../src/gateway/types';
import { card, PAYMENT, SUBSCRIPTION_FIELDS, USER } from './helpers';

/** Any UTF-16 text: lone surrogates, control characters, quotes and backslashes included. */
const anyString = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0x22, 0x5c, 0x0a, 0x1f, 0x7f, 0xd800, 0xdc00, 0x2028)), { maxLength: 12 })
  .map((codes) => String.fromCharCode(...codes));

/** A value of a part: mostly strings (the gateway's), now and then what a variant might put there. */
const partValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.oneof(anyString, fc.constantFrom('0', 'Ok', 'cardspec test merchant', 'GB')) },
  { weight: 1, arbitrary: fc.array(anyString, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.constant(undefined), fc.boolean(), fc.double()) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(new Date(0), { toJSON: () => 'x' }, { nested: { deeper: ['a'] } }, [undefined, 'a'], new Array(2)),
  },
);

/** Key lists from a small set, so that shapes come again (and get writers), with values that change between objects. */
const KEY_LISTS = [['errorcode', 'errormessage'], ['transactionreference', 'requesttypedescription', 'errorcode', 'errordata'], ['0', 'b', '1', 'a"\\'], []] as const;
const part = fc
  .integer({ min: 0, max: KEY_LISTS.length - 1 })
  .chain((i) => fc.tuple(...KEY_LISTS[i].map(() => partValue)).map((values) => Object.fromEntries(KEY_LISTS[i].map((k, j) => [k, values[j]]))));
const envelope = fc.record({ requestreference: anyString, version: fc.constant('1.00'), response: fc.array(part, { maxLength: 3 }), secrand: anyString });

describe('the JSON text of an answer envelope', () => {
  it("is JSON.stringify's text for envelopes of repeated shapes with any values", () => {
    fc.assert(
      fc.property(fc.array(envelope, { minLength: 1, maxLength: 6 }), (envelopes) => {
        for (const env of envelopes) {
          const text = envelopeText(env);
          assert.equal(text, JSON.stringify(env));
          // Counted as written, or -1 (JSON.stringify wrote it): never a wrong Content-Length.
          const bytes = envelopeTextBytes();
          if (bytes >= 0) assert.equal(bytes, Buffer.byteLength(text));
        }
      }),
      { numRuns: 400, seed: 20260105 },
    );
  });

  it("is JSON.stringify's text for the gateway's own answers, each kind several times", () => {
    const rt = createRuntime({ control: true });
    const ctx: CallContext = { user: USER, format: 'json', baseUrl: 'http://127.0.0.1:1' };
    const send = (obj: Record<string, unknown>): string => {
      const env = processEnvelope(rt, buildRequestEnvelope(USER.alias, obj), ctx);
      const text = envelopeText(env);
      assert.equal(text, JSON.stringify(env));
      // The gateway's own answers are counted as written: their Content-Length without reading the text again.
      assert.equal(envelopeTextBytes(), Buffer.byteLength(text));
      return text;
    };
    for (let round = 0; round < 3; round++) {
      const auth = JSON.parse(send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised'), orderreference: `order "${round}" \\ \u0001` })) as {
        response: { transactionreference: string }[];
      };
      send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('declined') });
      // Text beyond ASCII, as sent and as learnt: two- and three-byte characters and a surrogate pair.
      send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised'), orderreference: round === 2 ? 'Bestellung für Müller €' : 'Tilaus \u{1F600} ö' });
      send({ requesttypedescriptions: ['THREEDQUERY', 'AUTH'], ...PAYMENT, ...card('authorised'), termurl: 'https://merchant.example.test/3ds' });
      send({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, ...card('authorised'), ...SUBSCRIPTION_FIELDS });
      send({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { transactionreference: [auth.response[0].transactionreference] } });
      send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, baseamount: 1050 });
      send({ requesttypedescriptions: ['NOSUCHTYPE'] });
    }
  });

  it('writes a run of fields learnt as the same, and each field of it once one differs', () => {
    // Keys of their own, so that the shape is learnt here: from two objects whose values are the same but for `ref`.
    const base = { ref: 'A1', runa: 'x', runb: 'cardspec test merchant', runc: 'GB', tail: 'end', last: 'z' };
    const variants: Record<string, unknown>[] = [
      { ...base, ref: 'A2' },
      { ...base, ref: 'A3' },
      base,
      { ...base, runb: 'other merchant' },
      { ...base, runa: 'x"\\\u0001' },
      { ...base, runc: 7 },
      { ...base, runc: ['GB'] },
      { ...base, runb: undefined },
      { ...base, tail: null },
      { ...base, last: '\ud800' },
      { ...base, runb: 'Händler €' },
      { ...base, ref: '\u{1F600}' },
      base,
    ];
    for (const v of variants) {
      const text = envelopeText({ requestreference: 'A', response: [v] });
      assert.equal(text, JSON.stringify({ requestreference: 'A', response: [v] }));
      const bytes = envelopeTextBytes();
      if (bytes >= 0) assert.equal(bytes, Buffer.byteLength(text));
    }
  });

  it('throws what JSON.stringify throws for an envelope that cannot be written', () => {
    const env: Record<string, unknown> = { requestreference: 'A1', version: '1.00', response: [{ errorcode: '0' }] };
    (env.response as Record<string, unknown>[])[0].self = env;
    assert.throws(() => envelopeText(env), TypeError);
    assert.throws(() => envelopeText({ response: [{ amount: BigInt(1) }] }), TypeError);
  });
});
