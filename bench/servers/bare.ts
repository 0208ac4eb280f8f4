/**
 * The ceiling: a bare Node `http` server that does the least any server of this interface must do. It checks the
 * basic-auth header, reads the body, parses the JSON, picks the answer by `requesttypedescriptions` and writes an
 * envelope of the same shape and size as the reference gateway's (the templates are the gateway's own answers to
 * the same payloads), with a fresh `transactionreference`. No field checks, no ledger, no masking. It writes its
 * answers at the end of each turn of the event loop, as the gateway does (src/gateway/answers.ts), so that the two
 * differ in what they do per request, not in how they write. It tells its CPU time when asked (./cpu.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnswerBatch } from '../../src/gateway/answers';
import { failChild, tell } from '../child';
import { answerCpuQueries } from './cpu';

export interface BareConfig {
  readonly type: 'config';
  readonly authorization: string;
  /** Response envelopes (JSON text) of the reference gateway: AUTH, THREEDQUERY, and AUTH after a THREEDQUERY. */
  readonly auth: string;
  readonly threedquery: string;
  readonly authAfter: string;
}

type Part = Record<string, unknown>;
type Envelope = { response: Part[] } & Record<string, unknown>;

function start(config: BareConfig): void {
  const templates = {
    auth: JSON.parse(config.auth) as Envelope,
    threedquery: JSON.parse(config.threedquery) as Envelope,
    authAfter: JSON.parse(config.authAfter) as Envelope,
  };
  let n = 0;
  // Written at the end of the turn, as the reference gateway writes its answers: the same transport for both.
  const answers = new AnswerBatch();
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/json/') {
      req.resume();
      res.writeHead(404, { 'Content-Length': '0' });
      return res.end();
    }
    if (req.headers.authorization !== config.authorization) {
      req.resume();
      res.writeHead(401, { 'Content-Length': '0', 'WWW-Authenticate': 'Basic' });
      return res.end();
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let request: Part | undefined;
      try {
        const env = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request?: Part[] };
        request = env.request?.[0];
      } catch {
        request = undefined;
      }
      if (!request) {
        res.writeHead(400, { 'Content-Length': '0' });
        return res.end();
      }
      const types = request.requesttypedescriptions;
      const first = Array.isArray(types) ? types[0] : undefined;
      const parent = request.parenttransactionreference;
      const template = first === 'THREEDQUERY' ? templates.threedquery : parent ? templates.authAfter : templates.auth;
      n++;
      const part: Part = { ...template.response[0], transactionreference: `99-9-${n}` };
      if (typeof parent === 'string') part.parenttransactionreference = parent;
      const body = JSON.stringify({ ...template, requestreference: `A${n.toString(36)}`, response: [part] });
      answers.write(res, 200, 'application/json; charset=utf-8', body);
    });
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    answerCpuQueries();
    tell({ type: 'ready', url: `http://127.0.0.1:${port}` });
  });
  const close = (): void => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGTERM', close);
  process.once('disconnect', close);
}

process.once('message', (m: unknown) => {
  try {
    start(m as BareConfig);
  } catch (err) {
    failChild(err);
  }
});
