/**
 * A lean HTTP/1.1 client for plain-http targets: keep-alive connections of its own over node:net, each request
 * written in one piece, each answer read by a small parser. It keeps the contract of `httpRequest` (./http.ts):
 * it resolves with the answer whatever its status, rejects only with an `HttpFailure` of the same kind and words,
 * and holds to the same connect timeout, total timeout and size cap.
 *
 * Why not node:http: a fuzz run sends thousands of requests, and node:http's client spent about a third of the
 * fuzzer's CPU per case (the request object, the agent, header checks, events, two writes per request). The ceiling
 * the fuzzer is measured against (bench/fuzz.ts) is a load tool that writes each request in one piece; so does this.
 *
 * HTTPS targets still go through node:https (./http.ts): TLS is not worth a second implementation.
 */
import * as net from 'node:net';
import { EndOfTurn } from '../end-of-turn';
import { DEFAULT_LIMITS, HttpFailure, stoppedFailure, type HttpLimits, type HttpRequest, type HttpResponse } from './http';

/** Largest answer head (status line and headers) read before the answer is called broken. */
const MAX_HEAD_BYTES = 64 * 1024;
const CRLFCRLF = Buffer.from('\r\n\r\n');
/** Each connection's read buffer (`onread`): what one read of the socket can give at most. */
const READ_BUFFER_BYTES = 64 * 1024;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: |$)/;
/** What HTTP allows in a header name (a token) and in a header value (node:http's own check). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
// eslint-disable-next-line no-control-regex -- the whole ASCII range, NUL included, is the point
const NOT_ASCII = /[^\x00-\x7f]/;

interface Origin {
  readonly host: string;
  readonly port: number;
  /** `host:port` as the Host header carries it. */
  readonly hostHeader: string;
}

interface Parsed {
  readonly origin: Origin;
  readonly path: string;
  /** `http://host:port/path`, for messages. */
  readonly where: string;
}

type Framing = { kind: 'length'; remaining: number } | { kind: 'chunked' } | { kind: 'close' } | { kind: 'none' };

/** The reading of one answer on one connection, from its first byte to its last. */
class AnswerReader {
  private head: Buffer | undefined;
  status = 0;
  private version = 1;
  private headers: Record<string, string> = {};
  private framing: Framing | undefined;
  private readonly chunks: Buffer[] = [];
  /** Body bytes received (after chunk framing is removed). */
  received = 0;
  /** Chunked framing: bytes of the framing not yet parsed. */
  private pending: Buffer | undefined;
  private chunkLeft = -1;
  /** Bytes that arrived after the end of the answer: the connection cannot be trusted again. */
  trailing = false;

  constructor(
    readonly where: string,
    private readonly limits: HttpLimits,
    private readonly started: bigint,
    readonly settle: (err: HttpFailure | null, res?: HttpResponse, reusable?: boolean) => void,
  ) {}

  elapsed(): number {
    return Number((process.hrtime.bigint() - this.started) / 1_000_000n);
  }

  partial(): { status: number; bytes: number } | undefined {
    return this.status ? { status: this.status, bytes: this.received } : undefined;
  }

  /** Feeds bytes; settles once the answer is complete or broken. */
  feed(data: Buffer): void {
    if (this.framing === undefined) {
      const buf = this.head ? Buffer.concat([this.head, data]) : data;
      // An answer that cannot become HTTP/1.x (TLS, an SSH banner, binary) is told at once, not at a timeout.
      const notHttp = notHttpAnswer(buf, this.where);
      if (notHttp) return this.fail('network', notHttp);
      const end = buf.indexOf(CRLFCRLF);
      if (end < 0) {
        if (buf.length > MAX_HEAD_BYTES) return this.fail('network', `network error talking to ${this.where}: the answer's head is over ${MAX_HEAD_BYTES} bytes`);
        this.head = buf;
        return;
      }
      this.head = undefined;
      if (!this.readHead(buf.toString('latin1', 0, end))) return;
      const rest = buf.subarray(end + 4);
      // readHead set the framing, unless the answer was an interim one.
      const framing = this.framing as Framing | undefined;
      if (framing === undefined) {
        // An interim answer (1xx): the real one follows.
        if (rest.length > 0) this.feed(rest);
        return;
      }
      if (framing.kind === 'none') {
        this.trailing = rest.length > 0;
        return this.done();
      }
      if (rest.length > 0) this.body(rest);
      return;
    }
    this.body(data);
  }

  /** The connection ended: the end of an answer framed by the close, else a cut answer. */
  ended(cause: string | undefined): void {
    if (this.framing?.kind === 'close') return this.done(false);
    if (!this.status && this.framing === undefined) {
      return this.fail('reset', `the connection to ${this.where} was closed before any answer (${cause ?? 'socket hang up'})`);
    }
    this.fail('reset', `the connection to ${this.where} closed in the middle of the answer (HTTP ${this.status}, ${this.received} bytes received)`);
  }

  /** The connection failed with an error. */
  errored(e: NodeJS.ErrnoException): void {
    const code = e.code ?? '';
    if (code === 'ECONNREFUSED') return this.fail('refused', `${this.where} refused the connection (nothing listens there?)`);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return this.fail('dns', `the host of ${this.where} was not found (${code})`);
    if (code === 'ECONNRESET' || code === 'EPIPE') {
      if (this.status || this.framing !== undefined) {
        return this.fail('reset', `the connection to ${this.where} was reset in the middle of the answer (HTTP ${this.status}, ${this.received} bytes received)`);
      }
      return this.fail('reset', `the connection to ${this.where} was closed before any answer (${code})`);
    }
    this.fail('network', `network error talking to ${this.where}: ${code || e.message}`);
  }

  fail(kind: ConstructorParameters<typeof HttpFailure>[0], message: string): void {
    this.settle(new HttpFailure(kind, message, this.elapsed(), this.partial()));
  }

  private readHead(text: string): boolean {
    // Line by line with indexOf, not a list made by split: one answer per fuzz case comes here.
    let eol = text.indexOf('\r\n');
    if (eol < 0) eol = text.length;
    const first = text.slice(0, eol);
    const m = STATUS_LINE.exec(first);
    if (!m) {
      this.fail('network', `network error talking to ${this.where}: the answer is not HTTP/1.x (it starts ${JSON.stringify(first.slice(0, 40))})`);
      return false;
    }
    const status = Number(m[2]);
    const headers: Record<string, string> = {};
    while (eol < text.length) {
      const start = eol + 2;
      eol = text.indexOf('\r\n', start);
      if (eol < 0) eol = text.length;
      const line = text.slice(start, eol);
      const colon = line.indexOf(':');
      if (colon <= 0) {
        this.fail('network', `network error talking to ${this.where}: a header line of the answer is not "name: value"`);
        return false;
      }
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    if (status >= 100 && status < 200) return true;
    this.status = status;
    this.version = Number(m[1]);
    this.headers = headers;
    const te = headers['transfer-encoding'];
    const cl = headers['content-length'];
    if (status === 204 || status === 304) this.framing = { kind: 'none' };
    else if (te !== undefined && /(^|,)\s*chunked\s*$/i.test(te)) this.framing = { kind: 'chunked' };
    else if (cl !== undefined) {
      if (!/^\d+$/.test(cl)) {
        this.fail('network', `network error talking to ${this.where}: the answer's Content-Length is not a number`);
        return false;
      }
      const length = Number(cl);
      if (length > this.limits.maxResponseBytes) {
        this.fail('too-large', `the answer from ${this.where} is larger than ${this.limits.maxResponseBytes} bytes (HTTP ${status}); the kit stops reading there`);
        return false;
      }
      this.framing = length === 0 ? { kind: 'none' } : { kind: 'length', remaining: length };
    } else this.framing = { kind: 'close' };
    return true;
  }

  private take(data: Buffer): boolean {
    this.received += data.length;
    if (this.received > this.limits.maxResponseBytes) {
      this.fail('too-large', `the answer from ${this.where} is larger than ${this.limits.maxResponseBytes} bytes (HTTP ${this.status}); the kit stops reading there`);
      return false;
    }
    this.chunks.push(data);
    return true;
  }

  private body(data: Buffer): void {
    const f = this.framing!;
    if (f.kind === 'length') {
      if (data.length > f.remaining) {
        this.trailing = true;
        data = data.subarray(0, f.remaining);
      }
      if (!this.take(data)) return;
      f.remaining -= data.length;
      if (f.remaining === 0) this.done();
    } else if (f.kind === 'close') {
      this.take(data);
    } else if (f.kind === 'chunked') {
      this.chunked(data);
    } else {
      this.trailing = true;
    }
  }

  /** Chunked transfer coding (RFC 9112 section 7.1): size line, data, CRLF; a zero size, trailers, CRLF. */
  private chunked(data: Buffer): void {
    let buf = this.pending ? Buffer.concat([this.pending, data]) : data;
    this.pending = undefined;
    for (;;) {
      if (this.chunkLeft > 0) {
        const n = Math.min(this.chunkLeft, buf.length);
        if (!this.take(buf.subarray(0, n))) return;
        this.chunkLeft -= n;
        buf = buf.subarray(n);
        if (this.chunkLeft > 0) return;
        this.chunkLeft = -2; // the CRLF after the data
      }
      if (this.chunkLeft === -2) {
        if (buf.length < 2) break;
        buf = buf.subarray(2);
        this.chunkLeft = -1;
      }
      if (this.chunkLeft === -1) {
        const eol = buf.indexOf('\r\n');
        if (eol < 0) break;
        const size = parseInt(buf.toString('latin1', 0, eol).split(';')[0].trim(), 16);
        if (!Number.isFinite(size) || size < 0) return this.fail('network', `network error talking to ${this.where}: a chunk size of the answer is not hexadecimal`);
        buf = buf.subarray(eol + 2);
        if (size === 0) {
          this.chunkLeft = -3;
        } else {
          this.chunkLeft = size;
          continue;
        }
      }
      if (this.chunkLeft === -3) {
        // Trailers, each line ignored, up to the empty line.
        const eol = buf.indexOf('\r\n');
        if (eol < 0) break;
        buf = buf.subarray(eol + 2);
        if (eol === 0) {
          this.trailing = buf.length > 0;
          return this.done();
        }
      }
    }
    if (buf.length > MAX_HEAD_BYTES) return this.fail('network', `network error talking to ${this.where}: a chunk header of the answer is too long`);
    this.pending = buf.length > 0 ? Buffer.from(buf) : undefined;
  }

  private done(reusable = true): void {
    const connection = (this.headers.connection ?? '').toLowerCase();
    const keep = this.version === 1 ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.received);
    this.settle(null, { status: this.status, headers: this.headers, body, durationMs: this.elapsed() }, reusable && keep && !this.trailing);
  }
}

const HTTP_PREFIX = Buffer.from('HTTP/');

/**
 * Why the first bytes of an answer cannot start an HTTP/1.x answer, or undefined while they still may. A TLS
 * record (handshake or alert: 0x16 or 0x15, then version 3.x) means the port speaks TLS: the URL wants https://.
 */
export function notHttpAnswer(buf: Buffer, where: string): string | undefined {
  const n = Math.min(buf.length, HTTP_PREFIX.length);
  if (n === 0 || buf.compare(HTTP_PREFIX, 0, n, 0, n) === 0) return undefined;
  if ((buf[0] === 0x15 || buf[0] === 0x16) && (buf.length < 2 || buf[1] === 0x03)) {
    return `the server at ${where} answered in TLS, not plain HTTP: give an https:// URL in --target`;
  }
  const start = buf.toString('latin1', 0, Math.min(buf.length, 40)).replace(/[^\x20-\x7e]/g, '.');
  return `network error talking to ${where}: the answer is not HTTP/1.x (it starts ${JSON.stringify(start)})`;
}

/** A connection and the answer it is reading now, if any. */
interface Conn {
  readonly socket: net.Socket;
  reader: AnswerReader | undefined;
  dead: boolean;
}

/** The connections to one origin: idle ones, and requests waiting for one. */
class OriginPool {
  readonly idle: Conn[] = [];
  readonly waiting: ((conn: Conn | undefined) => void)[] = [];
  open = 0;

  constructor(
    readonly origin: Origin,
    private readonly maxSockets: number,
  ) {}

  acquire(start: (c: Conn | undefined) => void): void {
    while (this.idle.length > 0) {
      const c = this.idle.pop()!;
      if (c.dead || c.socket.destroyed) continue;
      c.socket.ref();
      return start(c);
    }
    if (this.open < this.maxSockets) return start(this.connect());
    this.waiting.push(start);
  }

  release(conn: Conn): void {
    if (conn.dead || conn.socket.destroyed) return this.discard(conn);
    const next = this.waiting.shift();
    if (next) return next(conn);
    // Like node:http's keep-alive agent: an idle connection never keeps the process alive.
    conn.socket.unref();
    this.idle.push(conn);
  }

  discard(conn: Conn): void {
    if (conn.dead) return;
    conn.dead = true;
    this.open--;
    conn.socket.destroy();
    const i = this.idle.indexOf(conn);
    if (i >= 0) this.idle.splice(i, 1);
    const next = this.waiting.shift();
    if (next) next(this.connect());
  }

  close(): void {
    for (const c of this.idle.splice(0)) this.discard(c);
    for (const w of this.waiting.splice(0)) w(undefined);
  }

  private connect(): Conn {
    // The answers are read into one buffer per connection and handed over at once (`onread`), not through the
    // socket's readable stream: its buffering and 'data' events (through the domain wrapper that ts-node's loading of
    // `repl` installs) cost more per answer than reading the answer does. The end, errors and close still come as
    // events.
    // Set just below; the read callback runs only once the socket has connected.
    let conn: Conn;
    const socket = net.connect({
      host: this.origin.host,
      port: this.origin.port,
      onread: {
        buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
        callback: (n: number, buffer: Uint8Array): boolean => {
          if (n <= 0) return true;
          // The buffer is read into again: what the reader keeps is a copy.
          if (conn.reader) conn.reader.feed(Buffer.from(buffer.subarray(0, n)));
          // Bytes nobody asked for: the connection is out of step with its answers.
          else this.discard(conn);
          return true;
        },
      },
    });
    conn = { socket, reader: undefined, dead: false };
    socket.setNoDelay(true);
    this.open++;
    socket.on('end', () => {
      conn.reader?.ended(undefined);
      this.discard(conn);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      conn.reader?.errored(e);
      this.discard(conn);
    });
    socket.on('close', () => {
      conn.reader?.ended('ECONNRESET');
      this.discard(conn);
    });
    return conn;
  }
}

/** A request waiting for the end of the turn to be written (../end-of-turn.ts), on the connection it was given. */
interface QueuedWrite {
  readonly conn: Conn;
  readonly reader: AnswerReader;
  readonly data: string | Buffer;
}

function writeQueued({ conn, reader, data }: QueuedWrite): void {
  // The request may have failed (the connection reset, the client closed) while it waited.
  if (conn.reader === reader && !conn.dead && !conn.socket.destroyed) conn.socket.write(data);
}

/**
 * Keep-alive connections to plain-http origins, at most `maxSockets` per origin at once (the rest wait their turn).
 * Requests started in one turn of the event loop are written together at its end: a fuzz run starts a request each
 * time an answer has been judged, and answers on several connections are read in one turn.
 */
export class KeepAliveClient {
  private readonly pools = new Map<string, OriginPool>();
  private readonly writes = new EndOfTurn<QueuedWrite>(writeQueued);
  private readonly parsed = new Map<string, Parsed>();
  private closed = false;
  private lastGivenLimits: HttpRequest['limits'];
  private lastLimits: HttpLimits | undefined;

  constructor(private readonly maxSockets = 16) {}

  /** The same contract as `httpRequest`: resolves with any answer, rejects only with an `HttpFailure`. */
  request(req: HttpRequest): Promise<HttpResponse> {
    const limits = this.limitsOf(req.limits);
    const started = process.hrtime.bigint();
    const target = this.parse(req.url);
    if (!target) return Promise.reject(new HttpFailure('bad-url', `not an http URL: ${req.url}`, 0));
    const bytes = requestBytes(req, target);
    if ('error' in bytes) return Promise.reject(new HttpFailure('network', `network error talking to ${target.where}: ${bytes.error}`, 0));
    if (this.closed) return Promise.reject(new HttpFailure('network', `network error talking to ${target.where}: the client was closed`, 0));
    const signal = req.signal;
    if (signal?.aborted) return Promise.reject(stoppedFailure(signal, target.where, 0));
    const pool = this.poolFor(target.origin);

    return new Promise<HttpResponse>((resolve, reject) => {
      let conn: Conn | undefined;
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      const settle = (err: HttpFailure | null, res?: HttpResponse, reusable = false): void => {
        if (settled) return;
        settled = true;
        clearTimeout(totalTimer);
        clearTimeout(connectTimer);
        signal?.removeEventListener('abort', onAbort);
        if (conn) {
          conn.reader = undefined;
          if (err || !reusable) pool.discard(conn);
          else pool.release(conn);
        }
        if (err) reject(err);
        else resolve(res!);
      };
      const reader = new AnswerReader(target.where, limits, started, settle);
      const totalTimer = setTimeout(() => {
        const what = reader.status ? `the answer (HTTP ${reader.status}) did not finish` : 'no answer arrived';
        reader.fail('timeout', `${what} from ${target.where} within ${limits.totalTimeoutMs} ms: the target hung`);
      }, limits.totalTimeoutMs);
      // The run was stopped: the answer is no longer wanted (the connection is discarded, as after any failure).
      const onAbort = (): void => settle(stoppedFailure(signal!, target.where, reader.elapsed()));
      signal?.addEventListener('abort', onAbort, { once: true });

      pool.acquire((c) => {
        if (settled) {
          if (c) pool.release(c);
          return;
        }
        if (!c) return reader.fail('network', `network error talking to ${target.where}: the client was closed`);
        conn = c;
        c.reader = reader;
        if (c.socket.connecting) {
          connectTimer = setTimeout(() => reader.fail('connect-timeout', `no connection to ${target.where} within ${limits.connectTimeoutMs} ms`), limits.connectTimeoutMs);
          c.socket.once('connect', () => clearTimeout(connectTimer));
        }
        this.writes.push({ conn: c, reader, data: bytes.data });
      });
    });
  }

  /** The limits a request is held to: the defaults under the given ones (a Target gives the same object each time). */
  private limitsOf(given: HttpRequest['limits']): HttpLimits {
    if (given !== this.lastGivenLimits || this.lastLimits === undefined) {
      this.lastLimits = { ...DEFAULT_LIMITS, ...given };
      this.lastGivenLimits = given;
    }
    return this.lastLimits;
  }

  /** Ends every connection; requests still waiting for one fail. */
  close(): void {
    this.closed = true;
    for (const pool of this.pools.values()) pool.close();
  }

  private poolFor(origin: Origin): OriginPool {
    let pool = this.pools.get(origin.hostHeader);
    if (!pool) this.pools.set(origin.hostHeader, (pool = new OriginPool(origin, this.maxSockets)));
    return pool;
  }

  private parse(url: string): Parsed | undefined {
    let p = this.parsed.get(url);
    if (p) return p;
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return undefined;
    }
    if (u.protocol !== 'http:') return undefined;
    const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
    p = { origin: { host, port: Number(u.port || 80), hostHeader: u.host }, path: (u.pathname || '/') + u.search, where: `${u.protocol}//${u.host}${u.pathname}` };
    // Bounded: a Target sends to a handful of addresses.
    if (this.parsed.size < 64) this.parsed.set(url, p);
    return p;
  }
}

/**
 * The head of a request up to its Content-Length, per frozen header object (a Target sends the same one on every
 * call): checking and writing the headers once, not per request.
 */
interface Head {
  readonly head: string;
  /** The caller gave no Content-Length: the client writes it. */
  readonly contentLength: boolean;
  readonly ascii: boolean;
}
const HEADS = new WeakMap<object, Map<string, Head | { error: string }>>();

/** The last head given out, and what it was for: a fuzz run asks for the same one on every case. */
let lastHead: { readonly method: string; readonly target: Parsed; readonly headers: object; readonly head: Head | { error: string } } | undefined;

function headOf(method: string, target: Parsed, headers: Readonly<Record<string, string>> | undefined): Head | { error: string } {
  // `target` is the client's cached reading of one URL, and a frozen header object never changes: both by identity.
  if (lastHead !== undefined && lastHead.headers === headers && lastHead.target === target && lastHead.method === method) return lastHead.head;
  const cacheable = headers !== undefined && Object.isFrozen(headers);
  const key = `${method} ${target.origin.hostHeader}${target.path}`;
  const cached = cacheable ? HEADS.get(headers)?.get(key) : undefined;
  if (cached) return cached;
  let head = `${method} ${target.path} HTTP/1.1\r\n`;
  const given = new Set<string>();
  let made: Head | { error: string } | undefined;
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!TOKEN.test(name) || BAD_VALUE.test(value)) {
      made = { error: `the header ${JSON.stringify(name.slice(0, 40))} holds a character HTTP does not allow` };
      break;
    }
    given.add(name.toLowerCase());
    head += `${name}: ${value}\r\n`;
  }
  if (!made) {
    if (!given.has('host')) head += `Host: ${target.origin.hostHeader}\r\n`;
    if (!given.has('connection')) head += 'Connection: keep-alive\r\n';
    made = { head, contentLength: !given.has('content-length'), ascii: !NOT_ASCII.test(head) };
  }
  if (cacheable) {
    let perHeaders = HEADS.get(headers);
    if (!perHeaders) HEADS.set(headers, (perHeaders = new Map()));
    if (perHeaders.size < 16) perHeaders.set(key, made);
    lastHead = { method, target, headers, head: made };
  }
  return made;
}

/** The request as written, in one piece; or why it cannot be written (a header HTTP forbids). */
function requestBytes(req: HttpRequest, target: Parsed): { data: string | Buffer } | { error: string } {
  const method = req.method ?? 'POST';
  const made = headOf(method, target, req.headers);
  if ('error' in made) return made;
  const body = req.body;
  let head = made.head;
  const length = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (made.contentLength && (body !== undefined || (method !== 'GET' && method !== 'HEAD'))) head += `Content-Length: ${length}\r\n`;
  head += '\r\n';
  // Header values are bytes (latin1, as node:http writes them); a body text is UTF-8.
  const ascii = made.ascii;
  if (body === undefined) return { data: ascii ? head : Buffer.from(head, 'latin1') };
  if (typeof body === 'string' && ascii) return { data: head + body };
  return { data: Buffer.concat([Buffer.from(head, 'latin1'), typeof body === 'string' ? Buffer.from(body, 'utf8') : body]) };
}
