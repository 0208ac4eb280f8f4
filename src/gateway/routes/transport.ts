/**
 * The interface's endpoints, `POST /json/` and `POST /xml/` (Endpoints > Transport): method, basic authentication,
 * content type, body; then, at the end of the turn with the other bodies read in it, the envelope goes to the pure
 * core (core.ts) and the answers are written together (answers.ts). The hot path: no logging unless asked, no
 * synchronous I/O, no schema validation.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactText } from '../../redact';
import { buildResponseBlock } from '../../wire/xml';
import type { Format, ResponseEnvelope } from '../../wire/types';
import { AnswerBatch, BodyTurn } from '../answers';
import { answerBytes, type AnsweredBody } from '../body';
import { envelopeText, envelopeTextBytes } from '../envelope-text';
import { ERR } from '../errors';
import type { CallContext, WireReply } from '../types';
import { Authenticator } from './auth';
import { ACCEPTED_TYPES, JSON_TYPE, pathOf, readBody, typeChecker, XML_TYPE, type Decoded, type RouteContext } from './http';

const HOST = /^[A-Za-z0-9.\-:[\]]{1,255}$/;

/** A request of the interface whose body has been read (or refused), waiting for the end of the turn. */
interface BodyRead {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly format: Format;
  readonly body: Decoded;
  readonly ctx: CallContext;
}

export function transportRoute(rc: RouteContext): (req: IncomingMessage, res: ServerResponse, format: Format) => void {
  const { rt, limit, log, observe, refuse, failSafe, tell } = rc;
  const opts = { baseUrl: rc.baseUrl };
  const auth = new Authenticator(rt.config.users);
  const wire = rt.mutate?.wire;
  const typeOk: Record<Format, (header: string | undefined) => boolean> = { json: typeChecker(ACCEPTED_TYPES.json), xml: typeChecker(ACCEPTED_TYPES.xml) };
  // The answers of the interface, on the path every request takes, are written at the end of the turn (../answers.ts).
  const answers = new AnswerBatch((err) => log?.(redactText(`cardspec gateway: an answer could not be written: ${err instanceof Error ? err.message : String(err)}`)));
  // A request whose answer could not even be written as a 99999: its connection is closed rather than left waiting.
  const unanswered = (err: unknown, { res }: BodyRead): void => {
    log?.(redactText(`cardspec gateway: a request could not be answered: ${err instanceof Error ? err.message : String(err)}`));
    res.destroy();
  };

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
    // The JSON text's byte length as its writer counted it (-1: not counted, measured by the batch).
    let bytes = -1;
    try {
      if (format === 'json') {
        body = envelopeText(env);
        bytes = envelopeTextBytes();
      } else body = buildResponseBlock(env);
    } catch {
      // A variant's envelope that cannot be written (a cycle): still an answer in the documented shape.
      body = JSON.stringify({ response: [{ requesttypedescription: 'ERROR', errorcode: ERR.unknown.code, errormessage: ERR.unknown.message }] });
      bytes = -1;
    }
    const type = format === 'json' ? JSON_TYPE : XML_TYPE;
    if (wire) return send(res, wire({ status: 200, headers: { 'Content-Type': type }, body }, { format }));
    if (bytes >= 0) answers.write(res, 200, type, body, bytes);
    else answers.write(res, 200, type, body);
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
      return refuse(req, res, format, 415, `415 Unsupported Media Type: send Content-Type ${want}`);
    }
    const header = req.headers.requestreference;
    const ctx: CallContext = {
      user,
      format,
      baseUrl: baseUrlOf(req),
      // Real SDKs check that the reply's `requestreference` equals the header they sent (public facts).
      requestReference: typeof header === 'string' && /^[\x21-\x7e]{1,255}$/.test(header) ? header : undefined,
    };
    readBody(req, limit, (body) => turn.push({ req, res, format, body, ctx }));
  }

  /** A request whose body was read: answered at the end of the turn, with the others read in it (../answers.ts). */
  function answerRead({ req, res, format, body, ctx }: BodyRead): void {
    let call: AnsweredBody | undefined;
    try {
      if (!body.ok) return refuse(req, res, format, body.status, body.message);
      const read = answerBytes(rt, format, body.bytes, req.headers['content-type'], ctx);
      if ('unsupported' in read) return refuse(req, res, format, 415, `415 Unsupported Media Type: ${read.unsupported}`);
      call = read;
      answer(res, format, call.env);
    } catch (err) {
      failSafe(res, format, err);
    }
    if (observe && call) {
      tell({
        kind: 'answered',
        format,
        method: req.method ?? 'POST',
        path: pathOf(req),
        headers: req.headers,
        text: call.text,
        request: call.request,
        problems: call.problems,
        notes: call.notes,
        response: call.env,
        ctx,
      });
    }
  }
  const turn = new BodyTurn<BodyRead>(answers, answerRead, unanswered);

  return transport;
}
