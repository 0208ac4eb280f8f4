/**
 * A base address with a path: "`POST {base_url}/json/`", and "the list of supported base addresses: not shown". An SDK
 * configured with `https://host/api` posts `/api/json/`, so the stand-in gateway can serve its routes under a base
 * path: a request under it reaches the gateway without it; beside it, the ACS (`acsurl` is on the origin) and the
 * kit's own `/_cardspec/` are served as they are; any other path is not the service's and is refused (404), shown to
 * the observer as such (a contract finding on TRANSPORT-JSON-PATH). One meaning for `cardspec serve --base-path`,
 * the library's `basePath` and `cardspec/nock`'s base address with a path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactText } from '../../redact';
import type { ObservedCall } from '../types';
import { plain } from './http';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Characters of a URL path (RFC 3986 `pchar` and `/`); no query, no fragment. */
const PATH = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]*)+$/;

/**
 * A base path as given (`api`, `/api/`, `/v1/cardpay`) in its one form: a leading slash, no trailing one; `''` for the
 * root. Throws a TypeError saying what a base path is, for anything else (a query, a `..` segment, a whole URL).
 */
export function normaliseBasePath(input: string): string {
  const trimmed = input.trim();
  const path = (trimmed.startsWith('/') ? trimmed : `/${trimmed}`).replace(/\/+$/, '');
  if (path === '') return '';
  if (path.length > 200 || !PATH.test(path) || path.split('/').some((seg) => seg === '.' || seg === '..') || path.includes('//')) {
    throw new TypeError(`a base path is the path of the base address, such as /api or /v1/cardpay (no query, no "..", no scheme or host), not ${JSON.stringify(input.slice(0, 100))}`);
  }
  return path;
}

const KIT_PATHS = /^\/(acs|_cardspec)(\/|\?|$)/;

/** The request URL below the base path, a kit path as it is, or undefined for a path outside both. */
export function withinBasePath(basePath: string, url: string): string | undefined {
  if (basePath === '') return url;
  if (url.startsWith(basePath)) {
    const rest = url.slice(basePath.length);
    if (rest === '') return '/';
    if (rest.startsWith('/')) return rest;
    if (rest.startsWith('?')) return `/${rest}`;
  }
  return KIT_PATHS.test(url) ? url : undefined;
}

/** `handle` served under `basePath` (unchanged for the root); refusals of paths outside it are shown to `observe`. */
export function underBasePath(basePath: string, handle: Handler, observe?: (call: ObservedCall) => void): Handler {
  if (basePath === '') return handle;
  return (req, res) => {
    const url = req.url ?? '/';
    const mapped = withinBasePath(basePath, url);
    if (mapped !== undefined) {
      // The routes read the path from the request (node:http's `url` is writable, as routers use it).
      req.url = mapped;
      return handle(req, res);
    }
    req.resume();
    const path = url.split('?')[0].slice(0, 100);
    const reason = redactText(`404 Not Found: ${path} is not under the base path ${basePath} (the gateway serves POST ${basePath}/json/ and POST ${basePath}/xml/)`);
    plain(res, 404, reason);
    try {
      observe?.({ kind: 'refused', method: req.method ?? '', path, headers: req.headers, status: 404, reason });
    } catch {
      // an observer never changes an answer (server.ts)
    }
  };
}
