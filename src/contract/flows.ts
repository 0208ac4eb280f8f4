/**
 * The documented flows a client can go through end to end, and how to tell from what it sent that it did. A step is
 * a transaction the client made (a response part with a `transactionreference`) from a request with no error
 * finding; steps are linked the way the document links them, through `parenttransactionreference` or the `md` and
 * `pares` of a THREEDQUERY, as the gateway's ledger recorded them. A flow is covered when its last step was made
 * on top of the steps before it.
 */
import type { Ledger, TxRecord } from '../gateway';

/** A transaction the client made, as the session saw it. */
export interface Step {
  readonly ref: string;
  /** The row of the Request types table of the request that made it. */
  readonly row: string | undefined;
  /** The request had no error finding. */
  readonly clean: boolean;
}

/** A TRANSACTIONUPDATE the client sent (it makes no transaction of its own). */
export interface UpdateStep {
  readonly target: string | undefined;
  readonly fields: readonly string[];
  readonly errorcode: string | undefined;
  readonly clean: boolean;
}

export interface FlowGraph {
  readonly ledger: Ledger;
  readonly steps: ReadonlyMap<string, Step>;
}

/** A step with its ledger record, for the flows' conditions. */
export interface StepView extends Step {
  readonly rec: TxRecord;
}

export interface FlowDef {
  readonly id: string;
  readonly title: string;
  /** The rules of features/rules.yaml that describe the flow. */
  readonly rules: readonly string[];
  /** Whether this clean step, just made, completes the flow (judged once, when the step is made). */
  step?(s: StepView, g: FlowGraph): boolean;
  /** Whether this TRANSACTIONUPDATE, just answered, completes the flow. */
  update?(u: UpdateStep, g: FlowGraph): boolean;
}

function view(g: FlowGraph, ref: string | undefined): StepView | undefined {
  if (ref === undefined) return undefined;
  const step = g.steps.get(ref);
  const rec = g.ledger.get(ref);
  return step && rec ? { ...step, rec } : undefined;
}

/** The clean step that is this step's parent, if the client made it. */
function parent(g: FlowGraph, s: StepView): StepView | undefined {
  const p = view(g, s.rec.parent);
  return p?.clean ? p : undefined;
}

/**
 * Counts the flows as the client goes through them. Each step is judged once, when it is made (its parents are in
 * the ledger then), so nothing per request needs to be kept for the report: only the steps the ledger still holds,
 * which later steps may name as parents. A gate left up for days holds no more than the ledger does.
 */
export class FlowCounter {
  private steps = new Map<string, Step>();
  private limit = 1024;
  private readonly times = new Map<string, number>(FLOWS.map((f) => [f.id, 0]));

  constructor(private readonly ledger: Ledger) {}

  private get graph(): FlowGraph {
    return { ledger: this.ledger, steps: this.steps };
  }

  /** The transactions one call made (all of them first: a part's parent may be the part before it). */
  addSteps(made: readonly Step[]): void {
    if (made.length === 1) {
      // Most calls make one transaction: one look-up of the (large) map, and the step judged as it is.
      const s = made[0];
      if (this.steps.get(s.ref) === undefined) {
        this.steps.set(s.ref, s);
        this.judge(s);
      }
    } else if (made.length > 1) {
      const fresh = made.filter((s) => !this.steps.has(s.ref));
      for (const s of fresh) this.steps.set(s.ref, s);
      for (const s of fresh) {
        const step = this.steps.get(s.ref);
        if (step !== undefined) this.judge(step);
      }
    }
    // Steps whose transaction the ledger has dropped can be nobody's parent any more: taken out in place (a copy
    // of the map would be as large as the ledger's window).
    if (this.steps.size > this.limit) {
      for (const ref of this.steps.keys()) if (this.ledger.get(ref) === undefined) this.steps.delete(ref);
      this.limit = Math.max(1024, 2 * this.steps.size);
    }
  }

  /** A new step, with its record: the flows it completes (judged once, when it is made). */
  private judge(s: Step): void {
    if (!s.clean) return;
    const rec = this.ledger.get(s.ref);
    if (rec === undefined) return;
    const v: StepView = { ref: s.ref, row: s.row, clean: s.clean, rec };
    const g = this.graph;
    for (const f of FLOWS) if (f.step?.(v, g)) this.times.set(f.id, this.times.get(f.id)! + 1);
  }

  addUpdate(u: UpdateStep): void {
    const g = this.graph;
    for (const f of FLOWS) if (f.update?.(u, g)) this.times.set(f.id, this.times.get(f.id)! + 1);
  }

  /** How many times the client went through each flow. */
  count(id: string): number {
    return this.times.get(id) ?? 0;
  }
}

const enrolled = (s: StepView | undefined, values: readonly string[]): boolean => s?.rec.type === 'THREEDQUERY' && s.rec.threeds !== undefined && values.includes(s.rec.threeds.enrolled);

/** A flow whose last step is one clean step matching `last`. */
function flow(id: string, title: string, rules: readonly string[], last: (s: StepView, g: FlowGraph) => boolean): FlowDef {
  return { id, title, rules, step: last };
}

const isAuth = (s: StepView): boolean => s.rec.type === 'AUTH';

export const FLOWS: readonly FlowDef[] = [
  flow('auth', 'Ordinary AUTH (rule 1)', ['3DS-FALLBACK-AUTH'], (s) => isAuth(s) && s.row === 'auth'),
  flow(
    'threeds-enrolled',
    '3-D Secure, enrolled card: THREEDQUERY (Y), the ACS, AUTH with md and pares',
    ['3DS-NEXT-Y', '3DS-AUTH-ENROLLED'],
    (s, g) => isAuth(s) && s.row === 'auth-3ds-enrolled' && enrolled(parent(g, s), ['Y']),
  ),
  flow(
    'threeds-not-enrolled',
    '3-D Secure, card not enrolled or unknown: THREEDQUERY (N or U), AUTH with parenttransactionreference',
    ['3DS-NEXT-N', '3DS-NEXT-U', '3DS-AUTH-NOT-ENROLLED'],
    (s, g) => isAuth(s) && s.row === 'auth-3ds-not-enrolled' && enrolled(parent(g, s), ['N', 'U']),
  ),
  flow('subscription-enrolled', 'Subscription, enrolled card: THREEDQUERY (Y), the ACS, AUTH+SUBSCRIPTION with md and pares', ['SUB-ENROLLED'], (s, g) => {
    const auth = parent(g, s);
    return s.rec.type === 'SUBSCRIPTION' && s.row === 'subscription-enrolled' && auth !== undefined && enrolled(parent(g, auth), ['Y']);
  }),
  flow('subscription-not-enrolled', 'Subscription, card not enrolled: THREEDQUERY, AUTH+SUBSCRIPTION with parenttransactionreference', ['SUB-NOT-ENROLLED'], (s, g) => {
    const auth = parent(g, s);
    return s.rec.type === 'SUBSCRIPTION' && s.row === 'subscription-not-enrolled' && auth !== undefined && enrolled(parent(g, auth), ['N', 'U']);
  }),
  flow('subscription-no-3ds', 'Subscription without 3-D Secure: AUTH+SUBSCRIPTION with the card', ['SUB-NO-3DS'], (s) => s.rec.type === 'SUBSCRIPTION' && s.row === 'subscription-no-3ds'),
  {
    id: 'subscription-amount-change',
    title: 'Subscription amount change: AUTH+SUBSCRIPTION, then TRANSACTIONUPDATE of the SUBSCRIPTION with a new baseamount',
    rules: ['SUB-AMOUNT-UPDATE'],
    update: (u, g) => u.clean && u.errorcode === '0' && u.fields.includes('baseamount') && view(g, u.target)?.rec.type === 'SUBSCRIPTION',
  },
  flow('accountcheck', 'Account check', ['AC-SHAPE'], (s) => s.rec.type === 'ACCOUNTCHECK' && s.row === 'accountcheck'),
  flow('accountcheck-inherited', 'Account check, then a request inheriting its fields', ['AC-INHERITED'], (s, g) => parent(g, s)?.rec.type === 'ACCOUNTCHECK'),
  flow('store', 'Card store', ['STORE-SHAPE'], (s) => s.rec.type === 'STORE' && s.row === 'store'),
  flow('stored-card', 'Card store, then a request on the stored card (parenttransactionreference)', ['3DS-STORED-CARD', 'INHERIT-CHILD'], (s, g) => parent(g, s)?.rec.type === 'STORE'),
  flow('riskdec-card', 'Risk decision on card data', ['RISKDEC-CARD'], (s) => s.rec.type === 'RISKDEC' && s.row === 'riskdec-card'),
  flow('riskdec-after-payment', 'AUTH, then a risk decision after the payment', ['RISKDEC-AFTER-PAYMENT'], (s, g) => s.row === 'riskdec-after-payment' && parent(g, s)?.rec.type === 'AUTH'),
  flow('riskdec-first', 'Combined, risk decision first: ["RISKDEC","AUTH"]', ['RISKDEC-FIRST'], (s) => isAuth(s) && s.row === 'riskdec-then-auth'),
  flow('riskdec-last', 'Combined, risk decision last: ["AUTH","RISKDEC"]', ['RISKDEC-LAST'], (s) => s.rec.type === 'RISKDEC' && s.row === 'auth-then-riskdec'),
  flow('riskdec-then-threeds', 'RISKDEC, then THREEDQUERY on it (rule 5)', ['RISKDEC-BEFORE-3DS'], (s, g) => s.rec.type === 'THREEDQUERY' && parent(g, s)?.rec.type === 'RISKDEC'),
  flow('threeds-auth-riskdec', 'THREEDQUERY, AUTH, then RISKDEC on the AUTH (rule 6)', ['RISKDEC-AFTER-3DS-AUTH'], (s, g) => {
    const auth = parent(g, s);
    return s.rec.type === 'RISKDEC' && auth !== undefined && isAuth(auth) && parent(g, auth)?.rec.type === 'THREEDQUERY';
  }),
];
