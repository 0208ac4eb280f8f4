/**
 * The one HTTP client of the conformance suite: node:http(s) with a connect timeout, a total timeout and a cap on
 * the size of an answer. A target under test may refuse, hang, reset mid-body or answer something enormous; each
 * of those becomes an `HttpFailure` with a message a person can act on, never an unhandled exception, so that one
 * misbehaving target fails the steps it touches and the run goes on.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { redactText, registerSecret } from '../redact';
import { tlsRequestOptions } from './tls';

export interface HttpLimits {
  /** Time allowed to open the TCP (and TLS) connection. */
  readonly connectTimeoutMs: number;
  /** Time allowed for the whole exchange, connection to last byte. */
  readonly totalTimeoutMs: number;
  /** Largest answer body accepted, in bytes. */
  readonly maxResponseBytes: number;
}

export const DEFAULT_LIMITS: HttpLimits = { connectTimeoutMs: 5_000, totalTimeoutMs: 15_000, maxResponseBytes: 5 * 1024 * 1024 };

export interface HttpRequest {
  readonly url: string;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  readonly limits?: Partial<HttpLimits>;
  /** A keep-alive agent shared by the calls to one target; a fresh connection per call when absent. */
  readonly agent?: http.Agent;
  /** Aborts the exchange (the run was stopped): it fails at once with an `HttpFailure` of kind `stopped`. */
  readonly signal?: AbortSignal;
}

export interface HttpResponse {
  readonly status: number;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly durationMs: number;
}

export type HttpFailureKind = 'refused' | 'connect-timeout' | 'timeout' | 'reset' | 'too-large' | 'dns' | 'bad-url' | 'network' | 'stopped';

/** The failure of an exchange cut short because the run was stopped: not the target's fault. */
export function stoppedFailure(signal: AbortSignal, where: string, durationMs: number): HttpFailure {
  const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'stopped');
  return new HttpFailure('stopped', `the request to ${where} was abandoned: the run was stopped (${reason})`, durationMs);
}

/** A transport failure, with a message that names what happened and where, already masked. */
export class HttpFailure extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    message: string,
    readonly durationMs: number,
    /** What had arrived before the failure (status and a masked start of the body), when anything had. */
    readonly partial?: { status: number; bytes: number },
  ) {
    super(redactText(message));
    this.name = 'HttpFailure';
  }
}

/** Keep-alive agents for one target: reusing connections makes a few hundred calls cheap. */
export function keepAliveAgent(url: string): http.Agent {
  const opts = { keepAlive: true, maxSockets: 16 };
  return url.startsWith('https:') ? new https.Agent({ ...opts, ...tlsRequestOptions() }) : new http.Agent(opts);
}

function where(u: URL): string {
  return `${u.protocol}//${u.host}${u.pathname}`;
}

/** What node says when it does not trust a certificate: the answer is --ca (src/client/tls.ts), not a retry. */
const TLS_TRUST_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const TLS_HINT = "if the target's certificate is signed by a private CA, give --ca <file> with that CA's certificate (PEM), or CARDSPEC_CA";

/** What OpenSSL says when the other end of an https:// URL answers in plain HTTP (or anything but TLS). */
const TLS_NOT_SPOKEN = /wrong version number|unknown protocol|packet length too long|http request/i;
const TLS_NOT_SPOKEN_HINT = 'the server there does not speak TLS; if it is plain HTTP, give an http:// URL in --target';

/** One exchange. Resolves with the answer whatever its status; rejects only with an `HttpFailure`. */
export function httpRequest(req: HttpRequest): Promise<HttpResponse> {
  const limits: HttpLimits = { ...DEFAULT_LIMITS, ...req.limits };
  const started = process.hrtime.bigint();
  const elapsed = (): number => Number((process.hrtime.bigint() - started) / 1_000_000n);
  let u: URL;
  try {
    u = new URL(req.url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    return Promise.reject(new HttpFailure('bad-url', `not an http(s) URL: ${req.url}`, 0));
  }
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  const headers: Record<string, string> = { ...req.headers };
  if (body) headers['Content-Length'] = String(body.length);
  const lib = u.protocol === 'https:' ? https : http;
  // --ca / --insecure (src/client/tls.ts): the same trust for every HTTPS exchange, the ACS round trip included.
  const tls = u.protocol === 'https:' ? tlsRequestOptions() : {};
  const target = where(u);
  const signal = req.signal;
  if (signal?.aborted) return Promise.reject(stoppedFailure(signal, target, 0));

  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    let status = 0;
    let received = 0;
    const finish = (err: HttpFailure | null, res?: HttpResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(totalTimer);
      clearTimeout(connectTimer);
      signal?.removeEventListener('abort', onAbort);
      if (err) {
        clientReq.destroy();
        reject(err);
      } else if (res) resolve(res);
    };
    const partial = (): { status: number; bytes: number } | undefined => (status ? { status, bytes: received } : undefined);
    const onAbort = (): void => finish(stoppedFailure(signal!, target, elapsed()));

    const clientReq = lib.request(u, { method: req.method ?? 'POST', headers, agent: req.agent ?? false, ...tls }, (res) => {
      status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > limits.maxResponseBytes) {
          res.destroy();
          finish(new HttpFailure('too-large', `the answer from ${target} is larger than ${limits.maxResponseBytes} bytes (HTTP ${status}); the kit stops reading there`, elapsed(), partial()));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        if (!res.complete) {
          finish(new HttpFailure('reset', `the connection to ${target} closed in the middle of the answer (HTTP ${status}, ${received} bytes received)`, elapsed(), partial()));
          return;
        }
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
        finish(null, { status, headers: out, body: Buffer.concat(chunks), durationMs: elapsed() });
      });
      // 'aborted' then 'error' (ECONNRESET, "aborted") when the peer drops the connection mid-body.
      res.on('error', () => {
        finish(new HttpFailure('reset', `the connection to ${target} was reset in the middle of the answer (HTTP ${status}, ${received} bytes received)`, elapsed(), partial()));
      });
    });

    // HTTPS: the TCP connection made, the TLS handshake not finished (a server that waits for plain HTTP).
    let tcpConnected = false;
    const connectTimer = setTimeout(() => {
      if (tcpConnected) {
        const message = `the TLS handshake with ${target} did not finish within ${limits.connectTimeoutMs} ms, though the connection was made: the server there may not speak TLS; if it is plain HTTP, give an http:// URL in --target`;
        finish(new HttpFailure('network', message, elapsed()));
      } else finish(new HttpFailure('connect-timeout', `no connection to ${target} within ${limits.connectTimeoutMs} ms`, elapsed()));
    }, limits.connectTimeoutMs);
    const totalTimer = setTimeout(() => {
      const what = status ? `the answer (HTTP ${status}) did not finish` : 'no answer arrived';
      finish(new HttpFailure('timeout', `${what} from ${target} within ${limits.totalTimeoutMs} ms: the target hung`, elapsed(), partial()));
    }, limits.totalTimeoutMs);

    clientReq.on('socket', (socket) => {
      // A reused keep-alive socket is already connected and emits no 'connect'.
      const connecting = (socket as { connecting?: boolean }).connecting;
      if (!connecting) clearTimeout(connectTimer);
      else {
        socket.once(u.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
        if (u.protocol === 'https:') socket.once('connect', () => (tcpConnected = true));
      }
    });
    clientReq.on('error', (e: NodeJS.ErrnoException) => {
      const code = e.code ?? '';
      if (code === 'ECONNREFUSED') finish(new HttpFailure('refused', `${target} refused the connection (nothing listens there?)`, elapsed()));
      else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') finish(new HttpFailure('dns', `the host of ${target} was not found (${code})`, elapsed()));
      else if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/.test(e.message))
        finish(
          new HttpFailure(
            'reset',
            status
              ? `the connection to ${target} was reset in the middle of the answer (HTTP ${status}, ${received} bytes received)`
              : `the connection to ${target} was closed before any answer (${code || e.message})`,
            elapsed(),
            partial(),
          ),
        );
      else if (TLS_TRUST_CODES.has(code) || /certificate/i.test(e.message))
        finish(new HttpFailure('network', `the TLS certificate of ${target} was not accepted (${code || e.message}): ${TLS_HINT}`, elapsed(), partial()));
      else if (code === 'EPROTO' || code.startsWith('ERR_SSL_') || TLS_NOT_SPOKEN.test(e.message))
        finish(new HttpFailure('network', `the TLS handshake with ${target} failed (${code || e.message}): ${TLS_NOT_SPOKEN_HINT}`, elapsed(), partial()));
      else finish(new HttpFailure('network', `network error talking to ${target}: ${code || e.message}`, elapsed(), partial()));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    if (body) clientReq.write(body);
    clientReq.end();
  });
}

/** `Authorization` header value for HTTP basic authentication ("sent as `<USERNAME>:<PASSWORD>`"). */
export function basicAuth(user: string, password: string): string {
  const token = Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
  // The token is the password, barely encoded: a target that echoes it (an error page, a debug body) must not put
  // it in a console line, a report or a counterexample. Whatever credentials go on the wire are masked in output.
  registerSecret(password);
  registerSecret(token);
  return 'Basic ' + token;
}
