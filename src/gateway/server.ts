/**
 * The HTTP transport (Endpoints > Transport): `POST /json/` and `POST /xml/` with HTTP basic authentication, the
 * emulated ACS at `/acs/` and `/acs/complete`, and the test-control API at `/_cardspec/*` when enabled.
 *
 * Where an envelope can be read the answer is HTTP 200 with an envelope, errors included (the document: "HTTP status
 * codes and the shape of a response to a malformed request: not shown"; docs/gateway.md). Where it cannot, a 4xx
 * with a one-line text: 401 (no or wrong credentials, with `WWW-Authenticate: Basic`), 404 (other paths), 405
 * (other methods), 413 (a body over the limit, before or after gzip), 415 (a content type or encoding other than
 * the form's), 400 (a gzip body that does not inflate). A bug never gives a 5xx: it is answered 99999.
 *
 * The hot path (`/json/`) does no logging unless asked, no synchronous I/O and no schema validation.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactText } from '../redact';
import { acsRoute } from './routes/acs';
import { controlRoute } from './routes/control';
import { failSafe, pathOf, plain, type RouteContext } from './routes/http';
import { transportRoute } from './routes/transport';
import type { ObservedCall, Runtime } from './types';

export { Authenticator } from './routes/auth';

/** Largest request body, compressed or not (cardspec's choice: "Rate limits... not shown"). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  readonly bodyLimit?: number;
  /** One line per request, passed through `redactText` (off unless given: no per-request cost). */
  readonly log?: (line: string) => void;
  /** `http://host:port` used for `acsurl` when a request has no usable Host header. */
  readonly baseUrl?: () => string;
  /**
   * Sees every call to `/json/` and `/xml/` once it is answered, and every call refused with a 4xx (contract testing,
   * src/contract). Absent, it costs nothing; an observer that throws is logged and never changes an answer.
   */
  readonly observe?: (call: ObservedCall) => void;
}

/** The gateway's request handler: one route per path (./routes/), a 404 for the rest, a 99999 for any bug. */
export function createHandler(rt: Runtime, opts: ServerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const log = opts.log;
  const observe = opts.observe;
  const tell = (call: ObservedCall): void => {
    try {
      observe!(call);
    } catch (err) {
      log?.(redactText(`cardspec gateway: observer error: ${err instanceof Error ? err.message : String(err)}`));
    }
  };
  const rc: RouteContext = {
    rt,
    limit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT,
    log,
    observe,
    baseUrl: opts.baseUrl,
    tell,
    refuse(req, res, format, status, message, headers = {}) {
      plain(res, status, message, headers);
      if (observe) tell({ kind: 'refused', format, method: req.method ?? '', path: pathOf(req), headers: req.headers, status, reason: message });
    },
    failSafe: (res, format, err) => failSafe(res, format, err, log),
  };
  const transport = transportRoute(rc);
  const acs = acsRoute(rc);
  const controlApi = controlRoute(rc);
  const onError = (req: IncomingMessage, res: ServerResponse, err: unknown): void => failSafe(res, req.url?.startsWith('/xml') ? 'xml' : 'json', err, log);

  function route(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    switch (path) {
      case '/json/':
      case '/json':
        return transport(req, res, 'json');
      // "The address of the XML endpoint ...: not shown": `/xml/` is cardspec's choice.
      case '/xml/':
      case '/xml':
        return transport(req, res, 'xml');
      case '/acs/':
        return acs(req, res, 'form', 'complete');
      case '/acs':
        return acs(req, res, 'form', 'acs/complete');
      case '/acs/complete':
        return acs(req, res, 'complete', 'complete');
    }
    if (rt.control && path.startsWith('/_cardspec/')) return controlApi(req, res, path, q < 0 ? '' : url.slice(q + 1));
    req.resume();
    // A client whose base address has a path (`https://host/api`) posts `/api/json/`: say how to serve that.
    const m = /^(\/.+)\/(json|xml)\/?$/.exec(path);
    const hint = m ? `; for a base address with the path ${m[1].slice(0, 80)}, start the gateway with that base path (cardspec serve --base-path ${m[1].slice(0, 80)})` : '';
    rc.refuse(req, res, undefined, 404, `404 Not Found: ${path.slice(0, 100)} (the gateway serves POST /json/ and POST /xml/${hint})`);
  }

  if (!log) {
    return (req, res) => {
      try {
        route(req, res);
      } catch (err) {
        onError(req, res, err);
      }
    };
  }
  return (req, res) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log(redactText(`${req.method} ${req.url} ${res.statusCode} ${ms.toFixed(1)}ms`));
    });
    try {
      route(req, res);
    } catch (err) {
      onError(req, res, err);
    }
  };
}
