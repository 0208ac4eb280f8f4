/**
 * The reference gateway's answers, written at the end of the turn in which they were made (../end-of-turn.ts): a
 * client waiting on several connections is woken once for the answers of a turn, not once per answer. On the
 * 2-core machine that was about a tenth of the gateway's CPU per AUTH under load (docs/gateway.md, "Performance").
 *
 * The bench's bare server (bench/servers/bare.ts) writes its answers the same way, so that the ceiling the gateway
 * is measured against has the same transport.
 */
import type { ServerResponse } from 'node:http';
import { EndOfTurn } from '../end-of-turn';

interface Pending {
  readonly res: ServerResponse;
  readonly status: number;
  /** Headers as a flat list (name, value, ...): the cheapest form for node:http. */
  readonly headers: readonly string[];
  readonly body: string;
}

export class AnswerBatch {
  private readonly queue = new EndOfTurn<Pending>(({ res, status, headers, body }) => {
    // The client may have gone away while the answer waited: nothing to write to.
    if (res.destroyed || res.headersSent) return;
    try {
      res.writeHead(status, headers as string[]);
      res.end(body);
    } catch (err) {
      this.onError?.(err);
    }
  });

  /** `onError`: what to do with an answer that could not be written (the others are written all the same). */
  constructor(private readonly onError?: (err: unknown) => void) {}

  /** Writes `body` with `status` and `Content-Type` at the end of this turn; `Content-Length` is added. */
  write(res: ServerResponse, status: number, contentType: string, body: string): void {
    this.queue.push({ res, status, headers: ['Content-Type', contentType, 'Content-Length', String(Buffer.byteLength(body))], body });
  }
}
