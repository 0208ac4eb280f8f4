/**
 * Answers made in one turn of the event loop, written together at its end (setImmediate).
 *
 * Why: when client and server share a machine (loopback, the kit's own use), the write of an answer pays for waking
 * the client if it sleeps waiting for it. A server that writes each answer the moment it is made wakes a client
 * waiting on several connections once per answer; written back to back, the first write wakes it and the rest find
 * it awake. On the 2-core machine that was about a tenth of the gateway's CPU per AUTH under load (docs/gateway.md,
 * "Performance"). An answer waits at most the rest of the turn in which it was made.
 *
 * The bench's bare server (bench/servers/bare.ts) writes its answers the same way, so that the ceiling the gateway
 * is measured against has the same transport.
 */
import type { ServerResponse } from 'node:http';

interface Pending {
  readonly res: ServerResponse;
  readonly status: number;
  /** Headers as a flat list (name, value, ...): the cheapest form for node:http. */
  readonly headers: readonly string[];
  readonly body: string;
}

export class AnswerBatch {
  private pending: Pending[] = [];
  private readonly flush = (): void => {
    const pending = this.pending;
    this.pending = [];
    for (const { res, status, headers, body } of pending) {
      // The client may have gone away while the answer waited: nothing to write to.
      if (res.destroyed || res.headersSent) continue;
      try {
        res.writeHead(status, headers as string[]);
        res.end(body);
      } catch (err) {
        this.onError?.(err);
      }
    }
  };

  /** `onError`: what to do with an answer that could not be written (the others are written all the same). */
  constructor(private readonly onError?: (err: unknown) => void) {}

  /** Writes `body` with `status` and `Content-Type` at the end of this turn; `Content-Length` is added. */
  write(res: ServerResponse, status: number, contentType: string, body: string): void {
    if (this.pending.length === 0) setImmediate(this.flush);
    this.pending.push({ res, status, headers: ['Content-Type', contentType, 'Content-Length', String(Buffer.byteLength(body))], body });
  }
}
