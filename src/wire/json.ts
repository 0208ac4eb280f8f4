/**
 * The JSON form (Endpoints > Transport): the envelope a client sends, parsing a body without ever throwing, and
 * the content types of both forms.
 */
import { redactText } from '../redact';
import { JSON_VERSION, type Format, type RequestEnvelope, type RequestObject } from './types';

/** "Request headers: `Content-type: application/json`" (Endpoints > Transport). */
export const JSON_CONTENT_TYPE = 'application/json';
/** The XML form's content type: not in the document; public-facts.md (the Ruby gem sends `text/xml;charset=utf-8`). */
export const XML_CONTENT_TYPE = 'text/xml';

/**
 * `{alias, version: "1.00", request: [requestObject]}` ("One request object per call"; Versioning 1). `extra`
 * adds what real SDKs add (`libraryversion`); it cannot replace the three documented keys: a test that needs a
 * wrong version or two request objects builds the object itself.
 */
export function buildRequestEnvelope(alias: string, requestObject: RequestObject, extra: Record<string, unknown> = {}): RequestEnvelope {
  const { alias: _a, version: _v, request: _r, ...rest } = extra;
  return { alias, version: JSON_VERSION, request: [requestObject], ...rest };
}

/** A body as JSON. Never throws; the problem is masked (engines quote the offending text, which may hold a PAN). */
export function parseJson(text: string): { value?: unknown; problem?: string } {
  if (typeof text !== 'string') return { problem: 'the body is not text' };
  // A byte-order mark is not JSON, but some clients write one; it carries no data.
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { problem: 'the body is empty; a JSON envelope was expected' };
  try {
    return { value: JSON.parse(body) as unknown };
  } catch (e) {
    return { problem: redactText(`not valid JSON: ${e instanceof Error ? e.message : String(e)}`) };
  }
}

/** Which form a Content-Type header names (parameters such as `;charset=utf-8` ignored), if either. */
export function formatOfContentType(header: string | undefined): Format | undefined {
  const type = (header ?? '').split(';')[0].trim().toLowerCase();
  if (type === JSON_CONTENT_TYPE) return 'json';
  if (type === XML_CONTENT_TYPE || type === 'application/xml') return 'xml';
  return undefined;
}

/**
 * The request types a request object names, as the gateway reads them: `requesttypedescriptions` (or the singular
 * `requesttypedescription`), string entries only; `[]` when nothing can be read. Everyone who counts parts per
 * request object (the gateway, contract checks, steps, fuzz models, the gallery) reads them here.
 */
export function requestTypesOf(raw: unknown): string[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [];
  const obj = raw as Record<string, unknown>;
  const t = obj.requesttypedescriptions ?? obj.requesttypedescription;
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}
