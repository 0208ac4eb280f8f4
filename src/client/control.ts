/**
 * The client of the test-control API (docs/architecture.md, "The test-control API"): the one extension the kit
 * asks of a target, so that time-based scenarios move a clock instead of sleeping, and scenarios can read the
 * payments a subscription engine took. A target offers it or not; the profile's capabilities say which.
 */
import { checkValue } from '../../schemas/check';
import { FIELD } from '../../schemas/fields';
import { redactText } from '../redact';
import { basicAuth, HttpFailure, httpRequest, type HttpLimits } from './http';

export interface ControlOptions {
  readonly baseUrl: string;
  /** `/_cardspec/` unless the profile says otherwise. */
  readonly path: string;
  readonly user?: string;
  readonly password?: string;
  readonly limits: HttpLimits;
  /** Aborts the calls (the run was stopped). */
  readonly signal?: AbortSignal;
}

export type LedgerRecord = Readonly<Record<string, unknown>>;

export interface ClockAdvance {
  readonly now: string;
  readonly settled?: number;
  readonly payments?: number;
}

/** A control call that failed; the message says which call and why. */
export class ControlError extends Error {
  constructor(message: string) {
    super(redactText(message));
    this.name = 'ControlError';
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class ControlClient {
  constructor(readonly options: ControlOptions) {}

  private async call(method: 'GET' | 'POST', sub: string, body?: unknown): Promise<Record<string, unknown>> {
    const url = this.options.baseUrl.replace(/\/+$/, '') + this.options.path.replace(/\/?$/, '/') + sub;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const { user, password } = this.options;
    if (user !== undefined && password !== undefined) headers.Authorization = basicAuth(user, password);
    const what = `test-control ${method} ${sub.split('?')[0]}`;
    let res;
    try {
      res = await httpRequest({ url, method, headers, body: body === undefined ? undefined : JSON.stringify(body), limits: this.options.limits, signal: this.options.signal });
    } catch (e) {
      throw new ControlError(`${what}: ${e instanceof HttpFailure ? e.message : String(e)}`);
    }
    const text = res.body.toString('utf8');
    const start = text.trim().split('\n')[0].slice(0, 200);
    if (res.status < 200 || res.status > 299) throw new ControlError(`${what} answered HTTP ${res.status}: ${start}`);
    try {
      const doc: unknown = JSON.parse(text);
      if (isRecord(doc)) return doc;
    } catch {
      /* reported below */
    }
    throw new ControlError(`${what} did not answer a JSON object: ${start}`);
  }

  async now(): Promise<string> {
    const doc = await this.call('GET', 'clock');
    if (typeof doc.now !== 'string') throw new ControlError('test-control GET clock: the answer has no "now"');
    return doc.now;
  }

  async advance(by: { advanceSeconds: number } | { advanceDays: number } | { advanceMonths: number }): Promise<ClockAdvance> {
    const doc = await this.call('POST', 'clock', by);
    if (typeof doc.now !== 'string') throw new ControlError('test-control POST clock: the answer has no "now"');
    return { now: doc.now, settled: typeof doc.settled === 'number' ? doc.settled : undefined, payments: typeof doc.payments === 'number' ? doc.payments : undefined };
  }

  /**
   * A cache token for a card. The token is checked against the dictionary's `cachetoken` before use, so that a
   * control API handing out tokens its own target would refuse is reported as such, not as a failed scenario.
   */
  async cachetoken(card: { pan: string; expirydate: string; securitycode?: string }): Promise<string> {
    const doc = await this.call('POST', 'cachetokens', card);
    if (typeof doc.cachetoken !== 'string') throw new ControlError('test-control POST cachetokens: the answer has no "cachetoken"');
    const problem = checkValue(FIELD.cachetoken, 'request', doc.cachetoken);
    if (problem) throw new ControlError(`test-control POST cachetokens: the token is not a valid cachetoken (${problem.message})`);
    return doc.cachetoken;
  }

  async transaction(ref: string): Promise<LedgerRecord> {
    return this.call('GET', `transactions/${encodeURIComponent(ref)}`);
  }

  async children(ref: string): Promise<LedgerRecord[]> {
    const doc = await this.call('GET', `transactions?parenttransactionreference=${encodeURIComponent(ref)}`);
    if (!Array.isArray(doc.records)) throw new ControlError('test-control GET transactions: the answer has no "records" list');
    return doc.records.filter(isRecord);
  }
}
