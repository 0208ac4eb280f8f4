/**
 * `cardspec/nock`: the stand-in gateway inside a Node test process. `interceptGateway()` routes every request for
 * the service's host (both `http.request`/`https.request` and the global `fetch`, which nock 14 intercepts alike)
 * to the reference gateway's handler, with the contract checks of `cardspec serve --contract`, and answers what the
 * reference gateway answers: `/json/`, `/xml/`, the emulated ACS at `/acs/`, the test-control API under
 * `/_cardspec/` (on by default here: a test mints cache tokens and moves the clock) and `GET /_cardspec/contract`.
 *
 * ```ts
 * import { interceptGateway } from 'cardspec/nock';
 * const scope = interceptGateway({ host: 'https://payments.example.test' });
 * // ... run the client under test against https://payments.example.test ...
 * assert.deepEqual(scope.violations(), []);
 * scope.done();     // throws, listing each violation with its rule, if the client broke an obligation
 * scope.restore();  // removes the interceptors
 * ```
 * See docs/contract.md.
 */
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import nock from 'nock';
import { createContractGateway, type ContractGateway, type ContractOptions } from './contract/gateway';
import { dispatch } from './contract/memory';
import type { ContractReport, ContractViolation } from './contract/report';
import { reportText } from './contract/report';
import type { ContractSession } from './contract/session';
import type { InProcessGateway } from './gateway';
import { redactText } from './redact';

/**
 * The host intercepted when none is given: a name under `.test` (reserved, never a real host). The document gives
 * the endpoint as `POST {base_url}/json/` and shows no base address ("the list of supported base addresses: not
 * shown"), so a test names the base address its client is configured with.
 */
export const DEFAULT_HOST = 'https://gateway.cardspec.test';

export interface InterceptOptions extends Omit<ContractOptions, 'host' | 'port' | 'scenarios' | 'basePath'> {
  /**
   * The service's base address the client under test is configured with (scheme, host and port, and a path when the
   * client's base address has one: `https://payments.example.test/cardpay` answers `POST /cardpay/json/`).
   */
  host?: string;
}

export interface GatewayScope {
  /** The origin intercepted: `https://gateway.cardspec.test`. */
  readonly host: string;
  /** The reference gateway inside: its clock, ledger and configuration. */
  readonly gateway: InProcessGateway;
  readonly session: ContractSession;
  /** The violations so far (masked), oldest first; `'error'` or `'warning'` to keep one severity. */
  violations(severity?: 'error' | 'warning'): ContractViolation[];
  /** Requests, flows covered, violations with their rules: the report of `cardspec serve --contract`. */
  report(): ContractReport;
  /** True when a request reached the gateway and nothing failed the gate (with `strict`, no warning either). */
  isDone(): boolean;
  /**
   * Asserts like nock's `scope.done()`: throws an AssertionError when no request reached the gateway, or listing
   * every violation with its rule when the client broke an obligation (with `strict`, warnings too).
   */
  done(): void;
  /** Removes the interceptors: requests for the host are no longer answered by the stand-in gateway. */
  restore(): void;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/**
 * The body bytes from nock's text of them: nock hands a body over as UTF-8 text when its bytes are UTF-8, and as
 * hex otherwise (a gzip body). Text that reads as hex of bytes that are not UTF-8 can only have come that way.
 */
function bodyBytes(text: string): Buffer {
  if (text.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(text)) {
    const bytes = Buffer.from(text, 'hex');
    if (!Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes)) return bytes;
  }
  return Buffer.from(text, 'utf8');
}

function headerStrings(headers: Record<string, unknown>): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const name = k.toLowerCase();
    if (Array.isArray(v)) {
      if (name === 'set-cookie') out[name] = v.map(String);
      else out[name] = v.map(String).join(', ');
    } else out[name] = String(v);
  }
  return out;
}

export function interceptGateway(opts: InterceptOptions = {}): GatewayScope {
  let origin: URL;
  try {
    origin = new URL(opts.host ?? DEFAULT_HOST);
  } catch {
    throw new TypeError(redactText(`interceptGateway: host must be a base address such as ${DEFAULT_HOST}, not ${JSON.stringify(opts.host)}`));
  }
  if (origin.protocol !== 'http:' && origin.protocol !== 'https:') throw new TypeError(`interceptGateway: host must be http:// or https://, not ${origin.protocol}`);
  const base = origin.origin;
  // "POST {base_url}/json/", and "the list of supported base addresses: not shown": a base address may have a path,
  // served as `cardspec serve --base-path` serves it (src/gateway/routes/base-path.ts).
  const { host: _host, ...rest } = opts;
  const cg: ContractGateway = createContractGateway({ ...rest, basePath: origin.pathname, control: opts.control ?? true }, () => base);

  const scope = nock(base).persist();
  const sent = new WeakMap<object, { headers: IncomingHttpHeaders; body: string }>();
  // Emitted before nock reads the body for a reply function. nock parses a JSON body itself first, and throws outside
  // any handler when it is not JSON: the gateway must get the bytes as sent (malformed bodies included), so nock's own
  // copy of the headers loses its content type here; the real headers are kept for the gateway.
  scope.on('request', (req: { headers: Record<string, unknown> }, _interceptor: unknown, body: string) => {
    const headers = headerStrings(req.headers);
    sent.set(req, { headers, body });
    const { 'content-type': _ct, 'content-encoding': _ce, ...others } = req.headers;
    req.headers = others;
  });

  const interceptors = METHODS.map((method) => {
    const interceptor = scope.intercept(() => true, method);
    interceptor.reply(function (uri, _parsed, callback) {
      const seen = sent.get(this.req) ?? { headers: headerStrings(this.req.headers), body: '' };
      const headers: IncomingHttpHeaders = { host: origin.host, ...seen.headers };
      // `acsurl` is built from the Host header and X-Forwarded-Proto: the ACS must be on the intercepted origin.
      if (origin.protocol === 'https:') headers['x-forwarded-proto'] = 'https';
      dispatch(cg.handle, { method, url: uri, headers, body: bodyBytes(seen.body) }).then(
        (reply) => callback(null, [reply.status, reply.body, reply.headers]),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), [500]),
      );
    });
    return interceptor;
  });

  const session = cg.session;
  const failing = (): ContractViolation[] => session.violations().filter((v) => v.severity === 'error' || session.strict);
  return {
    host: base,
    gateway: cg.gateway,
    session,
    violations: (severity) => session.violations(severity),
    report: () => session.report(),
    isDone: () => session.report().requests.total > 0 && !session.failed(),
    done: () => {
      const report = session.report();
      assert.ok(report.requests.total > 0, `cardspec: no request reached the stand-in gateway at ${base}`);
      if (failing().length > 0) assert.fail(redactText(`cardspec: the client broke its contract with the service\n${reportText(report)}`));
    },
    restore: () => {
      for (const i of interceptors) nock.removeInterceptor(i);
      scope.removeAllListeners('request');
    },
  };
}

export type { ContractReport, ContractViolation } from './contract/report';
