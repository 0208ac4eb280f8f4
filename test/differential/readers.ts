/**
 * The three readers of a request body, in-process: the reference gateway's core (what it refuses), `validate`
 * (what it reports) and the contract recorder (what it records against the client, with the gateway's ledger), and
 * what each says about a field, reduced to the same terms: the set of request-object fields it rejects.
 *
 * A gateway refusal names its fields in `errordata` (`30000`, `60040`); an unknown request type (`60018`) is a
 * refusal of `requesttypedescriptions`, an unknown parent (`20004`) of `parenttransactionreference`, an md/pares pair
 * never issued (`60022`, nothing stored) of `md`. A validator or contract finding rejects its field when it is an error, or a
 * warning only because the field is public facts, not the document's (src/validate/violations.ts `severityOf`):
 * advisories (recommended fields, unknown fields, a field a parent may pass on) reject nothing.
 */
import { FIELD } from '../../schemas/fields';
import { checkedCall } from '../../src/contract/call';
import { REQUEST_CHECKS, type Finding } from '../../src/contract/checks';
import { answerBody } from '../../src/gateway/body';
import { createRuntime } from '../../src/gateway/runtime';
import type { CallContext, Runtime } from '../../src/gateway/types';
import { DEFAULT_CONFIG } from '../../src/testdata';
import { validateResponseEnvelope, validateText, type Violation } from '../../src/validate';
import { findingFields } from '../../src/wire/reading';
import { parentInLedger } from '../../src/contract/call';
import type { Format, ResponseEnvelope } from '../../src/wire/types';
import { buildResponseBlock, parseResponseBlock } from '../../src/wire/xml';

export const USER = DEFAULT_CONFIG.users[0];

export interface Readers {
  readonly rt: Runtime;
  readonly ctx: Record<Format, CallContext>;
}

export function readers(): Readers {
  const rt = createRuntime({ control: true });
  const ctx = (format: Format): CallContext => ({ user: USER, format, baseUrl: 'http://127.0.0.1:1' });
  return { rt, ctx: { json: ctx('json'), xml: ctx('xml') } };
}

/** Rules that advise and never reject. */
const ADVISORY = new Set(['recommended', 'unknown-field', 'not-checked']);

const rejectsField = (name: string, severity: 'error' | 'warning', rule: string): boolean => !ADVISORY.has(rule) && (severity === 'error' || FIELD[name]?.source === 'public-facts');

export interface Reading {
  /** The gateway's answer, its errorcodes, and the fields it refused. */
  readonly answer: ResponseEnvelope;
  readonly codes: readonly string[];
  readonly gateway: ReadonlySet<string>;
  readonly validate: ReadonlySet<string>;
  readonly contract: ReadonlySet<string>;
  readonly violations: readonly Violation[];
  readonly findings: readonly Finding[];
  /** What validate says of the gateway's answer, as a response to the request types asked for. */
  readonly answerViolations: readonly Violation[];
}

function setOf(items: Iterable<string>): Set<string> {
  return new Set([...items].filter((f) => f !== ''));
}

/** One body through the three readers; the validator sees the parents the gateway saw (before the call). */
export function readAll(r: Readers, format: Format, text: string, requested: readonly string[] = []): Reading {
  const ctx = r.ctx[format];
  // Validate first: the call may add to the ledger (the parent a request names is there before the call).
  const result = validateText(text, { context: { parentOf: (o) => parentInLedger(r.rt.ledger, o, ctx) } });
  const violations = result.violations;
  const call = answerBody(r.rt, format, text, ctx);
  const answer = call.env;
  const parts = Array.isArray(answer.response) ? (answer.response as Record<string, unknown>[]) : [];
  const codes = parts.map((p) => String(p.errorcode));
  const gateway = new Set<string>();
  for (const p of parts) {
    const data = Array.isArray(p.errordata) ? p.errordata.map(String) : [];
    if (p.errorcode === '30000' || p.errorcode === '60040') for (const f of data) gateway.add(f);
    if (p.errorcode === '60018') gateway.add('requesttypedescriptions');
    // Refusals for what the account holds: a parent it does not have (20004), an md/pares pair it never issued
    // (60022 with nothing stored), which the contract, seeing the ledger, records on the same field.
    if (p.errorcode === '20004') gateway.add('parenttransactionreference');
    if (p.errorcode === '60022' && p.transactionreference === undefined) gateway.add('md');
  }
  const observed = {
    kind: 'answered' as const,
    format,
    method: 'POST',
    path: format === 'json' ? '/json/' : '/xml/',
    headers: { accept: format === 'json' ? 'application/json' : 'text/xml', 'content-type': format === 'json' ? 'application/json' : 'text/xml' },
    text,
    request: call.request,
    problems: call.problems,
    response: answer,
    ctx,
  };
  const checked = checkedCall(1, observed, r.rt.ledger);
  // What the gateway accepts by design (an AUTH that skips the ACS of an enrolled card, a subscription on stored
  // credentials without credentialsonfile) is the contract's to report and no reader's to refuse: not compared.
  const named = REQUEST_CHECKS.filter((c) => !c.gatewayAccepts).flatMap((c) => c.run(checked, { ledger: r.rt.ledger }).map((f) => ({ check: c.name, f })));
  const findings = named.map((n) => n.f);
  // A row resting on the AUTH field list the document does not show records its missing fields as warnings (the
  // contract never fails a client on what is not shown): still the row's finding on that field.
  const rowFinding = (check: string, f: Finding): boolean => check.startsWith('fields-of-') && !/ recommended in /.test(f.message);
  // The answer as the client reads it: for XML, the response block written and read back.
  const asRead = format === 'xml' ? parseResponseBlock(buildResponseBlock(answer)).envelope : answer;
  const answerViolations = validateResponseEnvelope(asRead, requested.length > 0 && !codes.includes('30000') ? requested : undefined, format).filter((v) => v.severity === 'error');
  return {
    answer,
    codes,
    gateway,
    validate: setOf(violations.filter((v) => rejectsField(fieldName(v.field), v.severity, v.rule)).flatMap((v) => findingFields(v.field))),
    contract: setOf(named.filter(({ check, f }) => rowFinding(check, f) || rejectsField(fieldName(f.field), f.severity, f.rule)).flatMap(({ f }) => findingFields(f.field))),
    violations,
    findings,
    answerViolations,
  };
}

function fieldName(field: string): string {
  return findingFields(field)[0] ?? '';
}
