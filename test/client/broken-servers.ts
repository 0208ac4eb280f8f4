/**
 * Deliberately broken targets on loopback, one per way a target can misbehave (issue item 6): each answers every
 * request the same broken way. A refused connection is a port that was listened on and closed.
 */
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';

export type Misbehaviour = 'refuses' | 'hangs' | 'resets mid-body' | 'answers HTML' | 'answers garbage' | 'answers 500' | 'answers a huge body' | 'redirects elsewhere';

export const MISBEHAVIOURS: readonly Misbehaviour[] = ['refuses', 'hangs', 'resets mid-body', 'answers HTML', 'answers garbage', 'answers 500', 'answers a huge body', 'redirects elsewhere'];

/** Where 'redirects elsewhere' points: a port nothing listens on, so that following it could only fail. */
export const REDIRECT_ELSEWHERE = 'http://127.0.0.1:9/elsewhere/json/';

export interface BrokenServer {
  readonly url: string;
  close(): Promise<void>;
}

/** A free loopback port that nothing listens on. */
async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Answers one request the broken way `kind` says (every kind but `refuses`, which is no server at all). */
export function answerBrokenly(kind: Exclude<Misbehaviour, 'refuses'>, res: http.ServerResponse, hugeBytes = 8 * 1024 * 1024): void {
  switch (kind) {
    case 'hangs':
      return; // never answers
    case 'resets mid-body':
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '5000' });
      res.write('{"requestreference":"A1","version":"1.00","response":[{"errorcode":"0"');
      setImmediate(() => res.socket?.destroy());
      return;
    case 'answers HTML':
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html><body><h1>Welcome to nginx!</h1></body></html>');
      return;
    case 'answers garbage':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('\u0000\u0001garbage{{{');
      return;
    case 'redirects elsewhere':
      // A load balancer's "moved" page: the kit must say where it points, never follow it with the credentials.
      res.writeHead(302, { Location: REDIRECT_ELSEWHERE, 'Content-Type': 'text/html' });
      res.end('<html><body>Moved</body></html>');
      return;
    case 'answers 500':
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('Internal Server Error');
      return;
    case 'answers a huge body': {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < hugeBytes) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return;
    }
  }
}

export async function startBroken(kind: Misbehaviour, hugeBytes = 8 * 1024 * 1024): Promise<BrokenServer> {
  if (kind === 'refuses') {
    const port = await deadPort();
    return { url: `http://127.0.0.1:${port}`, close: async () => undefined };
  }
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => answerBrokenly(kind, res, hugeBytes));
  });
  return listenOnLoopback(server);
}

/** Listens on a free loopback port; `close` also ends the connections still open (a hung one, say). */
export async function listenOnLoopback(server: http.Server): Promise<BrokenServer & { readonly sockets: ReadonlySet<net.Socket> }> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sockets,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
