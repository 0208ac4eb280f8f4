/**
 * The test-control API under `/_cardspec/` (docs/architecture.md; off unless enabled): JSON in and out, every answer
 * masked. What each call does is in ../control.ts; this is its HTTP shell.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactText } from '../../redact';
import { control } from '../control';
import { JSON_TYPE, plain, readBody, type RouteContext, utf8Text } from './http';

export function controlRoute(rc: RouteContext): (req: IncomingMessage, res: ServerResponse, path: string, query: string) => void {
  const { rt, limit, log } = rc;
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
        const text = utf8Text(body.bytes);
        try {
          parsed = text.trim() === '' ? {} : JSON.parse(text);
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
  return controlApi;
}
