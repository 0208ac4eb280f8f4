/**
 * The emulated ACS (3-D Secure v1, "Merchant to ACS" and "ACS to merchant"): `/acs/` takes the browser's form POST
 * of `PaReq`, `TermUrl` and `MD`, `/acs/complete` the page's submit; both answer HTML (../acs.ts builds the pages).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactText } from '../../redact';
import { acsComplete, acsForm, type HtmlReply } from '../acs';
import { contentTypeOk, HTML_TYPE, pathOf, plain, readBody, type RouteContext, utf8Text } from './http';

function html(res: ServerResponse, reply: HtmlReply): void {
  res.writeHead(reply.status, { 'Content-Type': HTML_TYPE, 'Content-Length': Buffer.byteLength(reply.html), 'Cache-Control': 'no-store' });
  res.end(reply.html);
}

export function acsRoute(rc: RouteContext): (req: IncomingMessage, res: ServerResponse, step: 'form' | 'complete', action: string) => void {
  const { rt, limit, log } = rc;
  function acs(req: IncomingMessage, res: ServerResponse, step: 'form' | 'complete', action: string): void {
    // Refusals are shown to the observer (rc.refuse): the form POSTed to `acsurl` is the merchant's ("Merchant to ACS").
    if (req.method !== 'POST') {
      req.resume();
      return rc.refuse(req, res, undefined, 405, '405 Method Not Allowed: the ACS takes a form POST of PaReq, TermUrl and MD', { Allow: 'POST' });
    }
    if (!contentTypeOk(req.headers['content-type'], ['application/x-www-form-urlencoded'])) {
      req.resume();
      return rc.refuse(req, res, undefined, 415, '415 Unsupported Media Type: the ACS takes application/x-www-form-urlencoded');
    }
    readBody(req, limit, (body) => {
      try {
        if (!body.ok) return rc.refuse(req, res, undefined, body.status, body.message);
        const form = new URLSearchParams(utf8Text(body.bytes));
        const reply = step === 'form' ? acsForm(rt, form, action) : acsComplete(rt, form);
        html(res, reply);
        if (reply.reason !== undefined) rc.tell({ kind: 'refused', method: req.method ?? '', path: pathOf(req), headers: req.headers, status: reply.status, reason: reply.reason });
      } catch (err) {
        log?.(redactText(`cardspec gateway: ACS error: ${String(err)}`));
        if (!res.headersSent) plain(res, 400, '400 Bad Request: the ACS could not read the form');
      }
    });
  }
  return acs;
}
