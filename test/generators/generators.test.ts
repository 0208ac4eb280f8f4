/**
 * The generators and the dictionary agree: every generated value passes schemas/check.ts, every generated request
 * satisfies its operation row, every generated response part its PART_SHAPES entry.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkFields, checkValue } from '../../schemas/check';
import { FIELD, FIELDS, REQUEST_TYPES, type Direction } from '../../schemas/fields';
import { OPERATIONS, PART_SHAPES } from '../../schemas/operations';
import { classRegExp } from '../../schemas/typeclasses';
import { maskPan } from '../../src/redact';
import { TEST_CARDS } from '../../src/testdata';
import { anyRequest, anyRequestEnvelope, assertProperty, errorPart, exchange, fieldValue, positiveAmount, requestFor, responseEnvelope, propertySeed, successPart } from '../../generators';

const RUNS = 60;
const PANS = new Set<string>(Object.values(TEST_CARDS).map((c) => c.pan));
const MASKED = new Set<string>(Object.values(TEST_CARDS).map((c) => maskPan(c.pan)));

describe('values', () => {
  for (const direction of ['request', 'response'] as Direction[]) {
    const defs = FIELDS.filter((d) => d[direction] && !d.structure);
    it(`every ${direction} field's generated value passes the field check (${defs.length} fields)`, () => {
      for (const def of defs) {
        assertProperty(
          fc.property(fieldValue(def.name, direction), (v) => {
            assert.equal(checkValue(def, direction, v, { [def.validatedWhen?.field ?? '']: def.validatedWhen?.values[0] }), null, `${def.name}=${v}`);
            assert.notEqual(v, '');
          }),
          { numRuns: 30 },
        );
      }
    });
  }

  it('URLs are https addresses and email addresses have a local part of at most 64, long ones included', () => {
    const urls = FIELDS.filter((d) => d.type === 'url');
    const emails = FIELDS.filter((d) => d.type === 'email');
    assert.ok(urls.length > 0 && emails.length > 0);
    for (const def of [...urls, ...emails]) {
      const direction: Direction = def.request ? 'request' : 'response';
      const max = def[direction]!.maxLength!;
      const values = fc.sample(fieldValue(def.name, direction), { numRuns: 2000, seed: 11 });
      for (const v of values) {
        assert.equal(checkValue(def, direction, v), null, `${def.name}=${v}`);
        if (def.type === 'url') assert.match(v, /^https:\/\/[a-z0-9]+(\.[a-z0-9]+)+(\/\S*)?$/, v);
        else assert.match(v, /^[^\s@.]{1,64}@[a-z0-9]+(\.[a-z0-9]+)+$/, v);
      }
      const longest = Math.max(...values.map((v) => v.length));
      if (def.type === 'url') assert.ok(longest > max - 64, `${def.name}: the longest drawn is ${longest} of ${max}`);
      else assert.equal(Math.max(...values.map((v) => v.indexOf('@'))), 64, `${def.name}: a local part of 64 is drawn`);
    }
  });

  it('an unknown field or side is a clear error', () => {
    assert.throws(() => fieldValue('nosuchfield', 'request'), /no request side for field 'nosuchfield'/);
    assert.throws(() => fieldValue('pan', 'response'), /no response side for field 'pan'/);
  });

  it('amounts are greater than zero, digits only, within the dictionary length', () => {
    const max = FIELD.baseamount.request?.maxLength ?? Infinity;
    assertProperty(
      fc.property(positiveAmount(), (v) => {
        assert.match(v, /^[1-9][0-9]*$/);
        assert.ok(v.length <= max);
      }),
    );
  });

  it('is deterministic for a seed', () => {
    const a = fc.sample(anyRequest(), { numRuns: 5, seed: propertySeed() });
    const b = fc.sample(anyRequest(), { numRuns: 5, seed: propertySeed() });
    assert.deepEqual(a, b);
  });
});

describe('requests', () => {
  for (const row of OPERATIONS) {
    it(`${row.id}: a generated request passes checkFields and satisfies the row`, () => {
      assertProperty(
        fc.property(requestFor(row), (req) => {
          assert.deepEqual(checkFields(req, 'request'), []);
          assert.deepEqual(req.requesttypedescriptions, [...row.requesttypes]);
          for (const f of row.required) assert.ok(req[f] !== undefined, `required ${f} missing`);
          if (row.cardSource)
            assert.ok(
              row.cardSource.some((set) => set.every((f) => req[f] !== undefined)),
              'no card source',
            );
          for (const f of row.forbidden ?? []) assert.equal(req[f], undefined, `forbidden ${f} sent`);
          for (const [f, values] of Object.entries(row.fixed ?? {})) if (req[f] !== undefined) assert.ok(values.includes(String(req[f])), `${f}=${req[f]}`);
          const allowed = new Set(['requesttypedescriptions', ...row.required, ...(row.recommended ?? []), ...(row.optional ?? []), ...(row.cardSource ?? []).flat()]);
          for (const k of Object.keys(req)) assert.ok(allowed.has(k), `${k} is not in the row`);
          if (req.pan !== undefined) assert.ok(PANS.has(String(req.pan)), 'a PAN not from TEST_CARDS');
          if (req.baseamount !== undefined && !row.zeroAmount) assert.ok(/[1-9]/.test(String(req.baseamount)), 'baseamount must be greater than zero');
          if (req.billingprefix !== undefined) assert.equal(req.billingprefixname, undefined, 'both spellings of the prefix');
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('covers the optional side: recommended and optional fields are sometimes present and sometimes absent', () => {
    const samples = fc.sample(requestFor('accountcheck'), { numRuns: 200, seed: propertySeed() });
    for (const f of ['securitycode', 'billingpremise', 'billingpostcode', 'billingemail']) {
      const n = samples.filter((s) => s[f] !== undefined).length;
      assert.ok(n > 0 && n < samples.length, `${f} present in ${n} of ${samples.length}`);
    }
    assert.ok(
      samples.some((s) => s.baseamount === '0'),
      'ACCOUNTCHECK allows 0 and the generator uses it',
    );
  });

  it('follows validatedWhen: postcodes are Alphanumeric for US/GB/CA, and sometimes not elsewhere', () => {
    const samples = fc.sample(requestFor('store'), { numRuns: 400, seed: propertySeed() }).filter((s) => s.billingpostcode !== undefined);
    const rule = FIELD.billingpostcode.validatedWhen;
    assert.ok(rule);
    const alnum = classRegExp(FIELD.billingpostcode.type);
    let lax = 0;
    for (const s of samples) {
      const checked = rule.values.includes(String(s[rule.field]));
      if (checked) assert.match(String(s.billingpostcode), alnum);
      else if (!alnum.test(String(s.billingpostcode))) lax++;
    }
    assert.ok(lax > 0, 'the lax branch never ran');
  });

  it('gives follow-ups the public filter and updates shapes', () => {
    for (const { request } of fc.sample(anyRequest(), { numRuns: 300, seed: propertySeed() })) {
      if (request.filter === undefined) continue;
      const filter = request.filter as Record<string, { value: string }[]>;
      assert.ok(filter.transactionreference.length >= 1);
      for (const list of Object.values(filter)) for (const item of list) assert.equal(typeof item.value, 'string');
    }
    const [upd] = fc.sample(requestFor('transactionupdate'), { numRuns: 1, seed: propertySeed() });
    assert.match(String((upd.updates as Record<string, string>).baseamount), /^[1-9][0-9]*$/);
  });
});

describe('responses', () => {
  for (const type of REQUEST_TYPES) {
    it(`${type}: a successful part passes checkFields and holds what PART_SHAPES requires`, () => {
      const shape = PART_SHAPES[type];
      assertProperty(
        fc.property(successPart(type), (part) => {
          assert.deepEqual(checkFields(part, 'response'), []);
          assert.equal(part.requesttypedescription, type);
          assert.equal(part.errorcode, '0');
          for (const f of shape.requiredOnSuccess) assert.ok(part[f] !== undefined, `${f} missing`);
          for (const [f, values] of Object.entries(shape.fixed ?? {})) assert.ok(values.includes(String(part[f])), `${f}=${part[f]}`);
          for (const c of shape.conditional ?? []) {
            const holds = Object.entries(c.when).every(([k, v]) => part[k] === v);
            for (const f of c.require) {
              if (holds) assert.ok(part[f] !== undefined, `${f} missing when ${JSON.stringify(c.when)}`);
              else if (!shape.requiredOnSuccess.includes(f)) assert.equal(part[f], undefined, `${f} present although ${JSON.stringify(c.when)} does not hold`);
            }
          }
          if (part.maskedpan !== undefined) assert.ok(MASKED.has(String(part.maskedpan)));
          for (const rec of (part.records as Record<string, unknown>[] | undefined) ?? []) assert.deepEqual(checkFields(rec, 'response'), []);
          if (part.found !== undefined) assert.equal(part.found, String(((part.records as unknown[]) ?? []).length));
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('enrolled cards get acsurl, md and pareq in THREEDQUERY parts, and the others do not (both cases occur)', () => {
    const parts = fc.sample(successPart('THREEDQUERY'), { numRuns: 100, seed: propertySeed() });
    assert.ok(parts.some((p) => p.enrolled === 'Y') && parts.some((p) => p.enrolled !== 'Y'));
  });

  it('error parts have a non-zero errorcode and pass checkFields', () => {
    assertProperty(
      fc.property(errorPart('AUTH'), (p) => {
        assert.match(String(p.errorcode), /^[1-9][0-9]*$/);
        assert.deepEqual(checkFields(p, 'response'), []);
      }),
    );
  });

  it('an envelope holds one part per request type, in order', () => {
    for (const row of OPERATIONS) {
      for (const env of fc.sample(responseEnvelope(row), { numRuns: 10, seed: propertySeed() })) {
        assert.deepEqual(
          (env.response as Record<string, unknown>[]).map((p) => p.requesttypedescription),
          [...row.requesttypes],
        );
        assert.equal(env.version, '1.00');
        assert.equal(typeof env.requestreference, 'string');
        assert.equal(typeof env.secrand, 'string');
      }
    }
  });
});

describe('envelopes', () => {
  it('request envelopes are {alias, version 1.00, request:[one object]} for every row, sometimes with SDK extras', () => {
    const samples = fc.sample(anyRequestEnvelope(), { numRuns: 200, seed: propertySeed() });
    const rows = new Set<string>();
    for (const { row, envelope } of samples) {
      rows.add(row.id);
      assert.equal(envelope.version, '1.00');
      assert.equal(typeof envelope.alias, 'string');
      assert.equal((envelope.request as unknown[]).length, 1);
    }
    assert.equal(rows.size, OPERATIONS.length, 'every row is drawn');
    assert.ok(samples.some((s) => s.envelope.libraryversion !== undefined));
    assert.ok(samples.some((s) => (s.envelope.request as Record<string, unknown>[])[0].versioninfo !== undefined));
  });

  it('an exchange pairs a request and a response of the same row', () => {
    const [ex] = fc.sample(exchange('riskdec-then-auth'), { numRuns: 1, seed: propertySeed() });
    assert.deepEqual((ex.request.request as Record<string, unknown>[])[0].requesttypedescriptions, ['RISKDEC', 'AUTH']);
    assert.deepEqual(
      (ex.response.response as Record<string, unknown>[]).map((p) => p.requesttypedescription),
      ['RISKDEC', 'AUTH'],
    );
  });
});
