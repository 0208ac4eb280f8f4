/**
 * A target that behaves, then does not: a loopback proxy in front of a real reference gateway that forwards the
 * first `good` requests and then misbehaves (refuses, hangs, answers garbage...) for every later one. The preflight
 * sees a good target; the suite meets the broken one. `misbehaving` resolves when the first broken request arrives,
 * so that a test can act at that moment (send SIGINT to a run) without guessing at times.
 */
import * as http from 'node:http';
import { startGateway, type RunningGateway } from '../../src/gateway';
import { answerBrokenly, listenOnLoopback, type Misbehaviour } from '../client/broken-servers';

export type Turn = Misbehaviour;

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
  const server = http.createServer((req, res) => {
    count += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (count <= good) {
        const fwd = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        fwd.on('error', () => res.destroy());
        fwd.end(body);
        if (turn === 'refuses' && count === good) {
          // From the end of the last good answer nothing listens: every later connection is refused.
          res.on('finish', () => {
            server.close();
            for (const s of listening.sockets) s.destroy();
            signalBad();
          });
        }
        return;
      }
      signalBad();
      // `refuses` is not reached: the listener closed after the good ones.
      if (turn !== 'refuses') answerBrokenly(turn, res);
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    seen: () => count,
    misbehaving,
    close: async () => {
      await listening.close();
      await gateway.close();
    },
  };
}
