/**
 * A proxy session: every exchange an observer saw between a client and a gateway, checked in both directions. The
 * request side is the contract gateway's session (src/contract/session.ts) with its check registry, reading a
 * ledger built from the observed answers (observed.ts) instead of a gateway's own; the answer side is answers.ts;
 * the path's faults (no answer, a malformed one) are counted apart. The same session serves the live proxy and the
 * audit of a capture.
 *
 * Nothing grows with the traffic: counts per rule and per kind, the first few examples of each rule (masked as they
 * are stored), the observed ledger within its window, as the contract gate does.
 */
import { ContractSession, REQUEST_CHECKS, type ContractReport } from '../contract';
import type { CheckedCall } from '../contract/call';
import type { RequestCheck } from '../contract/checks';
import type { CallContext, ObservedCall } from '../gateway';
import { redact, redactText, registerCredential } from '../redact';
import { ruleText } from '../rules/contract';
import { defaultRuleIndex } from '../rules/attribution';
import type { Finding, Severity } from '../rules/findings';
import { REQUEST_TYPES } from '../../schemas/fields';
import { answerAsHeld, withAnswersHeld } from '../validate';
import { requestTypesOf } from '../wire/json';
import type { Format, RequestObject, ResponseEnvelope, ResponsePart } from '../wire/types';
import { AcsWatch } from './acs';
import { AnswerMemory, checkAnswer, LookedRules, type AnswerView } from './answers';
import { formatOfPath, header, inflated, readAnswerBody, readRequestBody, type FaultKind, type HttpExchange } from './exchange';
import { ObservedLedger } from './observed';
import { withinBasePath } from '../gateway/routes/base-path';

export interface ProxySessionOptions {
  /** Warnings fail the gate too. */
  readonly strict?: boolean;
  /** The base path the client posts under (`/api` for `<url>/api/json/`); none by default. */
  readonly basePath?: string;
  /** Transactions the observed ledger keeps (the gateway's window). */
  readonly maxRecords?: number;
  /** Examples kept per rule (all are counted). Default 5. */
  readonly examples?: number;
}

export type Side = 'client' | 'gateway' | 'path';

/** One violation of one exchange, masked. */
export interface ProxyFinding {
  /** The exchange's position among those seen, from 1. */
  readonly exchange: number;
  /** Whose fault: what the client sent, what the gateway answered, or the path between them. */
  readonly side: Side;
  readonly operation: string;
  readonly rule: string;
  readonly field: string;
  readonly severity: Severity;
  readonly message: string;
}

export interface RuleCoverage {
  readonly rule: string;
  /** `passed`: checked and never broken; `failed`: broken at least once; `not-observed`: no exchange showed it. */
  readonly status: 'passed' | 'failed' | 'not-observed';
  /** Exchanges in which a check of the rule applied. */
  readonly checked: number;
  /** Exchanges in which it was broken (errors and warnings). */
  readonly failed: number;
  readonly section?: string;
  readonly quote?: string;
  /** The first exchange that broke it, masked and shortened. */
  readonly example?: string;
  /** Exchanges in which it was broken with an error (the rest of `failed`: warnings only). */
  readonly errors?: number;
  /** The same counts per envelope form (a call astray, of no form, counts under none). */
  readonly byFormat?: Partial<Record<Format, { readonly checked: number; readonly failed: number; readonly errors: number }>>;
  /** The request types of the exchanges that showed it, in the document's order. */
  readonly types?: readonly string[];
  /** The first finding that broke it, masked: whose fault, the field, what was wrong. */
  readonly first?: { readonly side: Side; readonly severity: Severity; readonly field: string; readonly message: string };
}

export interface ProxyReport {
  readonly kind: 'cardspec-proxy-report';
  readonly upstream?: string;
  readonly strict: boolean;
  readonly passed: boolean;
  readonly exchanges: {
    readonly total: number;
    /** Calls to the interface (`/json/`, `/xml/`) checked. */
    readonly checked: number;
    /** Exchanges of an ACS round trip whose THREEDQUERY was observed (the browser's traffic went through too). */
    readonly acs: number;
    /** Anything else that went through (ACS pages of no md observed, a control API): forwarded, not checked. */
    readonly other: number;
    readonly faults: number;
  };
  readonly violations: {
    readonly errors: number;
    readonly warnings: number;
    readonly bySide: Readonly<Record<Side, { readonly errors: number; readonly warnings: number }>>;
    readonly byRule: readonly { readonly rule: string; readonly side: Side; readonly errors: number; readonly warnings: number; readonly quote?: string }[];
    /** The first few of each rule, oldest first. */
    readonly list: readonly ProxyFinding[];
    readonly omitted: number;
  };
  readonly faults: {
    readonly byKind: Readonly<Partial<Record<FaultKind, number>>>;
    readonly list: readonly { readonly exchange: number; readonly kind: FaultKind; readonly method: string; readonly path: string; readonly message: string }[];
  };
  /** Observed coverage: every rule of the catalogue. */
  readonly coverage: readonly RuleCoverage[];
  /** The request side as the contract gate reports it (flows, operations, checks). */
  readonly contract: ContractReport;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Checks whose finding rests on the observer having seen everything: a parent it never saw is not a fault. */
const NEEDS_EVERYTHING = new Set(['parent-exists', 'references-name-something', 'alias-of-the-account']);

/** When a request check applies (its rules are then "checked" in the exchange); every call when not listed. */
const APPLIES: Readonly<Record<string, (call: CheckedCall) => boolean>> = {
  'xml-block': (c) => c.format === 'xml',
  'accept-json': (c) => c.format === 'json',
  'endpoint-path': (c) => c.format === 'json',
  'interface-version': (c) => c.format === 'json',
  'md-pares-as-issued': (c) => c.requests.some((v) => v.obj?.md !== undefined || v.obj?.pares !== undefined),
  'enrolled-card-goes-to-the-acs': (c) => c.requests.some((v) => v.row?.id === 'auth-3ds-not-enrolled' || (v.types.includes('AUTH') && v.obj?.cachetoken !== undefined)),
  'deny-is-not-transacted': (c) => c.requests.some((v) => v.types.includes('AUTH') && v.obj?.parenttransactionreference !== undefined),
  'payment-on-a-failed-payment': (c) => c.requests.some((v) => v.types.includes('AUTH') && v.obj?.parenttransactionreference !== undefined),
  'riskdec-parent-is-a-payment': (c) => c.requests.some((v) => v.row?.id === 'riskdec-after-payment'),
  'credentialsonfile-for-stored-credentials': (c) => c.requests.some((v) => v.types.includes('SUBSCRIPTION')),
  'amount-change-on-the-subscription': (c) => c.requests.some((v) => v.types.join() === 'TRANSACTIONUPDATE'),
  'stored-card-states': (c) => c.requests.some((v) => v.types.join() === 'TRANSACTIONUPDATE'),
  'termurl-https': (c) => c.requests.some((v) => v.obj?.termurl !== undefined),
  'follow-up-shape': (c) => c.requests.some((v) => v.types.some((t) => t === 'TRANSACTIONUPDATE' || t === 'TRANSACTIONQUERY')),
  'maestro-ecom-uses-3ds': (c) => c.requests.some((v) => v.types.includes('AUTH')),
  'useragent-recommended': (c) => c.requests.some((v) => v.types.includes('THREEDQUERY')),
  'securitycode-recommended': (c) => c.requests.some((v) => v.obj?.pan !== undefined),
  'securitycode-not-in-store': (c) => c.requests.some((v) => v.types.includes('STORE')),
  'subscription-values': (c) => c.requests.some((v) => v.types.includes('SUBSCRIPTION')),
  // Sent, or in effect through a parent (rule 4): the request side reads the value the parent passes on.
  'baseamount-above-zero': (c) => c.requests.some((v) => v.obj?.baseamount !== undefined || (v.obj?.parenttransactionreference !== undefined && v.row?.required.includes('baseamount') === true)),
  'account-type-per-operation': (c) =>
    c.requests.some((v) => v.obj?.accounttypedescription !== undefined || (v.obj?.parenttransactionreference !== undefined && v.row?.fixed?.accounttypedescription !== undefined)),
  'unknown-fields': () => false,
};

/** A field a request object sends, at its top or among the new values of `updates`. */
const sends = (c: CheckedCall, field: string): boolean =>
  c.requests.some((v) => v.obj !== undefined && (v.obj[field] !== undefined || (isObject(v.obj.updates) && v.obj.updates[field] !== undefined)));
const names = (c: CheckedCall, type: string): boolean => c.requests.some((v) => v.types.includes(type));
const ofRow = (c: CheckedCall, row: string): boolean => c.requests.some((v) => v.row?.id === row);
const NOT_PAYMENT_ROWS: ReadonlySet<string> = new Set(['threedquery', 'store', 'riskdec-card', 'riskdec-after-payment']);

/**
 * Where a rule of a check that holds several is narrower than its check (a sentence about one field, request type
 * or form): it is looked at only there, so that coverage never counts it checked in an exchange it could not fail.
 */
const RULE_APPLIES: Readonly<Record<string, (call: CheckedCall) => boolean>> = {
  'LIMIT-BASEAMOUNT': (c) => sends(c, 'baseamount'),
  'FIELD-BASEAMOUNT-MINOR-UNITS': (c) => sends(c, 'baseamount'),
  'FIELD-POSTCODE-VALIDATION': (c) => sends(c, 'billingpostcode'),
  'FIELD-TELEPHONETYPE': (c) => sends(c, 'billingtelephonetype'),
  'SUB-TRANSACTIONACTIVE-VALUES': (c) => sends(c, 'transactionactive'),
  'SUB-COMBINED': (c) => names(c, 'SUBSCRIPTION'),
  'XML-REQUEST-BLOCK': (c) => c.format === 'xml',
  // The account type's rule is the row's (src/contract/checks.ts `account-type-per-operation`): payments are the rest.
  'FIELD-ACCOUNTTYPE-PAYMENTS': (c) => c.requests.some((v) => v.row !== undefined && !NOT_PAYMENT_ROWS.has(v.row.id)),
  'FIELD-ACCOUNTTYPE-THREEDQUERY': (c) => ofRow(c, 'threedquery'),
  'STORE-SHAPE': (c) => ofRow(c, 'store'),
  'RISKDEC-CARD': (c) => ofRow(c, 'riskdec-card'),
  'RISKDEC-AFTER-PAYMENT': (c) => ofRow(c, 'riskdec-after-payment'),
  'SUB-UPDATE-SHAPE': (c) => names(c, 'TRANSACTIONUPDATE'),
  'STORE-QUERY-SHAPE': (c) => names(c, 'TRANSACTIONQUERY'),
};

/** When a request check applies to a call: a row's check to a request of its row, the others as listed. */
function appliesTo(name: string): (call: CheckedCall) => boolean {
  if (NEEDS_EVERYTHING.has(name)) return () => false;
  if (name.startsWith('fields-of-')) {
    const row = name.slice('fields-of-'.length);
    return (call) => call.requests.some((v) => v.row?.id === row);
  }
  return APPLIES[name] ?? (() => true);
}

/** How often a rule was checked and broken (errors: the breaks that were errors, not warnings only). */
interface Tally {
  checked: number;
  failed: number;
  errors: number;
}

/** A rule's observed coverage: its tallies, per form, the request types it was seen in (bits in REQUEST_TYPES' order). */
interface Coverage extends Tally {
  readonly rule: string;
  byFormat: Partial<Record<Format, Tally>>;
  typeBits: number;
  example?: string;
  first?: RuleCoverage['first'];
}

/** The bit of each request type of the document in a coverage's `typeBits`. */
const TYPE_BIT: ReadonlyMap<string, number> = new Map(REQUEST_TYPES.map((t, i) => [t, 1 << i]));

const EXAMPLES_PER_RULE = 5;
/** No client error in an exchange (most). */
const NO_RULES: ReadonlySet<string> = new Set();
const MAX_LISTED = 1000;
const MAX_FAULTS_LISTED = 50;
const EXAMPLE_CHARS = 3000;

export class ProxySession {
  readonly strict: boolean;
  private readonly basePath: string;
  private readonly examples: number;
  readonly observed: ObservedLedger;
  private readonly contract: ContractSession;
  private readonly memory = new AnswerMemory();
  private readonly sites = new Set<string>();
  /** `sites` as the checks' context lists them, until a site is added. */
  private siteList: string[] | undefined;
  /** The user of each basic-auth credential seen (as sent, base64), at most 100. */
  private readonly credentials = new Map<string, string>();
  /** Filled by the wrapped request checks while the contract session observes one call. */
  private readonly current: { call?: CheckedCall; findings: { check: string; f: Finding }[] } = { findings: [] };
  /** The rules looked at in the exchange being checked, by the request checks and the answer checks. */
  private readonly looked = new LookedRules();
  private seq = 0;
  private checkedCount = 0;
  private other = 0;
  private acsCount = 0;
  private readonly acs = new AcsWatch();
  private faultCount = 0;
  private readonly faultsByKind: Partial<Record<FaultKind, number>> = {};
  private readonly faultList: ProxyReport['faults']['list'][number][] = [];
  private readonly counts = { error: 0, warning: 0 };
  private readonly bySide: Record<Side, { errors: number; warnings: number }> = { client: { errors: 0, warnings: 0 }, gateway: { errors: 0, warnings: 0 }, path: { errors: 0, warnings: 0 } };
  private readonly byRule = new Map<string, { rule: string; side: Side; errors: number; warnings: number; listed: number }>();
  private readonly list: ProxyFinding[] = [];
  private omitted = 0;
  /** By the rule's id in `looked`; `coverageCount` of them made. */
  private readonly coverage: (Coverage | undefined)[] = [];
  private coverageCount = 0;

  constructor(opts: ProxySessionOptions = {}) {
    this.strict = opts.strict ?? false;
    this.basePath = opts.basePath ?? '';
    this.examples = opts.examples ?? EXAMPLES_PER_RULE;
    this.observed = new ObservedLedger(opts.maxRecords);
    const requestChecks: RequestCheck[] = REQUEST_CHECKS.map((check) => {
      // Read once per check, not per call: what the check needs seen, when it applies.
      const unobservable = NEEDS_EVERYTHING.has(check.name);
      const applies = appliesTo(check.name);
      const ids = check.rules.map((r) => this.looked.id(r));
      // A row's own check holds one rule, for its row: never narrowed further.
      const narrower = check.name.startsWith('fields-of-') ? [] : check.rules.map((r) => RULE_APPLIES[r]);
      return {
        ...check,
        run: (call, ctx) => {
          this.current.call = call;
          if (unobservable) return [];
          const ran = check.run(call, ctx);
          const found = ran.length === 0 ? ran : ran.filter((f) => this.observable(check.name, f, call));
          if (applies(call))
            for (let i = 0; i < ids.length; i++) {
              const where = narrower[i];
              if (where === undefined || where(call) || found.some((f) => f.rule === check.rules[i])) this.looked.lookId(ids[i]);
            }
          for (const f of found) this.current.findings.push({ check: check.name, f });
          return found;
        },
      };
    });
    // The observed ledger writes an exchange's transactions after the checks of it (they read the ledger as it was
    // before): the contract's flows are judged then.
    this.contract = new ContractSession(this.observed.ledger, { strict: this.strict, requestChecks, flowsAfterRecord: true, answerInvariants: false });
  }

  /** A finding only an observer that saw everything could make is not made. */
  private observable(check: string, f: Finding, call: CheckedCall): boolean {
    if (check === 'follow-up-shape' && /names no transaction/.test(f.message)) return false;
    if (check === 'md-pares-as-issued') {
      // Neither md nor pares was seen answered: the THREEDQUERY went by before the proxy, or elsewhere.
      // An md changed but for case or space is still known as an observed THREEDQUERY's.
      return call.requests.some((v) => {
        const md = str(v.obj?.md);
        return this.observed.threeDs(md, str(v.obj?.pares)) !== undefined || (md !== undefined && this.observed.threeDsLike(md) !== undefined);
      });
    }
    return true;
  }

  /** Checks one exchange; returns its violations (masked) for a live console line each. */
  observe(ex: HttpExchange): ProxyFinding[] {
    // The answer is not changed while it is checked: the contract gate's answer invariants and the answer checks
    // below validate it once between them.
    return withAnswersHeld(() => this.observeOne(ex));
  }

  private observeOne(ex: HttpExchange): ProxyFinding[] {
    const n = ++this.seq;
    const rel = this.basePath === '' ? ex.path : withinBasePath(this.basePath, ex.path);
    const format = rel === undefined ? undefined : formatOfPath(rel);
    const found: ProxyFinding[] = [];
    if (ex.fault) {
      this.faultCount++;
      this.faultsByKind[ex.fault.kind] = (this.faultsByKind[ex.fault.kind] ?? 0) + 1;
      if (this.faultList.length < MAX_FAULTS_LISTED)
        this.faultList.push({ exchange: n, kind: ex.fault.kind, method: ex.method, path: redactText(ex.path.slice(0, 200)), message: redactText(ex.fault.message) });
      if (format === undefined) return found;
      // No answer, or none HTTP could read: the gateway's answer broke the transport (the document: a response body
      // for every call); a connection refused or a TLS failure is the path's (what the proxy was pointed at).
      const side: Side = ex.fault.kind === 'reset' || ex.fault.kind === 'timeout' || ex.fault.kind === 'malformed' ? 'gateway' : 'path';
      const severity: Severity = side === 'gateway' ? 'error' : 'warning';
      this.record(found, n, side, `${ex.method} ${format}`, { rule: 'TRANSPORT-RESPONSE-BODY', field: 'response', severity, message: `no answer: ${ex.fault.message}` });
      this.cover(['TRANSPORT-RESPONSE-BODY'], found, ex, format);
      this.checkedCount++;
      return found;
    }
    const status = ex.status ?? 0;
    if (format === undefined || rel === undefined) {
      const acs = rel === undefined ? undefined : this.acs.observe(ex, rel, this.observed);
      if (acs) {
        this.acsCount++;
        const operation = acs.step === 'to-acs' ? 'browser POST to acsurl' : 'browser at the ACS';
        for (const f of acs.client) this.record(found, n, 'client', operation, f);
        for (const f of acs.gateway) this.record(found, n, 'gateway', operation, f);
        this.cover(acs.checked, found, ex, undefined, ['THREEDQUERY']);
        return found;
      }
      // Not the interface: a refusal of a call astray is the client's (the transport checks), the rest is not checked.
      if (status >= 400 && ex.method !== 'GET' && rel !== undefined && !/^\/(acs|_cardspec)(\/|$)/.test(rel)) {
        return this.refused(n, ex, rel, undefined);
      }
      this.other++;
      return found;
    }
    this.checkedCount++;
    const requestBytes = inflated(ex.requestBody, ex.requestHeaders);
    const responseBytes = ex.responseBody === undefined ? undefined : inflated(ex.responseBody, ex.responseHeaders);
    const answer = responseBytes === undefined ? undefined : readAnswerBody(format, responseBytes, header(ex.responseHeaders, 'content-type'));
    if (!answer?.envelope) {
      if (status >= 400) return this.refused(n, ex, rel, format);
      const why = answer?.error ?? 'the answer could not be read (its Content-Encoding)';
      this.record(found, n, 'gateway', `POST ${format}`, { rule: 'TRANSPORT-RESPONSE-BODY', field: 'response', severity: 'error', message: `${why} (HTTP ${status})` });
      // An XML answer whose root is another element (`<responseBlock>`) breaks the XML rule too (as the suite reads it).
      const root = format === 'xml' && answer !== undefined && /^\uFEFF?\s*(?:<\?[\s\S]*?\?>\s*)?<[A-Za-z]/.test(answer.text);
      if (root) this.record(found, n, 'gateway', `POST ${format}`, { rule: 'XML-RESPONSE-ROOT', field: 'responseblock', severity: 'error', message: `${why}: the root element is not responseblock` });
      this.cover(root ? ['TRANSPORT-RESPONSE-BODY', 'XML-RESPONSE-ROOT'] : ['TRANSPORT-RESPONSE-BODY'], found, ex, format);
      return found;
    }
    const read =
      requestBytes === undefined
        ? { text: '', request: undefined, problems: ['the body could not be inflated'], notes: [] }
        : readRequestBody(format, requestBytes, header(ex.requestHeaders, 'content-type'));
    const objects = isObject(read.request) && Array.isArray(read.request.request) ? (read.request.request as unknown[]) : [];
    for (const o of objects) if (isObject(o)) this.observed.acceptUnseenPares(o);
    const ctx = this.context(ex, format, read.request, objects);
    const call: ObservedCall = {
      kind: 'answered',
      format,
      method: ex.method,
      path: pathOf(rel),
      headers: ex.requestHeaders,
      text: read.text,
      request: read.request,
      problems: read.problems,
      notes: read.notes,
      response: answer.envelope,
      ctx,
    };
    this.current.call = undefined;
    this.current.findings.length = 0;
    this.looked.begin();
    this.contract.observe(call);
    const checkedCall = this.current.call;
    const operation = operationOf(checkedCall);
    const clientRules = this.current.findings.length === 0 ? NO_RULES : new Set<string>();
    for (const { f } of this.current.findings) {
      this.record(found, n, 'client', operation, f);
      if (f.severity === 'error') (clientRules as Set<string>).add(f.rule);
    }
    // The answer's side: each request object with its parts and the parent observed before this exchange.
    const env = answer.envelope;
    const readEnv = answerAsHeld(env);
    const views = answerViews(checkedCall, objects, readEnv, this.observed);
    const requested = views.length === 1 ? views[0].types : views.flatMap((v) => v.types);
    const result = checkAnswer(
      {
        format,
        raw: env,
        envelope: readEnv,
        problems: answer.problems,
        views,
        requested,
        clientErrors: clientRules,
        clientFindings: this.current.findings.length === 0 ? undefined : this.current.findings.map((x) => x.f),
        observed: this.observed,
        memory: this.memory,
      },
      this.looked,
    );
    for (const f of result.findings) this.record(found, n, 'gateway', operation, f);
    this.coverLooked(found, ex, format, requested);
    // A view is the object, its types and its parts the ledger records (no copy of each).
    this.observed.record(views);
    this.contract.countFlows();
    for (const v of views) for (const p of v.parts) if (p.requesttypedescription === 'THREEDQUERY') this.acs.remember(v.obj, p);
    return found;
  }

  private refused(n: number, ex: HttpExchange, rel: string, format: Format | undefined): ProxyFinding[] {
    const found: ProxyFinding[] = [];
    const body = ex.responseBody ? ex.responseBody.toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 200) : '';
    // Every finding of the call, not only those the contract's report lists as examples (the first few of a kind).
    // They come back from `observe`: no request check runs on a refused call, so nothing goes through `current`.
    const added = this.contract.observe({
      kind: 'refused',
      format,
      method: ex.method,
      path: rel.split('?')[0],
      headers: ex.requestHeaders,
      status: ex.status ?? 0,
      reason: body || `HTTP ${ex.status ?? 0}`,
    });
    for (const f of added) this.record(found, n, 'client', `refused ${ex.status ?? 0}`, f);
    this.cover(
      ['SEC-BASIC-AUTH', 'TRANSPORT-HEADERS', 'TRANSPORT-JSON-PATH'].filter((r) => added.some((v) => v.rule === r)),
      found,
      ex,
      format,
    );
    if (found.length > 0 && format === undefined) this.checkedCount++;
    else if (format === undefined) this.other++;
    return found;
  }

  /** The call's context as the checks read it: the basic-auth user, the sites the traffic names. */
  private context(ex: HttpExchange, format: Format, request: unknown, objects: readonly unknown[]): CallContext {
    const auth = header(ex.requestHeaders, 'authorization') ?? '';
    let username = '';
    const m = /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(auth);
    if (m) {
      // The user of each credential seen is kept (the credentials are, and are bounded): a client sends the same one each call.
      const known = this.credentials.get(m[1]);
      if (known !== undefined) username = known;
      else {
        const decoded = Buffer.from(m[1], 'base64').toString('utf8');
        const colon = decoded.indexOf(':');
        username = colon < 0 ? decoded : decoded.slice(0, colon);
        if (this.credentials.size < 100) {
          this.credentials.set(m[1], username);
          // The password is a secret wherever it shows up from now on (a body, a finding, the report).
          if (colon >= 0) registerCredential(username, decoded.slice(colon + 1));
        }
      }
    }
    if (this.sites.size > 1000) this.clearSites();
    for (const o of objects) {
      const site = isObject(o) ? str(o.sitereference) : undefined;
      if (site !== undefined) this.addSite(site);
      const parent = isObject(o) ? this.observed.parentOf(o) : undefined;
      if (parent?.sitereference) this.addSite(parent.sitereference);
    }
    const alias = isObject(request) && typeof request.alias === 'string' ? request.alias : username;
    // The list is made again only when a site was added: most calls name the sites named before.
    return { user: { username, password: '', alias, sites: (this.siteList ??= [...this.sites]) }, format, baseUrl: '' };
  }

  private addSite(site: string): void {
    if (this.sites.has(site)) return;
    this.sites.add(site);
    this.siteList = undefined;
  }

  private clearSites(): void {
    this.sites.clear();
    this.siteList = undefined;
  }

  private record(found: ProxyFinding[], exchange: number, side: Side, operation: string, f: Finding): void {
    this.counts[f.severity]++;
    this.bySide[side][f.severity === 'error' ? 'errors' : 'warnings']++;
    const key = `${side} ${f.rule}`;
    let r = this.byRule.get(key);
    if (!r) this.byRule.set(key, (r = { rule: f.rule, side, errors: 0, warnings: 0, listed: 0 }));
    r[f.severity === 'error' ? 'errors' : 'warnings']++;
    const finding: ProxyFinding = {
      exchange,
      side,
      operation: redactText(operation).slice(0, 200),
      rule: f.rule,
      field: redactText(f.field).slice(0, 200),
      severity: f.severity,
      message: redactText(f.message).slice(0, 2000),
    };
    found.push(finding);
    if (r.listed >= this.examples || this.list.length >= MAX_LISTED) {
      this.omitted++;
      return;
    }
    r.listed++;
    this.list.push(finding);
  }

  /** The rules given looked at in the exchange, and counted. */
  private cover(rules: Iterable<string>, found: readonly ProxyFinding[], ex: HttpExchange, format?: Format, types: readonly string[] = []): void {
    this.looked.begin();
    for (const r of rules) this.looked.look(r);
    this.coverLooked(found, ex, format, types);
  }

  /** Counts the exchange in each rule looked at in it, and in each rule it broke. */
  private coverLooked(found: readonly ProxyFinding[], ex: HttpExchange, format: Format | undefined, types: readonly string[]): void {
    // Every exchange comes here, most with nothing broken: nothing is made per rule but its tallies.
    let failed: Map<number, ProxyFinding> | undefined;
    for (const f of found) {
      const id = this.looked.id(f.rule);
      this.looked.lookId(id);
      failed ??= new Map();
      const before = failed.get(id);
      if (!before || (f.severity === 'error' && before.severity !== 'error')) failed.set(id, f);
    }
    let typeBits = 0;
    for (let i = 0; i < types.length; i++) typeBits |= TYPE_BIT.get(types[i]) ?? 0;
    const ids = this.looked.list;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      let c = this.coverage[id];
      if (!c) {
        // Rules outside the catalogue (a proposed rule of the contract) are counted too; a bound keeps odd ones out.
        if (this.coverageCount >= 2000) continue;
        this.coverageCount++;
        this.coverage[id] = c = { rule: this.looked.name(id), checked: 0, failed: 0, errors: 0, byFormat: {}, typeBits: 0 };
      }
      const f = format === undefined ? undefined : (c.byFormat[format] ??= { checked: 0, failed: 0, errors: 0 });
      c.typeBits |= typeBits;
      c.checked++;
      if (f) f.checked++;
      const broke = failed?.get(id);
      if (broke) {
        c.failed++;
        if (f) f.failed++;
        if (broke.severity === 'error') {
          c.errors++;
          if (f) f.errors++;
        }
        c.example ??= shownExchange(ex);
        if (!c.first || (broke.severity === 'error' && c.first.severity !== 'error')) c.first = { side: broke.side, severity: broke.severity, field: broke.field, message: broke.message };
      }
    }
  }

  /** Exchanges checked (calls to the interface, answered or not). */
  get checked(): number {
    return this.checkedCount;
  }

  failed(strict: boolean = this.strict): boolean {
    return this.counts.error > 0 || (strict && this.counts.warning > 0) || this.contract.failed(strict);
  }

  /** 0 clean, 1 violations, 3 nothing observed. */
  exitCode(strict: boolean = this.strict): 0 | 1 | 3 {
    if (this.failed(strict)) return 1;
    return this.checkedCount === 0 ? 3 : 0;
  }

  report(upstream?: string): ProxyReport {
    const index = defaultRuleIndex();
    const covered = new Map<string, Coverage>();
    for (const c of this.coverage) if (c) covered.set(c.rule, c);
    const ids = new Set([...index.rules.keys(), ...covered.keys()]);
    const coverage: RuleCoverage[] = [...ids].sort().map((rule) => {
      const c = covered.get(rule);
      const text = index.rules.get(rule) ?? ruleText(rule);
      const status = !c ? 'not-observed' : c.failed > 0 ? 'failed' : 'passed';
      return {
        rule,
        status,
        checked: c?.checked ?? 0,
        failed: c?.failed ?? 0,
        section: text?.section,
        quote: text?.quote,
        example: c?.example,
        ...(c ? { errors: c.errors, byFormat: structuredClone(c.byFormat), types: REQUEST_TYPES.filter((_, i) => (c.typeBits & (1 << i)) !== 0), ...(c.first ? { first: c.first } : {}) } : {}),
      };
    });
    return {
      kind: 'cardspec-proxy-report',
      upstream: upstream === undefined ? undefined : redactText(upstream),
      strict: this.strict,
      passed: !this.failed(),
      exchanges: { total: this.seq, checked: this.checkedCount, acs: this.acsCount, other: this.other, faults: this.faultCount },
      violations: {
        errors: this.counts.error,
        warnings: this.counts.warning,
        bySide: { client: { ...this.bySide.client }, gateway: { ...this.bySide.gateway }, path: { ...this.bySide.path } },
        byRule: [...this.byRule.values()].map(({ rule, side, errors, warnings }) => ({ rule, side, errors, warnings, quote: (index.rules.get(rule) ?? ruleText(rule))?.quote })),
        list: [...this.list],
        omitted: this.omitted,
      },
      faults: { byKind: { ...this.faultsByKind }, list: [...this.faultList] },
      coverage,
      contract: this.contract.report(),
    };
  }
}

/** Each request object with its parts (one per request type, in order) and its parent as observed before. */
function answerViews(call: CheckedCall | undefined, objects: readonly unknown[], env: ResponseEnvelope, observed: ObservedLedger): AnswerView[] {
  const parts = Array.isArray(env.response) ? (env.response as unknown[]).filter(isObject) : [];
  // Each object's types read once, from the object as sent (the checked call's are read without its unset values).
  const typesOf = objects.map(requestTypesOf);
  const counts = typesOf.map((t) => Math.max(1, t.length));
  const fits = counts.reduce((a, b) => a + b, 0) === parts.length;
  let offset = 0;
  return objects.map((o, index) => {
    const obj = isObject(o) ? (o as RequestObject) : undefined;
    const types = typesOf[index];
    const mine: ResponsePart[] = fits ? parts.slice(offset, offset + counts[index]) : objects.length === 1 ? parts : [];
    const view: AnswerView = { index, offset, obj: call?.requests[index]?.obj ?? obj, types, row: call?.requests[index]?.row, parts: mine, parent: observed.parentOf(obj) };
    offset += counts[index];
    return view;
  });
}

/** A call's path without its query (no array for the common path without one). */
function pathOf(rel: string): string {
  const q = rel.indexOf('?');
  return q < 0 ? rel : rel.slice(0, q);
}

function operationOf(call: CheckedCall | undefined): string {
  if (!call || call.requests.length === 0) return 'unrecognised';
  return call.requests.map((r) => r.row?.id ?? (r.types.length ? r.types.join('+') : 'unrecognised')).join(', ');
}

/** A body as a report shows it: a JSON body masked as a structure, anything else as text; shortened. */
function shownBody(bytes: Buffer | undefined, h: HttpExchange['requestHeaders'] | undefined): string {
  if (!bytes || bytes.length === 0) return '';
  const body = inflated(bytes, h) ?? bytes;
  const text = body.toString('utf8');
  let shown: string;
  try {
    shown = JSON.stringify(redact(JSON.parse(text) as unknown));
  } catch {
    shown = redactText(text);
  }
  return shown.length > EXAMPLE_CHARS ? `${shown.slice(0, EXAMPLE_CHARS)}... (${shown.length} characters)` : shown;
}

/** One exchange as an example of a broken rule: masked, shortened, without the Authorization header. */
export function shownExchange(ex: HttpExchange): string {
  const lines = [`${ex.method} ${redactText(ex.path.slice(0, 200))}`, `> ${shownBody(ex.requestBody, ex.requestHeaders)}`];
  if (ex.fault) lines.push(`< no answer: ${redactText(ex.fault.message)}`);
  else lines.push(`< HTTP ${ex.status ?? '?'} ${shownBody(ex.responseBody, ex.responseHeaders)}`);
  return redactText(lines.join('\n'));
}
