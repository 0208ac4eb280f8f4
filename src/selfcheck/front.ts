/**
 * A loopback proxy in front of a gateway, for the few variants the mutation hook cannot reach: basic
 * authentication happens before any hook runs, and the emulated ACS pages are not envelopes. The proxy forwards
 * every request (Host header kept, so the gateway builds `acsurl` on the proxy's address), with the variant's
 * `Front` rewriting the request on its way in and the answer on its way out.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Front, FrontRequest, FrontResponse } from './types';

export interface RunningFront {
  readonly url: string;
  close(): Promise<void>;
}

/** Headers that describe one hop, not the message: never forwarded as they came (the proxy sets its own). */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'proxy-connection', 'upgrade']);

function flatHeaders(h: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function readAll(stream: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

/** Sends one request to the gateway and reads the whole answer. */
function forward(target: URL, req: FrontRequest): Promise<FrontResponse> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(req.body, 'utf8');
    const out = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.path, headers: { ...req.headers, 'content-length': String(body.length) } }, (res) => {
      readAll(res).then((text) => resolve({ status: res.statusCode ?? 502, headers: flatHeaders(res.headers), body: text }), reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

export async function startFront(gatewayUrl: string, front: Front): Promise<RunningFront> {
  const target = new URL(gatewayUrl);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      try {
        const incoming: FrontRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: flatHeaders(req.headers), body: await readAll(req) };
        const sent = front.request ? front.request(incoming) : incoming;
        const answer = await forward(target, sent);
        const back = front.response ? front.response(answer, sent) : answer;
        res.writeHead(back.status, { ...back.headers, 'content-length': String(Buffer.byteLength(back.body)) });
        res.end(back.body);
      } catch (e) {
        // A proxy problem is the kit's, not the variant's: say so plainly (no request data in the message).
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`selfcheck front: ${(e as Error).message}\n`);
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
