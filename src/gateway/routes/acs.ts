/**
 * The emulated ACS (3-D Secure v1, "Merchant to ACS" and "ACS to merchant"): `/acs/` takes the browser's form POST
 * of `PaReq`, `TermUrl` and `MD`, `/acs/complete` the page's submit; both answer HTML (../acs.ts builds the pages).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactText } from '../../redact';
import { acsComplete, acsForm, type HtmlReply } from '../acs';
import { contentTypeOk, HTML_TYPE, plain, readBody, type RouteContext } from './http';

function html(res: ServerResponse, reply: HtmlReply): void {
  res.writeHead(reply.status, { 'Content-Type': HTML_TYPE, 'Content-Length': Buffer.byteLength(reply.html), 'Cache-Control': 'no-store' });
  res.end(reply.html);
}

export function acsRoute(rc: RouteContext): (req: IncomingMessage, res: ServerResponse, step: 'form' | 'complete', action: string) => void {
  const { rt, limit, log } = rc;
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
  return acs;
}
