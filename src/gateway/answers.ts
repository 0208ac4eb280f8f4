/**
 * The reference gateway's answers, written at the end of the turn in which they were made: a client waiting on
 * several connections is woken once for the answers of a turn, not once per answer. On the 2-core machine that was
 * about a tenth of the gateway's CPU per AUTH under load (docs/gateway.md, "Performance").
 *
 * The bench's plain servers (bench/servers/json-child.ts) write their answers the same way (`write`), so that the
 * floor and the ceiling the gateway is measured against have the same transport.
 *
 * The gateway also answers the requests of a turn together (`BodyTurn`): the bodies read in one turn are answered
 * one after the other when it ends, and their answers written at once after the last (`together`).
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
  /** Within `together`: the answers wait for its end instead of the turn's. */
  private held = false;
  private readonly flush = (): void => {
    const items = this.pending;
    if (items.length === 0) return;
    this.pending = [];
    for (const item of items) this.writeOne(item);
  };

  /** `onError`: what to do with an answer that could not be written (the others are written all the same). */
  constructor(private readonly onError?: (err: unknown) => void) {}

  private writeOne({ res, status, headers, body }: Pending): void {
    // The client may have gone away while the answer waited: nothing to write to.
    if (res.destroyed || res.headersSent) return;
    try {
      res.writeHead(status, headers as string[]);
      res.end(body);
    } catch (err) {
      this.onError?.(err);
    }
  }

  /**
   * Writes `body` with `status` and `Content-Type` at the end of this turn; `Content-Length` is added: `bytes`, the
   * body's UTF-8 byte length when the caller counted it as it wrote the text (src/gateway/envelope-text.ts), else
   * measured here.
   */
  write(res: ServerResponse, status: number, contentType: string, body: string, bytes = Buffer.byteLength(body)): void {
    if (this.pending.length === 0 && !this.held) setImmediate(this.flush);
    this.pending.push({ res, status, headers: ['Content-Type', contentType, 'Content-Length', String(bytes)], body });
  }

  /**
   * Runs `work`, holding the answers it writes until it returns (or throws), then writes every answer waiting, these
   * and any of the turn's before them, back to back.
   */
  together(work: () => void): void {
    const outer = this.held;
    this.held = true;
    try {
      work();
    } finally {
      this.held = outer;
      if (!outer) this.flush();
    }
  }
}

/**
 * Work that comes in during one turn of the event loop (a request whose body has been read), done together when the
 * turn ends, with the answers it writes to `answers` written back to back after the last item.
 *
 * Why: each request's answer is made by the gateway's whole core (reading and checking its fields, the payment, the
 * ledger, the answer's text); node:http's reading of the next request, between two of them, evicts that code and
 * its data from the processor's caches. Answered one after the other, the requests of a turn find them warm. The
 * answers were written at the end of the turn already, so no answer waits longer than before.
 */
export class BodyTurn<T> {
  private items: T[] = [];
  private readonly flush = (): void => {
    const items = this.items;
    this.items = [];
    this.answers.together(() => {
      for (const item of items) {
        // One item's failure must not cost the others their answers.
        try {
          this.run(item);
        } catch (err) {
          this.onError?.(err, item);
        }
      }
    });
  };

  /** `run` answers one item; `onError` is told what it threw, if anything (the items after it are answered all the same). */
  constructor(
    private readonly answers: AnswerBatch,
    private readonly run: (item: T) => void,
    private readonly onError?: (err: unknown, item: T) => void,
  ) {}

  push(item: T): void {
    if (this.items.length === 0) setImmediate(this.flush);
    this.items.push(item);
  }
}
