/**
 * HTTP/1.1 framing as the checking proxy reads it off the sockets (./forward.ts): where a message's head ends (the
 * request or status line and the headers, up to the empty line) and where its body ends (Content-Length, chunked,
 * or the connection's close), without re-writing either. The proxy forwards the bytes it read; this only tells it
 * how many of them make one message, and what the message says (for the checks).
 *
 * Two readings of a head: what the forwarding needs (`scanRequestHead`, `scanStatusHead`: the headers that frame
 * the message or concern the hop, and where each line is, with no object of all the headers), and what the checks
 * need (`readRequestHead`, `readStatusHead`: node's headers object). Both refuse the same heads with the same error.
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

/** What forwarding needs of a head: the headers that frame the message or concern the hop, and its lines' places. */
export interface HeadScan {
  /** Bytes of the head, its empty line included. */
  readonly size: number;
  /** `1.0` or `1.1`. */
  readonly version: string;
  /** Values as node's object holds them (repeats joined with `, `). */
  readonly connection?: string;
  readonly transferEncoding?: string;
  readonly expect?: string;
  /** Every Content-Length value, in order. */
  readonly contentLengths: readonly string[];
}

/** Where each header line is: a request's lines are copied on (an answer goes back as its bytes, and needs none). */
export interface HeadLines {
  /** Each header line's name in lower case; its start and end (CRLF excluded) in the head's bytes at 2i, 2i+1. */
  readonly names: string[];
  readonly bounds: number[];
}

export interface RequestScan extends HeadScan, HeadLines {
  readonly method: string;
  readonly target: string;
}

export interface StatusScan extends HeadScan {
  readonly status: number;
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
const LFLF = Buffer.from('\n\n');
const LFCRLF = Buffer.from('\n\r\n');

/**
 * Where the line that begins at `start` of a head's text ends (its CR excluded); where the next one begins is left in
 * `nextLine` (no object per line). A line ended by LF alone is refused unless `bareLf` (an answer's head: RFC 9112
 * 2.2 lets a recipient take a bare LF as a line's end). A request's is refused: the proxy would pass on a line the
 * upstream may read as two (a header hidden from the proxy's framing).
 */
let nextLine = 0;
function lineEnd(text: string, start: number, bareLf: boolean): number {
  const lf = text.indexOf('\n', start);
  if (lf < 0) {
    nextLine = text.length;
    // The head's last line: its end of line is the empty line's, not in the text (an answer's may leave its CR).
    return text.length > start && text.charCodeAt(text.length - 1) === 13 ? text.length - 1 : text.length;
  }
  nextLine = lf + 1;
  if (lf > start && text.charCodeAt(lf - 1) === 13) return lf - 1;
  if (!bareLf) throw new FramingError('HPE_CR_EXPECTED', 'a line ended by LF alone');
  return lf;
}

/** The header lines of a head's text from `from` (after the first line), into raw pairs and node's object. */
function headerLines(text: string, from: number, bareLf: boolean, keepRaw = true): { raw: string[]; headers: IncomingHttpHeaders } {
  const raw: string[] = [];
  const headers = Object.create(null) as Record<string, string | string[]>;
  for (let start = from; start < text.length; start = nextLine) {
    const end = lineEnd(text, start, bareLf);
    const colon = text.indexOf(':', start);
    // A folded line (obsolete) or one without a name is not read: node refuses both.
    if (colon <= start || colon >= end) throw new FramingError('HPE_INVALID_HEADER_TOKEN', 'a header line without a name');
    const name = text.slice(start, colon);
    if (!TOKEN.test(name)) throw new FramingError('HPE_INVALID_HEADER_TOKEN', 'a header name that is no token');
    const value = text.slice(colon + 1, end).trim();
    if (keepRaw) raw.push(name, value);
    const key = name.toLowerCase();
    const had = headers[key];
    if (had === undefined) headers[key] = key === 'set-cookie' ? [value] : value;
    else if (key === 'set-cookie') (had as string[]).push(value);
    else if (!FIRST_ONLY.has(key)) headers[key] = `${had as string}${key === 'cookie' ? '; ' : ', '}${value}`;
  }
  return { raw, headers: headers as IncomingHttpHeaders };
}

/** The header lines of a head's text from `from` (after the first line), as forwarding reads them. */
function scanHeaderLines(text: string, from: number, bareLf: boolean, lines?: HeadLines): Omit<HeadScan, 'size' | 'version'> {
  let connection: string | undefined;
  let transferEncoding: string | undefined;
  let expect: string | undefined;
  const contentLengths: string[] = [];
  for (let start = from; start < text.length; start = nextLine) {
    const end = lineEnd(text, start, bareLf);
    const colon = text.indexOf(':', start);
    // The same refusals as headerLines, in the same order.
    if (colon <= start || colon >= end) throw new FramingError('HPE_INVALID_HEADER_TOKEN', 'a header line without a name');
    const name = text.slice(start, colon);
    if (!TOKEN.test(name)) throw new FramingError('HPE_INVALID_HEADER_TOKEN', 'a header name that is no token');
    const lower = name.toLowerCase();
    if (lines) {
      lines.names.push(lower);
      lines.bounds.push(start, end);
    }
    if (lower === 'connection' || lower === 'transfer-encoding' || lower === 'expect' || lower === 'content-length') {
      const value = text.slice(colon + 1, end).trim();
      if (lower === 'content-length') contentLengths.push(value);
      else if (lower === 'connection') connection = connection === undefined ? value : `${connection}, ${value}`;
      else if (lower === 'expect') expect = expect === undefined ? value : `${expect}, ${value}`;
      else transferEncoding = transferEncoding === undefined ? value : `${transferEncoding}, ${value}`;
    }
  }
  return { connection, transferEncoding, expect, contentLengths };
}

/**
 * The text of a head at the start of `buf` (its empty line not in it), or undefined while its end has not arrived.
 * With `bareLf` the head may end in LF LF or LF CR LF as well as CRLF CRLF: the first empty line ends it.
 */
function headText(buf: Buffer, bareLf: boolean): { text: string; size: number } | undefined {
  let end = buf.indexOf(CRLFCRLF);
  let size = end + 4;
  if (bareLf) {
    // The first empty line may be ended by LF alone: LF LF, or LF CR LF (found where CRLF CRLF is, one byte on, at
    // the latest). Most heads end their lines in CRLF: then it is looked for in the head's own text, not in the
    // bytes after it.
    const head = end >= 0 && end <= MAX_HEAD_BYTES ? buf.toString('latin1', 0, size) : undefined;
    const lflf = head === undefined ? buf.indexOf(LFLF) : head.indexOf('\n\n');
    const lfcrlf = head === undefined ? buf.indexOf(LFCRLF) : head.indexOf('\n\r\n');
    if (lflf >= 0 && (lfcrlf < 0 || lflf < lfcrlf)) {
      end = lflf;
      size = lflf + 2;
    } else {
      end = lfcrlf;
      size = lfcrlf + 3;
    }
    if (head !== undefined) return { text: head.slice(0, end), size };
  }
  if (end < 0) {
    if (buf.length > MAX_HEAD_BYTES) throw new FramingError('HPE_HEADER_OVERFLOW', `a head longer than ${MAX_HEAD_BYTES} bytes`);
    // A request's head ended by an empty line after LF alone has come whole: it is refused now, not waited for.
    if (!bareLf && (buf.indexOf(LFLF) >= 0 || buf.indexOf(LFCRLF) >= 0)) throw new FramingError('HPE_CR_EXPECTED', 'a line ended by LF alone');
    return undefined;
  }
  if (end > MAX_HEAD_BYTES) throw new FramingError('HPE_HEADER_OVERFLOW', `a head longer than ${MAX_HEAD_BYTES} bytes`);
  return { text: buf.toString('latin1', 0, end), size };
}

/** The request whose head starts `buf`; undefined while it is incomplete. */
export function readRequestHead(buf: Buffer): RequestHead | undefined {
  const t = headText(buf, false);
  if (!t) return undefined;
  const m = firstLine(t.text, REQUEST_LINE, false, 'HPE_INVALID_METHOD', 'a request line that is not HTTP/1.x');
  return { size: t.size, version: m[3] === '1' ? '1.1' : '1.0', method: m[1], target: m[2], ...headerLines(t.text, nextLine, false) };
}

/** A head's first line matched by `line` (refused with `code` otherwise); the header lines begin at `nextLine`. */
function firstLine(text: string, line: RegExp, bareLf: boolean, code: string, message: string): RegExpExecArray {
  const end = lineEnd(text, 0, bareLf);
  const m = line.exec(end === text.length ? text : text.slice(0, end));
  if (!m) throw new FramingError(code, message);
  return m;
}

/** The request whose head starts `buf`, as forwarding reads it; undefined while it is incomplete. */
export function scanRequestHead(buf: Buffer): RequestScan | undefined {
  const t = headText(buf, false);
  if (!t) return undefined;
  const m = firstLine(t.text, REQUEST_LINE, false, 'HPE_INVALID_METHOD', 'a request line that is not HTTP/1.x');
  const lines: HeadLines = { names: [], bounds: [] };
  const h = scanHeaderLines(t.text, nextLine, false, lines);
  // One object, written out (a spread of the lines' result costs as much as reading them).
  return {
    size: t.size,
    version: m[3] === '1' ? '1.1' : '1.0',
    method: m[1],
    target: m[2],
    connection: h.connection,
    transferEncoding: h.transferEncoding,
    expect: h.expect,
    contentLengths: h.contentLengths,
    names: lines.names,
    bounds: lines.bounds,
  };
}

/** The answer whose head starts `buf`, as forwarding reads it (a line may end in LF alone); undefined while it is incomplete. */
export function scanStatusHead(buf: Buffer): StatusScan | undefined {
  const t = statusText(buf);
  if (!t) return undefined;
  const m = firstLine(t.text, STATUS_LINE, true, 'HPE_INVALID_CONSTANT', 'no status line');
  const h = scanHeaderLines(t.text, nextLine, true);
  return {
    size: t.size,
    version: m[1] === '1' ? '1.1' : '1.0',
    status: Number(m[2]),
    connection: h.connection,
    transferEncoding: h.transferEncoding,
    expect: h.expect,
    contentLengths: h.contentLengths,
  };
}

/** The text of an answer's head at the start of `buf`, or undefined while its end has not arrived. */
function statusText(buf: Buffer): { text: string; size: number } | undefined {
  const t = headText(buf, true);
  // An answer that does not begin as one is known at its first bytes.
  if (!t && buf.length >= 5 && buf.toString('latin1', 0, 5) !== 'HTTP/') throw new FramingError('HPE_INVALID_CONSTANT', 'no status line');
  return t;
}

/** The answer whose head starts `buf` (a line may end in LF alone); undefined while it is incomplete. */
export function readStatusHead(buf: Buffer): StatusHead | undefined {
  const t = statusText(buf);
  if (!t) return undefined;
  const m = firstLine(t.text, STATUS_LINE, true, 'HPE_INVALID_CONSTANT', 'no status line');
  return { size: t.size, version: m[1] === '1' ? '1.1' : '1.0', status: Number(m[2]), reason: m[3] ?? '', ...headerLines(t.text, nextLine, true) };
}

/**
 * The text of a head handed over whole (its bytes from `start` to `end` of `buf`, its empty line last, as the
 * forwarding thread cut it out): no search for its end, which is where the bytes end.
 */
function wholeText(buf: Buffer, start: number, end: number): string {
  const n = end - start;
  const last = (k: number): number => buf[end - k];
  const eol =
    n >= 4 && last(4) === 13 && last(3) === 10 && last(2) === 13 && last(1) === 10
      ? 4
      : n >= 3 && last(3) === 10 && last(2) === 13 && last(1) === 10
        ? 3
        : n >= 2 && last(2) === 10 && last(1) === 10
          ? 2
          : 0;
  if (eol === 0) throw new FramingError('HPE_INVALID_EOF_STATE', 'a head without its empty line');
  return buf.toString('latin1', start, end - eol);
}

/** A request's head handed over whole (see `wholeText`), read as `readRequestHead` reads it: what the checks use of it. */
export function readWholeRequestHead(buf: Buffer, start: number, end: number): Pick<RequestHead, 'method' | 'target' | 'headers'> {
  const text = wholeText(buf, start, end);
  const m = firstLine(text, REQUEST_LINE, false, 'HPE_INVALID_METHOD', 'a request line that is not HTTP/1.x');
  return { method: m[1], target: m[2], headers: headerLines(text, nextLine, false, false).headers };
}

/** An answer's head handed over whole (see `wholeText`), read as `readStatusHead` reads it: what the checks use of it. */
export function readWholeStatusHead(buf: Buffer, start: number, end: number): Pick<StatusHead, 'status' | 'headers'> {
  const text = wholeText(buf, start, end);
  const m = firstLine(text, STATUS_LINE, true, 'HPE_INVALID_CONSTANT', 'no status line');
  return { status: Number(m[2]), headers: headerLines(text, nextLine, true, false).headers };
}

/** The one Content-Length of a head (repeats must agree), or undefined. */
function contentLength(values: readonly string[]): number | undefined {
  let length: number | undefined;
  for (const value of values) {
    if (!/^\d{1,15}$/.test(value)) throw new FramingError('HPE_INVALID_CONTENT_LENGTH', 'a Content-Length that is no number');
    const n = Number(value);
    if (length !== undefined && length !== n) throw new FramingError('HPE_INVALID_CONTENT_LENGTH', 'Content-Length given twice, differently');
    length = n;
  }
  return length;
}

/** Whether the last transfer coding is chunked; undefined when there is no Transfer-Encoding. */
function chunked(te: string | undefined): boolean | undefined {
  if (te === undefined) return undefined;
  const codings = te.toLowerCase().split(',');
  return codings[codings.length - 1].trim() === 'chunked';
}

/** How a request's body ends (RFC 9112 6.3): chunked, a length, or none; anything else cannot be read safely. */
export function requestFraming(head: HeadScan): Framing {
  const isChunked = chunked(head.transferEncoding);
  const length = contentLength(head.contentLengths);
  if (isChunked !== undefined) {
    // Both, or a coding that is not chunked last: the ends of the body are ambiguous (request smuggling).
    if (!isChunked || length !== undefined) throw new FramingError('HPE_UNEXPECTED_CONTENT_LENGTH', 'a request body whose end is ambiguous');
    return { kind: 'chunked' };
  }
  return length === undefined || length === 0 ? { kind: 'none' } : { kind: 'length', length };
}

/** How an answer's body ends (RFC 9112 6.3), given the request's method. */
export function answerFraming(head: StatusScan, method: string): Framing {
  if (method === 'HEAD' || (head.status >= 100 && head.status < 200) || head.status === 204 || head.status === 304) return { kind: 'none' };
  const isChunked = chunked(head.transferEncoding);
  if (isChunked !== undefined) return isChunked ? { kind: 'chunked' } : { kind: 'close' };
  const length = contentLength(head.contentLengths);
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
