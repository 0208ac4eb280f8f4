/**
 * The HTTP transport (Endpoints > Transport): `POST /json/` and `POST /xml/` with HTTP basic authentication, the
 * emulated ACS at `/acs/` and `/acs/complete`, and the test-control API at `/_cardspec/*` when enabled.
 *
 * Where an envelope can be read the answer is HTTP 200 with an envelope, errors included (the document: "HTTP status
 * codes and the shape of a response to a malformed request: not shown"; docs/gateway.md). Where it cannot, a 4xx
 * with a one-line text: 401 (no or wrong credentials, with `WWW-Authenticate: Basic`), 404 (other paths), 405
 * (other methods), 413 (a body over the limit, before or after gzip), 415 (a content type or encoding other than
 * the form's), 400 (a gzip body that does not inflate). A bug never gives a 5xx: it is answered 99999.
 *
 * The hot path (`/json/`) does no logging unless asked, no synchronous I/O and no schema validation.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzip, inflate } from 'node:zlib';
import { redactText } from '../redact';
import type { UserConfig } from '../testdata';
import { parseRequestBlock, buildResponseBlock } from '../wire/xml';
import type { Format, ResponseEnvelope } from '../wire/types';
import { acsComplete, acsForm, type HtmlReply } from './acs';
import { AnswerBatch } from './answers';
import { control } from './control';
import { errorEnvelope, processEnvelope } from './core';
import { ERR } from './errors';
import type { Runtime } from './runtime';
import type { CallContext, ObservedCall, WireReply } from './types';

/** Largest request body, compressed or not (cardspec's choice: "Rate limits... not shown"). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  readonly bodyLimit?: number;
  /** One line per request, passed through `redactText` (off unless given: no per-request cost). */
  readonly log?: (line: string) => void;
  /** `http://host:port` used for `acsurl` when a request has no usable Host header. */
  readonly baseUrl?: () => string;
  /**
   * Sees every call to `/json/` and `/xml/` once it is answered, and every call refused with a 4xx (contract testing,
   * src/contract). Absent, it costs nothing; an observer that throws is logged and never changes an answer.
   */
  readonly observe?: (call: ObservedCall) => void;
}

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const XML_TYPE = 'text/xml; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

/** Media types each transport accepts ("Request headers: `Content-type: application/json`"; XML: public facts). */
const ACCEPTED_TYPES: Record<Format, readonly string[]> = { json: ['application/json'], xml: ['text/xml', 'application/xml'] };

function plain(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = redactText(message) + '\n';
  res.writeHead(status, { 'Content-Type': TEXT, 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** `type/subtype` and whether its charset, if any, is UTF-8. */
function contentTypeOk(header: string | undefined, accepted: readonly string[]): boolean {
  if (!header) return false;
  const semi = header.indexOf(';');
  const type = (semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase();
  if (!accepted.includes(type)) return false;
  if (semi < 0) return true;
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(header.slice(semi));
  return !charset || /^utf-?8$/i.test(charset[1]);
}

/**
 * `contentTypeOk` remembered per header text: clients send the same few headers on every call, and the answer
 * depends on nothing else. Bounded, so odd headers cannot grow it.
 */
function typeChecker(accepted: readonly string[]): (header: string | undefined) => boolean {
  const seen = new Map<string, boolean>();
  return (header) => {
    if (!header) return false;
    let ok = seen.get(header);
    if (ok === undefined) {
      ok = contentTypeOk(header, accepted);
      if (seen.size >= 64) seen.clear();
      seen.set(header, ok);
    }
    return ok;
  };
}

type Decoded = { ok: true; text: string } | { ok: false; status: number; message: string };

/**
 * Reads a whole body within the limit, inflating `gzip` / `deflate` (real SDKs may compress; the inflated size is
 * limited too, against a compression bomb).
 */
function readBody(req: IncomingMessage, limit: number, done: (r: Decoded) => void): void {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip' && encoding !== 'deflate') {
    req.resume();
    return done({ ok: false, status: 415, message: `415 Unsupported Media Type: Content-Encoding ${encoding} (use gzip, deflate or none)` });
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
    if (encoding === 'identity') return done({ ok: true, text: raw.toString('utf8') });
    const inflateFn = encoding === 'deflate' ? inflate : gunzip;
    inflateFn(raw, { maxOutputLength: limit }, (err, out) => {
      if (!err) return done({ ok: true, text: out.toString('utf8') });
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        return done({ ok: false, status: 413, message: `413 Payload Too Large: the inflated body is over ${limit} bytes` });
      }
      done({ ok: false, status: 400, message: `400 Bad Request: the body is not valid ${encoding} data` });
    });
  });
}

/** HTTP basic authentication ("Every call uses HTTP basic authentication: a user name and password"). */
export class Authenticator {
  private readonly cache = new Map<string, UserConfig>();
  private readonly digests: Map<string, { user: UserConfig; digest: Buffer }>;

  constructor(users: ReadonlyMap<string, UserConfig>) {
    this.digests = new Map([...users].map(([name, user]) => [name, { user, digest: sha256(user.password) }]));
  }

  user(header: string | undefined): UserConfig | undefined {
    if (!header) return undefined;
    const hit = this.cache.get(header);
    if (hit) return hit;
    const m = /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!m) return undefined;
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const entry = this.digests.get(decoded.slice(0, colon));
    // Compared as digests of equal length, in constant time.
    if (!entry || !timingSafeEqual(entry.digest, sha256(decoded.slice(colon + 1)))) return undefined;
    if (this.cache.size > 256) this.cache.clear();
    this.cache.set(header, entry.user);
    return entry.user;
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

const HOST = /^[A-Za-z0-9.\-:[\]]{1,255}$/;

export function createHandler(rt: Runtime, opts: ServerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const limit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const auth = new Authenticator(rt.config.users);
  const log = opts.log;
  const wire = rt.mutate?.wire;
  const observe = opts.observe;
  const typeOk: Record<Format, (header: string | undefined) => boolean> = { json: typeChecker(ACCEPTED_TYPES.json), xml: typeChecker(ACCEPTED_TYPES.xml) };
  // The answers of the interface, on the path every request takes, are written at the end of the turn (./answers.ts).
  const answers = new AnswerBatch((err) => log?.(redactText(`cardspec gateway: an answer could not be written: ${err instanceof Error ? err.message : String(err)}`)));

  function tell(call: ObservedCall): void {
    try {
      observe!(call);
    } catch (err) {
      log?.(redactText(`cardspec gateway: observer error: ${err instanceof Error ? err.message : String(err)}`));
    }
  }

  /** A 4xx answer, also shown to the observer. */
  function refuse(req: IncomingMessage, res: ServerResponse, format: Format | undefined, status: number, message: string, headers: Record<string, string> = {}): void {
    plain(res, status, message, headers);
    if (observe) {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      tell({ kind: 'refused', format, method: req.method ?? '', path: q < 0 ? url : url.slice(0, q), headers: req.headers, status, reason: message });
    }
  }

  // The base address of each Host header seen: a client sends the same one on every call. Bounded like `typeChecker`.
  const bases = { http: new Map<string, string>(), https: new Map<string, string>() };
  function baseUrlOf(req: IncomingMessage): string {
    const host = req.headers.host;
    if (host) {
      const proto = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
      const seen = bases[proto];
      const hit = seen.get(host);
      if (hit !== undefined) return hit;
      if (HOST.test(host)) {
        const base = `${proto}://${host}`;
        if (seen.size >= 64) seen.clear();
        seen.set(host, base);
        return base;
      }
    }
    return opts.baseUrl?.() ?? 'http://127.0.0.1';
  }

  function send(res: ServerResponse, reply: WireReply): void {
    res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(Buffer.byteLength(reply.body)) });
    res.end(reply.body);
  }

  function answer(res: ServerResponse, format: Format, env: ResponseEnvelope): void {
    let body: string;
    try {
      body = format === 'json' ? JSON.stringify(env) : buildResponseBlock(env);
    } catch {
      // A variant's envelope that cannot be written (a cycle): still an answer in the documented shape.
      body = JSON.stringify({ response: [{ requesttypedescription: 'ERROR', errorcode: ERR.unknown.code, errormessage: ERR.unknown.message }] });
    }
    const type = format === 'json' ? JSON_TYPE : XML_TYPE;
    if (wire) return send(res, wire({ status: 200, headers: { 'Content-Type': type }, body }, { format }));
    answers.write(res, 200, type, body);
  }

  function transport(req: IncomingMessage, res: ServerResponse, format: Format): void {
    if (req.method !== 'POST') {
      req.resume();
      return refuse(req, res, format, 405, `405 Method Not Allowed: use POST ${format === 'json' ? '/json/' : '/xml/'}`, { Allow: 'POST' });
    }
    const user = auth.user(req.headers.authorization);
    if (!user) {
      req.resume();
      return refuse(req, res, format, 401, '401 Unauthorized: HTTP basic authentication with a configured user is required (Authentication 1)', {
        'WWW-Authenticate': 'Basic realm="cardspec", charset="UTF-8"',
      });
    }
    if (!typeOk[format](req.headers['content-type'])) {
      req.resume();
      const want = format === 'json' ? 'application/json' : 'text/xml or application/xml';
      return refuse(req, res, format, 415, `415 Unsupported Media Type: send Content-Type ${want} (UTF-8)`);
    }
    const header = req.headers.requestreference;
    const ctx: CallContext = {
      user,
      format,
      baseUrl: baseUrlOf(req),
      // Real SDKs check that the reply's `requestreference` equals the header they sent (public facts).
      requestReference: typeof header === 'string' && /^[\x21-\x7e]{1,255}$/.test(header) ? header : undefined,
    };
    readBody(req, limit, (body) => {
      let call: Processed | undefined;
      try {
        if (!body.ok) return refuse(req, res, format, body.status, body.message);
        const text = body.text.charCodeAt(0) === 0xfeff ? body.text.slice(1) : body.text;
        call = format === 'json' ? fromJson(text, ctx) : fromXml(text, ctx);
        answer(res, format, call.env);
      } catch (err) {
        failSafe(res, format, err);
      }
      if (observe && call) {
        const url = req.url ?? '/';
        const q = url.indexOf('?');
        tell({
          kind: 'answered',
          format,
          method: req.method ?? 'POST',
          path: q < 0 ? url : url.slice(0, q),
          headers: req.headers,
          text: call.text,
          request: call.request,
          problems: call.problems,
          response: call.env,
          ctx,
        });
      }
    });
  }

  /** An answered call: the envelope answered and, for an observer, what was read from the body. */
  interface Processed {
    env: ResponseEnvelope;
    text: string;
    request: unknown;
    problems: readonly string[];
  }

  function fromJson(text: string, ctx: CallContext): Processed {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      const env = errorEnvelope(rt, ctx, ERR.invalidField, ['request'], 'Malformed JSON: the body is not a JSON envelope');
      return { env, text, request: undefined, problems: ['the body is not JSON'] };
    }
    return { env: processEnvelope(rt, parsed, ctx), text, request: parsed, problems: [] };
  }

  function fromXml(text: string, ctx: CallContext): Processed {
    const { envelope, problems } = parseRequestBlock(text);
    // A block that could not be read at all is malformed; a readable one with problems (wrong version, a request
    // without a type) is answered by the envelope and request checks, field by field.
    if (!Array.isArray(envelope.request)) {
      const why = problems[0] ?? 'no <request> element';
      const env = errorEnvelope(rt, ctx, ERR.invalidField, ['request'], redactText(`Malformed XML: ${why}`));
      return { env, text, request: undefined, problems: problems.length > 0 ? problems : ['no <request> element'] };
    }
    return { env: processEnvelope(rt, envelope, ctx), text, request: envelope, problems };
  }

  /** Whatever went wrong, the client gets the documented shape: a 99999 part. */
  function failSafe(res: ServerResponse, format: Format, err: unknown): void {
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

  function html(res: ServerResponse, reply: HtmlReply): void {
    res.writeHead(reply.status, { 'Content-Type': HTML_TYPE, 'Content-Length': Buffer.byteLength(reply.html), 'Cache-Control': 'no-store' });
    res.end(reply.html);
  }

  function acs(req: IncomingMessage, res: ServerResponse, step: 'form' | 'complete', action: string): void {
    if (req.method !== 'POST') {
      req.resume();
      return plain(res, 405, '405 Method Not Allowed: the ACS takes a form POST of PaReq, TermUrl and MD', { Allow: 'POST' });
    }
    if (!contentTypeOk(req.headers['content-type'], ['application/x-www-form-urlencoded'])) {
      req.resume();
      return plain(res, 415, '415 Unsupported Media Type: the ACS takes application/x-www-form-urlencoded');
    }
    readBody(req, limit, (body) => {
      try {
        if (!body.ok) return plain(res, body.status, body.message);
        const form = new URLSearchParams(body.text);
        html(res, step === 'form' ? acsForm(rt, form, action) : acsComplete(rt, form));
      } catch (err) {
        log?.(redactText(`cardspec gateway: ACS error: ${String(err)}`));
        if (!res.headersSent) plain(res, 400, '400 Bad Request: the ACS could not read the form');
      }
    });
  }

  function controlApi(req: IncomingMessage, res: ServerResponse, path: string, query: string): void {
    const respond = (status: number, value: unknown): void => {
      const body = redactText(JSON.stringify(value));
      res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    };
    const params = new URLSearchParams(query);
    if (req.method === 'GET') {
      req.resume();
      const r = control(rt, 'GET', path, params, undefined);
      return respond(r.status, r.body);
    }
    readBody(req, limit, (body) => {
      try {
        if (!body.ok) return plain(res, body.status, body.message);
        let parsed: unknown;
        try {
          parsed = body.text.trim() === '' ? {} : JSON.parse(body.text);
        } catch {
          return respond(400, { error: 'the body is not JSON' });
        }
        const r = control(rt, req.method ?? 'POST', path, params, parsed);
        respond(r.status, r.body);
      } catch (err) {
        log?.(redactText(`cardspec gateway: control error: ${String(err)}`));
        if (!res.headersSent) respond(400, { error: redactText(err instanceof Error ? err.message : String(err)) });
      }
    });
  }

  function route(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    switch (path) {
      case '/json/':
      case '/json':
        return transport(req, res, 'json');
      // "The address of the XML endpoint ...: not shown": `/xml/` is cardspec's choice.
      case '/xml/':
      case '/xml':
        return transport(req, res, 'xml');
      case '/acs/':
        return acs(req, res, 'form', 'complete');
      case '/acs':
        return acs(req, res, 'form', 'acs/complete');
      case '/acs/complete':
        return acs(req, res, 'complete', 'complete');
    }
    if (rt.control && path.startsWith('/_cardspec/')) return controlApi(req, res, path, q < 0 ? '' : url.slice(q + 1));
    req.resume();
    refuse(req, res, undefined, 404, `404 Not Found: ${path.slice(0, 100)} (the gateway serves POST /json/ and POST /xml/)`);
  }

  if (!log) {
    return (req, res) => {
      try {
        route(req, res);
      } catch (err) {
        failSafe(res, req.url?.startsWith('/xml') ? 'xml' : 'json', err);
      }
    };
  }
  return (req, res) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log(redactText(`${req.method} ${req.url} ${res.statusCode} ${ms.toFixed(1)}ms`));
    });
    try {
      route(req, res);
    } catch (err) {
      failSafe(res, req.url?.startsWith('/xml') ? 'xml' : 'json', err);
    }
  };
}
