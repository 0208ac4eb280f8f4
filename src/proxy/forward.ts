/**
 * The checking proxy's forwarding: an HTTP server that sends each request to the upstream as the client sent it
 * (method, path under the upstream's base, headers but the hop-by-hop ones and Host, body bytes) and streams each
 * answer back as it comes (status, reason, headers, body chunks as they arrive); connections are kept alive on both
 * sides. It checks nothing: each finished exchange goes to `sink` after its last byte has been written to the client,
 * and the checks run elsewhere (server.ts runs this in a thread of its own, the checks on the main thread).
 *
 * When the path fails (the upstream refuses the connection, resets it, does not answer within the timeout, fails
 * its TLS handshake, answers more than the limit, or answers what HTTP cannot read) the client gets a 502 (504 for
 * the timeout) whose text says why, or, when the answer had already begun, its connection closed; the exchange
 * goes to `sink` with the fault, and the proxy goes on serving.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TlsOptions } from '../client/tls';
import { withinBasePath } from '../gateway/routes/base-path';
import { redactText } from '../redact';
import type { Fault, FaultKind, HttpExchange } from './exchange';

export interface ForwarderOptions {
  readonly upstream: string;
  readonly port?: number;
  readonly host?: string;
  /** Normalised (`/api`, or '' for none). */
  readonly basePath: string;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  /** How an https upstream is trusted (the main thread's `tlsRequestOptions()`). */
  readonly tls: TlsOptions;
}

export interface Forwarder {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Called before a request is forwarded; a request waits for the promise it returns (the checks' queue is full:
 * the proxy slows down to the pace of its checks rather than drop one or grow without bound).
 */
export type Gate = () => Promise<void> | undefined;

/** Headers of one hop (RFC 9110 7.6.1), never forwarded; Host is the upstream's. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authenticate', 'proxy-authorization', 'host']);

/** Raw headers (`[name, value, name, value]`) without the hop-by-hop ones, names as they came. */
function forwardable(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (!HOP.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  return out;
}

/** What went wrong on the way, in words for the client and the report. */
function faultOf(err: NodeJS.ErrnoException, upstream: URL): Fault {
  const code = err.code ?? '';
  const where = `${upstream.protocol}//${upstream.host}`;
  const kind: FaultKind =
    code === 'ECONNREFUSED'
      ? 'refused'
      : code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(err.message)
        ? 'reset'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'dns'
          : code.startsWith('HPE_')
            ? 'malformed'
            : /CERT|SSL|TLS|EPROTO|SELF_SIGNED|UNABLE_TO/.test(code) || /certificate|ssl|tls/i.test(err.message)
              ? 'tls'
              : 'network';
  const words: Record<FaultKind, string> = {
    refused: `the upstream ${where} refused the connection`,
    reset: `the upstream ${where} closed the connection before the answer was complete`,
    dns: `the upstream's host name ${upstream.hostname} could not be resolved`,
    malformed: `the upstream ${where} answered what HTTP cannot read (${code})`,
    tls: `the TLS handshake with ${where} failed (${code || err.message.slice(0, 80)}); give its CA with --ca, or --insecure`,
    network: `the exchange with ${where} failed (${code || err.message.slice(0, 80)})`,
    timeout: '',
    'too-large': '',
  };
  return { kind, message: redactText(words[kind]) };
}

/** Chunks into one buffer that owns its memory (a pooled one would drag its whole pool to the checks' thread). */
function own(chunks: readonly Buffer[], size: number): Buffer {
  const out = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const c of chunks) at += c.copy(out, at);
  return out;
}

const tooLarge = (maxBody: number, what: string): Fault => ({ kind: 'too-large', message: `${what} is larger than the proxy's limit of ${maxBody} bytes` });

export async function startForwarder(opts: ForwarderOptions, sink: (ex: HttpExchange) => void, gate: Gate = () => undefined): Promise<Forwarder> {
  const upstream = new URL(opts.upstream);
  const secure = upstream.protocol === 'https:';
  const upstreamBase = upstream.pathname.replace(/\/+$/, '');
  const { basePath, timeoutMs, maxBodyBytes: maxBody } = opts;
  const agentOptions = { keepAlive: true, maxSockets: 64 };
  const agent = secure ? new https.Agent({ ...agentOptions, ...opts.tls }) : new http.Agent(agentOptions);
  const port = upstream.port || (secure ? 443 : 80);

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void => {
    let done = false;
    const exchange = (f: { status?: number; headers?: http.IncomingHttpHeaders; body?: Buffer; fault?: Fault }): HttpExchange => ({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      requestHeaders: req.headers,
      requestBody: body,
      status: f.status,
      responseHeaders: f.headers,
      responseBody: f.body,
      fault: f.fault,
    });
    const fail = (fault: Fault): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reply(res, fault.kind === 'timeout' ? 504 : 502, fault);
      sink(exchange({ fault }));
    };
    const rel = basePath === '' ? (req.url ?? '/') : (withinBasePath(basePath, req.url ?? '/') ?? req.url ?? '/');
    const headers = forwardable(req.rawHeaders);
    headers.push('Host', upstream.host);
    // A body sent in chunks goes on whole, with its length (the framing is the hop's).
    if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] === undefined) headers.push('Content-Length', String(body.length));
    const out = (secure ? https : http).request({ protocol: upstream.protocol, hostname: upstream.hostname, port, method: req.method, path: upstreamBase + rel, headers, agent }, (up) => {
      const declared = Number(up.headers['content-length']);
      if (declared > maxBody) {
        fail(tooLarge(maxBody, "the upstream's answer"));
        up.destroy();
        return;
      }
      // The answer goes back as it comes: the status line and headers with its first chunk, each later chunk as it
      // arrives. Node corks a response's writes of one turn of the event loop, so an answer read in one piece is
      // written in one piece; and a first chunk already over the limit can still be answered with a 502.
      const head = (): void => {
        if (!res.headersSent) res.writeHead(up.statusCode ?? 502, up.statusMessage, forwardable(up.rawHeaders));
      };
      const chunks: Buffer[] = [];
      let size = 0;
      up.on('data', (c: Buffer) => {
        if (done) return;
        size += c.length;
        if (size > maxBody) {
          fail(tooLarge(maxBody, "the upstream's answer"));
          up.destroy();
          return;
        }
        chunks.push(c);
        head();
        res.write(c);
      });
      up.on('end', () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        head();
        res.end();
        sink(exchange({ status: up.statusCode, headers: up.headers, body: own(chunks, size) }));
      });
      up.on('error', (e) => fail(faultOf(e, upstream)));
      up.on('aborted', () => fail(faultOf(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), upstream)));
    });
    const timer = setTimeout(() => {
      fail({ kind: 'timeout', message: `the upstream ${upstream.protocol}//${upstream.host} did not answer within ${timeoutMs} ms (--timeout)` });
      out.destroy();
    }, timeoutMs);
    // Nagle off on the upstream socket (each request goes in one write anyway; an https socket may not take it at connect).
    out.on('socket', (s: Socket) => s.setNoDelay(true));
    out.on('error', (e) => fail(faultOf(e, upstream)));
    out.end(body);
  };

  const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= maxBody) chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const body = own(chunks, Math.min(size, maxBody));
      if (size > maxBody) {
        const fault = tooLarge(maxBody, 'the request body');
        reply(res, 413, fault);
        sink({ method: req.method ?? 'GET', path: req.url ?? '/', requestHeaders: req.headers, requestBody: body, fault });
        return;
      }
      const wait = gate();
      if (wait) void wait.then(() => forward(req, res, body));
      else forward(req, res, body);
    });
  };

  const server = http.createServer({ keepAlive: true, noDelay: true }, handle);
  // The proxy's own limits are the upstream's to enforce; a slow upstream is bounded by --timeout instead.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

function reply(res: http.ServerResponse, status: number, fault: Fault): void {
  const body = `cardspec proxy: ${fault.message} (${status === 504 ? '504 Gateway Timeout' : status === 413 ? '413 Payload Too Large' : '502 Bad Gateway'})\n`;
  // The answer had begun: the client can only learn of the fault by its connection closing.
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Cardspec-Proxy-Fault': fault.kind });
  res.end(body);
}
