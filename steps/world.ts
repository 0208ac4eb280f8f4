/**
 * The World of a scenario: the Target (JSON or XML), the profile, the test-control client, and a ledger of the
 * transactions the scenario made, by name ("the THREEDQUERY", "the AUTH", "the first AUTH"), so that later steps
 * can refer to them the way the document does.
 *
 * Three duties sit here so that no step can forget them:
 * - every answer is validated against the document's schemas (`validateResponseEnvelope` with the requested
 *   types); a violation fails the step and names the field, the rule and the section;
 * - every other failure names the rule it checks: the scenario's `@rule:` tags, unless the step names its own;
 * - every request and answer is attached to the scenario, masked, and every error message is masked.
 */
import { Before, After, AfterAll, setDefaultTimeout, setDefinitionFunctionWrapper, setParallelCanAssign, setWorldConstructor, World, type IWorldOptions } from '@cucumber/cucumber';
import { redact, redactText } from '../src/redact';
import { SKIP_REASON_MEDIA_TYPE } from '../src/report/messages';
import { runStop, RunStopped, stopEveryRun, type RunStop, type StopParameters } from '../src/suite/stop';
import { ControlClient } from '../src/target/control';
import type { OperationRow } from '../schemas/operations';
import { provideCachetoken } from '../src/target/cachetoken-provider';
import { missingRequirement, paymentCardSources, type Profile, type ProfileCard } from '../src/target/profile';
import type { CardSource } from '../src/target/requests';
import { Target, type Exchange, type SendOptions, type TargetOptions } from '../src/target/target';
import { validateResponseEnvelope, type Violation } from '../src/validate';
import type { Format, RequestObject, ResponsePart } from '../src/wire/types';
import { requestTypesOf } from '../src/wire/json';

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
}

/** One response part the scenario made, with the request it answered. */
export interface LedgerEntry {
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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** XML structure problems, named by the rule they break. */
function xmlRule(problem: string): string {
  if (/version/i.test(problem)) return 'VER-XML';
  if (/type attribute/i.test(problem)) return 'XML-FRAUDCONTROL-PATHS';
  return 'XML-RESPONSE-ROOT';
}

const targets = new Map<string, Target>();

export class CardspecWorld extends World<WorldParams> {
  readonly ledger = new Map<string, LedgerEntry>();
  readonly calls: Sent[] = [];
  /** The scenario's tags, set by the first Before hook. */
  tags: readonly string[] = [];
  /** The merchant site of the scenario's requests: the run's, unless a step picks another of the profile's. */
  site: string;
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
    const options: TargetOptions = {
      baseUrl: p.baseUrl,
      format: p.format,
      user: p.user,
      password: p.password,
      alias: p.alias,
      jsonPath: p.profile.paths.json,
      xmlPath: p.profile.paths.xml,
      limits: p.profile.limits,
    };
    // One Target per run: a new run (a new stop signal) gets new connections.
    const key = JSON.stringify({ ...options, run: p.stop?.runId });
    let target = targets.get(key);
    if (!target) targets.set(key, (target = new Target({ ...options, signal: this.stop?.signal })));
    return target;
  }

  get control(): ControlClient {
    const p = this.params();
    this.controlClient ??= new ControlClient({ baseUrl: p.baseUrl, path: p.profile.paths.control, user: p.user, password: p.password, limits: p.profile.limits, signal: this.stop?.signal });
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
      const cachetoken = await provideCachetoken(this.profile.cachetokenProvider!, card, { baseUrl: p.baseUrl, site: this.site, currency: this.profile.currency }, this.stop?.signal).catch((e: Error) => {
        throw new ScenarioSkipped(`no cache token for the card: ${e.message}`);
      });
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

  /** Fails the step. Without `rules`, the scenario's `@rule` tags are named: the step checks what they say. */
  fail(message: string, rules?: readonly string[]): never {
    // After the run's stop nothing fails (what went wrong may be the stop's doing): the step is skipped instead.
    this.checkNotStopped();
    throw checkFailure(rules ?? this.rules, message);
  }

  check(ok: boolean, message: string, rules?: readonly string[]): void {
    if (!ok) this.fail(message, rules);
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

  /** Records, attaches and validates an exchange; names its parts in the ledger. */
  async record(request: RequestObject, exchange: Exchange, opts: { lenient?: boolean; name?: string } = {}): Promise<Sent> {
    this.attach(Target.attachment(exchange, request), 'application/json');
    const types = requestTypesOf(request);
    if (exchange.transportFailure) {
      // An exchange the run's stop cut short is no finding; a target that keeps failing in transport stops the run.
      this.checkNotStopped();
      this.stop?.transport(exchange.error);
    } else this.stop?.transport(undefined);
    if (exchange.error) {
      if (!opts.lenient || exchange.transportFailure) {
        this.fail(`${exchange.error} (${exchange.format.toUpperCase()} POST ${exchange.url})`, ['TRANSPORT-RESPONSE-BODY']);
      }
      const sent = { request, exchange, parts: [] };
      this.calls.push(sent);
      return sent;
    }
    // A refused call's answer is not fixed by the document, so its parts are not held to the requested types
    // (a block-level ERROR part, as public facts show, is a fine answer); its envelope is still validated.
    const problems: Violation[] = validateResponseEnvelope(exchange.envelope, opts.lenient ? undefined : types, exchange.format);
    const errors = problems.filter((v) => v.severity === 'error');
    const warnings = problems.filter((v) => v.severity === 'warning');
    if (warnings.length) this.log(redactText(`Warnings (public facts, never a failure):\n${warnings.map(describe).join('\n')}`));
    const xmlProblems = exchange.xmlProblems ?? [];
    if (errors.length || xmlProblems.length) {
      const lines = [...errors.map(describe), ...xmlProblems.map((p) => `XML block [${xmlRule(p)}]: ${p}`)];
      // Each finding names its schema rule and section; the bracket names the catalogue's rules, as every check does.
      const rules = [...new Set([...this.rules, ...xmlProblems.map(xmlRule)])];
      // The first finding on the first line, where one-line summaries read it; the others below it.
      const more = lines.length > 1 ? `\n${lines.slice(1).map((l) => `  - ${l}`).join('\n')}` : '';
      this.fail(`the answer breaks the document (${exchange.format.toUpperCase()}): ${lines[0]}${more}`, rules);
    }
    const env = exchange.envelope!;
    const parts = Array.isArray(env.response) ? env.response.filter(isRecord) : [];
    const sent: Sent = { request, exchange, parts };
    this.calls.push(sent);
    parts.forEach((part, i) => {
      const type = typeof part.requesttypedescription === 'string' ? part.requesttypedescription : (types[i] ?? 'PART');
      // A part is "the <TYPE>" (the latest of its type), unless the step named it ("as the second AUTH"): then
      // "the AUTH" still means the earlier one.
      const name = opts.name && i === 0 ? opts.name : `the ${type}`;
      this.ledger.set(name, { name, type, part, request, exchange });
    });
    return sent;
  }

  /** A named transaction of this scenario. */
  entry(name: string): LedgerEntry {
    const e = this.ledger.get(name);
    if (!e) this.fail(`no transaction called "${name}" in this scenario yet (there are: ${[...this.ledger.keys()].join(', ') || 'none'})`);
    return e;
  }

  /** The latest call. */
  get last(): Sent {
    const s = this.calls[this.calls.length - 1];
    if (!s) this.fail('no request was sent in this scenario yet');
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

function describe(v: Violation): string {
  return `${v.field || '(envelope)'} [${v.rule}] (${v.section}): ${v.message}`;
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

Before(function (this: CardspecWorld, { pickle }) {
  this.tags = pickle.tags.map((t) => t.name);
  const stopped = this.stop?.reason;
  if (stopped !== undefined) {
    this.attach(redactText(`the run was stopped before this scenario: ${stopped}.`), SKIP_REASON_MEDIA_TYPE);
    return 'skipped';
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

After(function (this: CardspecWorld) {
  if (this.ledger.size === 0) return;
  const summary = [...this.ledger.values()].map((e) => ({ name: e.name, transactionreference: e.part.transactionreference, errorcode: e.part.errorcode }));
  this.attach(JSON.stringify(redact({ ledger: summary }), null, 2), 'application/json');
});

AfterAll(function () {
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
