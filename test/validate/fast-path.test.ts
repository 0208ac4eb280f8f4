/**
 * validateResponseEnvelope decides most answers with yes/no checks (the envelope without its parts, then each part
 * against its type's schema) before it gathers violations. That is sound only if it gives exactly what the full
 * validation gives: checked here on generated envelopes of every request type, valid and broken, and for the
 * errors alone (responseEnvelopeErrors) on parts of types the document does not name too.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { responseEnvelope } from '../../generators/responses';
import { OPERATIONS } from '../../schemas/operations';
import { responseEnvelopeErrors, responseEnvelopeViolations, validateResponseEnvelope } from '../../src/validate/response';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One change that may break an envelope: a field of a part made a number, too long, removed, or renamed. */
const breakage = fc.record({
  part: fc.nat(),
  field: fc.nat(),
  kind: fc.constantFrom('number', 'long', 'remove', 'other-type', 'ok-message', 'none', 'drop-part', 'envelope-field', 'unknown-type', 'lower-case', 'unknown-and-broken'),
});

function broken(env: Record<string, unknown>, b: { part: number; field: number; kind: string }): unknown {
  const out = structuredClone(env) as Record<string, unknown> & { response: Record<string, unknown>[] };
  const part = out.response[b.part % out.response.length];
  const keys = Object.keys(part);
  const key = keys[b.field % keys.length];
  switch (b.kind) {
    case 'number':
      part[key] = 12;
      break;
    case 'long':
      part[key] = 'x'.repeat(300);
      break;
    case 'remove':
      delete part[key];
      break;
    case 'other-type':
      part.requesttypedescription = part.requesttypedescription === 'AUTH' ? 'STORE' : 'AUTH';
      break;
    case 'ok-message':
      part.errormessage = 'Fine';
      break;
    case 'drop-part':
      out.response.pop();
      break;
    case 'envelope-field':
      out.secrand = 7;
      break;
    // Parts of a type the document does not name: the public XML format's ERROR part, a type echoed in lower case.
    case 'unknown-type':
      part.requesttypedescription = 'ERROR';
      break;
    case 'lower-case':
      part.requesttypedescription = String(part.requesttypedescription).toLowerCase();
      break;
    case 'unknown-and-broken':
      part.requesttypedescription = 'ERROR';
      part.errorcode = 0;
      break;
  }
  return out;
}

it('the fast path of response validation agrees with the full validation, valid or broken', () => {
  const rows = OPERATIONS.filter((r) => !r.publicShape);
  fc.assert(
    fc.property(fc.constantFrom(...rows), fc.nat(), breakage, fc.constantFrom<'json' | 'xml'>('json', 'xml'), (row, seed, b, format) => {
      const [env] = fc.sample(responseEnvelope(row), { seed, numRuns: 1 });
      assert.ok(isObject(env));
      const requested = row.requesttypes;
      for (const candidate of [env, broken(env as Record<string, unknown>, b)]) {
        assert.deepEqual(validateResponseEnvelope(candidate, requested, format), responseEnvelopeViolations(candidate, requested, format));
        assert.deepEqual(validateResponseEnvelope(candidate, undefined, format), responseEnvelopeViolations(candidate, undefined, format));
        // The errors alone, decided by yes/no checks where only warnings would be found.
        for (const asked of [requested, undefined]) {
          const errors = responseEnvelopeViolations(candidate, asked, format).filter((v) => v.severity === 'error');
          assert.deepEqual(responseEnvelopeErrors(candidate, asked, format), errors);
        }
      }
    }),
    { seed: 20261122, numRuns: 400 },
  );
});
