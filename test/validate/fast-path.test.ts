/**
 * validateResponseEnvelope decides most answers with yes/no checks (the envelope without its parts, then each part
 * against its type's schema) before it gathers violations. That is sound only if it gives exactly what the full
 * validation gives: checked here on generated envelopes of every request type, valid and broken, and for the
 * errors alone (responseEnvelopeErrors) on parts of types the document does not name too. validateRequestEnvelope
 * likewise leaves out the envelope's check of its items when each passed its row's schema: checked against the full
 * reading on generated requests of every row, valid and mutated, with the envelope changed around them.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { mutatedRequest } from '../../generators/mutations';
import { requestFor } from '../../generators/requests';
import { responseEnvelope } from '../../generators/responses';
import { REQUEST_ENVELOPE_FILE, requestRowFile } from '../../schemas/files';
import { OPERATIONS } from '../../schemas/operations';
import { requestEnvelopeViolations, validateRequestEnvelope } from '../../src/validate/request';
import { responseEnvelopeErrors, responseEnvelopeViolations, validateResponseEnvelope } from '../../src/validate/response';
import { schemaRoot } from '../../src/validate/schemas';

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

/** One change of a request envelope beyond its object's fields: the envelope's own fields, a second object, a lone type. */
const envelopeChange = fc.constantFrom('none', 'no-alias', 'number-version', 'two-objects', 'no-object', 'singular-type', 'not-an-object', 'unset-values', 'eleven-objects');

function changedEnvelope(env: Record<string, unknown> & { request: unknown[] }, change: string): unknown {
  const out = structuredClone(env);
  const first = out.request[0] as Record<string, unknown>;
  switch (change) {
    case 'no-alias':
      delete out.alias;
      break;
    case 'number-version':
      out.version = 1;
      break;
    case 'two-objects':
      out.request.push(structuredClone(first));
      break;
    case 'no-object':
      out.request = [];
      break;
    case 'singular-type':
      first.requesttypedescription = (first.requesttypedescriptions as string[])[0];
      delete first.requesttypedescriptions;
      break;
    case 'not-an-object':
      out.request = ['AUTH'];
      break;
    case 'unset-values':
      first.billingcounty = '';
      out.alias = null;
      break;
    case 'eleven-objects':
      out.request = Array.from({ length: 11 }, () => structuredClone(first));
      break;
  }
  return out;
}

it('the fast path of request validation agrees with the full validation, valid or broken', () => {
  fc.assert(
    fc.property(fc.constantFrom(...OPERATIONS), fc.nat(), envelopeChange, fc.boolean(), fc.constantFrom<'json' | 'xml'>('json', 'xml'), (row, seed, change, mutate, format) => {
      const [{ request, mutated }] = fc.sample(mutatedRequest(row, requestFor(row)), { seed, numRuns: 1 });
      const env = { alias: 'webservices@example.com', version: '1.00', request: [mutate ? mutated : request] };
      const candidate = changedEnvelope(env, change);
      // With a parent as the contract gate knows one (none here) and as `cardspec validate` reads (unknown).
      for (const context of [{}, { parentOf: () => undefined }]) assert.deepEqual(validateRequestEnvelope(candidate, format, context), requestEnvelopeViolations(candidate, format, context));
    }),
    { seed: 20261127, numRuns: 400 },
  );
});

it("every request row's schema holds every check of the envelope's request-object (the fast path rests on it)", () => {
  const base = schemaRoot(REQUEST_ENVELOPE_FILE) as { $defs: { 'request-object': { type: string; properties: Record<string, { $ref: string }>; allOf: Record<string, unknown>[] } } };
  const any = base.$defs['request-object'];
  const [requiresTypes, ...conditions] = any.allOf;
  assert.deepEqual(requiresTypes.required, ['requesttypedescriptions']);
  for (const row of OPERATIONS) {
    const schema = schemaRoot(requestRowFile(row.id)) as { type: string; properties: Record<string, { $ref?: string }>; allOf: Record<string, unknown>[] };
    assert.equal(schema.type, any.type, row.id);
    for (const [field, def] of Object.entries(any.properties)) assert.equal(schema.properties[field]?.$ref, def.$ref, `${row.id} ${field}`);
    assert.ok(
      schema.allOf.some((a) => Array.isArray(a.required) && a.required.includes('requesttypedescriptions')),
      `${row.id} requires requesttypedescriptions`,
    );
    for (const c of conditions)
      assert.ok(
        schema.allOf.some((a) => isDeepStrictEqual(a, c)),
        `${row.id} holds ${JSON.stringify(c).slice(0, 80)}`,
      );
  }
});
