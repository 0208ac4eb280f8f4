/**
 * The fuzz generators against the dictionary they are derived from: boundary values sit exactly on the documented
 * lengths, invalid values are refused by schemas/check.ts, mutations change only what they say, requests in a
 * target's context are what the fuzzer's expectations call valid, and card numbers come only from test cards.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkValue } from '../../schemas/check';
import { FIELD, FIELDS, REQUEST_TYPES } from '../../schemas/fields';
import { OPERATIONS } from '../../schemas/operations';
import {
  applyMutation,
  assertProperty,
  boundaryArbitraries,
  classContext,
  MUTATION_KINDS,
  mutatedRequest,
  outsiderValue,
  outsideListValue,
  requestInContext,
  rowsInContext,
  wrongJsonType,
  xmlRequestBody,
  xmlStyle,
  requestEnvelope,
  type RequestContext,
} from '../../generators';
import { TEST_CARDS } from '../../src/testdata';
import { parseRequestBlock } from '../../src/wire/xml';
import { expectFor } from '../../src/fuzz/expect';

const CARDS: readonly { pan: string; expirydate: string; securitycode?: string }[] = Object.values(TEST_CARDS);
const PANS = new Set<string>(CARDS.map((c) => c.pan));
const REQUEST_FIELDS = FIELDS.filter((d) => d.request && !d.structure && !d.list && !['alias', 'version'].includes(d.name));

/** A context as a target gives it: every kind of parent, a cache token. */
const CONTEXT: RequestContext = {
  site: 'test_site12345',
  currency: 'GBP',
  cards: CARDS,
  cachetokens: ['0f0e0d0c-0b0a-0908-0706-050403020100'],
  parents: { AUTH: ['12-9-1001'], ACCOUNTCHECK: ['12-9-1002'], STORE: ['12-9-1003'], 'THREEDQUERY-N': ['12-9-1004'], 'RISKDEC-ACCEPT': ['12-9-1005'], SUBSCRIPTION: ['12-9-1007'] },
};
/** What each parent was made of, as the fuzzer's pool records it. */
const MADE = new Map<string, Record<string, unknown>>([
  [
    '12-9-1001',
    {
      requesttypedescriptions: ['AUTH'],
      sitereference: 'test_site12345',
      accounttypedescription: 'ECOM',
      currencyiso3a: 'GBP',
      baseamount: '1050',
      pan: CARDS[0].pan,
      expirydate: CARDS[0].expirydate,
    },
  ],
  [
    '12-9-1002',
    {
      requesttypedescriptions: ['ACCOUNTCHECK'],
      sitereference: 'test_site12345',
      accounttypedescription: 'ECOM',
      currencyiso3a: 'GBP',
      baseamount: '1050',
      pan: CARDS[0].pan,
      expirydate: CARDS[0].expirydate,
    },
  ],
  ['12-9-1003', { requesttypedescriptions: ['STORE'], sitereference: 'test_site12345', accounttypedescription: 'CARDSTORE', orderreference: 'o', pan: CARDS[0].pan, expirydate: CARDS[0].expirydate }],
  [
    '12-9-1004',
    {
      requesttypedescriptions: ['THREEDQUERY'],
      sitereference: 'test_site12345',
      accounttypedescription: 'ECOM',
      currencyiso3a: 'GBP',
      baseamount: '1050',
      termurl: 'https://m.example.test/',
      accept: 'text/html',
      cachetoken: 'x',
    },
  ],
  [
    '12-9-1005',
    {
      requesttypedescriptions: ['RISKDEC'],
      sitereference: 'test_site12345',
      accounttypedescription: 'FRAUDCONTROL',
      currencyiso3a: 'GBP',
      baseamount: '1050',
      orderreference: 'o',
      pan: CARDS[0].pan,
      expirydate: CARDS[0].expirydate,
    },
  ],
  ['12-9-1007', { requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], sitereference: 'test_site12345' }],
]);
const EXPECT = { alias: 'a', site: CONTEXT.site, currency: 'GBP', cards: CARDS, cachetokens: CONTEXT.cachetokens ?? [], parents: MADE };

const len = (s: string): number => [...s].length;

describe('boundary values', () => {
  it('sit on the documented lengths of every request field, and the check agrees', () => {
    for (const def of REQUEST_FIELDS) {
      const side = def.request!;
      const arbs = boundaryArbitraries(def.name, 'request', CARDS);
      const ctx = classContext(def);
      const sample = (k: keyof typeof arbs): string[] => (arbs[k] ? fc.sample(arbs[k]!, { seed: 7, numRuns: 15 }) : []);
      for (const v of [...sample('shortest'), ...sample('longest')]) assert.equal(checkValue(def, 'request', v, ctx), null, `${def.name}: "${v.slice(0, 40)}" should be valid`);
      if (side.maxLength !== undefined && !def.sensitive) {
        for (const v of sample('longest'))
          assert.ok(len(v) <= side.maxLength && (side.values || def.examples || len(v) === side.maxLength || def.type.startsWith('date')), `${def.name} longest is ${len(v)}`);
        for (const v of sample('past-longest')) {
          assert.equal(len(v), side.maxLength + 1, `${def.name} past-longest`);
          assert.equal(checkValue(def, 'request', v, ctx)?.kind, 'too-long', def.name);
        }
      }
      for (const v of sample('below-shortest')) assert.equal(checkValue(def, 'request', v, ctx)?.kind, 'too-short', def.name);
      assert.deepEqual(sample('empty'), Array(15).fill(''));
    }
  });

  it('of card numbers are test cards, or test cards cut or lengthened', () => {
    const arbs = boundaryArbitraries('pan', 'request', CARDS);
    for (const v of fc.sample(fc.oneof(arbs.shortest!, arbs.longest!), { seed: 3, numRuns: 30 })) assert.ok(PANS.has(v));
    for (const v of fc.sample(fc.oneof(arbs['past-longest']!, arbs['below-shortest']!), { seed: 3, numRuns: 30 })) {
      assert.ok(
        CARDS.some((c) => v.startsWith(c.pan) || c.pan.startsWith(v)),
        v.slice(0, 6),
      );
      assert.notEqual(checkValue(FIELD.pan, 'request', v), null);
    }
    assert.throws(() => wrongJsonType('pan', 'request'), /test cards only/);
  });
});

describe('invalid values', () => {
  it('a character outside the class: refused by the field check, within the maximum', () => {
    let covered = 0;
    for (const def of REQUEST_FIELDS) {
      const arb = outsiderValue(def.name, 'request', def.sensitive === 'pan' ? fc.constantFrom(...PANS) : undefined);
      if (!arb) continue;
      covered++;
      for (const v of fc.sample(arb, { seed: 11, numRuns: 20 })) {
        const p = checkValue(def, 'request', v, classContext(def));
        assert.ok(p !== null && p.kind !== 'too-long', `${def.name}: ${JSON.stringify(v.slice(0, 30))} ${p?.kind}`);
      }
    }
    assert.ok(covered > 30, `only ${covered} fields have outsiders`);
  });

  it('wrong JSON types are never a string (a list field: never a list of strings)', () => {
    for (const name of ['baseamount', 'sitereference', 'requesttypedescriptions', 'billingemail']) {
      for (const w of fc.sample(wrongJsonType(name, 'request'), { seed: 5, numRuns: 40 })) {
        if (FIELD[name].list) assert.ok(!Array.isArray(w.value) || !w.value.every((x) => typeof x === 'string'), JSON.stringify(w));
        else assert.notEqual(typeof w.value, 'string', JSON.stringify(w));
      }
    }
  });

  it('values outside a list are refused', () => {
    for (const def of REQUEST_FIELDS.filter((d) => d.request?.values)) {
      for (const v of fc.sample(outsideListValue(def.name, 'request')!, { seed: 2, numRuns: 20 })) assert.notEqual(checkValue(def, 'request', v), null, `${def.name}=${v}`);
    }
  });
});

describe('mutations', () => {
  it('change only the fields they name, and every kind is generated', () => {
    const seen = new Set<string>();
    for (const row of OPERATIONS) {
      const ctxRow = rowsInContext(CONTEXT).find((r) => r.id === row.id);
      if (!ctxRow) continue;
      assertProperty(
        fc.property(mutatedRequest(ctxRow, requestInContext(row, CONTEXT), { cards: CARDS }), ({ request, mutation, mutated }) => {
          seen.add(mutation.kind);
          assert.deepEqual(mutated, applyMutation(request, mutation));
          for (const k of new Set([...Object.keys(request), ...Object.keys(mutated)])) {
            const touched = (mutation.remove ?? []).includes(k) || (mutation.set !== undefined && k in mutation.set);
            if (!touched) assert.deepEqual(mutated[k], request[k], `${row.id}: ${k} changed by ${mutation.kind} of ${mutation.field}`);
          }
          // Card numbers only ever from the test cards, or made of their digits.
          const pan = mutated.pan;
          if (typeof pan === 'string' && /^[0-9]{12,19}$/.test(pan)) assert.ok(PANS.has(pan), `${row.id}: a card number that is not a test card`);
          if (typeof pan === 'string' && /^[0-9]+$/.test(pan))
            assert.ok(
              CARDS.some((c) => pan.startsWith(c.pan) || c.pan.startsWith(pan)),
              `${row.id}: card digits not from a test card`,
            );
        }),
        { numRuns: 40 },
      );
    }
    assert.deepEqual([...seen].sort(), [...MUTATION_KINDS].sort());
  });

  it("unknown request types are not the document's", () => {
    const row = OPERATIONS.find((r) => r.id === 'auth')!;
    const arb = mutatedRequest(row, requestInContext(row, CONTEXT), { cards: CARDS, kinds: ['unknown-type'] });
    for (const { mutated } of fc.sample(arb, { seed: 9, numRuns: 30 })) {
      assert.ok((mutated.requesttypedescriptions as string[]).some((t) => !(REQUEST_TYPES as readonly string[]).includes(t)));
    }
  });
});

describe('requests in a target context', () => {
  it('are valid by the fuzzer\'s expectations (open only where the document says "not shown")', () => {
    for (const row of rowsInContext(CONTEXT)) {
      assertProperty(
        fc.property(requestInContext(row, CONTEXT), (req) => {
          const e = expectFor({ alias: 'a', version: '1.00', request: [req] }, EXPECT).expectation;
          const acs = req.md !== undefined || req.pares !== undefined;
          if (row.publicShape || acs || req.billingprefix !== undefined) assert.equal(e.kind, 'open', `${row.id}: ${JSON.stringify(e)}`);
          else assert.ok(e.kind === 'valid' || (e.kind === 'open' && /digits/.test(e.why)), `${row.id}: ${JSON.stringify(e)}`);
          assert.equal(req.sitereference ?? CONTEXT.site, CONTEXT.site);
          if (req.pan !== undefined) assert.ok(PANS.has(String(req.pan)));
        }),
        { numRuns: 40 },
      );
    }
  });
});

describe('XML envelopes', () => {
  it('map back to the JSON envelope they were written from, in every layout', () => {
    const row = OPERATIONS.find((r) => r.id === 'auth')!;
    assertProperty(
      fc.property(requestEnvelope(row, { sdkExtras: false }), xmlStyle, (env, style) => {
        const body = xmlRequestBody(env, style);
        assert.equal(body.startsWith('\n'), style.leadingBlankLine);
        assert.equal(body.includes('<?xml'), style.declaration);
        const { envelope, problems } = parseRequestBlock(body);
        assert.deepEqual(problems, []);
        // docs/xml.md: "`billingprefix` comes back as `billingprefixname`" (they share one element).
        const sent = (env.request as Record<string, unknown>[]).map(({ billingprefix, ...rest }) => (billingprefix === undefined ? rest : { ...rest, billingprefixname: billingprefix }));
        assert.deepEqual(envelope, { ...env, request: sent });
      }),
      { numRuns: 50 },
    );
  });
});
