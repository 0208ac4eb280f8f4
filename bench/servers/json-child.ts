/**
 * What the bench's plain servers (./bare.ts, ./parse-only.ts) share, so that the two differ only in how they answer:
 * POST /json/ alone, the basic-auth header checked, the body read and parsed, the first request object handed to
 * `answer` (a body that is not an envelope is a 400); answers written at the end of each turn of the event loop,
 * as the reference gateway writes them (src/gateway/answers.ts); on loopback, telling its address and its CPU time
 * (./cpu.ts) to the benchmark, and closed by SIGTERM or when the benchmark goes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnswerBatch } from '../../src/gateway/answers';
import { failChild, tell } from '../child';
import { answerCpuQueries } from './cpu';

export type RequestObject = Record<string, unknown>;

/** The answer's body for a request object; written with status 200 as JSON. */
export type Answer = (request: RequestObject) => string;

export function serveJson(authorization: string, answer: Answer): void {
  const batch = new AnswerBatch();
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/json/') {
      req.resume();
      res.writeHead(404, { 'Content-Length': '0' });
      return res.end();
    }
    if (req.headers.authorization !== authorization) {
      req.resume();
      res.writeHead(401, { 'Content-Length': '0', 'WWW-Authenticate': 'Basic' });
      return res.end();
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let request: RequestObject | undefined;
      try {
        request = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request?: RequestObject[] }).request?.[0];
      } catch {
        request = undefined;
      }
      if (!request) {
        res.writeHead(400, { 'Content-Length': '0' });
        return res.end();
      }
      batch.write(res, 200, 'application/json; charset=utf-8', answer(request));
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

/** Starts the server with the configuration the benchmark sends first; a start that throws is told to it. */
export function startOnConfig<C>(start: (config: C) => void): void {
  process.once('message', (m: unknown) => {
    try {
      start(m as C);
    } catch (err) {
      failChild(err);
    }
  });
}
