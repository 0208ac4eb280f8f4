/**
 * A contract session: what one stand-in gateway saw a client send. It receives every call through the gateway's
 * `observe` hook, runs the check registry on it, and keeps counts: per operation, per flow, per rule and per check,
 * with the first few violations of each check of each rule as examples, masked as they are stored. Nothing grows
 * with the number of requests (a gate left up for days holds what one of minutes does); the flows read the
 * gateway's ledger, which is bounded itself. It never changes an answer: the client keeps working while its
 * violations are recorded.
 */
import { OPERATION } from '../../schemas/operations';
import type { Ledger, ObservedCall } from '../gateway';
import { redactText } from '../redact';
import type { ResponsePart } from '../wire/types';
import { checkedCall, type CheckedCall } from './call';
import { ACS_FORM_CHECKS, REQUEST_CHECKS, TRANSPORT_CHECKS, type AcsForm, type Finding, type RefusedCall, type RequestCheck, type Severity } from './checks';
import { FlowCounter, FLOWS, type Step, type UpdateStep } from './flows';
import type { CaseResult, ContractReport, ContractViolation } from './report';
import { ruleText } from '../rules/contract';
import { answerFindings } from '../rules/answers';
import { filterReferences } from '../wire/reading';

export interface SessionOptions {
  /** Warnings fail the gate too. */
  readonly strict?: boolean;
  /** Most violations kept in the list (all are counted). Default 1000. */
  readonly maxListed?: number;
  /** Examples kept per check of each rule (all are counted). Default 5. */
  readonly examples?: number;
  /**
   * The request checks run on each answered call (default REQUEST_CHECKS). The checking proxy (src/proxy) passes
   * the same checks wrapped, to drop what a passive observer cannot know (a parent it never saw).
   */
  readonly requestChecks?: readonly RequestCheck[];
  /**
   * The owner writes a call's transactions to the ledger only after `observe` (the checking proxy's observed ledger):
   * the flows of each call are then judged when it calls `countFlows()`, once they are there. A flow's step is judged
   * with its record; judged before it is written, no step would ever complete a flow.
   */
  readonly flowsAfterRecord?: boolean;
  /**
   * The gateway's answers through the suite's answer invariants (default true: the stand-in gateway is the reference,
   * so a finding is the gate's fault). The checking proxy judges someone else's gateway and runs them on its own
   * gateway side, on the answer as every reader reads it: here they would only be run a second time.
   */
  readonly answerInvariants?: boolean;
}

/** Examples kept per check of each rule unless told otherwise. */
export const EXAMPLES_PER_CHECK = 5;

/** Findings on the gateway's own answers listed (all are counted). */
const ANSWER_EXAMPLES = 20;

/** An answered call, as scenario mode reads it back: the parts the gateway answered. */
export interface AnsweredCall {
  readonly seq: number;
  readonly types: readonly string[];
  readonly parts: readonly ResponsePart[];
}

const UNRECOGNISED = 'unrecognised';
const KEEP_ANSWERED = 100;

export class ContractSession {
  readonly strict: boolean;
  private readonly maxListed: number;
  private seq = 0;
  private answered = 0;
  private refused = 0;
  private readonly byFormat = { json: 0, xml: 0 };
  private readonly byOperation = new Map<string, number>();
  private readonly list: ContractViolation[] = [];
  private omitted = 0;
  private readonly counts = { error: 0, warning: 0 };
  private readonly byRule = new Map<string, { error: number; warning: number }>();
  /** Per check of each rule (`rule check`): counts and the examples listed. */
  private readonly byCheck = new Map<string, { rule: string; check: string; error: number; warning: number; listed: number }>();
  private readonly examples: number;
  private readonly requestChecks: readonly RequestCheck[];
  private readonly flows: FlowCounter;
  private readonly flowsAfterRecord: boolean;
  private readonly answerInvariants: boolean;
  /** With `flowsAfterRecord`: the last call's steps and updates, judged by `countFlows()`. */
  private unjudged: { made: Step[]; updates: UpdateStep[] } = { made: [], updates: [] };
  /** The last KEEP_ANSWERED answered calls, a ring (a gate left up for days shifts nothing). */
  private readonly recent: AnsweredCall[] = [];
  private recentCount = 0;
  private cases: CaseResult[] | undefined;
  private readonly answers = { checked: 0, failed: 0, byRule: new Map<string, number>(), list: [] as { call: number; rule: string; line: string }[] };

  constructor(
    private readonly ledger: Ledger,
    opts: SessionOptions = {},
  ) {
    this.strict = opts.strict ?? false;
    this.maxListed = opts.maxListed ?? 1000;
    this.examples = opts.examples ?? EXAMPLES_PER_CHECK;
    this.requestChecks = opts.requestChecks ?? REQUEST_CHECKS;
    this.flows = new FlowCounter(ledger);
    this.flowsAfterRecord = opts.flowsAfterRecord ?? false;
    this.answerInvariants = opts.answerInvariants ?? true;
  }

  /** With `flowsAfterRecord`: judges the flows of the calls observed since the last call, now that the ledger has their transactions. */
  countFlows(): void {
    const { made, updates } = this.unjudged;
    if (made.length === 0 && updates.length === 0) return;
    this.unjudged = { made: [], updates: [] };
    this.flows.addSteps(made);
    for (const u of updates) this.flows.addUpdate(u);
  }

  /**
   * The gateway's `observe` hook. Returns the call's own findings (its request checks', or the transport checks' of
   * a refused call), every one of them: the report lists only the first few of a kind, and an owner that reports
   * per call (the proxy) must see the rest too.
   */
  observe(call: ObservedCall): readonly Finding[] {
    if (call.kind === 'refused') return this.observeRefused(call);
    const checked = checkedCall(++this.seq, call, this.ledger);
    this.answered++;
    this.byFormat[checked.format]++;
    const findings: Finding[] = [];
    // Named only for a call that broke something (most break nothing).
    let operation: string | undefined;
    const ctx = { ledger: this.ledger };
    for (const check of this.requestChecks) {
      const found = check.run(checked, ctx);
      for (const f of found) {
        findings.push(f);
        this.record(checked.seq, (operation ??= operationOf(checked)), check.name, f);
      }
    }
    this.track(checked, findings);
    if (this.answerInvariants) this.checkAnswer(checked.seq, call, checked);
    return findings;
  }

  /**
   * The answer through the invariants every answer the kit sees gets (src/rules/answers.ts): the stand-in gateway is
   * the reference, so a finding is a fault of the gate (or of a scenario's change), told apart from the client's.
   */
  private checkAnswer(seq: number, call: Extract<ObservedCall, { kind: 'answered' }>, checked: CheckedCall): void {
    const view = checked.requests.length === 1 ? checked.requests[0] : undefined;
    const found = answerFindings({
      envelope: call.response,
      format: call.format,
      // The parts the document fixes: one per type of a request object the request check let through.
      ...(view && view.types.length > 0 && view.parts.length > 0 ? { requested: view.types } : {}),
      ...(view?.obj ? { request: view.obj } : {}),
    });
    this.answers.checked++;
    if (found.length === 0) return;
    this.answers.failed++;
    for (const f of found) {
      this.answers.byRule.set(f.rule, (this.answers.byRule.get(f.rule) ?? 0) + 1);
      if (this.answers.list.length < ANSWER_EXAMPLES) this.answers.list.push({ call: seq, rule: f.rule, line: shortened(redactText(f.line), 2000) });
    }
  }

  private observeRefused(call: Extract<ObservedCall, { kind: 'refused' }>): readonly Finding[] {
    const refused: RefusedCall = { format: call.format, method: call.method, path: call.path, status: call.status, reason: call.reason };
    const findings = TRANSPORT_CHECKS.flatMap((check) => check.run(refused).map((f) => ({ check: check.name, f })));
    // The browser's ACS pages and the kit's control calls are not the client's calls: they are not counted.
    if (findings.length === 0 && !call.format) return [];
    const seq = ++this.seq;
    this.refused++;
    for (const { check, f } of findings) this.record(seq, `refused ${call.status}`, check, f);
    return findings.map(({ f }) => f);
  }

  /**
   * The form the merchant's page had the browser POST to `acsurl`, as the ACS accepted it (a refused one comes as a
   * refused call). Like the ACS's pages, not counted as a client's call unless a check finds something in it.
   */
  observeAcsForm(form: AcsForm): readonly Finding[] {
    const ctx = { ledger: this.ledger };
    const findings = ACS_FORM_CHECKS.flatMap((check) => check.run(form, ctx).map((f) => ({ check: check.name, f })));
    if (findings.length === 0) return [];
    const seq = ++this.seq;
    for (const { check, f } of findings) this.record(seq, 'acs form', check, f);
    return findings.map(({ f }) => f);
  }

  private record(call: number, operation: string, check: string, f: Finding): void {
    this.counts[f.severity]++;
    const r = this.byRule.get(f.rule) ?? { error: 0, warning: 0 };
    r[f.severity]++;
    this.byRule.set(f.rule, r);
    const key = `${f.rule} ${check}`;
    let c = this.byCheck.get(key);
    if (!c) this.byCheck.set(key, (c = { rule: f.rule, check, error: 0, warning: 0, listed: 0 }));
    c[f.severity]++;
    // The first few of each check of each rule are examples enough: a client repeating one mistake a million times
    // is one line, counted.
    if (c.listed >= this.examples || this.list.length >= this.maxListed) {
      this.omitted++;
      return;
    }
    c.listed++;
    this.list.push({
      call,
      operation: shortened(redactText(operation), 200),
      check,
      rule: f.rule,
      field: shortened(redactText(f.field), 200),
      severity: f.severity,
      message: shortened(redactText(f.message), 2000),
    });
  }

  /** Counts, the transactions made (for the flows) and the last answers (for scenario mode). */
  private track(call: CheckedCall, findings: readonly Finding[]): void {
    const clean = !findings.some((f) => f.severity === 'error');
    if (call.requests.length === 0) this.count(UNRECOGNISED);
    const made: Step[] = [];
    for (const view of call.requests) {
      this.count(view.row?.id ?? UNRECOGNISED);
      for (const part of view.parts) {
        const ref = part.transactionreference;
        if (typeof ref === 'string' && ref !== '') made.push({ ref, row: view.row?.id, clean });
      }
    }
    if (this.flowsAfterRecord) this.unjudged.made.push(...made);
    else this.flows.addSteps(made);
    for (const view of call.requests) {
      if (view.types.join() === 'TRANSACTIONUPDATE' && view.obj) {
        const target = filterReferences(view.obj.filter)[0];
        const updates = view.obj.updates;
        const fields = typeof updates === 'object' && updates !== null ? Object.keys(updates) : [];
        const errorcode = view.parts[0]?.errorcode;
        const update = { target, fields, errorcode: typeof errorcode === 'string' ? errorcode : undefined, clean };
        if (this.flowsAfterRecord) this.unjudged.updates.push(update);
        else this.flows.addUpdate(update);
      }
    }
    this.recent[this.recentCount++ % KEEP_ANSWERED] = { seq: call.seq, types: call.requests.flatMap((r) => r.types), parts: call.parts };
  }

  private count(id: string): void {
    this.byOperation.set(id, (this.byOperation.get(id) ?? 0) + 1);
  }

  /** The position of the last call seen: `answeredSince(mark())` gives the calls made after this point. */
  mark(): number {
    return this.seq;
  }

  answeredSince(mark: number): AnsweredCall[] {
    const out: AnsweredCall[] = [];
    for (let i = Math.max(0, this.recentCount - KEEP_ANSWERED); i < this.recentCount; i++) {
      const c = this.recent[i % KEEP_ANSWERED];
      if (c.seq > mark) out.push(c);
    }
    return out;
  }

  /** The violations kept (masked), oldest first. */
  violations(severity?: Severity): ContractViolation[] {
    return severity ? this.list.filter((v) => v.severity === severity) : [...this.list];
  }

  /** Client conformance cases run against this session (scenario mode), shown in the report. */
  setCases(results: CaseResult[]): void {
    this.cases = results;
  }

  /** The gate: violations (with `strict`, warnings too), or a failed client case. */
  failed(strict: boolean = this.strict): boolean {
    if (this.counts.error > 0 || (strict && this.counts.warning > 0)) return true;
    return (this.cases ?? []).some((c) => !c.passed && (strict || c.severity === 'error'));
  }

  exitCode(strict: boolean = this.strict): 0 | 1 {
    return this.failed(strict) ? 1 : 0;
  }

  report(): ContractReport {
    const byOperation = [...this.byOperation].map(([id, count]) => ({ id, title: OPERATION[id]?.title ?? 'no row of the Request types table', count }));
    return {
      kind: 'cardspec-contract-report',
      strict: this.strict,
      passed: !this.failed(),
      requests: { total: this.answered + this.refused, answered: this.answered, refused: this.refused, json: this.byFormat.json, xml: this.byFormat.xml, byOperation },
      flows: FLOWS.map((f) => {
        const times = this.flows.count(f.id);
        return { id: f.id, title: f.title, rules: [...f.rules], covered: times > 0, times };
      }),
      violations: {
        errors: this.counts.error,
        warnings: this.counts.warning,
        byRule: [...this.byRule].map(([rule, n]) => {
          const text = ruleText(rule);
          return { rule, errors: n.error, warnings: n.warning, section: text?.section, quote: text?.quote, proposed: text?.source === 'proposed' || undefined };
        }),
        byCheck: [...this.byCheck.values()].map(({ rule, check, error, warning, listed }) => ({ rule, check, errors: error, warnings: warning, listed })),
        list: [...this.list],
        omitted: this.omitted,
      },
      answers: {
        checked: this.answers.checked,
        failed: this.answers.failed,
        byRule: [...this.answers.byRule].map(([rule, count]) => ({ rule, count })),
        list: [...this.answers.list],
      },
      cases: this.cases,
    };
  }
}

/**
 * A listed text within a bound, masked first (a card number cut in half would no longer be seen as one): a request
 * of thousands of request types or fields must not make one example of megabytes.
 */
function shortened(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} characters)`;
}

/** The operation a call was: its row, or the request types it named. */
function operationOf(call: CheckedCall): string {
  if (call.requests.length === 0) return UNRECOGNISED;
  return call.requests.map((r) => r.row?.id ?? (r.types.length ? r.types.join('+') : UNRECOGNISED)).join(', ');
}
