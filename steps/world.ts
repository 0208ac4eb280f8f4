/**
 * The World of a scenario: the Target (JSON or XML), the profile, the test-control client, and the named parts:
 * the transactions the scenario made, by name ("the THREEDQUERY", "the AUTH", "the first AUTH"), so that later steps
 * can refer to them the way the document does.
 *
 * Three duties sit here so that no step can forget them:
 * - every answer is validated against the document's schemas (`validateResponseEnvelope` with the requested
 *   types); a violation fails the step under the rule of the field that broke (src/rules/attribution.ts);
 * - every assertion is a check of one rule (`check`, `expectRule`, `fail`), recorded with its field, what was
 *   expected and what was seen, and attached to the scenario (src/rules/checks.ts): a failed check breaks its
 *   rule, and the scenario's other rules are "blocked by" it in the reports;
 * - every request and answer is attached to the scenario, masked, and every error message is masked.
 */
import {
  Before,
  BeforeAll,
  BeforeStep,
  After,
  AfterAll,
  setDefaultTimeout,
  setDefinitionFunctionWrapper,
  setParallelCanAssign,
  setWorldConstructor,
  Status,
  World,
  type IWorldOptions,
} from '@cucumber/cucumber';
import { redact, redactText } from '../src/redact';
import { CHECKS_MEDIA_TYPE, type CheckDetail, type CheckRecord } from '../src/rules/checks';
import { exchangeContexts, factsOf, type ExchangeContext, type TransactionFacts } from '../src/rules/scope';
import { SKIP_REASON_MEDIA_TYPE } from '../src/report/messages';
import { PARTS_RULES, rulesForCheck, rulesForPartValue } from '../src/rules/attribution';
import { ANSWER_INVARIANTS, answerFindings, describeViolation, schemaOf, shortValue, type Answer, type AnswerFinding } from '../src/rules/answers';
import { runStop, RunStopped, stopEveryRun, type RunStop, type StopParameters } from '../src/stop';
import { controlClientFor, targetOptions } from '../src/client/connection';
import type { ControlClient } from '../src/client/control';
import type { OperationRow } from '../schemas/operations';
import { provideCachetoken } from '../src/client/cachetoken-provider';
import { missingRequirement, paymentCardSources, type Profile, type ProfileCard } from '../src/client/profile';
import type { CardSource } from '../src/client/requests';
import { Target, type Exchange, type SendOptions, type TargetOptions } from '../src/client/target';
import type { Format, RequestObject, ResponsePart } from '../src/wire/types';
import { requestTypesOf } from '../src/wire/json';
import { compareTwins } from '../src/wire/twins';
import { keep, runEnds, runStarts, scenarioKey, SECOND, twinOf, type KeptCall } from '../src/suite/twins';
import { ruleForFormatDifference } from '../src/rules/attribution';
import { acceptedMismatch, ADVISORIES_MEDIA_TYPE, type Advisory } from '../src/rules/advisories';

/** What `cardspec run` hands every worker (JSON only: it crosses a process boundary). */
export interface WorldParams {
  readonly baseUrl: string;
  readonly format: Format;
  readonly user?: string;
  readonly password?: string;
  readonly alias: string;
  readonly site: string;
  readonly profile: Profile;
  /** How the run stops early (signal, --max-time, a target gone); absent: the run always goes to its end. */
  readonly stop?: StopParameters;
  /**
   * The preflight found this format answered with a body that is no envelope while another format works
   * (src/client/preflight.ts): the first scenario fails on that rule, with the exchange; the others are not reached.
   */
  readonly preflightFault?: { readonly rule: string; readonly message: string; readonly exchange: string };
}

/** The runs (by stop id and format) whose preflight fault a scenario already reported. */
const faultsTold = new Set<string>();

/** One response part the scenario made, with the request it answered. */
export interface NamedPart {
  readonly name: string;
  readonly type: string;
  readonly part: ResponsePart;
  readonly request: RequestObject;
  readonly exchange: Exchange;
  /** Set by the ACS round trip: what the ACS returned to the termurl. */
  acs?: { readonly md: string; readonly pares: string };
}

/** One call: what was sent and what came back. */
export interface Sent {
  readonly request: RequestObject;
  readonly exchange: Exchange;
  readonly parts: readonly ResponsePart[];
  /** Sent as a call whose answer the document leaves open (`lenient`): never compared with the other format's. */
  readonly lenient?: boolean;
}

/** Thrown by a step that cannot check what its scenario is about (a setup it lacks): the scenario is skipped, with why. */
export class ScenarioSkipped extends Error {
  constructor(readonly reason: string) {
    super(redactText(reason));
    this.name = 'ScenarioSkipped';
  }
}

/** A failed check: the rule IDs it checks, in brackets, then what was wrong; masked. */
function checkFailure(rules: readonly string[], message: string): Error {
  return new Error(redactText(`[${rules.length ? rules.join(', ') : 'no @rule tag'}] ${message}`));
}

/** The rule(s) a check names: one ID or several (a check that holds two rules at once breaks both). */
export type RuleRef = string | readonly string[];

/** An exchange, masked and short, as a cause's example in the reports. */
function exampleOf(exchange: Exchange | undefined, request: RequestObject | undefined): string | undefined {
  if (!exchange) return undefined;
  const text = Target.attachment(exchange, request);
  return redactText(text.length > 4000 ? `${text.slice(0, 4000)}\n... (shortened; the whole exchange is attached to the scenario)` : text);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const targets = new Map<string, Target>();

/** The invariants a step is failed on at once, and those told after it (src/rules/answers.ts `deferred`). */
const IMMEDIATE = ANSWER_INVARIANTS.filter((i) => !i.deferred);
const DEFERRED = ANSWER_INVARIANTS.filter((i) => i.deferred);

export class CardspecWorld extends World<WorldParams> {
  readonly named = new Map<string, NamedPart>();
  readonly calls: Sent[] = [];
  /** The scenario's tags, set by the first Before hook. */
  tags: readonly string[] = [];
  /** The SHOULD-level points the scenario met (src/rules/advisories.ts), attached to it at its end. */
  readonly advisories: Advisory[] = [];
  /** Every check of the scenario, attached to it at its end (src/rules/checks.ts). */
  readonly checks: CheckRecord[] = [];
  /** Findings of the deferred invariants on the scenario's answers, told at its end. */
  readonly deferred: { readonly finding: AnswerFinding; readonly exchange: Exchange; readonly request: RequestObject }[] = [];
  /** The text of the step running, for the check records. */
  step?: string;
  /** The scenario's key among the runs of the two formats (src/suite/twins.ts), set by the first Before hook. */
  twinKey?: string;
  /** The merchant site of the scenario's requests: the run's, unless a step picks another of the profile's. */
  site: string;
  /** Each exchange of the scenario: its index among the calls, its parts and their contexts (src/rules/scope.ts). */
  private readonly seen = new Map<Exchange, { readonly call: number; readonly parts: readonly ResponsePart[]; readonly contexts: readonly ExchangeContext[] }>();
  /** The scenario's transactions, by reference (and an enrolled card's `md`): what a child's context takes from them. */
  private readonly transactions = new Map<string, TransactionFacts>();
  /** The exchange, and part, the steps last looked at: where a check was made. */
  private focus?: { readonly exchange: Exchange; readonly part?: number };
  private orders = 0;
  private readonly runId = Math.random().toString(36).slice(2, 8);
  private controlClient?: ControlClient;

  constructor(options: IWorldOptions<WorldParams>) {
    super(options);
    // Built lazily: a dry run (the catalogue test) makes Worlds without parameters and never sends anything.
    this.site = this.parameters.site;
  }

  private params(): WorldParams {
    const p = this.parameters;
    if (!p || !p.profile || !p.baseUrl) throw new Error('the suite runs through `cardspec run`: the world parameters (target, profile) are missing');
    return p;
  }

  get profile(): Profile {
    return this.params().profile;
  }

  /** The run's stop, when the run has one. */
  get stop(): RunStop | undefined {
    const p = this.parameters?.stop;
    return p ? runStop(p) : undefined;
  }

  /** The run's Target; one per worker and target, so that keep-alive connections outlive a scenario. */
  get target(): Target {
    const p = this.params();
    const options: TargetOptions = targetOptions(p, p.baseUrl, p.format);
    // One Target per run: a new run (a new stop signal) gets new connections.
    const key = JSON.stringify({ ...options, run: p.stop?.runId });
    let target = targets.get(key);
    if (!target) targets.set(key, (target = new Target({ ...options, signal: this.stop?.signal })));
    return target;
  }

  get control(): ControlClient {
    const p = this.params();
    this.controlClient ??= controlClientFor(p, p.baseUrl, { signal: this.stop?.signal });
    return this.controlClient;
  }

  /**
   * The card of a payment-page flow, as the merchant's server receives it: a cache token from the profile's provider
   * command or the test-control API, else the card itself where the row takes it (the combined RISKDEC/AUTH: "AUTH
   * fields") or the profile says the target does (a THREEDQUERY on a target with `threedqueryPan`). The scenario's
   * log says which. No source left: the scenario is skipped, with why.
   */
  async paymentPageCard(card: ProfileCard, row: OperationRow): Promise<CardSource> {
    const sources = paymentCardSources(this.profile);
    const rowTakesPan = row.cardSource?.some((set) => set.includes('pan')) ?? false;
    const p = this.params();
    if (sources.includes('provider')) {
      const cachetoken = await provideCachetoken(this.profile.cachetokenProvider!, card, { baseUrl: p.baseUrl, site: this.site, currency: this.profile.currency }, this.stop?.signal).catch(
        (e: Error) => {
          throw new ScenarioSkipped(`no cache token for the card: ${e.message}`);
        },
      );
      this.log(`The card went as a cache token from the profile's cachetokenProvider.`);
      return { cachetoken };
    }
    if (sources.includes('control')) {
      const cachetoken = await this.control.cachetoken({ pan: card.pan, expirydate: card.expirydate, securitycode: card.securitycode });
      return { cachetoken };
    }
    if (rowTakesPan || sources.includes('pan')) {
      this.log(
        rowTakesPan
          ? `No cache token source: the card went as pan and expirydate, which "${row.title}" takes ("AUTH fields").`
          : `No cache token source: the card went as pan and expirydate, which the profile says the target takes in a THREEDQUERY (capabilities.threedqueryPan; public facts).`,
      );
      return { card };
    }
    throw new ScenarioSkipped(missingRequirement(this.profile, 'cachetokens') ?? 'no source of cache tokens');
  }

  /** Throws `RunStopped` when the run was stopped: what the step was doing is abandoned, not failed. */
  checkNotStopped(): void {
    const reason = this.stop?.reason;
    if (reason !== undefined) throw new RunStopped(reason);
  }

  get format(): Format {
    return this.parameters.format;
  }

  /** The rule IDs of the scenario (`@rule:<ID>`). */
  get rules(): string[] {
    return this.tags.filter((t) => t.startsWith('@rule:')).map((t) => t.slice(6));
  }

  /**
   * One check of one rule (or of several, when one observation holds them all): recorded, and when it does not
   * hold the step fails naming the rule. Without a rule, the scenario's tag whose quote speaks of `field` is taken
   * (src/rules/attribution.ts).
   */
  expectRule(rules: RuleRef | undefined, ok: boolean, detail: CheckDetail | string): void {
    const d: CheckDetail = typeof detail === 'string' ? { message: detail } : detail;
    const named = rules === undefined ? undefined : typeof rules === 'string' ? [rules] : [...rules];
    const chosen = this.withoutPartsRules(named && named.length > 0 ? { rules: named, attribution: 'named' as const } : rulesForCheck(this.rules, d), d);
    const at = this.checkedAt(this.focus?.exchange, d.part, this.focus?.part);
    if (ok) {
      for (const rule of chosen.rules) {
        if (!this.checks.some((c) => c.ok && c.rule === rule && c.field === d.field && c.call === at.call))
          this.checks.push({ rule, ok: true, attribution: chosen.attribution, ...(d.field ? { field: d.field } : {}), ...at });
      }
      return;
    }
    // After the run's stop nothing fails (what went wrong may be the stop's doing): the step is skipped instead.
    this.checkNotStopped();
    const last = this.calls[this.calls.length - 1];
    const example = exampleOf(last?.exchange, last?.request);
    for (const rule of chosen.rules) {
      this.checks.push({
        rule,
        ok: false,
        attribution: chosen.attribution,
        message: redactText(d.message),
        ...(d.field ? { field: d.field } : {}),
        ...(d.expected !== undefined ? { expected: redactText(d.expected) } : {}),
        ...(d.seen !== undefined ? { seen: redactText(d.seen) } : {}),
        ...(d.part ? { part: d.part } : {}),
        ...(this.step ? { step: redactText(this.step) } : {}),
        ...(example ? { exchange: example } : {}),
        ...at,
      });
    }
    throw checkFailure(chosen.rules, d.message);
  }

  /**
   * A check of a value (a part's field other than its type, or an envelope field) on answers whose parts are there,
   * one per requested type and in order, breaks no rule of the parts as a whole, whatever the scenario is tagged with
   * (src/rules/attribution.ts `rulesForPartValue`).
   */
  private withoutPartsRules<T extends { rules: string[] }>(chosen: T, d: CheckDetail): T {
    if (!d.field || d.field === 'requesttypedescription' || !chosen.rules.some((r) => PARTS_RULES.has(r))) return chosen;
    // Every answer recorded was validated against its requested types (`record`), so its parts are in order unless
    // it was a lenient send; said again here so that the choice never rests on that.
    const inOrder = this.calls.every((c) => {
      const types = requestTypesOf(c.request);
      return c.parts.length === 0 || (c.parts.length === types.length && types.every((t, i) => c.parts[i].requesttypedescription === t));
    });
    return inOrder ? { ...chosen, rules: rulesForPartValue(chosen.rules, d.field, d.part) } : chosen;
  }

  /**
   * Where a check was made: the exchange's index and the contexts of the part it looked at (of the type `partType`,
   * else the part a step named), or of every part. Read from the exchange, so no step has to say it.
   */
  private checkedAt(exchange: Exchange | undefined, partType?: string, part?: number): { call?: number; contexts?: readonly ExchangeContext[] } {
    const seen = exchange ? this.seen.get(exchange) : undefined;
    if (!seen) return {};
    const ofType = partType ? seen.contexts.filter((c) => c.type === partType) : [];
    const contexts = ofType.length > 0 ? ofType : part !== undefined && seen.contexts[part] ? [seen.contexts[part]] : seen.contexts;
    return { call: seen.call, contexts };
  }

  /** A passing check of `rule` on an exchange (an invariant that held), once per rule and exchange. */
  private held(rule: string, exchange: Exchange, looksAt?: (part: Readonly<Record<string, unknown>>) => boolean, parts?: readonly number[]): void {
    const at = this.checkedAt(exchange);
    const seen = this.seen.get(exchange);
    const looked = (i: number): boolean => seen!.parts[i] !== undefined && (!looksAt || looksAt(seen!.parts[i])) && (!parts || parts.includes(i));
    const narrowed = (looksAt || parts) && seen !== undefined;
    const contexts = narrowed ? seen.contexts.filter((_, i) => looked(i)) : at.contexts;
    if (narrowed && contexts?.length === 0) return;
    if (!this.checks.some((c) => c.ok && c.rule === rule && c.field === undefined && c.call === at.call))
      this.checks.push({ rule, ok: true, attribution: 'field', ...at, ...(contexts ? { contexts } : {}) });
  }

  /** The failed check of an answer invariant's finding, on its rule, masked (immediate and deferred alike). */
  private findingCheck(f: AnswerFinding, example: string | undefined, exchange?: Exchange): CheckRecord {
    return {
      rule: f.rule,
      ok: false,
      attribution: 'field',
      message: redactText(f.line),
      ...(f.field ? { field: f.field } : {}),
      expected: redactText(f.expected),
      ...(f.seen !== undefined ? { seen: f.seen } : {}),
      ...(f.part ? { part: f.part } : {}),
      ...(this.step ? { step: redactText(this.step) } : {}),
      ...(example ? { exchange: example } : {}),
      ...this.checkedAt(exchange, f.part),
    };
  }

  /**
   * At the scenario's end: the deferred invariants' findings on its answers fail it, each on its rule, unless it
   * failed already (its own checks speak for the fault, and one fault is one cause).
   */
  tellDeferred(stepFailed: boolean): void {
    const pending = this.deferred.splice(0);
    if (pending.length === 0 || stepFailed) return;
    this.checkNotStopped();
    const rules = [...new Set(pending.map((p) => p.finding.rule))];
    for (const rule of rules) {
      const { finding, exchange, request } = pending.find((p) => p.finding.rule === rule)!;
      this.checks.push(this.findingCheck(finding, exampleOf(exchange, request), exchange));
    }
    throw checkFailure(rules, `the answer breaks the document: ${pending.map((p) => p.finding.line).join('; ')}`);
  }

  /** Fails the step: a failed check of `rules` (without them, the scenario's tag the step evidently checks). */
  fail(message: string | CheckDetail, rules?: RuleRef): never {
    this.expectRule(rules, false, message);
    throw new Error('unreachable');
  }

  /** A check: `ok` or the step fails (`expectRule` with the rule last, the way the steps were first written). */
  check(ok: boolean, message: string | CheckDetail, rules?: RuleRef): void {
    this.expectRule(rules, ok, message);
  }

  /** A rule of the catalogue in this run's form: the JSON envelope's version rule is the XML block's in XML. */
  formRule(rule: string): string {
    return this.format === 'xml' && rule === 'VER-JSON' ? 'VER-XML' : rule;
  }

  /** A fresh order reference, unique across runs and workers, so that scenarios never meet in the target. */
  nextOrderReference(): string {
    this.orders += 1;
    return `cardspec-${this.runId}-${this.orders}`;
  }

  /**
   * Sends one request object and checks the answer against the document. `lenient` is for calls whose answer the
   * document does not fix (bad credentials, a malformed request: "HTTP status codes and the shape of a response
   * to a malformed request: not shown"): a body that is not an envelope is then accepted, but a transport failure
   * (refused, hung, reset) is not, and an envelope that comes back is still validated.
   */
  async send(request: RequestObject, opts: SendOptions & { lenient?: boolean; name?: string } = {}): Promise<Sent> {
    const exchange = await this.target.send(request, opts);
    return this.record(request, exchange, opts);
  }

  /** Records, attaches and validates an exchange; names its parts (the named parts of the scenario). */
  async record(request: RequestObject, exchange: Exchange, opts: { lenient?: boolean; name?: string } = {}): Promise<Sent> {
    this.attach(Target.attachment(exchange, request), 'application/json');
    const types = requestTypesOf(request);
    this.see(request, exchange);
    if (exchange.transportFailure) {
      // An exchange the run's stop cut short is no finding; a target that keeps failing in transport stops the run.
      this.checkNotStopped();
      this.stop?.transport(exchange.error);
    } else this.stop?.transport(undefined);
    if (exchange.error) {
      if (!opts.lenient || exchange.transportFailure) {
        // An XML answer whose root is not responseblock breaks the XML rule; anything else that is no envelope, the body's.
        const rule =
          exchange.format === 'xml' && !exchange.transportFailure && /not an XML responseblock/.test(exchange.error) && /<\s*[A-Za-z]/.test(exchange.error)
            ? 'XML-RESPONSE-ROOT'
            : 'TRANSPORT-RESPONSE-BODY';
        this.fail({ message: `${exchange.error} (${exchange.format.toUpperCase()} POST ${exchange.url})`, field: exchange.format === 'xml' ? 'responseblock' : 'response' }, [rule]);
      }
      const sent = { request, exchange, parts: [] };
      this.calls.push(sent);
      return sent;
    }
    // A refused call's answer is not fixed by the document, so its parts are not held to the requested types
    // (a block-level ERROR part, as public facts show, is a fine answer); its envelope is still validated.
    // Every invariant of an answer (src/rules/answers.ts) holds on every exchange, whatever the scenario is about.
    const answer: Answer = {
      envelope: exchange.envelope,
      format: exchange.format,
      ...(opts.lenient ? {} : { requested: types }),
      request,
      xmlProblems: exchange.xmlProblems,
      pans: Object.values(this.profile.cards).flatMap((c) => (c ? [c.pan] : [])),
      tags: this.rules,
    };
    // HTTP semantics the document relies on: a warning, a failure only with `run --strict` (src/rules/advisories.ts).
    const declared = acceptedMismatch(exchange.format, exchange.headers, exchange.requestHeaders);
    if (declared && !this.advisories.some((a) => a.message === declared.message)) this.advisories.push(declared);
    const warnings = schemaOf(answer).warnings;
    if (warnings.length) this.log(redactText(`Warnings (public facts, never a failure):\n${warnings.map(describeViolation).join('\n')}`));
    const findings = answerFindings(answer, IMMEDIATE);
    // The deferred invariants are told at the scenario's end, when its own checks held (src/rules/answers.ts).
    const later = answerFindings(answer, DEFERRED);
    for (const f of later) this.deferred.push({ finding: f, exchange, request });
    if (findings.length) {
      this.calls.push({ request, exchange, parts: [] });
      // The first finding on the first line, where one-line summaries read it; the others below it.
      const lines = findings.map((f) => f.line);
      const more =
        lines.length > 1
          ? `\n${lines
              .slice(1)
              .map((l) => `  - ${l}`)
              .join('\n')}`
          : '';
      const message = `the answer breaks the document (${exchange.format.toUpperCase()}): ${lines[0]}${more}`;
      // One failed check per distinct rule, each with its own field; the step fails naming all of them.
      this.checkNotStopped();
      const example = exampleOf(exchange, request);
      const rules = [...new Set(findings.map((f) => f.rule))];
      for (const rule of rules) {
        const f = findings.find((x) => x.rule === rule)!;
        this.checks.push(this.findingCheck(f, example, exchange));
      }
      throw checkFailure(rules, message);
    }
    // Every invariant that found nothing held on this answer: a check of its rule in this exchange's contexts.
    for (const inv of ANSWER_INVARIANTS) {
      if (later.some((f) => f.invariant === inv.name)) continue;
      const looksAt = inv.looksAt && ((part: Readonly<Record<string, unknown>>) => inv.looksAt!(part, answer));
      this.held(inv.rule, exchange, looksAt);
      for (const also of inv.alsoHolds?.(answer) ?? []) this.held(also.rule, exchange, looksAt, also.parts);
    }
    const env = exchange.envelope!;
    const parts = Array.isArray(env.response) ? env.response.filter(isRecord) : [];
    const sent: Sent = { request, exchange, parts, ...(opts.lenient ? { lenient: true } : {}) };
    this.calls.push(sent);
    parts.forEach((part, i) => {
      const type = typeof part.requesttypedescription === 'string' ? part.requesttypedescription : (types[i] ?? 'PART');
      // A part is "the <TYPE>" (the latest of its type), unless the step named it ("as the second AUTH"): then
      // "the AUTH" still means the earlier one.
      const name = opts.name && i === 0 ? opts.name : `the ${type}`;
      this.named.set(name, { name, type, part, request, exchange });
    });
    this.compareWithTwin();
    return sent;
  }

  /** Notes an exchange's contexts (from its request and parts) and makes it the one the steps look at. */
  private see(request: RequestObject, exchange: Exchange): void {
    const env = exchange.envelope;
    const parts = env && Array.isArray(env.response) ? env.response.filter(isRecord) : [];
    const contexts = exchangeContexts(exchange.format, request, parts, (k) => this.transactions.get(k));
    for (const [k, f] of factsOf(parts, contexts)) this.transactions.set(k, f);
    this.seen.set(exchange, { call: this.calls.length, parts, contexts });
    this.focus = { exchange };
  }

  /** The scenario's calls as the other format's run compares them: a call without an envelope or lenient is not. */
  keptCalls(): KeptCall[] {
    return this.calls.map((c) => (c.parts.length > 0 && !c.exchange.error && !c.lenient ? { request: c.request, parts: c.parts } : undefined));
  }

  /**
   * The latest call's answer against the JSON run's answer to the same step (src/wire/twins.ts): a value that
   * differs after mapping fails the rule of its field or XML location, in the XML run.
   */
  private compareWithTwin(): void {
    if (this.format !== SECOND || this.twinKey === undefined) return;
    const first = twinOf(this.twinKey);
    if (!first) return;
    const index = this.calls.length - 1;
    const differences = compareTwins(first.slice(0, index + 1), this.keptCalls()).filter((d) => d.call === index);
    if (differences.length === 0) return;
    this.checkNotStopped();
    const last = this.calls[index];
    const example = exampleOf(last.exchange, last.request);
    const show = (v: string | undefined): string => (v === undefined ? '(not returned)' : (shortValue(JSON.stringify(v)) ?? ''));
    const findings = differences.map((d) => ({
      d,
      rules: ruleForFormatDifference(d.field, d.partType, this.rules, d.errorcode),
      line: `${d.partType ?? `part ${d.part + 1}`} ${d.path}: ${show(d.first)} in JSON, ${show(d.second)} in XML (the same step; "The same operations are also offered as an XML request block")`,
    }));
    const rules: string[] = [];
    for (const f of findings) {
      for (const rule of f.rules) {
        if (rules.includes(rule)) continue;
        rules.push(rule);
        this.checks.push({
          rule,
          ok: false,
          attribution: 'field',
          message: redactText(f.line),
          field: f.d.field,
          expected: redactText(`${show(f.d.first)}, as in the JSON answer to the same step`),
          seen: redactText(show(f.d.second)),
          ...(f.d.partType ? { part: f.d.partType } : {}),
          ...(this.step ? { step: redactText(this.step) } : {}),
          ...(example ? { exchange: example } : {}),
          ...this.checkedAt(last.exchange, f.d.partType),
        });
      }
    }
    const lines = findings.map((f) => f.line);
    throw checkFailure(
      rules,
      `the XML answer differs from the JSON answer to the same step: ${lines[0]}${
        lines.length > 1
          ? `\n${lines
              .slice(1)
              .map((l) => `  - ${l}`)
              .join('\n')}`
          : ''
      }`,
    );
  }

  /** A named transaction of this scenario. */
  entry(name: string): NamedPart {
    const e = this.named.get(name);
    if (!e) this.fail(`no transaction called "${name}" in this scenario yet (there are: ${[...this.named.keys()].join(', ') || 'none'})`);
    const part = this.seen.get(e.exchange)?.parts.indexOf(e.part) ?? -1;
    this.focus = { exchange: e.exchange, ...(part >= 0 ? { part } : {}) };
    return e;
  }

  /** The latest call. */
  get last(): Sent {
    const s = this.calls[this.calls.length - 1];
    if (!s) this.fail('no request was sent in this scenario yet');
    this.focus = { exchange: s.exchange };
    return s;
  }

  /** A part's field as a string (every documented value is one), or undefined when absent. */
  field(name: string, field: string): string | undefined {
    const v = this.entry(name).part[field];
    return v === undefined || v === null ? undefined : String(v);
  }

  /** The target's date, `YYYY-MM-DD`: the control clock where there is one, else today in UTC. */
  async today(): Promise<string> {
    if (this.profile.capabilities.clock) return (await this.control.now()).slice(0, 10);
    return new Date().toISOString().slice(0, 10);
  }
}

setWorldConstructor(CardspecWorld);

// Requests carry their own timeouts (profile.limits); a step makes a handful of them at most.
setDefaultTimeout(120_000);

// The clock of a target is shared by every scenario: a scenario that moves it runs alone (with --parallel), or a
// midnight it passes would settle another scenario's AUTH between two of its steps.
const movesClock = (tags: readonly { name: string }[]): boolean => tags.some((t) => t.name === '@requires:clock');
setParallelCanAssign((pickle, running) => (movesClock(pickle.tags) ? running.length === 0 : !running.some((p) => movesClock(p.tags))));

// Every error a step or hook throws reaches the reports through its message and stack: mask both, whatever the
// error, so that a stray value (a card number in a TypeError) cannot leak through a failure.
// A step cut short by the run's stop is skipped, with the reason: the scenario was not checked.
setDefinitionFunctionWrapper((fn: (...args: unknown[]) => unknown) => {
  return async function (this: unknown, ...args: unknown[]): Promise<unknown> {
    try {
      return await fn.apply(this, args);
    } catch (e) {
      // Once the run is stopped nothing fails: whatever went wrong may be the stop's doing (a request abandoned).
      const stopped = this instanceof CardspecWorld ? this.stop?.reason : undefined;
      if (this instanceof CardspecWorld && (e instanceof RunStopped || stopped !== undefined)) {
        this.attach(redactText(`the run was stopped during this scenario: ${stopped ?? (e as RunStopped).reason}.`), SKIP_REASON_MEDIA_TYPE);
        return 'skipped';
      }
      if (this instanceof CardspecWorld && e instanceof ScenarioSkipped) {
        this.attach(redactText(`${e.reason}.`), SKIP_REASON_MEDIA_TYPE);
        return 'skipped';
      }
      if (e instanceof Error) {
        e.message = redactText(e.message);
        if (e.stack) e.stack = redactText(e.stack);
        throw e;
      }
      throw new Error(redactText(String(e)));
    }
  };
});

BeforeAll(function () {
  const format = (this.parameters as { format?: Format } | undefined)?.format;
  if (format) runStarts(format);
});

Before(function (this: CardspecWorld, { pickle }) {
  this.tags = pickle.tags.map((t) => t.name);
  if (this.parameters?.baseUrl)
    this.twinKey = scenarioKey(
      this.parameters.baseUrl,
      pickle.uri,
      pickle.name,
      pickle.steps.map((st) => st.text),
    );
  const stopped = this.stop?.reason;
  if (stopped !== undefined) {
    this.attach(redactText(`the run was stopped before this scenario: ${stopped}.`), SKIP_REASON_MEDIA_TYPE);
    return 'skipped';
  }
  const fault = this.parameters?.preflightFault;
  if (fault) {
    const run = `${this.parameters.stop?.runId ?? ''}:${this.format}`;
    if (faultsTold.has(run)) {
      this.attach(redactText(`not reached: ${fault.message} [${fault.rule}], so no ${this.format.toUpperCase()} scenario could be checked.`), SKIP_REASON_MEDIA_TYPE);
      return 'skipped';
    }
    faultsTold.add(run);
    this.attach(fault.exchange, 'application/json');
    this.checks.push({ rule: fault.rule, ok: false, attribution: 'named', message: redactText(fault.message), field: this.format === 'xml' ? 'responseblock' : 'response', exchange: fault.exchange });
    throw checkFailure([fault.rule], `${fault.message}; the ${this.format.toUpperCase()} scenarios are not reached`);
  }
  const wrongFormat = this.tags.find((t) => t.startsWith('@format:') && t !== `@format:${this.format}`);
  if (wrongFormat) {
    this.attach(`the scenario is ${wrongFormat} and this run is ${this.format.toUpperCase()}.`, SKIP_REASON_MEDIA_TYPE);
    return 'skipped';
  }
  const reasons = this.tags
    .filter((t) => t.startsWith('@requires:'))
    .map((t) => missingRequirement(this.profile, t.slice('@requires:'.length)))
    .filter((r): r is string => r !== undefined);
  if (reasons.length) {
    // The reason travels with the scenario into every report: a skipped scenario is never a passed one.
    this.attach(redactText(`${reasons.join('; ')}.`), SKIP_REASON_MEDIA_TYPE);
    return 'skipped';
  }
  return undefined;
});

BeforeStep(function (this: CardspecWorld, { pickleStep }) {
  this.step = pickleStep.text;
});

// The scenario's checks, for the reports: which rules held, which broke and on what (src/rules/checks.ts).
After(function (this: CardspecWorld) {
  if (this.checks.length > 0) this.attach(JSON.stringify({ checks: this.checks }), CHECKS_MEDIA_TYPE);
  if (this.advisories.length > 0) this.attach(redactText(JSON.stringify({ advisories: this.advisories })), ADVISORIES_MEDIA_TYPE);
});

After(function (this: CardspecWorld) {
  if (this.named.size === 0) return;
  const summary = [...this.named.values()].map((e) => ({ name: e.name, transactionreference: e.part.transactionreference, errorcode: e.part.errorcode }));
  this.attach(JSON.stringify(redact({ transactions: summary }), null, 2), 'application/json');
});

// The JSON run's calls, for the XML run that follows in this process (src/suite/twins.ts).
After(function (this: CardspecWorld) {
  if (this.twinKey !== undefined && this.format !== SECOND) keep(this.twinKey, this.keptCalls());
});

// Defined after the hook that attaches the checks, so it runs before it (cucumber runs After hooks in reverse).
After(function (this: CardspecWorld, { result }) {
  this.tellDeferred(result?.status !== Status.PASSED);
});

AfterAll(function () {
  const format = (this.parameters as { format?: Format } | undefined)?.format;
  if (format) runEnds(format);
  for (const t of targets.values()) t.close();
  targets.clear();
});

// A worker process of `--parallel` gets Ctrl-C with the rest of the terminal's process group: it stops its part of
// the run the way the main process does (steps/world.ts is loaded in every worker; the main process of `cardspec
// run` handles its own signals).
if (process.env.CUCUMBER_WORKER_ID !== undefined) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopEveryRun(`interrupted (${signal})`);
    });
  }
}
