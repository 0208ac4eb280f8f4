/**
 * HTTP/1.1 framing as the checking proxy reads it off the sockets (./forward.ts): where a message's head ends (the
 * request or status line and the headers, up to the empty line) and where its body ends (Content-Length, chunked,
 * or the connection's close), without re-writing either. The proxy forwards the bytes it read; this only tells it
 * how many of them make one message, and what the message says (for the checks).
 */
import type { IncomingHttpHeaders } from 'node:http';

/** The most a head may hold (node's own limit is 16 KiB). */
export const MAX_HEAD_BYTES = 64 * 1024;

/** What HTTP cannot read, with a code in the manner of node's parser (`HPE_...`). */
export class FramingError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Head {
  /** Bytes of the head, its empty line included. */
  readonly size: number;
  /** `1.0` or `1.1`. */
  readonly version: string;
  /** Names as written, values as read: `[name, value, name, value]`. */
  readonly raw: readonly string[];
  /** As node reads them: names in lower case, repeated ones joined (set-cookie a list, some the first only). */
  readonly headers: IncomingHttpHeaders;
}

export interface RequestHead extends Head {
  readonly method: string;
  readonly target: string;
}

export interface StatusHead extends Head {
  readonly status: number;
  readonly reason: string;
}

/** How a body ends: no body, a length, chunked, or the connection's close (an answer only). */
export type Framing = { readonly kind: 'none' } | { readonly kind: 'length'; readonly length: number } | { readonly kind: 'chunked' } | { readonly kind: 'close' };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) ([^\s]+) HTTP\/1\.([01])$/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: ([^\r\n]*))?$/;
/** Headers node keeps the first of when repeated (node:http's IncomingMessage). */
const FIRST_ONLY = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

const CRLFCRLF = Buffer.from('\r\n\r\n');

/** The header lines of a head's text, into raw pairs and node's object. */
function headerLines(lines: readonly string[]): { raw: string[]; headers: IncomingHttpHeaders } {
  const raw: string[] = [];
  const headers = Object.create(null) as Record<string, string | string[]>;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(':');
    // A folded line (obsolete) or one without a name is not read: node refuses both.
    if (colon <= 0) throw new FramingError('HPE_INVALID_HEADER_TOKEN', 'a header line without a name');
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) throw new FramingError('HPE_INVALID_HEADER_TOKEN', 'a header name that is no token');
    const value = line.slice(colon + 1).trim();
    raw.push(name, value);
    const key = name.toLowerCase();
    const had = headers[key];
    if (had === undefined) headers[key] = key === 'set-cookie' ? [value] : value;
    else if (key === 'set-cookie') (had as string[]).push(value);
    else if (!FIRST_ONLY.has(key)) headers[key] = `${had as string}${key === 'cookie' ? '; ' : ', '}${value}`;
  }
  return { raw, headers: headers as IncomingHttpHeaders };
}

/** The text of a head at the start of `buf`, or undefined while its end has not arrived. */
function headText(buf: Buffer): { text: string; size: number } | undefined {
  const end = buf.indexOf(CRLFCRLF);
  if (end < 0) {
    if (buf.length > MAX_HEAD_BYTES) throw new FramingError('HPE_HEADER_OVERFLOW', `a head longer than ${MAX_HEAD_BYTES} bytes`);
    return undefined;
  }
  if (end > MAX_HEAD_BYTES) throw new FramingError('HPE_HEADER_OVERFLOW', `a head longer than ${MAX_HEAD_BYTES} bytes`);
  return { text: buf.toString('latin1', 0, end), size: end + 4 };
}

/** The request whose head starts `buf`; undefined while it is incomplete. */
export function readRequestHead(buf: Buffer): RequestHead | undefined {
  const t = headText(buf);
  if (!t) return undefined;
  const lines = t.text.split('\r\n');
  const m = REQUEST_LINE.exec(lines[0]);
  if (!m) throw new FramingError('HPE_INVALID_METHOD', 'a request line that is not HTTP/1.x');
  return { size: t.size, version: `1.${m[3]}`, method: m[1], target: m[2], ...headerLines(lines) };
}

/** The answer whose head starts `buf`; undefined while it is incomplete. */
export function readStatusHead(buf: Buffer): StatusHead | undefined {
  const t = headText(buf);
  if (!t) {
    // An answer that does not begin as one is known at its first bytes.
    if (buf.length >= 5 && buf.toString('latin1', 0, 5) !== 'HTTP/') throw new FramingError('HPE_INVALID_CONSTANT', 'no status line');
    return undefined;
  }
  const lines = t.text.split('\r\n');
  const m = STATUS_LINE.exec(lines[0]);
  if (!m) throw new FramingError('HPE_INVALID_CONSTANT', 'no status line');
  return { size: t.size, version: `1.${m[1]}`, status: Number(m[2]), reason: m[3] ?? '', ...headerLines(lines) };
}

/** The one Content-Length of a head (repeats must agree), or undefined. */
function contentLength(raw: readonly string[]): number | undefined {
  let length: number | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i].length !== 14 || raw[i].toLowerCase() !== 'content-length') continue;
    if (!/^\d{1,15}$/.test(raw[i + 1])) throw new FramingError('HPE_INVALID_CONTENT_LENGTH', 'a Content-Length that is no number');
    const n = Number(raw[i + 1]);
    if (length !== undefined && length !== n) throw new FramingError('HPE_INVALID_CONTENT_LENGTH', 'Content-Length given twice, differently');
    length = n;
  }
  return length;
}

/** Whether the last transfer coding is chunked; undefined when there is no Transfer-Encoding. */
function chunked(headers: IncomingHttpHeaders): boolean | undefined {
  const te = headers['transfer-encoding'];
  if (te === undefined) return undefined;
  const codings = String(te).toLowerCase().split(',');
  return codings[codings.length - 1].trim() === 'chunked';
}

/** How a request's body ends (RFC 9112 6.3): chunked, a length, or none; anything else cannot be read safely. */
export function requestFraming(head: RequestHead): Framing {
  const isChunked = chunked(head.headers);
  const length = contentLength(head.raw);
  if (isChunked !== undefined) {
    // Both, or a coding that is not chunked last: the ends of the body are ambiguous (request smuggling).
    if (!isChunked || length !== undefined) throw new FramingError('HPE_UNEXPECTED_CONTENT_LENGTH', 'a request body whose end is ambiguous');
    return { kind: 'chunked' };
  }
  return length === undefined || length === 0 ? { kind: 'none' } : { kind: 'length', length };
}

/** How an answer's body ends (RFC 9112 6.3), given the request's method. */
export function answerFraming(head: StatusHead, method: string): Framing {
  if (method === 'HEAD' || (head.status >= 100 && head.status < 200) || head.status === 204 || head.status === 304) return { kind: 'none' };
  const isChunked = chunked(head.headers);
  if (isChunked !== undefined) return isChunked ? { kind: 'chunked' } : { kind: 'close' };
  const length = contentLength(head.raw);
  if (length === undefined) return { kind: 'close' };
  return length === 0 ? { kind: 'none' } : { kind: 'length', length };
}

/** The most a chunk-size line (with its extensions) or a trailer line may hold. */
const MAX_LINE = 4096;

/**
 * A chunked body read as it arrives, in pieces of any size: it says how many bytes of each piece are the body's
 * (what follows is the next message) and gives the data without its framing.
 */
export class ChunkedReader {
  private state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  private remaining = 0;
  private line = '';

  get done(): boolean {
    return this.state === 'done';
  }

  /** Reads `buf` from `start`; returns where the body ended in it (buf.length when it goes on), data to `onData`. */
  feed(buf: Buffer, start: number, onData: (data: Buffer) => void): number {
    let at = start;
    while (at < buf.length && this.state !== 'done') {
      if (this.state === 'data') {
        const n = Math.min(this.remaining, buf.length - at);
        onData(buf.subarray(at, at + n));
        at += n;
        this.remaining -= n;
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      // A line: the chunk size, the CRLF after the data, or a trailer line.
      const lf = buf.indexOf(10, at);
      const end = lf < 0 ? buf.length : lf;
      this.line += buf.toString('latin1', at, end);
      if (this.line.length > MAX_LINE) throw new FramingError('HPE_CHUNK_EXTENSIONS_OVERFLOW', 'a chunk line too long');
      at = end;
      if (lf < 0) break;
      at++;
      if (!this.line.endsWith('\r')) throw new FramingError('HPE_LF_EXPECTED', 'a chunk line not ended by CRLF');
      const line = this.line.slice(0, -1);
      this.line = '';
      if (this.state === 'data-end') {
        if (line !== '') throw new FramingError('HPE_INVALID_CHUNK_SIZE', 'chunk data longer than its size');
        this.state = 'size';
      } else if (this.state === 'size') {
        const size = /^([0-9A-Fa-f]{1,12})[ \t]*(;.*)?$/.exec(line);
        if (!size) throw new FramingError('HPE_INVALID_CHUNK_SIZE', 'a chunk size that is no hexadecimal number');
        this.remaining = parseInt(size[1], 16);
        this.state = this.remaining === 0 ? 'trailer' : 'data';
      } else if (line === '') this.state = 'done';
    }
    return at;
  }
}
