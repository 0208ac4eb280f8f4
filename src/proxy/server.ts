/**
 * The checking proxy: a reverse proxy in front of any gateway. The traffic is forwarded by a thread of its own
 * (./forward-thread.ts, ./forward.ts): each request to the upstream as the client sent it, each answer back as it
 * comes, connections kept alive on both sides. This thread checks each exchange after its answer has gone back
 * (session.ts), in the order the exchanges ended: the proxy never changes or delays an answer for its checks, and
 * checking one exchange never holds up the forwarding of the next. The checks may fall behind by a bounded number
 * of exchanges; past it, new requests wait for them (forward-thread.ts): none is dropped unchecked.
 *
 * When the path fails (the upstream refuses the connection, resets it, does not answer within the timeout, fails
 * its TLS handshake, answers more than the limit, or answers what HTTP cannot read) the client gets a 502 (504 for
 * the timeout) whose text says why, the exchange is in the report, and the proxy goes on serving.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { tlsRequestOptions, type TlsOptions } from '../client/tls';
import { normaliseBasePath } from '../gateway/routes/base-path';
import { redactText } from '../redact';
import type { CaptureWriter } from './capture';
import { DEFAULT_MAX_BODY, DEFAULT_TIMEOUT_MS } from './defaults';
import type { HttpExchange } from './exchange';
import type { FromThread, ThreadData, ToThread } from './forward-thread';
import { readBatch } from './handoff';
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
  /** How many exchanges the checks may fall behind the traffic (default 10,000), and by how many of their bytes (64 MiB). */
  readonly maxPending?: number;
  readonly maxPendingBytes?: number;
  /**
   * Lowers the priority of the thread that checks (the caller's) by this much (nice, 1 to 19) once the proxy
   * listens, so that on a busy machine the forwarding thread, the client and the gateway get the CPU first and the
   * checks take what is left: `cardspec proxy` sets it, a library caller whose thread does other work need not.
   * Linux gives each thread its own priority; elsewhere it may apply to the whole process.
   */
  readonly checksNice?: number;
  readonly strict?: boolean;
  /** How an https upstream is trusted; default: as the process's environment says (tlsRequestOptions()). */
  readonly tls?: TlsOptions;
  /**
   * Forward the client's Host header rather than the upstream's (`--preserve-host`), as reverse proxies can: a
   * gateway that builds addresses from it (the reference gateway's `acsurl`) then names the proxy, and the
   * browser's ACS round trip comes back through it to be checked.
   */
  readonly preserveHost?: boolean;
  /** Writes each exchange, masked (`--record`). */
  readonly record?: Pick<CaptureWriter, 'write'>;
  /** Called with each violation as it is found (the live console line). */
  readonly onFinding?: (f: ProxyFinding) => void;
}

export interface RunningProxy {
  /** `http://127.0.0.1:<port>`: where the client is pointed (plus the base path). */
  readonly url: string;
  readonly port: number;
  /** Holds every exchange checked so far: after `settled()` or `close()`, every exchange whose answer has gone back. */
  readonly session: ProxySession;
  readonly upstream: string;
  /** Resolves once every exchange that ended before the call is checked. */
  settled(): Promise<void>;
  /** Stops listening, closes the connections, and resolves once every exchange forwarded is checked. */
  close(): Promise<void>;
}

export { DEFAULT_MAX_BODY, DEFAULT_TIMEOUT_MS };
export const DEFAULT_MAX_PENDING = 10_000;
export const DEFAULT_MAX_PENDING_BYTES = 64 * 1024 * 1024;

const ENTRY = path.join(__dirname, `forward-thread${path.extname(__filename)}`);
const BOOT = path.join(__dirname, 'forward-boot.js');

export async function startProxy(opts: ProxyOptions): Promise<RunningProxy> {
  const upstream = new URL(opts.upstream);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new Error(`--upstream must be an http:// or https:// address, not ${upstream.protocol}`);
  const basePath = normaliseBasePath(opts.basePath ?? '');
  const session = new ProxySession({ strict: opts.strict, basePath });
  const data: ThreadData = {
    entry: ENTRY,
    options: {
      upstream: opts.upstream,
      port: opts.port,
      host: opts.host,
      basePath,
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY,
      tls: upstream.protocol === 'https:' ? (opts.tls ?? tlsRequestOptions()) : {},
      preserveHost: opts.preserveHost,
    },
    maxPending: opts.maxPending ?? DEFAULT_MAX_PENDING,
    maxPendingBytes: opts.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES,
  };
  const kitFault = (message: string): void => opts.onFinding?.({ exchange: 0, side: 'path', operation: '', rule: 'KIT', field: '', severity: 'warning', message: redactText(message) });

  const settle = (ex: HttpExchange): void => {
    try {
      opts.record?.write(ex);
      for (const finding of session.observe(ex)) opts.onFinding?.(finding);
    } catch (e) {
      // A check that throws is the kit's bug: the traffic goes on, and the bug is said.
      kitFault(`the proxy could not check an exchange: ${(e as Error).message}`);
    }
  };

  const worker = new Worker(BOOT, { workerData: data });
  const tell = (m: ToThread): void => worker.postMessage(m);
  const flushes = new Map<number, () => void>();
  let flushId = 0;
  let stopped = false;
  let onClosed: (() => void) | undefined;
  const stop = (): void => {
    stopped = true;
    for (const done of flushes.values()) done();
    flushes.clear();
    onClosed?.();
  };

  const port = await new Promise<number>((resolve, reject) => {
    worker.on('message', (m: FromThread) => {
      if (m.type === 'listening') resolve(m.port);
      else if (m.type === 'error') reject(new Error(m.message));
      else if (m.type === 'batch') {
        let exchanges: HttpExchange[] = [];
        try {
          exchanges = readBatch(m.batch);
        } catch (e) {
          kitFault(`the proxy could not read exchanges from its forwarding thread: ${(e as Error).message}`);
        }
        for (const ex of exchanges) settle(ex);
        if (!stopped) tell({ type: 'ack', n: m.batch.count, bytes: m.batch.length });
      } else if (m.type === 'flushed') {
        flushes.get(m.id)?.();
        flushes.delete(m.id);
      } else if (m.type === 'closed') stop();
    });
    worker.once('error', (e) => {
      reject(e);
      kitFault(`the proxy's forwarding thread failed: ${e.message}`);
    });
    worker.once('exit', (code) => {
      reject(new Error(`the proxy's forwarding thread ended (${code})`));
      stop();
    });
  }).catch(async (e: unknown) => {
    await worker.terminate();
    throw e;
  });

  if (opts.checksNice !== undefined && opts.checksNice > 0) {
    try {
      os.setPriority(Math.min(19, os.getPriority() + opts.checksNice));
    } catch {
      // Not allowed here: the checks keep the caller's priority.
    }
  }
  const host = opts.host ?? '127.0.0.1';
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    session,
    upstream: opts.upstream,
    settled: () =>
      stopped
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            flushes.set(++flushId, resolve);
            tell({ type: 'flush', id: flushId });
          }),
    close: () =>
      (closing ??= stopped
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            onClosed = resolve;
            tell({ type: 'close' });
          })),
  };
}
