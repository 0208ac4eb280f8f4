/**
 * A target under test, seen the way a merchant's server sees the service: one POST of an envelope, in JSON to
 * `{base}/json/` or as an XML request block to the profile's XML address, with basic authentication. Whatever
 * comes back, or fails to, is an `Exchange`: the request and answer as text (masked, for reports), the answer in
 * its JSON form (mapped from XML where the format is XML), and a clear `error` when there is no usable answer.
 * The Target never judges an answer against the document; the steps do that through src/validate.
 */
import type { Agent } from 'node:http';
import { redact, redactText } from '../redact';
import { readAnswer } from '../wire/reading';
import { buildRequestBlock, decodeXmlBody, detectXmlKind, parseResponseBlock } from '../wire/xml';
import { JSON_VERSION, type Format, type RequestEnvelope, type RequestObject, type ResponseEnvelope } from '../wire/types';
import { basicAuth, HttpFailure, httpRequest, keepAliveAgent, type HttpFailureKind, type HttpLimits, type HttpRequest, type HttpResponse } from './http';
import { KeepAliveClient } from './keepalive';

export interface TargetOptions {
  /** Base URL, without the `/json/` path: `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  readonly format: Format;
  readonly user?: string;
  readonly password?: string;
  readonly alias: string;
  readonly jsonPath: string;
  readonly xmlPath: string;
  readonly limits: HttpLimits;
  /** Aborts the requests in flight and fails the next ones at once (the run was stopped). */
  readonly signal?: AbortSignal;
}

export interface Exchange {
  readonly format: Format;
  readonly url: string;
  /** HTTP status, when an answer arrived. */
  readonly status?: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The headers sent (the Authorization value masked). */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** What was sent, masked. */
  readonly requestText: string;
  /** What came back, masked (and cut at 64 KiB: it is for people to read). */
  readonly responseText: string;
  /** The answer in JSON form; unmasked, because later requests must send `md` and `pares` back verbatim. */
  readonly envelope?: ResponseEnvelope;
  /** XML answers: problems the mapping found in the block's structure (root, version, parts). */
  readonly xmlProblems?: readonly string[];
  /** JSON answers: values read as not returned (empty strings, null: `readAnswer`), so the text is shown too. */
  readonly unsetDropped?: boolean;
  readonly durationMs: number;
  /** Set when there is no usable answer: transport failure, or a body that is not an envelope. Masked. */
  readonly error?: string;
  /** The error is the transport's: no complete HTTP answer arrived (refused, hung, reset, too large). */
  readonly transportFailure?: boolean;
  /** Which transport failure, when `transportFailure`. */
  readonly failureKind?: HttpFailureKind;
}

export interface SendOptions {
  /** Basic-auth credentials to use instead of the target's; `null` sends no Authorization header. */
  readonly auth?: { readonly user: string; readonly password: string } | null;
}

export interface RawRequest {
  readonly body: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
  /** Defaults to the format's path. */
  readonly path?: string;
  readonly method?: string;
  readonly auth?: { readonly user: string; readonly password: string } | null;
}

const MAX_SHOWN = 64 * 1024;

function shown(text: string): string {
  const masked = redactText(text);
  return masked.length > MAX_SHOWN ? `${masked.slice(0, MAX_SHOWN)}\n... (${masked.length - MAX_SHOWN} more characters)` : masked;
}

type ShownTexts = 'requestHeaders' | 'requestText' | 'responseText';

/** What an exchange's masked texts are made from, and each text once made (non-enumerable: never spread nor shown). */
const RAW = Symbol('raw texts');

interface RawTexts {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
  readonly answer: string;
  requestHeaders?: Readonly<Record<string, string>>;
  requestText?: string;
  responseText?: string;
}

type WithRaw = { readonly [RAW]: RawTexts };

/**
 * The getters of the masked texts, one set shared by every exchange (reading their state from the exchange itself):
 * a fuzz run makes thousands of exchanges, and three closures and descriptors of their own per exchange cost about
 * as much as the rest of building one.
 */
const SHOWN_TEXTS: PropertyDescriptorMap = {
  requestHeaders: {
    enumerable: true,
    get(this: WithRaw) {
      const raw = this[RAW];
      return (raw.requestHeaders ??= redact(raw.headers));
    },
  },
  requestText: {
    enumerable: true,
    get(this: WithRaw) {
      const raw = this[RAW];
      return (raw.requestText ??= shown(Buffer.isBuffer(raw.body) ? raw.body.toString('utf8') : raw.body));
    },
  },
  responseText: {
    enumerable: true,
    get(this: WithRaw) {
      const raw = this[RAW];
      return (raw.responseText ??= raw.answer === '' ? '' : shown(raw.answer));
    },
  },
};

/**
 * The exchange with its masked texts (`requestHeaders`, `requestText`, `responseText`) as properties that mask on
 * first read and keep the result. Masking a whole body costs more than many checks of it, and a fuzz run sends
 * thousands of requests whose texts nobody reads (only a failure's are shown); whoever reads them still gets only
 * masked text, as before. The properties are enumerable, so spreading or serializing an exchange sees them as
 * plain (masked) values.
 */
function withShownTexts(ex: Omit<Exchange, ShownTexts>, headers: Readonly<Record<string, string>>, body: string | Buffer, answer: string): Exchange {
  const raw: RawTexts = { headers, body, answer };
  Object.defineProperty(ex, RAW, { value: raw });
  return Object.defineProperties(ex, SHOWN_TEXTS) as Exchange;
}

/** What `Target.parse` (or a redirect) makes of an answer. */
type ParsedAnswer = { envelope?: ResponseEnvelope; xmlProblems?: string[]; unsetDropped?: boolean; error?: string };

/**
 * The exchange of an answer, as `{...base, ...parsed}` would make it (the same keys in the same order), written out
 * as one literal per outcome: spreading two objects and then adding the masked texts' getters cost a fuzz case about
 * 4 microseconds, a literal of a fixed shape a fifth of that.
 */
function answeredExchange(format: Format, url: string, res: HttpResponse, parsed: ParsedAnswer): Omit<Exchange, ShownTexts> {
  const { status, headers, durationMs } = res;
  if (parsed.error !== undefined) return { format, url, status, headers, durationMs, error: parsed.error };
  if ('xmlProblems' in parsed) return { format, url, status, headers, durationMs, envelope: parsed.envelope, xmlProblems: parsed.xmlProblems };
  if (parsed.unsetDropped) return { format, url, status, headers, durationMs, envelope: parsed.envelope, unsetDropped: true };
  return { format, url, status, headers, durationMs, envelope: parsed.envelope };
}

function preview(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(redactText(oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine));
}

/**
 * A redirect is no answer: the kit does not follow it (the credentials would go along, to wherever it points, and
 * a POST may turn into a GET). Whatever body it carries, the person running the kit needs the address it points to.
 */
function redirectError(res: HttpResponse): { error: string } | undefined {
  const location = res.headers.location;
  if (res.status < 300 || res.status > 399 || location === undefined) return undefined;
  const shownLocation = redactText(location.length > 200 ? `${location.slice(0, 197)}...` : location);
  return {
    error: `the answer is a redirect (HTTP ${res.status} to ${JSON.stringify(shownLocation)}), not an envelope; the kit does not follow redirects: give the address the target redirects to in --target`,
  };
}

export class Target {
  /** Plain-http targets (loopback above all): the lean client; HTTPS: node:https with a keep-alive agent. */
  private readonly exchange: (req: HttpRequest) => Promise<HttpResponse>;
  private readonly closeConnections: () => void;

  /** What most calls send: the format's address and headers, with the target's credentials (built once). */
  private readonly formatUrl: string;
  private readonly defaultHeaders: Readonly<Record<string, string>>;

  constructor(readonly options: TargetOptions) {
    this.formatUrl = this.url(options.format === 'json' ? options.jsonPath : options.xmlPath);
    this.defaultHeaders = Object.freeze(this.headersFor({}));
    if (/^http:/i.test(options.baseUrl)) {
      const client = new KeepAliveClient();
      this.exchange = (req) => client.request(req);
      this.closeConnections = () => client.close();
    } else {
      const agent: Agent = keepAliveAgent(options.baseUrl);
      this.exchange = (req) => httpRequest({ ...req, agent });
      this.closeConnections = () => agent.destroy();
    }
  }

  get format(): Format {
    return this.options.format;
  }

  url(path: string): string {
    return this.options.baseUrl.replace(/\/+$/, '') + path;
  }

  /** The envelope a merchant sends for one request object: `{alias, version, request:[ {request object} ]}`. */
  envelopeFor(request: RequestObject): RequestEnvelope {
    return { alias: this.options.alias, version: JSON_VERSION, request: [request] };
  }

  /** One request object, in the target's format. */
  send(request: RequestObject, opts: SendOptions = {}): Promise<Exchange> {
    const env = this.envelopeFor(request);
    const body = this.format === 'json' ? JSON.stringify(env) : buildRequestBlock(env);
    return this.sendRaw({ body, auth: opts.auth });
  }

  /** Any body to any path, with the format's headers unless overridden: for transport scenarios. */
  async sendRaw(raw: RawRequest): Promise<Exchange> {
    const format = this.format;
    const url = raw.path === undefined ? this.formatUrl : this.url(raw.path);
    const headers = raw.headers === undefined && raw.auth === undefined ? this.defaultHeaders : this.headersFor(raw);
    const body = raw.body;
    try {
      const res = await this.exchange({ url, method: raw.method ?? 'POST', headers, body, limits: this.options.limits, signal: this.options.signal });
      // JSON is UTF-8 (RFC 8259); an XML answer says its own encoding (decodeXmlBody).
      const text = format === 'xml' ? decodeXmlBody(res.body, res.headers['content-type']) : res.body.toString('utf8');
      const parsed = redirectError(res) ?? this.parse(text, res.status, res.headers['content-type']);
      return withShownTexts(answeredExchange(format, url, res, parsed), headers, body, text);
    } catch (e) {
      const message = e instanceof HttpFailure ? e.message : redactText(`request to ${url} failed: ${String(e)}`);
      const durationMs = e instanceof HttpFailure ? e.durationMs : 0;
      const failure = e instanceof HttpFailure ? { status: e.partial?.status, failureKind: e.kind } : { failureKind: 'network' as const };
      return withShownTexts({ format, url, headers: {}, durationMs, error: message, transportFailure: true, ...failure }, headers, body, '');
    }
  }

  /** The format's headers with the given credentials and overrides (a header given replaces one of any case). */
  private headersFor(raw: Pick<RawRequest, 'headers' | 'auth'>): Record<string, string> {
    const headers: Record<string, string> =
      this.format === 'json'
        ? { 'Content-Type': 'application/json', Accept: 'application/json' }
        : // The document shows no XML headers; these are the public XML client's (public-facts.md).
          { 'Content-Type': 'text/xml;charset=utf-8', Accept: 'text/xml' };
    const auth = raw.auth === undefined ? this.defaultAuth() : raw.auth;
    if (auth) headers.Authorization = basicAuth(auth.user, auth.password);
    for (const [k, v] of Object.entries(raw.headers ?? {})) {
      for (const existing of Object.keys(headers)) if (existing.toLowerCase() === k.toLowerCase()) delete headers[existing];
      headers[k] = v;
    }
    return headers;
  }

  private defaultAuth(): { user: string; password: string } | null {
    const { user, password } = this.options;
    return user !== undefined && password !== undefined ? { user, password } : null;
  }

  /** The answer as an envelope, or why it is not one. Never throws. */
  private parse(text: string, status: number, contentType: string | undefined): ParsedAnswer {
    const what = `HTTP ${status}${contentType ? `, ${contentType}` : ''}`;
    if (!/\S/.test(text)) return { error: `the answer has an empty body (${what})` };
    if (this.format === 'json') {
      let doc: unknown;
      try {
        doc = JSON.parse(text);
      } catch {
        const kind = /^\s*</.test(text) ? 'HTML or XML' : 'not JSON';
        return { error: `the answer is ${kind}, not a JSON envelope (${what}): ${preview(text)}` };
      }
      if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { error: `the answer is JSON but not an object (${what}): ${preview(text)}` };
      // An empty string or null is a value not returned, as an empty XML element is (one reading of an answer).
      const envelope = readAnswer(doc as ResponseEnvelope);
      return envelope === doc ? { envelope } : { envelope, unsetDropped: true };
    }
    if (detectXmlKind(text) !== 'response') {
      return { error: `the answer is not an XML responseblock (${what}): ${preview(text)}` };
    }
    const { envelope, problems } = parseResponseBlock(text);
    return { envelope, xmlProblems: problems.map((p) => redactText(p)) };
  }

  /** A JSON text of an exchange for a report attachment, masked. */
  static attachment(ex: Exchange, request?: unknown): string {
    return JSON.stringify(
      redact({
        format: ex.format,
        url: ex.url,
        status: ex.status,
        durationMs: ex.durationMs,
        error: ex.error,
        request: request ?? ex.requestText,
        requestText: ex.format === 'xml' ? ex.requestText : undefined,
        response: ex.envelope ?? ex.responseText,
        responseText: ex.format === 'xml' || !ex.envelope || ex.unsetDropped ? ex.responseText : undefined,
        xmlProblems: ex.xmlProblems,
      }),
      null,
      2,
    );
  }

  close(): void {
    this.closeConnections();
  }
}
