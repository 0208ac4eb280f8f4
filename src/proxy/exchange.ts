/**
 * One HTTP exchange as an observer sees it (the checking proxy live, `cardspec audit` from a capture): what the
 * client sent and what came back, as bytes, or the fault of the path when nothing usable came back. Everything the
 * session checks is read from this one shape, so that the proxy and the audit cannot judge the same traffic twice
 * differently.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { readJsonBytes, readXmlBytes } from '../wire/encoding';
import { readAnswer } from '../wire/reading';
import { decodeXmlBody, detectXmlKind, parseRequestBlock, parseResponseBlock } from '../wire/xml';
import type { Format, ResponseEnvelope } from '../wire/types';

/** Why an exchange has no usable answer: the path between the client and the upstream failed. */
export const FAULT_KINDS = ['refused', 'reset', 'timeout', 'tls', 'dns', 'too-large', 'malformed', 'network'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  readonly kind: FaultKind;
  /** In words, without request data. */
  readonly message: string;
}

export interface HttpExchange {
  readonly method: string;
  /** Path and query, as the client sent them. */
  readonly path: string;
  /** Header names in lower case. */
  readonly requestHeaders: IncomingHttpHeaders;
  readonly requestBody: Buffer;
  /** HTTP status of the answer, when one arrived. */
  readonly status?: number;
  readonly responseHeaders?: IncomingHttpHeaders;
  readonly responseBody?: Buffer;
  readonly fault?: Fault;
  /** Where the exchange was read from (`capture.jsonl:12`, `entry 3`), for the report. */
  readonly source?: string;
}

export const header = (h: IncomingHttpHeaders | undefined, name: string): string | undefined => {
  const v = h?.[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** The most an observer inflates of one body: a compressed body must not expand without bound. */
const MAX_INFLATED = 64 * 1024 * 1024;

/** A body as sent (`Content-Encoding` gzip, deflate, br or none), inflated; undefined when it cannot be read. */
export function inflated(body: Buffer, h: IncomingHttpHeaders | undefined): Buffer | undefined {
  const given = header(h, 'content-encoding');
  // Most bodies are sent as they are: no header to read.
  if (given === undefined) return body;
  const encoding = given.trim().toLowerCase();
  try {
    if (encoding === 'identity' || encoding === '') return body;
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body, { maxOutputLength: MAX_INFLATED });
    if (encoding === 'deflate') return inflateSync(body, { maxOutputLength: MAX_INFLATED });
    if (encoding === 'br') return brotliDecompressSync(body, { maxOutputLength: MAX_INFLATED });
  } catch {
    return undefined;
  }
  return undefined;
}

/** The form of the interface a path is (`/json/`, `/xml/`, the gateway's lenient `/json`), relative to the base path. */
export function formatOfPath(path: string): Format | undefined {
  const query = path.indexOf('?');
  const p = query < 0 ? path : path.slice(0, query);
  if (p === '/json/' || p === '/json') return 'json';
  if (p === '/xml/' || p === '/xml') return 'xml';
  return undefined;
}

/** A request body read as the gateway reads it: the JSON form of the envelope, what was wrong, what was noticed. */
export interface ReadRequest {
  readonly text: string;
  readonly request: unknown;
  readonly problems: readonly string[];
  readonly notes: readonly string[];
}

export function readRequestBody(format: Format, bytes: Buffer, contentType: string | undefined): ReadRequest {
  const read = format === 'json' ? readJsonBytes(bytes, contentType) : readXmlBytes(bytes, contentType);
  if (!read.ok) return { text: bytes.toString('utf8'), request: undefined, problems: [read.problem], notes: [] };
  if (format === 'json') {
    try {
      return { text: read.text, request: JSON.parse(read.text) as unknown, problems: [], notes: read.notes };
    } catch {
      return { text: read.text, request: undefined, problems: ['the body is not JSON'], notes: read.notes };
    }
  }
  const { envelope, problems } = parseRequestBlock(read.text);
  if (!Array.isArray(envelope.request)) return { text: read.text, request: undefined, problems: problems.length > 0 ? problems : ['no <request> element'], notes: read.notes };
  return { text: read.text, request: envelope, problems, notes: read.notes };
}

/** An answer body read as the kit's client reads one (src/client/target.ts): an envelope, or why it is none. */
export interface ReadAnswer {
  readonly text: string;
  readonly envelope?: ResponseEnvelope;
  /** XML: what the responseblock's structure got wrong. */
  readonly problems: readonly string[];
  /** Why the body is no envelope. */
  readonly error?: string;
}

export function readAnswerBody(format: Format, bytes: Buffer, contentType: string | undefined): ReadAnswer {
  const text = format === 'xml' ? decodeXmlBody(bytes, contentType) : bytes.toString('utf8');
  if (!/\S/.test(text)) return { text, problems: [], error: 'the answer has an empty body' };
  if (format === 'json') {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return { text, problems: [], error: `the answer is ${/^\s*</.test(text) ? 'HTML or XML' : 'not JSON'}, not a JSON envelope` };
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { text, problems: [], error: 'the answer is JSON but not an object' };
    return { text, envelope: doc as ResponseEnvelope, problems: [] };
  }
  if (detectXmlKind(text) !== 'response') return { text, problems: [], error: 'the answer is not an XML responseblock' };
  const { envelope, problems } = parseResponseBlock(text);
  return { text, envelope, problems };
}

/** The answer as every reader reads it (an empty or null value is not returned). */
export const answerAsRead = (env: ResponseEnvelope): ResponseEnvelope => readAnswer(env);
