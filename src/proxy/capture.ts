/**
 * Captured traffic: the proxy's own capture (`cardspec proxy --record FILE`, one JSON line per exchange) written and
 * read, and HAR 1.2 read (browser devtools, mitmproxy, Charles, Fiddler exports). Both read to the one
 * `HttpExchange` the session checks.
 *
 * A capture is written masked (src/redact.ts): a JSON body as a structure (the card number in its masked form, the
 * security code and passwords hidden), anything else as text, headers by name (Authorization hidden). Read back, a
 * masked card number is checked as a number of its length (its `#` read as `0`) and a hidden security code as
 * `000`: the form of what was masked was checked live, and is not claimed again from the capture.
 *
 * A HAR written by another tool holds what the browser saw, secrets included. It is read, never repeated: what it
 * holds that a capture must not (a full card number, a security code, a password, an Authorization header) is
 * reported by where it is, not by its value.
 */
import * as fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import * as path from 'node:path';
import { findCardNumbers, findKeyedSecrets, redact, redactText } from '../redact';
import { inflated, type FaultKind, type HttpExchange } from './exchange';

/** The first line's marker, so that a file of another kind is told for what it is. */
export const CAPTURE_KIND = 'cardspec-proxy-capture';

interface CaptureLine {
  readonly at?: string;
  readonly method: string;
  readonly path: string;
  readonly requestHeaders: Record<string, string>;
  readonly requestBody: string;
  readonly status?: number;
  readonly responseHeaders?: Record<string, string>;
  readonly responseBody?: string;
  readonly fault?: { kind: FaultKind; message: string };
}

const flat = (h: IncomingHttpHeaders | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) if (v !== undefined && k !== 'content-encoding' && k !== 'content-length') out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
};

/** A body as a capture holds it: inflated, a JSON body masked as a structure, any other as text. */
export function maskedBody(bytes: Buffer | undefined, h: IncomingHttpHeaders | undefined): string {
  if (!bytes || bytes.length === 0) return '';
  const text = (inflated(bytes, h) ?? bytes).toString('utf8');
  try {
    return JSON.stringify(redact(JSON.parse(text) as unknown));
  } catch {
    return redactText(text);
  }
}

/** One line per exchange, masked, appended as the traffic goes. */
export class CaptureWriter {
  private readonly fd: number;
  private closed = false;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'w');
    fs.writeSync(this.fd, JSON.stringify({ kind: CAPTURE_KIND, version: 1 }) + '\n');
  }

  write(ex: HttpExchange): void {
    if (this.closed) return;
    const line: CaptureLine = {
      at: new Date().toISOString(),
      method: ex.method,
      path: redactText(ex.path),
      requestHeaders: redact(flat(ex.requestHeaders)),
      requestBody: maskedBody(ex.requestBody, ex.requestHeaders),
      status: ex.status,
      responseHeaders: ex.responseHeaders ? redact(flat(ex.responseHeaders)) : undefined,
      responseBody: ex.responseBody ? maskedBody(ex.responseBody, ex.responseHeaders) : undefined,
      fault: ex.fault,
    };
    // Masked twice over: as structures above, and the whole line as text (a secret in a header of another name).
    fs.writeSync(this.fd, redactText(JSON.stringify(line)) + '\n');
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
  }
}

/** A capture that cannot be read, with the reason. */
export class CaptureError extends Error {}

/** What a capture held that it must not, by where (never the value). */
export interface CaptureLeak {
  readonly where: string;
  readonly what: string;
}

export interface ReadCapture {
  readonly kind: 'proxy' | 'har';
  readonly exchanges: HttpExchange[];
  readonly leaks: CaptureLeak[];
  /** Entries left out, and why (not HTTP, no body text). */
  readonly skipped: string[];
}

const MASKED_PAN = /^([0-9]+)(#+)([0-9]+)$/;

/**
 * A masked request body as a checkable one: a masked card number becomes digits of its length, a hidden value
 * (`***`) under a security code's key `000`. Answers are left alone (their `maskedpan` is masked by the document).
 */
function checkableRequest(text: string): string {
  try {
    const doc = JSON.parse(text) as unknown;
    return JSON.stringify(unmask(doc, undefined));
  } catch {
    return text.replace(/([0-9]{4,6})(#{2,13})([0-9]{4})/g, (_m, a: string, hashes: string, b: string) => a + '0'.repeat(hashes.length) + b).replace(/>\*\*\*</g, '>000<');
  }
}

function unmask(v: unknown, key: string | undefined): unknown {
  if (typeof v === 'string') {
    if (key === 'pan' && MASKED_PAN.test(v)) return v.replace(/#/g, '0');
    if (key === 'securitycode' && v === '***') return '000';
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => unmask(x, key));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, unmask(x, k)]));
  return v;
}

const headersOf = (h: Record<string, unknown> | undefined): IncomingHttpHeaders => {
  const out: IncomingHttpHeaders = {};
  for (const [k, v] of Object.entries(h ?? {})) if (typeof v === 'string') out[k.toLowerCase()] = v;
  return out;
};

function readProxyCapture(file: string, lines: string[]): ReadCapture {
  const exchanges: HttpExchange[] = [];
  const skipped: string[] = [];
  lines.forEach((line, i) => {
    if (i === 0 || line.trim() === '') return;
    let doc: CaptureLine;
    try {
      doc = JSON.parse(line) as CaptureLine;
    } catch {
      skipped.push(`${file}:${i + 1}: not JSON`);
      return;
    }
    if (typeof doc.method !== 'string' || typeof doc.path !== 'string') {
      skipped.push(`${file}:${i + 1}: no method and path`);
      return;
    }
    exchanges.push({
      method: doc.method,
      path: doc.path,
      requestHeaders: headersOf(doc.requestHeaders),
      requestBody: Buffer.from(checkableRequest(doc.requestBody ?? ''), 'utf8'),
      status: doc.status,
      responseHeaders: doc.responseHeaders ? headersOf(doc.responseHeaders) : undefined,
      responseBody: doc.responseBody === undefined ? undefined : Buffer.from(doc.responseBody, 'utf8'),
      fault: doc.fault,
      source: `${file}:${i + 1}`,
    });
  });
  return { kind: 'proxy', exchanges, leaks: [], skipped };
}

interface HarHeader {
  name?: unknown;
  value?: unknown;
}

/** HAR headers to node's form; the Authorization header is noted as a leak (the HAR holds it) and kept for reading. */
function harHeaders(list: unknown, where: string, leaks: CaptureLeak[]): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  if (!Array.isArray(list)) return out;
  for (const h of list as HarHeader[]) {
    if (typeof h?.name !== 'string' || typeof h.value !== 'string') continue;
    const name = h.name.toLowerCase();
    // HTTP/2 pseudo-headers (`:authority`) are not headers of the message.
    if (name.startsWith(':')) continue;
    if ((name === 'authorization' || name === 'proxy-authorization') && !/^\s*\*+\s*$/.test(h.value)) leaks.push({ where: `${where} header ${h.name}`, what: 'an Authorization header (credentials)' });
    out[name] = out[name] === undefined ? h.value : `${String(out[name])}, ${h.value}`;
  }
  return out;
}

function harText(content: unknown): Buffer | undefined {
  if (typeof content !== 'object' || content === null) return undefined;
  const c = content as { text?: unknown; encoding?: unknown };
  if (typeof c.text !== 'string') return undefined;
  return c.encoding === 'base64' ? Buffer.from(c.text, 'base64') : Buffer.from(c.text, 'utf8');
}

/** Secrets a body holds, by kind (never the value). */
function leaksIn(text: string, where: string, leaks: CaptureLeak[]): void {
  if (findCardNumbers(text).length > 0) leaks.push({ where, what: 'a full card number' });
  // A value already hidden (`***`, a card number's masked form: as a masked capture holds them) is no leak.
  const keyed = new Set(
    findKeyedSecrets(text)
      .filter((k) => !/^\s*(\*+|[0-9]*#+[0-9]*)\s*$/.test(k.value))
      .map((k) => (k.policy === 'card-number' ? 'a full card number' : k.policy === 'security-code' ? 'a security code' : 'a password or credential')),
  );
  for (const what of keyed) if (what !== 'a full card number' || !leaks.some((l) => l.where === where && l.what === what)) leaks.push({ where, what });
}

function readHar(file: string, doc: unknown): ReadCapture {
  const log = typeof doc === 'object' && doc !== null ? (doc as { log?: unknown }).log : undefined;
  const entries = typeof log === 'object' && log !== null ? (log as { entries?: unknown }).entries : undefined;
  if (!Array.isArray(entries)) throw new CaptureError(`${file}: not a HAR file (no log.entries)`);
  const creator = typeof log === 'object' && log !== null ? (log as { creator?: { name?: unknown } }).creator : undefined;
  const ours = creator?.name === 'cardspec proxy';
  const exchanges: HttpExchange[] = [];
  const leaks: CaptureLeak[] = [];
  const skipped: string[] = [];
  entries.forEach((entry: unknown, i: number) => {
    const where = `${file} entry ${i + 1}`;
    const e = entry as { request?: Record<string, unknown>; response?: Record<string, unknown> };
    const req = e?.request;
    if (!req || typeof req.method !== 'string' || typeof req.url !== 'string') {
      skipped.push(`${where}: no request method and url`);
      return;
    }
    let path: string;
    try {
      const u = new URL(req.url);
      path = u.pathname + u.search;
    } catch {
      skipped.push(`${where}: the url is not an absolute address`);
      return;
    }
    const requestHeaders = harHeaders(req.headers, `${where} request`, leaks);
    const post = req.postData as { text?: unknown; mimeType?: unknown } | undefined;
    // The proxy's own HAR (`--record x.har`) is masked: its bodies are read as the JSON-lines capture's.
    const requestBody = typeof post?.text === 'string' ? Buffer.from(ours ? checkableRequest(post.text) : post.text, 'utf8') : Buffer.alloc(0);
    // What the file holds is judged, not the body as read back.
    if (typeof post?.text === 'string' && post.text.length > 0) leaksIn(post.text, `${where} request body`, leaks);
    // HAR keeps the body as decoded text: its headers' Content-Encoding no longer describes it.
    delete requestHeaders['content-encoding'];
    if (post && typeof post.mimeType === 'string' && requestHeaders['content-type'] === undefined) requestHeaders['content-type'] = post.mimeType;
    const res = e.response;
    const status = typeof res?.status === 'number' && res.status > 0 ? res.status : undefined;
    const responseHeaders = res ? harHeaders(res.headers, `${where} response`, leaks) : undefined;
    if (responseHeaders) delete responseHeaders['content-encoding'];
    const responseBody = res ? harText(res.content) : undefined;
    if (responseBody) leaksIn(responseBody.toString('utf8'), `${where} response body`, leaks);
    exchanges.push({
      method: req.method,
      path,
      requestHeaders,
      requestBody,
      status,
      responseHeaders,
      responseBody: status === undefined ? undefined : (responseBody ?? Buffer.alloc(0)),
      fault: status === undefined ? { kind: 'network', message: 'the HAR entry has no answer (status 0: blocked, cancelled or failed)' } : undefined,
      source: where,
    });
  });
  return { kind: 'har', exchanges, leaks, skipped };
}

/** The most a capture file may be: an audit reads it whole. */
export const MAX_CAPTURE_BYTES = 512 * 1024 * 1024;

/**
 * Reads a capture: the proxy's JSON lines, or HAR 1.2 (told apart by their first characters). A relative `file` is
 * read in `cwd` when given; messages name the file as given.
 */
export function readCapture(file: string, cwd?: string): ReadCapture {
  const full = cwd === undefined ? file : path.resolve(cwd, file);
  let size: number;
  try {
    size = fs.statSync(full).size;
  } catch (e) {
    throw new CaptureError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  if (size > MAX_CAPTURE_BYTES) throw new CaptureError(`${file}: ${size} bytes, more than an audit reads (${MAX_CAPTURE_BYTES})`);
  const text = fs.readFileSync(full, 'utf8').replace(/^\uFEFF/, '');
  const firstLine = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'));
  try {
    const first = JSON.parse(firstLine) as { kind?: unknown };
    if (first?.kind === CAPTURE_KIND) return readProxyCapture(file, text.split('\n'));
  } catch {
    // Not one JSON line: a HAR file spans many.
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new CaptureError(`${file}: neither a cardspec proxy capture (JSON lines) nor a HAR file (JSON)`);
  }
  return readHar(file, doc);
}
