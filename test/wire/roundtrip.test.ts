/**
 * JSON -> XML -> JSON is the identity for generated envelopes of every operation row and every response shape.
 * The seed is fixed (generators/property.ts; `CARDSPEC_SEED` replays another) and a failure report names it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FIELD, REQUEST_TYPES } from '../../schemas/fields';
import { OPERATIONS } from '../../schemas/operations';
import { assertProperty, requestEnvelope, responseEnvelope } from '../../generators';
import { buildRequestBlock, buildResponseBlock, parseRequestBlock, parseResponseBlock } from '../../src/wire/xml';
import type { RequestEnvelope } from '../../src/wire/types';

/** The one documented difference: an alias spelling (`billingprefix`) comes back under its canonical name. */
function canonical(env: RequestEnvelope): RequestEnvelope {
  const request = (env.request as Record<string, unknown>[]).map((obj) => Object.fromEntries(Object.entries(obj).map(([k, v]) => [FIELD[k]?.aliasOf ?? k, v])));
  return { ...env, request };
}

const RUNS = 40;

describe('JSON -> XML -> JSON, requests', () => {
  for (const row of OPERATIONS) {
    it(`is the identity for ${row.id} (${row.requesttypes.join('+')})`, () => {
      assertProperty(
        fc.property(requestEnvelope(row), (env) => {
          const xml = buildRequestBlock(env);
          const { envelope, problems } = parseRequestBlock(xml);
          assert.deepEqual(problems, []);
          assert.deepEqual(envelope, canonical(env));
        }),
        { numRuns: RUNS },
      );
    });
  }
});

describe('JSON -> XML -> JSON, responses', () => {
  const combinations = [...new Map(OPERATIONS.map((o) => [o.requesttypes.join('+'), o.requesttypes])).values()];
  const singles = REQUEST_TYPES.filter((t) => !combinations.some((c) => c.length === 1 && c[0] === t)).map((t) => [t]);
  for (const types of [...combinations, ...singles]) {
    it(`is the identity for ${types.join('+')} responses`, () => {
      assertProperty(
        fc.property(responseEnvelope(types), (env) => {
          const { envelope, problems } = parseResponseBlock(buildResponseBlock(env));
          assert.deepEqual(problems, []);
          assert.deepEqual(envelope, env);
        }),
        { numRuns: RUNS },
      );
    });
  }
});

describe('the property runner', () => {
  it('fails a false property, naming the seed and masking card numbers', () => {
    let message = '';
    try {
      assertProperty(
        fc.property(requestEnvelope('subscription-no-3ds', { sdkExtras: false }), (env) => (env.request as { pan?: string }[])[0].pan === 'none'),
        { numRuns: 5 },
      );
    } catch (e) {
      message = e instanceof Error ? e.message : String(e);
    }
    assert.match(message, /seed: -?\d+/);
    assert.ok(!/(?<![0-9])4[0-9]{15}(?![0-9])/.test(message), `an unmasked card number in: ${message}`);
  });
});

describe('parsing never throws', () => {
  const pieces = fc.constantFrom(
    '<',
    '>',
    '/',
    '=',
    '"',
    "'",
    '&',
    ';',
    '#',
    'x',
    ' ',
    '\n',
    '\r',
    '\u0000',
    'é',
    '<requestblock',
    '</requestblock>',
    '<responseblock',
    '<request',
    '</request>',
    '<response',
    ' type="AUTH"',
    ' version="3.67"',
    '<billing>',
    '</billing>',
    '<amount currencycode="GBP">',
    '</amount>',
    '<![CDATA[',
    ']]>',
    '<!--',
    '-->',
    '<?xml version="1.0"?>',
    '&amp;',
    '&#65;',
    '&#x0;',
    '&foo;',
    '<!DOCTYPE x [<!ENTITY a "b">]>',
    '<constructor>',
    '<__proto__>',
    '<toString>',
  );

  it('on arbitrary text built from XML pieces: an envelope object and a list of problems', () => {
    assertProperty(
      fc.property(fc.string({ unit: pieces, maxLength: 40 }), (text) => {
        for (const parse of [parseRequestBlock, parseResponseBlock]) {
          const { envelope, problems } = parse(text);
          assert.equal(typeof envelope, 'object');
          assert.ok(Array.isArray(problems));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('on a valid block cut anywhere: no exception, and a problem unless the cut kept a whole block', () => {
    assertProperty(
      fc.property(requestEnvelope('subscription-no-3ds'), fc.nat(), (env, at) => {
        const xml = buildRequestBlock(env);
        const cut = xml.slice(0, at % xml.length);
        const { problems } = parseRequestBlock(cut);
        assert.ok(problems.length > 0, `no problem for a block cut at ${at % xml.length}`);
      }),
      { numRuns: 100 },
    );
  });
});
