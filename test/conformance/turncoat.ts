/**
 * A target that behaves, then does not: a loopback proxy in front of a real reference gateway that forwards the
 * first `good` requests and then misbehaves (refuses, hangs, answers garbage...) for every later one. The preflight
 * sees a good target; the suite meets the broken one. `misbehaving` resolves when the first broken request arrives,
 * so that a test can act at that moment (send SIGINT to a run) without guessing at times.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { startGateway, type RunningGateway } from '../../src/gateway';

export type Turn = 'refuses' | 'hangs' | 'resets mid-body' | 'answers HTML' | 'answers garbage' | 'answers 500' | 'answers a huge body';

export interface Turncoat {
  readonly url: string;
  /** Requests seen, good and bad. */
  readonly seen: () => number;
  /** Resolves when the first request after the good ones arrives. */
  readonly misbehaving: Promise<void>;
  close(): Promise<void>;
}

export async function startTurncoat(turn: Turn, good: number, opts: { control?: boolean } = {}): Promise<Turncoat> {
  const gateway: RunningGateway = await startGateway({ control: opts.control ?? false });
  const upstream = new URL(gateway.url);
  let count = 0;
  let signalBad: () => void = () => undefined;
  const misbehaving = new Promise<void>((r) => (signalBad = r));
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    count += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (count <= good) {
        const fwd = http.request(
          { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        fwd.on('error', () => res.destroy());
        fwd.end(body);
        if (turn === 'refuses' && count === good) {
          // From the end of the last good answer nothing listens: every later connection is refused.
          res.on('finish', () => {
            server.close();
            for (const s of sockets) s.destroy();
            signalBad();
          });
        }
        return;
      }
      signalBad();
      switch (turn) {
        case 'refuses':
          return; // not reached: the listener closed after the good ones
        case 'hangs':
          return;
        case 'resets mid-body':
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '5000' });
          res.write('{"version":"1.00","response":[{"errorcode":"0"');
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
        case 'answers 500':
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          res.end('Internal Server Error');
          return;
        case 'answers a huge body': {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          let sent = 0;
          const pump = (): void => {
            while (sent < 8 * 1024 * 1024) {
              sent += chunk.length;
              if (!res.write(chunk)) return void res.once('drain', pump);
            }
            res.end();
          };
          pump();
          return;
        }
      }
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen: () => count,
    misbehaving,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      await gateway.close();
    },
  };
}
