/**
 * The checking proxy: a reverse proxy in front of any gateway. Each request is forwarded to the upstream as the
 * client sent it (method, path under the upstream's base, headers but the hop-by-hop ones and Host, body bytes) and
 * each answer goes back as it came (status, headers, body bytes); connections are kept alive on both sides. After
 * the answer has gone back, the exchange is checked (session.ts): the proxy never changes or delays an answer for
 * its checks.
 *
 * When the path fails (the upstream refuses the connection, resets it, does not answer within the timeout, fails
 * its TLS handshake, answers more than the limit, or answers what HTTP cannot read) the client gets a 502 (504 for
 * the timeout) whose text says why, the exchange is in the report, and the proxy goes on serving.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tlsRequestOptions } from '../client/tls';
import { normaliseBasePath, withinBasePath } from '../gateway/routes/base-path';
import { redactText } from '../redact';
import type { CaptureWriter } from './capture';
import type { Fault, FaultKind, HttpExchange } from './exchange';
import { ProxySession, type ProxyFinding } from './session';

export interface ProxyOptions {
  /** The gateway's base address (`https://sandbox.example/api`); a client path `/json/` goes to `<upstream>/json/`. */
  readonly upstream: string;
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** The path the client posts under (`/api` for `<proxy>/api/json/`); it is replaced by the upstream's. */
  readonly basePath?: string;
  /** Milliseconds the upstream has for the whole answer (default 30 s). */
  readonly timeoutMs?: number;
  /** The largest body forwarded either way (default 16 MiB). */
  readonly maxBodyBytes?: number;
  readonly strict?: boolean;
  /** Writes each exchange, masked (`--record`). */
  readonly record?: Pick<CaptureWriter, 'write'>;
  /** Called with each violation as it is found (the live console line). */
  readonly onFinding?: (f: ProxyFinding) => void;
}

export interface RunningProxy {
  /** `http://127.0.0.1:<port>`: where the client is pointed (plus the base path). */
  readonly url: string;
  readonly port: number;
  readonly session: ProxySession;
  readonly upstream: string;
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

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

interface Forwarded {
  readonly status?: number;
  readonly statusMessage?: string;
  readonly rawHeaders?: string[];
  readonly headers?: http.IncomingHttpHeaders;
  readonly body?: Buffer;
  readonly fault?: Fault;
}

export async function startProxy(opts: ProxyOptions): Promise<RunningProxy> {
  const upstream = new URL(opts.upstream);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new Error(`--upstream must be an http:// or https:// address, not ${upstream.protocol}`);
  const secure = upstream.protocol === 'https:';
  const upstreamBase = upstream.pathname.replace(/\/+$/, '');
  const basePath = normaliseBasePath(opts.basePath ?? '');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 64, ...tlsRequestOptions() }) : new http.Agent({ keepAlive: true, maxSockets: 64 });
  const session = new ProxySession({ strict: opts.strict, basePath });

  const forward = (req: http.IncomingMessage, body: Buffer): Promise<Forwarded> =>
    new Promise((resolve) => {
      let done = false;
      const finish = (f: Forwarded): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(f);
      };
      const path = req.url ?? '/';
      const rel = basePath === '' ? path : (withinBasePath(basePath, path) ?? path);
      const headers = forwardable(req.rawHeaders);
      headers.push('Host', upstream.host);
      // A body sent in chunks goes on whole, with its length (the framing is the hop's).
      if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] === undefined) headers.push('Content-Length', String(body.length));
      const options: http.RequestOptions = {
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port || (secure ? 443 : 80),
        method: req.method,
        path: upstreamBase + rel,
        headers,
        agent,
      };
      const out = (secure ? https : http).request(options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBody) {
            finish({ fault: { kind: 'too-large', message: `the upstream's answer is larger than the proxy's limit of ${maxBody} bytes` } });
            res.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => finish({ status: res.statusCode, statusMessage: res.statusMessage, rawHeaders: res.rawHeaders, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (e) => finish({ fault: faultOf(e, upstream) }));
        res.on('aborted', () => finish({ fault: faultOf(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), upstream) }));
      });
      const timer = setTimeout(() => {
        finish({ fault: { kind: 'timeout', message: `the upstream ${upstream.protocol}//${upstream.host} did not answer within ${timeoutMs} ms (--timeout)` } });
        out.destroy();
      }, timeoutMs);
      out.on('error', (e) => finish({ fault: faultOf(e, upstream) }));
      out.end(body);
    });

  const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBody) over = true;
      else chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const exchange = (f: Forwarded): HttpExchange => ({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        requestHeaders: req.headers,
        requestBody: body,
        status: f.status,
        responseHeaders: f.headers,
        responseBody: f.body,
        fault: f.fault,
      });
      const settle = (f: Forwarded): void => {
        const ex = exchange(f);
        try {
          opts.record?.write(ex);
          for (const finding of session.observe(ex)) opts.onFinding?.(finding);
        } catch (e) {
          // A check that throws is the kit's bug: the traffic goes on, and the bug is said.
          opts.onFinding?.({
            exchange: 0,
            side: 'path',
            operation: '',
            rule: 'KIT',
            field: '',
            severity: 'warning',
            message: redactText(`the proxy could not check an exchange: ${(e as Error).message}`),
          });
        }
      };
      if (over) {
        const fault: Fault = { kind: 'too-large', message: `the request body is larger than the proxy's limit of ${maxBody} bytes` };
        reply(res, 413, fault);
        return settle({ fault });
      }
      void forward(req, body).then((f) => {
        if (f.fault) reply(res, f.fault.kind === 'timeout' ? 504 : 502, f.fault);
        else {
          res.writeHead(f.status ?? 502, f.statusMessage, forwardable(f.rawHeaders ?? []));
          res.end(f.body);
        }
        settle(f);
      });
    });
  };

  const server = http.createServer({ keepAlive: true }, handle);
  // The proxy's own limits are the upstream's to enforce; a slow upstream is bounded by --timeout instead.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host ?? '127.0.0.1';
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    session,
    upstream: opts.upstream,
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
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Cardspec-Proxy-Fault': fault.kind });
  res.end(body);
}
