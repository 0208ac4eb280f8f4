/**
 * The differential property of issue 17, for one envelope: over requests the generators make in the gateway's own
 * context (valid ones, and each with one mutation: boundary, wrong type, outsider, outside the list, missing,
 * unknown type, misordered), the gateway refuses naming field F exactly when validate reports F and exactly when
 * the contract records F; and every answer validates as a response.
 *
 * Validate cannot see the account (sites, issued tokens, transactions, ACS exchanges): a refusal for a reference
 * that names nothing of the account is the one thing it may leave out, and only for those fields.
 * `CARDSPEC_DIFFERENTIAL_RUNS` sets the number of requests (default 10,000 in CI, 2,000 otherwise);
 * `CARDSPEC_SEED` replays another draw.
 */
import fc from 'fast-check';
import { TEST_CARDS } from '../../src/testdata';
import { control } from '../../src/gateway/control';
import { answerBody } from '../../src/gateway/body';
import type { Format, RequestObject } from '../../src/wire/types';
import { buildRequestBlock } from '../../src/wire/xml';
import { assertProperty, mutatedRequest, requestInContext, rowsInContext, type RequestContext } from '../../generators';
import { findingFields, SUBSCRIPTION_CHOICE_FIELDS } from '../../src/wire/reading';
import { readAll, readers, USER, type Readers, type Reading } from './readers';

export const RUNS = Number(process.env.CARDSPEC_DIFFERENTIAL_RUNS) || (process.env.CI ? 10_000 : 2_000);

/** Fields whose value names something of the account: validate cannot tell whether it does. */
const ACCOUNT_FIELDS = new Set(['sitereference', 'cachetoken', 'parenttransactionreference', 'md', 'pares']);

const SITE = 'test_site12345';
const CARDS = (['authorised', 'authorised2', 'mastercard', 'amex', 'notEnrolled'] as const).map((n) => TEST_CARDS[n]);
const PAYMENT = { sitereference: SITE, accounttypedescription: 'ECOM', currencyiso3a: 'GBP', baseamount: '1050', orderreference: 'parent-1' };

function send(r: Readers, request: RequestObject, index = 0): string {
  const env = r.ctx.json;
  const answer = answerBody(r.rt, 'json', JSON.stringify({ alias: USER.alias, version: '1.00', request: [request] }), env).env;
  const part = (answer.response as Record<string, unknown>[])[index];
  if (part.errorcode !== '0' || typeof part.transactionreference !== 'string') throw new Error(`differential setup: ${JSON.stringify(part.errorcode)}`);
  return part.transactionreference;
}

/** Transactions of every kind a row may name as parent, and cache tokens, made on the gateway under test. */
export function context(r: Readers): RequestContext {
  const card = (n: keyof typeof TEST_CARDS) => ({ pan: TEST_CARDS[n].pan, expirydate: TEST_CARDS[n].expirydate });
  const token = (n: keyof typeof TEST_CARDS): string => {
    const reply = control(r.rt, 'POST', '/_cardspec/cachetokens', new URLSearchParams(), { ...card(n), securitycode: TEST_CARDS[n].securitycode });
    return (reply.body as { cachetoken: string }).cachetoken;
  };
  const auth = send(r, { requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') });
  const sub = send(
    r,
    {
      requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'],
      ...PAYMENT,
      ...card('authorised'),
      subscriptiontype: 'RECURRING',
      subscriptionunit: 'MONTH',
      subscriptionfrequency: '1',
      subscriptionnumber: '1',
      subscriptionfinalnumber: '12',
      subscriptionbegindate: '2026-02-05',
    },
    1,
  );
  return {
    site: SITE,
    currency: 'GBP',
    cards: CARDS.map((c) => ({ pan: c.pan, expirydate: c.expirydate, securitycode: c.securitycode })),
    cachetokens: [token('authorised'), token('notEnrolled')],
    parents: {
      AUTH: [auth],
      ACCOUNTCHECK: [send(r, { requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, ...card('authorised') })],
      STORE: [send(r, { requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'store-1', accounttypedescription: 'CARDSTORE', ...card('authorised') })],
      'THREEDQUERY-N': [send(r, { requesttypedescriptions: ['THREEDQUERY'], ...PAYMENT, termurl: 'https://merchant.example/return', accept: 'text/html', cachetoken: token('notEnrolled') })],
      'RISKDEC-ACCEPT': [send(r, { requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', ...card('authorised') })],
      SUBSCRIPTION: [sub],
    },
  };
}

const sorted = (s: ReadonlySet<string>): string[] => [...s].sort();

/**
 * Fields the gateway refuses by its own documented choice where the document says "not shown"
 * (src/wire/reading.ts `SUBSCRIPTION_CHOICE_FIELDS`): validate and the contract must warn on them, never fail.
 */
function choiceWarnings(reading: Reading): { validate: Set<string>; contract: Set<string> } {
  const on = (items: readonly { field: string; severity: string }[]): Set<string> =>
    new Set(
      items
        .filter((i) => i.severity === 'warning')
        .flatMap((i) => findingFields(i.field))
        .filter((f) => SUBSCRIPTION_CHOICE_FIELDS.has(f)),
    );
  return { validate: on(reading.violations), contract: on(reading.findings) };
}

/** The property over one envelope; throws with the request that shows a disagreement. */
export function differential(format: Format, runs = RUNS): void {
  const r = readers();
  const ctx = context(r);
  // Rows that send md/pares need a pair the ACS issued, which a generated request cannot hold: every such request
  // is answered 60022 before any other check, so they are left to the 3-D Secure tests.
  // The follow-ups' shape is not shown: what the gateway lets an update change is its own choice (docs/gateway.md,
  // Follow-ups), beyond what validate and the contract can read; they are left to the gateway's own tests.
  const rows = rowsInContext(ctx).filter((row) => !row.required.includes('md') && !row.publicShape);
  const cards = ctx.cards.map((c) => ({ pan: c.pan }));
  const arb = fc.constantFrom(...rows).chain((row) =>
    fc.oneof(
      { weight: 1, arbitrary: requestInContext(row, ctx).map((request) => ({ row: row.id, mutation: 'none', request })) },
      {
        weight: 3,
        arbitrary: mutatedRequest(row, requestInContext(row, ctx), { cards, jsonTypes: format === 'json' }).map((m) => ({
          row: row.id,
          mutation: `${m.mutation.kind} ${m.mutation.field} (${m.mutation.detail})`,
          request: m.mutated,
        })),
      },
    ),
  );
  assertProperty(
    fc.property(arb, ({ request }) => {
      const envelope = { alias: USER.alias, version: '1.00', request: [request] };
      const text = format === 'json' ? JSON.stringify(envelope) : buildRequestBlock(envelope);
      const types = Array.isArray(request.requesttypedescriptions) ? (request.requesttypedescriptions as unknown[]).map(String) : [];
      const reading = readAll(r, format, text, types);
      const gateway = sorted(reading.gateway);
      const why = `gateway ${JSON.stringify(gateway)} (codes ${reading.codes.join(',')}), validate ${JSON.stringify(sorted(reading.validate))}, contract ${JSON.stringify(sorted(reading.contract))}`;
      // A cache token the service does not hold is refused, but is not the client's doing (docs/gateway.md, Decisions).
      const choice = choiceWarnings(reading);
      const expected = gateway.filter((f) => (f !== 'cachetoken' || reading.contract.has(f)) && !(choice.contract.has(f) && !reading.contract.has(f)));
      if (JSON.stringify(sorted(reading.contract)) !== JSON.stringify(expected)) throw new Error(`contract and gateway disagree: ${why}`);
      for (const f of reading.validate) if (!reading.gateway.has(f)) throw new Error(`validate reports ${f}, the gateway does not refuse it: ${why}`);
      for (const f of reading.gateway)
        if (!reading.validate.has(f) && !ACCOUNT_FIELDS.has(f) && !choice.validate.has(f)) throw new Error(`the gateway refuses ${f}, validate does not report it: ${why}`);
      if (reading.answerViolations.length > 0) throw new Error(`the answer is not a valid response: ${reading.answerViolations.map((v) => `${v.field} ${v.rule}`).join('; ')}`);
    }),
    { numRuns: runs, verbose: 1 },
  );
}
