/**
 * What every route of the gateway's HTTP layer shares: the content types, plain-text refusals, the content-type
 * check, reading a (possibly compressed) body within the limit, and the context a route is built with.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { redactText } from '../../redact';
import { buildResponseBlock } from '../../wire/xml';
import type { Format, ResponseEnvelope } from '../../wire/types';
import { ERR } from '../errors';
import type { ObservedCall, Runtime } from '../types';

export const TEXT = 'text/plain; charset=utf-8';
export const JSON_TYPE = 'application/json; charset=utf-8';
export const XML_TYPE = 'text/xml; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

/** Media types each transport accepts ("Request headers: `Content-type: application/json`"; XML: public facts). */
export const ACCEPTED_TYPES: Record<Format, readonly string[]> = { json: ['application/json'], xml: ['text/xml', 'application/xml'] };

export function plain(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = redactText(message) + '\n';
  res.writeHead(status, { 'Content-Type': TEXT, 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** `type/subtype` and, unless `anyCharset`, whether its charset, if any, is UTF-8. */
export function contentTypeOk(header: string | undefined, accepted: readonly string[], anyCharset = false): boolean {
  if (!header) return false;
  const semi = header.indexOf(';');
  const type = (semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase();
  if (!accepted.includes(type)) return false;
  if (semi < 0 || anyCharset) return true;
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(header.slice(semi));
  return !charset || /^utf-?8$/i.test(charset[1]);
}

/**
 * The media type check of the interface's endpoints, remembered per header text: clients send the same few headers
 * on every call, and the answer depends on nothing else. Bounded, so odd headers cannot grow it. The charset is not
 * looked at here: reading the body in its encoding is src/wire/encoding.ts's (a JSON body is UTF-8 whatever the
 * charset says, RFC 8259 11; an XML body in the encoding it states, RFC 7303).
 */
export function typeChecker(accepted: readonly string[]): (header: string | undefined) => boolean {
  const seen = new Map<string, boolean>();
  return (header) => {
    if (!header) return false;
    let ok = seen.get(header);
    if (ok === undefined) {
      ok = contentTypeOk(header, accepted, true);
      if (seen.size >= 64) seen.clear();
      seen.set(header, ok);
    }
    return ok;
  };
}

/** A body as bytes (its characters are the reader's to decode: src/wire/encoding.ts), or why it was not read. */
export type Decoded = { ok: true; bytes: Buffer } | { ok: false; status: number; message: string };

/** A body of the kit's own forms (the ACS's form, the control API's JSON) as UTF-8 text. */
export const utf8Text = (bytes: Buffer): string => bytes.toString('utf8');

/**
 * Reads a whole body within the limit, inflating `gzip` / `deflate` / `br` (real SDKs may compress, and HTTP clients
 * offer all three; the inflated size is limited too, against a compression bomb).
 */
export function readBody(req: IncomingMessage, limit: number, done: (r: Decoded) => void): void {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip' && encoding !== 'deflate' && encoding !== 'br') {
    req.resume();
    return done({ ok: false, status: 415, message: `415 Unsupported Media Type: Content-Encoding ${encoding.slice(0, 40)} (use gzip, deflate, br or none)` });
  }
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    req.resume();
    return done({ ok: false, status: 413, message: `413 Payload Too Large: the body limit is ${limit} bytes` });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > limit) {
      over = true;
      chunks.length = 0;
      return;
    }
    chunks.push(chunk);
  });
  req.on('error', () => {
    /* the client went away; nothing to answer */
  });
  req.on('end', () => {
    if (over) return done({ ok: false, status: 413, message: `413 Payload Too Large: the body limit is ${limit} bytes` });
    const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
    if (encoding === 'identity') return done({ ok: true, bytes: raw });
    const inflated = (err: Error | null, out: Buffer): void => {
      if (!err) return done({ ok: true, bytes: out });
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        return done({ ok: false, status: 413, message: `413 Payload Too Large: the inflated body is over ${limit} bytes` });
      }
      done({ ok: false, status: 400, message: `400 Bad Request: the body is not valid ${encoding} data` });
    };
    if (encoding === 'br') brotliDecompress(raw, { maxOutputLength: limit }, inflated);
    else (encoding === 'deflate' ? inflate : gunzip)(raw, { maxOutputLength: limit }, inflated);
  });
}

/** Whatever went wrong, the client gets the documented shape: a 99999 part. */
export function failSafe(res: ServerResponse, format: Format, err: unknown, log: ((line: string) => void) | undefined): void {
  log?.(redactText(`cardspec gateway: internal error answered 99999: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const env: ResponseEnvelope = {
    requestreference: 'A' + Date.now().toString(36),
    version: '1.00',
    response: [{ requesttypedescription: 'ERROR', errorcode: ERR.unknown.code, errormessage: ERR.unknown.message }],
    secrand: 'cardspec99999',
  };
  let body: string;
  try {
    body = format === 'xml' ? buildResponseBlock(env) : JSON.stringify(env);
  } catch {
    body = JSON.stringify(env);
  }
  res.writeHead(200, { 'Content-Type': format === 'xml' ? XML_TYPE : JSON_TYPE, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** The path of a request URL, without its query. */
export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** What a route is built with: the gateway, the server's options, and the answers every route may give. */
export interface RouteContext {
  readonly rt: Runtime;
  /** Largest body, compressed or inflated. */
  readonly limit: number;
  readonly log?: (line: string) => void;
  readonly observe?: (call: ObservedCall) => void;
  readonly baseUrl?: () => string;
  /** Shows a call to the observer; an observer that throws is logged and never changes an answer. */
  tell(call: ObservedCall): void;
  /** A 4xx answer, also shown to the observer. */
  refuse(req: IncomingMessage, res: ServerResponse, format: Format | undefined, status: number, message: string, headers?: Record<string, string>): void;
  /** Whatever went wrong, the client gets the documented shape: a 99999 part. */
  failSafe(res: ServerResponse, format: Format, err: unknown): void;
}
