/**
 * The checking proxy's forwarding, at the level of the sockets: each client connection has one upstream connection
 * at a time (idle ones wait for the next client connection), and each request goes to it with only its head
 * rewritten where it must be (the path under the upstream's base, Host, the hop-by-hop headers); the answer goes
 * back as the bytes it came in (status line, headers, body and its framing), each piece as it arrives.
 * ./framing.ts says where each message ends. Both connections are kept alive, and pipelined requests are answered
 * in turn. It checks nothing: each finished exchange goes to `sink` after its last byte has been written to the
 * client, and the checks run elsewhere (server.ts runs this in a thread of its own, the checks on the main thread).
 *
 * Why not node:http: its server and client parse and write every message again, which cost about three times the
 * CPU of the forwarding itself; a proxy that must not slow the traffic down has no use for that.
 *
 * When the path fails (the upstream refuses the connection, resets it, does not answer within the timeout, fails
 * its TLS handshake, answers more than the limit, or answers what HTTP cannot read) the client gets a 502 (504 for
 * the timeout) whose text says why, or, when the answer had already begun, its connection closed; the exchange
 * goes to `sink` with the fault, and the proxy goes on serving.
 */
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { TlsOptions } from '../client/tls';
import { withinBasePath } from '../gateway/routes/base-path';
import { redactText } from '../redact';
import type { Fault, FaultKind } from './exchange';
import type { ExchangeParts } from './handoff';
import {
  answerFraming,
  ChunkedReader,
  FramingError,
  readStatusHead,
  requestFraming,
  scanRequestHead,
  scanStatusHead,
  type Framing,
  type HeadScan,
  type RequestScan,
  type StatusHead,
  type StatusScan,
} from './framing';

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
  /** Forward the client's Host header rather than the upstream's (`--preserve-host`). */
  readonly preserveHost?: boolean;
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

/**
 * Headers of one hop (RFC 9110 7.6.1), never forwarded in a request; Host is the upstream's (unless
 * --preserve-host); Expect is the proxy's to answer (it sends the body whole, with its head).
 */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authenticate', 'proxy-authorization', 'host', 'expect']);

/** How long a client's connection may stay with no exchange under way (node's own server allows a head 60 s). */
const IDLE_MS = 60_000;

/**
 * How often the timeouts are looked at: a tenth of the upstream's timeout, within 5 ms to 1 s. One sweep over the
 * connections replaces a timer set and cleared per exchange (and node's per-socket timer, refreshed at each read
 * and write): a timeout fires up to this late, never early.
 */
const sweepEvery = (timeoutMs: number): number => Math.max(5, Math.min(1000, Math.floor(timeoutMs / 10)));

/** What went wrong on the way, in words for the client and the report. */
export function faultOf(err: NodeJS.ErrnoException, upstream: URL): Fault {
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
    malformed: `the upstream ${where} answered what HTTP cannot read (${code}${err.message ? `: ${err.message}` : ''})`,
    tls: `the TLS handshake with ${where} failed (${code || err.message.slice(0, 80)}); give its CA with --ca, or --insecure`,
    network: `the exchange with ${where} failed (${code || err.message.slice(0, 80)})`,
    timeout: '',
    'too-large': '',
  };
  return { kind, message: redactText(words[kind]) };
}

const tooLarge = (maxBody: number, what: string): Fault => ({ kind: 'too-large', message: `${what} is larger than the proxy's limit of ${maxBody} bytes` });

/** The proxy's own answer: a fault of the path (502, 504), or a request it cannot forward (400, 413, 417). */
function replyBytes(status: number, reason: string, text: string, kind?: FaultKind, close = false): Buffer {
  const body = Buffer.from(text, 'utf8');
  const head = [`HTTP/1.1 ${status} ${reason}`, 'Content-Type: text/plain; charset=utf-8', `Content-Length: ${body.length}`];
  if (kind) head.push(`X-Cardspec-Proxy-Fault: ${kind}`);
  if (close) head.push('Connection: close');
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

const faultReply = (fault: Fault): Buffer => {
  const [status, reason] =
    fault.kind === 'timeout' ? [504, 'Gateway Timeout'] : fault.kind === 'too-large' && fault.message.startsWith('the request') ? [413, 'Payload Too Large'] : [502, 'Bad Gateway'];
  return replyBytes(status, reason, `cardspec proxy: ${fault.message} (${status} ${reason})\n`, fault.kind);
};

/** Whether a message asks for its connection to close after it (HTTP/1.0 unless kept alive). */
function closes(head: Pick<HeadScan, 'connection' | 'version'>): boolean {
  // The common heads, without a regular expression: none (HTTP/1.1 stays open) or the one token as node writes it.
  if (head.connection === undefined) return head.version === '1.0';
  if (head.connection === 'keep-alive') return false;
  const tokens = head.connection.toLowerCase();
  return head.version === '1.0' ? !/\bkeep-alive\b/.test(tokens) : /\bclose\b/.test(tokens);
}

/** What a connection to the upstream tells the client connection using it. */
interface UpstreamUser {
  data(chunk: Buffer): void;
  error(e: NodeJS.ErrnoException): void;
  closed(): void;
}

/** How many connections to the upstream wait, idle, for a client connection. */
const MAX_IDLE = 64;

/** One request read whole from the client, waiting for its answer. */
interface Request {
  readonly head: RequestScan;
  /** The head's bytes as the client sent them, for the checks. */
  readonly headBytes: Buffer;
  /** The body without its framing, in the pieces it came in, and its size. */
  readonly body: readonly Buffer[];
  readonly size: number;
  /** Close the client's connection after the answer. */
  readonly close: boolean;
}

/** The answer being read from the upstream. */
interface Answer {
  head?: StatusScan;
  /** The head's bytes as the upstream sent them, for the checks. */
  headBytes?: Buffer;
  framing?: Framing;
  chunked?: ChunkedReader;
  /** Bytes of the body still to come (a length). */
  left: number;
  readonly pieces: Buffer[];
  size: number;
  /** Something of it has been written to the client. */
  begun: boolean;
  /** The first bytes of a head not yet whole. */
  headBuf?: Buffer;
}

export async function startForwarder(opts: ForwarderOptions, sink: (ex: ExchangeParts) => void, gate: Gate = () => undefined): Promise<Forwarder> {
  const upstream = new URL(opts.upstream);
  const secure = upstream.protocol === 'https:';
  const upstreamBase = upstream.pathname.replace(/\/+$/, '');
  const { basePath, timeoutMs, maxBodyBytes: maxBody } = opts;
  const port = Number(upstream.port || (secure ? 443 : 80));
  // URL keeps an IPv6 literal in brackets; a socket wants it bare, and TLS names no IP address (RFC 6066).
  const hostname = upstream.hostname.replace(/^\[(.*)\]$/, '$1');
  const tlsOptions: tls.ConnectionOptions = { host: hostname, port, ...opts.tls, ...(net.isIP(hostname) ? {} : { servername: hostname }) };
  const connect = (): net.Socket => {
    const s = secure ? tls.connect(tlsOptions) : net.connect({ host: hostname, port });
    s.setNoDelay(true);
    return s;
  };
  const connections = new Set<net.Socket>();
  let closing = false;
  /** Each client connection's look at its timeouts, called by the sweep with the time. */
  const watched = new Set<(now: number) => void>();
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const check of watched) check(now);
  }, sweepEvery(timeoutMs));
  sweep.unref();

  // A connection to the upstream serves one client connection at a time; when that one ends, it waits in `idle`
  // for the next (a client that opens a connection per request still reuses the upstream's, TLS handshake and all).
  const users = new WeakMap<net.Socket, UpstreamUser>();
  const idle: net.Socket[] = [];
  const take = (user: UpstreamUser): net.Socket => {
    for (let s = idle.pop(); s; s = idle.pop()) {
      if (!s.destroyed && s.writable) {
        users.set(s, user);
        return s;
      }
    }
    const s = connect();
    connections.add(s);
    s.on('data', (c: Buffer) => {
      const u = users.get(s);
      // Bytes while idle: nothing asked for them, and the connection cannot be trusted with the next request.
      if (u) u.data(c);
      else s.destroy();
    });
    s.on('error', (e: NodeJS.ErrnoException) => users.get(s)?.error(e));
    s.on('close', () => {
      connections.delete(s);
      const i = idle.indexOf(s);
      if (i >= 0) idle.splice(i, 1);
      users.get(s)?.closed();
    });
    users.set(s, user);
    return s;
  };
  const release = (s: net.Socket): void => {
    users.delete(s);
    if (closing || s.destroyed || !s.writable || idle.length >= MAX_IDLE) return void s.destroy();
    if (s.isPaused()) s.resume();
    idle.push(s);
  };

  /**
   * The request as the upstream gets it, head and body in one buffer: the path under its base, its Host, no
   * hop-by-hop header; the other header lines copied as the client wrote them.
   */
  const forwardedRequest = (req: Request, wasChunked: boolean): Buffer => {
    const h = req.head;
    const rel = basePath === '' ? h.target : (withinBasePath(basePath, h.target) ?? h.target);
    const line = `${h.method} ${upstreamBase}${rel} HTTP/1.1\r\n`;
    const { names, bounds } = h;
    /** Whether each header line goes on: the client's first Host with --preserve-host, no other of the hop. */
    const keep: boolean[] = [];
    let host = false;
    let size = line.length;
    for (let i = 0; i < names.length; i++) {
      const k = opts.preserveHost && names[i] === 'host' && !host ? (host = true) : !HOP.has(names[i]);
      keep.push(k);
      if (k) size += bounds[2 * i + 1] - bounds[2 * i] + 2;
    }
    let tail = host ? '' : `Host: ${upstream.host}\r\n`;
    // A body sent in chunks goes on whole, with its length (the framing is the hop's).
    if (wasChunked) tail += `Content-Length: ${req.size}\r\n`;
    tail += '\r\n';
    const out = Buffer.allocUnsafe(size + tail.length + req.size);
    let at = out.write(line, 0, 'latin1');
    // Kept lines that follow one another in the head (CRLF between them) are copied in one piece.
    for (let i = 0; i < names.length; i++) {
      if (!keep[i]) continue;
      let j = i;
      while (j + 1 < names.length && keep[j + 1] && bounds[2 * j + 1] + 2 === bounds[2 * j + 2]) j++;
      at += req.headBytes.copy(out, at, bounds[2 * i], bounds[2 * j + 1]);
      out[at++] = 13;
      out[at++] = 10;
      i = j;
    }
    at += out.write(tail, at, 'latin1');
    for (const p of req.body) at += p.copy(out, at);
    return out;
  };

  const serve = (client: net.Socket): void => {
    connections.add(client);
    client.setNoDelay(true);
    /** Client bytes not yet read into a request. */
    let pending: Buffer | undefined;
    /** The request being read (its head known, its body not yet whole). */
    let reading: { head: RequestScan; headBytes: Buffer; framing: Framing; chunked?: ChunkedReader; pieces: Buffer[]; size: number; continued: boolean } | undefined;
    /** The request forwarded (or waiting at the gate), until its answer ends. */
    let current: Request | undefined;
    let answer: Answer | undefined;
    let up: net.Socket | undefined;
    /** When the request under way was forwarded (performance.now()), or -1: the upstream's timeout runs from it. */
    let sentAt = -1;
    /** When the connection was last busy, as the sweep saw it: an idle connection is closed after IDLE_MS. */
    let busyAt = performance.now();
    let clientEnded = false;

    const write = (b: Buffer): void => {
      // A client that reads slower than the upstream answers holds the upstream back, not the proxy's memory.
      if (!client.destroyed && !client.write(b) && up && !up.isPaused()) up.pause();
    };
    const closeClient = (): void => {
      if (!client.destroyed) client.end();
    };
    /** The upstream connection cannot serve another exchange. */
    const dropUpstream = (): void => {
      if (up) {
        users.delete(up);
        up.destroy();
      }
      up = undefined;
    };
    /** The upstream connection, its last answer whole, for another client connection. */
    const releaseUpstream = (): void => {
      if (up) release(up);
      up = undefined;
    };

    const exchange = (req: Request, f: { head?: Buffer; body?: readonly Buffer[]; fault?: Fault }): ExchangeParts => ({
      requestHead: req.headBytes,
      requestBody: req.body,
      answerHead: f.head,
      answerBody: f.body,
      fault: f.fault,
    });

    /** The exchange is over: the next request of the connection, if one came. */
    const next = (closeAfter: boolean): void => {
      sentAt = -1;
      current = undefined;
      answer = undefined;
      if (closeAfter || client.destroyed) {
        releaseUpstream();
        closeClient();
        return;
      }
      if (client.isPaused()) client.resume();
      read();
      if (clientEnded && !current && !reading && pending === undefined) closeClient();
    };

    const fail = (fault: Fault): void => {
      const req = current;
      if (!req || closing) return;
      const begun = answer?.begun ?? false;
      dropUpstream();
      sink(exchange(req, { fault }));
      // The answer had begun: the client can only learn of the fault by its connection closing.
      if (begun) {
        sentAt = -1;
        current = undefined;
        answer = undefined;
        client.destroy();
        return;
      }
      write(faultReply(fault));
      next(req.close);
    };

    /** The request that cannot be read or forwarded: the client is told, and its connection closed. */
    const refuse = (status: number, reason: string, why: string): void => {
      pending = undefined;
      reading = undefined;
      write(replyBytes(status, reason, redactText(`cardspec proxy: ${why} (${status} ${reason})\n`), undefined, true));
      closeClient();
    };

    /** A request body over the limit: in the report as such, the client told with a 413, its connection closed. */
    const bodyTooLarge = (head: RequestScan, headBytes: Buffer): void => {
      const fault = tooLarge(maxBody, 'the request body');
      sink(exchange({ head, headBytes, body: [], size: 0, close: true }, { fault }));
      write(replyBytes(413, 'Payload Too Large', `cardspec proxy: ${fault.message} (413 Payload Too Large)\n`, 'too-large', true));
      pending = undefined;
      reading = undefined;
      closeClient();
    };

    const done = (): void => {
      const req = current!;
      const a = answer!;
      const head = a.head!;
      sink(exchange(req, { head: a.headBytes, body: a.pieces }));
      const upCloses = a.framing!.kind === 'close' || closes(head);
      if (upCloses) dropUpstream();
      next(req.close || upCloses || (head.version === '1.0' && a.framing!.kind === 'chunked'));
    };

    /** Bytes of the answer from the upstream, in pieces of any size. */
    const fromUpstream = (chunk: Buffer): void => {
      const a = answer;
      const req = current;
      if (!a || !req) {
        // Bytes no request asked for: the connection cannot be trusted for the next one.
        dropUpstream();
        return;
      }
      // A head that came in pieces is read whole, from its first byte.
      const buf = a.headBuf === undefined ? chunk : Buffer.concat([a.headBuf, chunk]);
      a.headBuf = undefined;
      let at = 0;
      /** Where the head begins in `buf`, when it was read from this piece. */
      let headStart = -1;
      try {
        while (!a.head) {
          const h = scanStatusHead(buf.subarray(at));
          if (!h) {
            a.headBuf = buf.subarray(at);
            return;
          }
          if (h.status >= 100 && h.status < 200) {
            // An interim answer (100 Continue): the proxy sent the body whole already, the client has its own.
            if (h.status === 101) throw new FramingError('HPE_UNEXPECTED_UPGRADE', 'an upgrade nobody asked for');
            at += h.size;
            continue;
          }
          a.head = h;
          // A slice of what was read: kept until the exchange is handed over (the upstream reads into new memory).
          a.headBytes = buf.subarray(at, at + h.size);
          a.framing = answerFraming(h, req.head.method);
          if (a.framing.kind === 'length' && a.framing.length > maxBody) return fail(tooLarge(maxBody, "the upstream's answer"));
          if (a.framing.kind === 'length') a.left = a.framing.length;
          if (a.framing.kind === 'chunked') a.chunked = new ChunkedReader();
          headStart = at;
          at += h.size;
        }
      } catch (e) {
        if (e instanceof FramingError) return fail(faultOf(e, upstream));
        throw e;
      }
      const from = at;
      let end = buf.length;
      const framing = a.framing!;
      const data: Buffer[] = [];
      try {
        if (framing.kind === 'length') {
          end = Math.min(buf.length, at + a.left);
          a.left -= end - at;
          if (end > at) data.push(buf.subarray(at, end));
        } else if (framing.kind === 'chunked') end = a.chunked!.feed(buf, at, (d) => data.push(d));
        else if (framing.kind === 'close') {
          if (end > at) data.push(buf.subarray(at, end));
        } else end = at;
      } catch (e) {
        if (e instanceof FramingError) return fail(faultOf(e, upstream));
        throw e;
      }
      for (const d of data) {
        a.pieces.push(d);
        a.size += d.length;
      }
      if (a.size > maxBody) return fail(tooLarge(maxBody, "the upstream's answer"));
      const complete = framing.kind === 'none' || (framing.kind === 'length' && a.left === 0) || (framing.kind === 'chunked' && a.chunked!.done);
      // What goes back: the bytes as they came; to an HTTP/1.0 client a chunked body goes without its framing.
      const plain = framing.kind === 'chunked' && req.head.version === '1.0';
      // One write for the head and the body bytes that came with it (each write is a system call).
      if (plain) {
        if (headStart >= 0) write(Buffer.from(http10Head(readStatusHead(a.headBytes!)!), 'latin1'));
        for (const d of data) write(d);
      } else if (headStart >= 0) write(buf.subarray(headStart, end));
      else if (end > from) write(buf.subarray(from, end));
      a.begun = true;
      // Bytes after the answer's end: nothing asked for them, and the connection cannot be trusted with the next.
      if (end < buf.length) dropUpstream();
      if (complete) done();
    };

    const upstreamClosed = (): void => {
      if (current && answer) {
        if (answer.head && answer.framing?.kind === 'close') {
          up = undefined;
          return done();
        }
        return fail(faultOf(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), upstream));
      }
      // Closed while idle (its keep-alive ended): the client's connection follows it, as the answer's head said.
      up = undefined;
      if (!current && !reading && pending === undefined) closeClient();
    };

    const user: UpstreamUser = {
      data: fromUpstream,
      error: (e) => {
        if (current) fail(faultOf(e, upstream));
      },
      closed: upstreamClosed,
    };

    const forward = (req: Request, wasChunked: boolean): void => {
      if (closing) return;
      answer = { left: 0, pieces: [], size: 0, begun: false };
      sentAt = performance.now();
      if (!up || up.destroyed || !up.writable) up = take(user);
      // The head and the body in one write (a system call per write).
      up.write(forwardedRequest(req, wasChunked));
    };

    /** Requests read from the client's bytes, one at a time: the next once the last one's answer has ended. */
    const read = (): void => {
      while (!current && pending !== undefined && !client.destroyed) {
        let buf: Buffer = pending;
        try {
          if (!reading) {
            const head = scanRequestHead(buf);
            if (!head) return;
            const expect = head.expect;
            if (expect !== undefined && expect.toLowerCase() !== '100-continue') return refuse(417, 'Expectation Failed', `the proxy cannot meet "Expect: ${expect.slice(0, 40)}"`);
            reading = { head, headBytes: buf.subarray(0, head.size), framing: requestFraming(head), pieces: [], size: 0, continued: false };
            if (reading.framing.kind === 'chunked') reading.chunked = new ChunkedReader();
            buf = buf.subarray(head.size);
          }
          const r = reading;
          const framing = r.framing;
          let end = 0;
          if (framing.kind === 'length') {
            if (framing.length > maxBody) return bodyTooLarge(r.head, r.headBytes);
            end = Math.min(buf.length, framing.length - r.size);
            if (end > 0) r.pieces.push(buf.subarray(0, end));
            r.size += end;
          } else if (framing.kind === 'chunked') {
            end = r.chunked!.feed(buf, 0, (d) => {
              r.pieces.push(d);
              r.size += d.length;
            });
            if (r.size > maxBody) return bodyTooLarge(r.head, r.headBytes);
          }
          pending = end < buf.length ? buf.subarray(end) : undefined;
          const whole = framing.kind === 'none' || (framing.kind === 'length' && r.size === framing.length) || (framing.kind === 'chunked' && r.chunked!.done);
          if (!whole) {
            // The client waits to be told to send its body (Expect: 100-continue): the proxy takes it whole.
            if (!r.continued && r.head.expect !== undefined) {
              r.continued = true;
              write(Buffer.from('HTTP/1.1 100 Continue\r\n\r\n', 'latin1'));
            }
            return;
          }
          reading = undefined;
          const req: Request = { head: r.head, headBytes: r.headBytes, body: r.pieces, size: r.size, close: closes(r.head) || clientEnded };
          current = req;
          // Pipelined requests wait in `pending`; a client that sends far ahead is held back.
          if (pending !== undefined && pending.length > maxBody) client.pause();
          const wasChunked = framing.kind === 'chunked';
          const wait = gate();
          if (wait) void wait.then(() => forward(req, wasChunked));
          else forward(req, wasChunked);
        } catch (e) {
          if (e instanceof FramingError) return refuse(400, 'Bad Request', `the request is not HTTP/1.1 the proxy can read (${e.code}: ${e.message})`);
          throw e;
        }
      }
    };

    client.on('data', (c: Buffer) => {
      active = true;
      pending = pending === undefined ? c : Buffer.concat([pending, c]);
      if (!current) read();
    });
    client.on('end', () => {
      clientEnded = true;
      // A request begun and not finished never will be: nothing more comes.
      if (!current) closeClient();
    });
    let active = false;
    const check = (now: number): void => {
      if (sentAt >= 0 && now - sentAt >= timeoutMs) {
        sentAt = -1;
        return fail({ kind: 'timeout', message: `the upstream ${upstream.protocol}//${upstream.host} did not answer within ${timeoutMs} ms (--timeout)` });
      }
      // A connection with nothing under way (no request, or one begun and left unfinished) is not kept for ever.
      if (current || active) {
        active = false;
        busyAt = now;
      } else if (now - busyAt >= IDLE_MS) client.destroy();
    };
    watched.add(check);
    client.on('drain', () => {
      if (up?.isPaused()) up.resume();
    });
    client.on('error', () => client.destroy());
    client.on('close', () => {
      connections.delete(client);
      watched.delete(check);
      if (!current) releaseUpstream();
    });
  };

  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, serve);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        clearInterval(sweep);
        server.close(() => resolve());
        for (const s of connections) s.destroy();
        connections.clear();
      }),
  };
}

/** An answer's head for an HTTP/1.0 client, which cannot read chunks: without its framing, closed after. */
function http10Head(head: StatusHead): string {
  let text = `HTTP/1.1 ${head.status} ${head.reason}\r\n`;
  for (let i = 0; i + 1 < head.raw.length; i += 2) {
    const lower = head.raw[i].toLowerCase();
    if (lower !== 'transfer-encoding' && lower !== 'connection' && lower !== 'keep-alive') text += `${head.raw[i]}: ${head.raw[i + 1]}\r\n`;
  }
  return `${text}Connection: close\r\n\r\n`;
}
