/**
 * The load generator: autocannon, programmatically, alone in this process (the server under test is in another).
 * One child per row: a warm-up run whose figures are dropped, then `reps` measured runs, each bounded by time
 * (`durationSec`) and by count (`maxRequests`). Every answer is checked cheaply (HTTP 200 and a first part with
 * errorcode "0"), so that a server answering errors fast cannot look good.
 *
 * Latencies are taken from autocannon's per-response event (milliseconds as floats), not from its histogram, which
 * rounds to whole milliseconds: loopback answers take about one.
 */
import { failChild, tell } from './child';
import { OK_MARK, REFERENCE_SOURCE } from './payloads';

/** What a row sends. `cycle` sends a list of bodies in turn (the fuzz ceiling: the fuzzer's own payloads). */
export type Scenario =
  | { readonly kind: 'single'; readonly body: string; readonly headers?: Readonly<Record<string, string>> }
  | {
      readonly kind: 'pair';
      readonly first: string;
      readonly firstHeaders?: Readonly<Record<string, string>>;
      readonly second: string;
      readonly secondHeaders?: Readonly<Record<string, string>>;
      readonly placeholder: string;
    }
  | { readonly kind: 'cycle'; readonly bodies: readonly string[]; readonly headers?: Readonly<Record<string, string>>; readonly path?: string };

export interface LoadSpec {
  readonly type: 'run';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly scenario: Scenario;
  readonly connections: number;
  readonly warmupSec: number;
  readonly durationSec: number;
  readonly maxRequests: number;
  readonly reps: number;
  /** Whether an answer must be HTTP 200 with errorcode "0" to count as good (not for the fuzz ceiling). */
  readonly checkOk: boolean;
}

export interface LoadRep {
  /** Completed HTTP requests. */
  readonly requests: number;
  readonly seconds: number;
  /** Requests per second, or pairs per second for a pair. */
  readonly rate: number;
  /** Milliseconds: of a request, or of a whole pair (the two requests' times added). */
  readonly p50: number;
  readonly p99: number;
  /** Answers that were not HTTP 200 with errorcode "0" (with checkOk; else 5xx answers), transport errors, timeouts. */
  readonly bad: number;
  readonly errors: number;
  readonly timeouts: number;
}

// autocannon ships no types: the part of its API used here.
interface AcRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  setupRequest?: (req: AcRequest, context: Record<string, unknown>) => AcRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
interface AcOptions {
  url: string;
  connections: number;
  pipelining: number;
  duration: number;
  maxOverallRequests: number;
  timeout: number;
  requests: AcRequest[];
}
interface AcResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { total: number };
}
interface AcInstance {
  on(event: 'response', listener: (client: object, status: number, bytes: number, responseTime: number) => void): void;
}
type Autocannon = (opts: AcOptions, done: (err: Error | null, result: AcResult) => void) => AcInstance;
// autocannon ships no types; its one call is typed above.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Autocannon;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

function requestsOf(spec: LoadSpec, counters: { bad: number }): AcRequest[] {
  const s = spec.scenario;
  const headers = (extra?: Readonly<Record<string, string>>): Record<string, string> => ({ ...spec.headers, ...(extra ?? {}) });
  // Without checkOk (the fuzz ceiling, invalid on purpose) only a server error counts as bad.
  const check = (status: number, body: string): void => {
    if (spec.checkOk ? status !== 200 || !body.includes(OK_MARK) : status >= 500) counters.bad++;
  };
  if (s.kind === 'single') {
    return [{ method: 'POST', path: '/json/', headers: headers(s.headers), body: s.body, onResponse: (status, body) => check(status, body) }];
  }
  if (s.kind === 'cycle') {
    const path = s.path ?? '/json/';
    return s.bodies.map((body) => ({ method: 'POST', path, headers: headers(s.headers), body, onResponse: (status: number, b: string) => check(status, b) }));
  }
  const reference = new RegExp(REFERENCE_SOURCE);
  return [
    {
      method: 'POST',
      path: '/json/',
      headers: headers(s.firstHeaders),
      body: s.first,
      onResponse: (status, body, context) => {
        check(status, body);
        context.parent = reference.exec(body)?.[1] ?? 'none';
      },
    },
    {
      method: 'POST',
      path: '/json/',
      headers: headers(s.secondHeaders),
      setupRequest: (req, context) => ({ ...req, body: s.second.replace(s.placeholder, String(context.parent ?? 'none')) }),
      onResponse: (status, body) => check(status, body),
    },
  ];
}

function once(spec: LoadSpec, durationSec: number): Promise<LoadRep> {
  const counters = { bad: 0 };
  const latencies = new Float64Array(spec.maxRequests + spec.connections * 4);
  let n = 0;
  // A pair's time is its two requests' times added; a connection's answers alternate first, second.
  const pending = new WeakMap<object, number>();
  const pair = spec.scenario.kind === 'pair';
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        connections: spec.connections,
        pipelining: 1,
        duration: durationSec,
        maxOverallRequests: spec.maxRequests,
        timeout: 10,
        requests: requestsOf(spec, counters),
      },
      (err, result) => {
        if (err) return reject(err);
        const sorted = latencies.slice(0, n).sort();
        const seconds = result.duration;
        const completed = result.requests.total;
        const units = pair ? Math.floor(completed / 2) : completed;
        resolve({
          requests: completed,
          seconds,
          rate: seconds > 0 ? units / seconds : 0,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          bad: counters.bad + result.errors + result.timeouts,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
    instance.on('response', (client, _status, _bytes, responseTime) => {
      if (n >= latencies.length) return;
      if (!pair) {
        latencies[n++] = responseTime;
        return;
      }
      const first = pending.get(client);
      if (first === undefined) pending.set(client, responseTime);
      else {
        pending.delete(client);
        latencies[n++] = first + responseTime;
      }
    });
  });
}

/**
 * One `run` message, one answer: a warm-up of `warmupSec` (dropped) when asked, then `reps` measured runs. The
 * process stays for more messages, so that the benchmark can interleave the servers of a row run by run (a machine
 * whose load drifts then weighs on every server alike).
 */
async function handle(spec: LoadSpec): Promise<void> {
  if (spec.warmupSec > 0) await once({ ...spec, maxRequests: Math.max(spec.connections, Math.floor(spec.maxRequests / 4)) }, spec.warmupSec);
  const reps: LoadRep[] = [];
  for (let i = 0; i < spec.reps; i++) reps.push(await once(spec, spec.durationSec));
  tell({ type: 'result', data: reps });
}

if (require.main === module) {
  let queue = Promise.resolve();
  process.on('message', (m: unknown) => {
    queue = queue.then(() => handle(m as LoadSpec)).catch(failChild);
  });
  process.once('disconnect', () => process.exit(0));
}
