/**
 * The reference gateway: an executable reading of the whole document, the kit's default target
 * (`cardspec serve`, `cardspec run --target builtin`). See docs/gateway.md.
 *
 * - `startGateway(opts)`: listens on loopback (port 0 by default) and answers over HTTP.
 * - `createGateway(opts)`: the same without a socket: a request handler for in-process use (nock, tests).
 * - `processEnvelope(runtime, envelope, ctx)`: the pure core, JSON form in and out, used by both transports.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { GatewayConfig } from '../testdata';
import type { Clock } from './clock';
import type { Ledger } from './ledger';
import { createRuntime, type Runtime } from './runtime';
import { normaliseBasePath, underBasePath } from './routes/base-path';
import { createHandler, DEFAULT_BODY_LIMIT } from './server';
import type { GatewayMutation, ObservedCall } from './types';

export { processEnvelope, errorEnvelope } from './core';
export { DEFAULT_CLOCK_START } from './clock';
export { DEFAULT_CONFIG, loadConfigFile, resolveConfig, ConfigError } from './config';
export { DEFAULT_BODY_LIMIT } from './server';
export { normaliseBasePath } from './routes/base-path';
export { ERR } from './errors';
export { DEFAULT_MAX_RECORDS } from './ledger';
export type { LedgerStats } from './ledger';
export { HANDLERS } from './operations';
export type { Clock, Ledger, Runtime, GatewayConfig };
export type { CallContext, GatewayMutation, MutationContext, ObservedCall, OperationHandler, OperationInput, PartOutcome, PreparedRequest, TxRecord, WireReply } from './types';

export interface GatewayOptions {
  config?: GatewayConfig;
  /** Enables the test-control API under `/_cardspec/` (off unless asked; on for the built-in target). */
  control?: boolean;
  /**
   * The path of the base address the gateway serves (`/api`: `POST /api/json/`), for clients configured with a base
   * address that has one ("`POST {base_url}/json/`"); the ACS and `/_cardspec/` stay at the root too. Default: none.
   * Normalised by `normaliseBasePath` (a TypeError for anything that is not a path).
   */
  basePath?: string;
  /** Listening address; loopback unless given (startGateway only). */
  host?: string;
  /** Listening port; 0 (the default) picks a free one (startGateway only). */
  port?: number;
  /** `YYYY-MM-DD HH:MM:SS` the clock starts at (default `2026-01-05 09:00:00`, or now for a ticking clock). */
  clockStart?: string;
  /** A clock that follows the wall clock from its start (default: frozen, moved only by the control API). */
  clockTicking?: boolean;
  /** One line per request, masked (off unless given). */
  log?: (line: string) => void;
  /**
   * Transactions the ledger always keeps (default 100,000): older ones are kept only while something can still
   * reach them, at most as many again (docs/gateway.md, "What the ledger keeps").
   */
  maxRecords?: number;
  /** Largest request body in bytes, compressed or inflated (default 1 MiB). */
  bodyLimit?: number;
  /**
   * Hook for variants (a "gallery of faulty gateways"): applied to each response part and envelope before it is
   * written, to the wire reply, and able to override an operation handler. Costs nothing when absent.
   */
  mutate?: GatewayMutation;
  /**
   * Sees every call to `/json/` and `/xml/` once answered, and every call refused with a 4xx: the hook of contract
   * testing (src/contract). Costs nothing when absent; it cannot change an answer.
   */
  observe?: (call: ObservedCall) => void;
}

export interface RunningGateway {
  /** `http://127.0.0.1:<port>`: requests go to `<url>/json/` and `<url>/xml/`. */
  url: string;
  port: number;
  close(): Promise<void>;
  clock: Clock;
  ledger: Ledger;
  config: GatewayConfig;
  runtime: Runtime;
}

export interface InProcessGateway {
  handle(req: IncomingMessage, res: ServerResponse): void;
  clock: Clock;
  ledger: Ledger;
  config: GatewayConfig;
  runtime: Runtime;
}

export function createGateway(opts: GatewayOptions = {}, baseUrl?: () => string): InProcessGateway {
  const runtime = createRuntime(opts);
  const inner = createHandler(runtime, { bodyLimit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT, log: opts.log, baseUrl, observe: opts.observe });
  const handle = underBasePath(normaliseBasePath(opts.basePath ?? ''), inner, opts.observe);
  return { handle, clock: runtime.clock, ledger: runtime.ledger, config: runtime.config.config, runtime };
}

/** How often a ticking clock's midnights are looked for when no request comes (a request also looks). */
const TICK_MS = 60_000;

/** A gateway handler on a socket: its address, and how to stop it. */
export interface Listening {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Bytes that are not an HTTP request (node's parser refuses them before any route: both Content-Length and
 * Transfer-Encoding, a header name with a space, a bad chunk size, headers over the limit) are answered as node
 * answers them, 400 (431 for headers too large), and shown to the observer as a refused call: a contract gate must
 * not pass a client whose every request was unreadable as HTTP, as if it had sent nothing. A connection the client
 * closed or left idle is no request at all.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, observe: ((call: ObservedCall) => void) | undefined): void {
  const code = err.code ?? '';
  if (code === 'ECONNRESET' || code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable) {
    socket.destroy();
    return;
  }
  const overflow = code === 'HPE_HEADER_OVERFLOW';
  const status = overflow ? 431 : 400;
  const title = overflow ? 'Request Header Fields Too Large' : 'Bad Request';
  const reason = `${status} ${title}: ${overflow ? 'the request headers are over the limit' : `not a valid HTTP/1.1 request (${code.replace(/^HPE_/, '').toLowerCase() || 'parse error'})`}`;
  socket.end(`HTTP/1.1 ${status} ${title}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason) + 1}\r\n\r\n${reason}\n`);
  try {
    observe?.({ kind: 'refused', method: '', path: '', headers: {}, status, reason });
  } catch {
    // an observer never changes an answer (server.ts)
  }
}

/**
 * Serves `handle` on `host:port` (loopback and a free port unless given). `url` is learnt once listening, so the
 * handler reads it through `onUrl`'s setter (the ACS address in THREEDQUERY answers needs it). With a ticking clock,
 * midnights are looked for even when no request comes, so settlement and payments happen on time.
 */
export function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  runtime: Runtime,
  opts: { host?: string; port?: number },
  onUrl: (url: string) => void,
  observe?: (call: ObservedCall) => void,
): Promise<Listening> {
  const server: Server = createServer(handle);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket, observe));
  // Keep-alive connections of clients must not hold close() up for the default five seconds.
  server.keepAliveTimeout = 5_000;
  const host = opts.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      onUrl(url);
      const timer = runtime.clock.ticking ? setInterval(() => runtime.engine.catchUp(), TICK_MS) : undefined;
      timer?.unref();
      resolve({
        url,
        port,
        close: () =>
          new Promise<void>((done) => {
            if (timer) clearInterval(timer);
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

export async function startGateway(opts: GatewayOptions = {}): Promise<RunningGateway> {
  let url = '';
  const gw = createGateway(opts, () => url);
  const socket = await listen(gw.handle, gw.runtime, opts, (u) => (url = u), opts.observe);
  return { url: socket.url, port: socket.port, clock: gw.clock, ledger: gw.ledger, config: gw.config, runtime: gw.runtime, close: socket.close };
}
