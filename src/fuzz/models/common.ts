/**
 * What every stateful model shares: the system under test as the models see it (a Target, the test-control client,
 * the profile), one way to send a request that checks the answer with the request fuzzer's oracles for every
 * answer (envelope, parts, no card data), and the failure a model throws, named by its rule.
 */
import type fc from 'fast-check';
import { redactText } from '../../redact';
import type { ControlClient } from '../../client/control';
import type { Capability, CardRole, Profile, ProfileCard } from '../../client/profile';
import { buildRequest, operationByTitle, type CardSource } from '../../client/requests';
import type { Target } from '../../client/target';
import type { RequestObject, ResponsePart } from '../../wire/types';
import { requestTypesOf } from '../../wire/json';
import { judge, ORACLES, partsOf, ruleOfFailure, type CaseRun, type OracleContext } from '../oracles';
import type { RateLimiter } from '../pace';
import { sendWithRetry } from '../send';

/** The system under test, as a model drives it. */
export interface ModelEnv {
  readonly target: Target;
  /** Present when the profile has any test-control capability. */
  readonly control?: ControlClient;
  readonly profile: Profile;
  readonly site: string;
  readonly oracleContext: OracleContext;
  /** `--rate`: every request a model sends waits for it. */
  readonly rate?: RateLimiter;
  /** A fresh order reference, unique to the run. */
  nextOrder(): string;
}

/** A model's finding: the rule it breaks and what was seen. Its message is masked. */
export class ModelFailure extends Error {
  constructor(
    readonly rule: string,
    message: string,
  ) {
    super(redactText(`${rule}: ${message}`));
    this.name = 'ModelFailure';
  }
}

export function expect(ok: boolean, rule: string, message: string): asserts ok {
  if (!ok) throw new ModelFailure(rule, message);
}

/** The oracles that hold for every answer (the ones that judge validity need the request fuzzer's expectations). */
const EVERY_ANSWER = ORACLES.filter((o) => !['valid-not-refused', 'invalid-refused', 'unknown-type-refused', 'invalid-field-named', 'refusal-stores-nothing'].includes(o.name));

/**
 * Sends a request object and returns its parts, after the checks every answer must pass (an answer in time, no
 * 5xx, an envelope in the request's format that passes the schemas, one part per request type, no card data).
 */
export async function call(env: ModelEnv, request: RequestObject): Promise<ResponsePart[]> {
  await env.rate?.take();
  const exchange = await sendWithRetry(() => env.target.send(request));
  const types = requestTypesOf(request);
  const run: CaseRun = {
    case: { row: 'model', request },
    format: env.target.format,
    body: '',
    expect: { expectation: { kind: 'open', why: 'a model step' }, parts: types },
    exchange,
  };
  for (const { oracle, failure } of await judge(run, env.oracleContext, EVERY_ANSWER)) {
    if (failure !== undefined && oracle.severity === 'error') throw new ModelFailure(ruleOfFailure(oracle, run), `[${types.join(',')}] ${failure}`);
  }
  return partsOf(exchange.envelope);
}

/** The request of a row of the Request types table (by its "Operation" title), as the conformance suite builds it. */
export function requestOf(env: ModelEnv, title: string, source: CardSource, today: string, overrides: Readonly<Record<string, string | undefined>> = {}): RequestObject {
  return buildRequest(operationByTitle(title), { profile: env.profile, site: env.site, today, orderreference: env.nextOrder() }, source, overrides);
}

/** The public follow-up `filter` (public-facts.md): lists of `{"value": ...}`. */
export function filterOf(site: string, refs: readonly string[]): Record<string, { value: string }[]> {
  return { sitereference: [{ value: site }], transactionreference: refs.map((value) => ({ value })) };
}

/** A short text of a part for failure messages. */
export function brief(p: ResponsePart | undefined): string {
  if (!p) return 'no part';
  return `${String(p.requesttypedescription)} errorcode ${String(p.errorcode)} (${String(p.errormessage)})`;
}

/** The date the target's clock shows, or today's where the target has no clock to read. */
export async function targetToday(env: ModelEnv): Promise<string> {
  if (env.control && env.profile.capabilities.clock) return (await env.control.now()).slice(0, 10);
  return new Date().toISOString().slice(0, 10);
}

/** A model: its needs, its commands and its start state. */
export interface ModelSpec<M extends object> {
  readonly name: string;
  /** One line: what the model exercises. */
  readonly summary: string;
  readonly capabilities: readonly Capability[];
  /** Card roles the model needs in the profile (at least one of each group). */
  readonly cards: readonly (readonly CardRole[])[];
  initial(): M;
  commands(env: ModelEnv): fc.Arbitrary<fc.AsyncCommand<M, ModelEnv>>[];
  /** Prepares the target once per model run (for example, reads its clock). */
  setup?(env: ModelEnv, model: M): Promise<void>;
  /** Leaves the target quiet after a passing run (for example, stops the subscriptions it made). */
  teardown?(env: ModelEnv, model: M): Promise<void>;
}

/** The cards of the given roles the profile has, in that order. */
export function cardsOf(profile: Profile, roles: readonly CardRole[]): { role: CardRole; card: ProfileCard }[] {
  return roles.flatMap((role) => (profile.cards[role] ? [{ role, card: profile.cards[role]! }] : []));
}

/** Why a model cannot run on a profile, or `undefined`. */
export function missingFor(spec: ModelSpec<object>, profile: Profile): string | undefined {
  const caps = spec.capabilities.filter((c) => !profile.capabilities[c]);
  if (caps.length > 0) return `the profile "${profile.name}" lacks ${caps.join(', ')}`;
  for (const group of spec.cards) if (cardsOf(profile, group).length === 0) return `the profile "${profile.name}" has no ${group.join(' or ')} card`;
  return undefined;
}
