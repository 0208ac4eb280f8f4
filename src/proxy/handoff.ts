/**
 * How the forwarding thread (./forward-thread.ts) hands finished exchanges to the checks' thread (./server.ts): the
 * exchanges of a batch written one after another into one buffer, whose memory is then moved, not copied, to the
 * other thread. Each exchange goes as the bytes it came in: the request's head as the client sent it and the answer's
 * as the upstream sent it, each body without its framing, and the fault if any. The checks' thread reads the heads
 * (./framing.ts) into the exchange the checks see; the forwarding thread builds no object for them, and one message
 * per batch is cloned rather than a graph of objects per exchange.
 */
import { FAULT_KINDS, type Fault, type FaultKind, type HttpExchange } from './exchange';
import { readWholeRequestHead, readWholeStatusHead } from './framing';

/** One finished exchange, as the forwarding thread holds it: slices of what it read. */
export interface ExchangeParts {
  /** The request's head as the client sent it (up to its empty line). */
  readonly requestHead: Buffer;
  /** The request's body, without its framing, in the pieces it came in. */
  readonly requestBody: readonly Buffer[];
  /** The answer's head as the upstream sent it (its last, after any interim one); none when the path failed. */
  readonly answerHead?: Buffer;
  readonly answerBody?: readonly Buffer[];
  readonly fault?: Fault;
}

/** The batch as posted: its buffer (moved), how many of its bytes are written, how many exchanges. */
export interface Batch {
  readonly buffer: ArrayBuffer;
  readonly length: number;
  readonly count: number;
}

/** A fault's kind travels as its place in this list, plus one (0: no fault). */
const KINDS: readonly FaultKind[] = FAULT_KINDS;

/** The least a batch's buffer starts with, and the most (one batch with a large body does not make every next one large). */
const INITIAL = 64 * 1024;
const MAX_HINT = 1024 * 1024;

const size = (pieces: readonly Buffer[]): number => {
  let n = 0;
  for (const p of pieces) n += p.length;
  return n;
};

/** The exchanges of the batch being filled, in one buffer that grows; `take()` hands it over and starts another. */
export class BatchWriter {
  private buf: Buffer | undefined;
  private at = 0;
  private count = 0;
  /** The last batch's size: the next one starts about as large. */
  private hint = INITIAL;

  get exchanges(): number {
    return this.count;
  }

  get bytes(): number {
    return this.at;
  }

  /** Writes one exchange; returns the bytes it takes. */
  add(x: ExchangeParts): number {
    const message = x.fault ? Buffer.from(x.fault.message, 'utf8') : undefined;
    const requestBody = size(x.requestBody);
    const answerBody = x.answerBody ? size(x.answerBody) : 0;
    // Kind, then each part after its length: the fault's message, the request's head and body, the answer's.
    const need = 1 + 4 * 5 + (message?.length ?? 0) + x.requestHead.length + requestBody + (x.answerHead?.length ?? 0) + answerBody;
    const buf = this.room(need);
    const start = this.at;
    let at = start;
    buf[at++] = x.fault ? KINDS.indexOf(x.fault.kind) + 1 : 0;
    at = this.part(buf, at, message ? [message] : [], message?.length ?? 0);
    at = this.part(buf, at, [x.requestHead], x.requestHead.length);
    at = this.part(buf, at, x.requestBody, requestBody);
    // An answer's head is never empty: an empty one says there was no answer.
    at = this.part(buf, at, x.answerHead ? [x.answerHead] : [], x.answerHead?.length ?? 0);
    at = this.part(buf, at, x.answerBody ?? [], answerBody);
    this.at = at;
    this.count++;
    return at - start;
  }

  /** The batch written so far, its memory for the other thread; undefined when it holds nothing. */
  take(): Batch | undefined {
    if (!this.buf || this.count === 0) return undefined;
    const batch = { buffer: this.buf.buffer as ArrayBuffer, length: this.at, count: this.count };
    this.hint = Math.min(MAX_HINT, Math.max(INITIAL, this.at));
    this.buf = undefined;
    this.at = 0;
    this.count = 0;
    return batch;
  }

  private part(buf: Buffer, at: number, pieces: readonly Buffer[], length: number): number {
    buf.writeUInt32LE(length, at);
    at += 4;
    for (const p of pieces) at += p.copy(buf, at);
    return at;
  }

  /** The buffer, with room for `need` more bytes; a buffer of its own (not pooled), so that it can be moved. */
  private room(need: number): Buffer {
    const buf = this.buf;
    if (buf && this.at + need <= buf.length) return buf;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.hint, 2 * (buf?.length ?? 0), this.at + need));
    if (buf) buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
    return grown;
  }
}

/** The exchanges of a batch, as the checks see them: the heads read, the bodies slices of the batch's memory. */
export function readBatch(batch: Batch): HttpExchange[] {
  const buf = Buffer.from(batch.buffer, 0, batch.length);
  const out: HttpExchange[] = [];
  let at = 0;
  /** Steps over the next part; returns where it begins (it ends at `at`). */
  const skip = (): number => {
    const n = buf.readUInt32LE(at);
    at += 4 + n;
    return at - n;
  };
  for (let i = 0; i < batch.count; i++) {
    const kind = buf[at++];
    const messageAt = skip();
    const message = kind > 0 ? buf.toString('utf8', messageAt, at) : '';
    // The heads are read where they lie (no slice of their own), each known whole: the forwarding thread cut
    // them out at their empty line, and read them the same way before it forwarded them.
    const requestAt = skip();
    const request = readWholeRequestHead(buf, requestAt, at);
    const requestBody = buf.subarray(skip(), at);
    const answerAt = skip();
    const answer = at > answerAt ? readWholeStatusHead(buf, answerAt, at) : undefined;
    const answerBodyAt = skip();
    out.push({
      method: request.method,
      path: request.target,
      requestHeaders: request.headers,
      requestBody,
      status: answer?.status,
      responseHeaders: answer?.headers,
      responseBody: answer ? buf.subarray(answerBodyAt, at) : undefined,
      fault: kind > 0 ? { kind: KINDS[kind - 1], message } : undefined,
    });
  }
  return out;
}
