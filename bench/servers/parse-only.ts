/**
 * The floor any gateway of this interface pays: a plain Node `http` server that checks the basic-auth header, reads
 * the body, parses the JSON and answers a fixed envelope (the reference gateway's own answer to the same request,
 * as bytes made once: AUTH, THREEDQUERY, or AUTH after a THREEDQUERY, chosen by the request's first type and its
 * parent reference). Unlike the bare server (./bare.ts) it builds no answer: the gap between it and the gateway is
 * everything a gateway does beyond reading the request (issue 31). It writes its answers as the gateway and the bare
 * server do, together at the end of each turn of the event loop (src/gateway/answers.ts): on 2 cores at 10
 * connections that costs less CPU per request than writing each answer at once, so this is the cheaper of the two
 * ways, the floor. It tells its CPU time when asked (./cpu.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnswerBatch } from '../../src/gateway/answers';
import { failChild, tell } from '../child';
import type { BareConfig } from './bare';
import { answerCpuQueries } from './cpu';

function start(config: BareConfig): void {
  const batch = new AnswerBatch();
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
      let request: Record<string, unknown> | undefined;
      try {
        request = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request?: Record<string, unknown>[] }).request?.[0];
      } catch {
        request = undefined;
      }
      if (!request) {
        res.writeHead(400, { 'Content-Length': '0' });
        return res.end();
      }
      const types = request.requesttypedescriptions;
      const answer = Array.isArray(types) && types[0] === 'THREEDQUERY' ? config.threedquery : request.parenttransactionreference ? config.authAfter : config.auth;
      batch.write(res, 200, 'application/json; charset=utf-8', answer);
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
