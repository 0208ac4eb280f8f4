/**
 * The proxy's forwarding thread (./forward.ts): forwards the traffic, and hands the finished exchanges to the main
 * thread, which checks them (./server.ts). Exchanges go over in batches (every few milliseconds), each batch one
 * buffer whose memory is moved rather than copied (./handoff.ts). The checks may fall behind the traffic, but only so far: past
 * `maxPending` exchanges (or `maxPendingBytes` of bodies) handed over and not yet checked, each new request waits
 * until the checks have caught up below the bound. Nothing is dropped unchecked, and memory stays bounded.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { redactText } from '../redact';
import { startForwarder, type ForwarderOptions } from './forward';
import { BatchWriter, type Batch, type ExchangeParts } from './handoff';

export interface ThreadData {
  readonly entry: string;
  readonly options: ForwarderOptions;
  readonly maxPending: number;
  readonly maxPendingBytes: number;
}

export type ToThread = { readonly type: 'ack'; readonly n: number; readonly bytes: number } | { readonly type: 'flush'; readonly id: number } | { readonly type: 'close' };

export type FromThread =
  | { readonly type: 'listening'; readonly port: number }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'batch'; readonly batch: Batch }
  | { readonly type: 'flushed'; readonly id: number }
  | { readonly type: 'closed' };

/** How long the first exchange of a batch waits for others, and the most a batch holds (exchanges, bytes). */
const BATCH_MS = 5;
const BATCH_MAX = 256;
const BATCH_MAX_BYTES = 4 * 1024 * 1024;

function run(port: NonNullable<typeof parentPort>, data: ThreadData): void {
  const post = (m: FromThread, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);
  const batch = new BatchWriter();
  let pending = 0;
  let pendingBytes = 0;
  let closing = false;
  const waiting: (() => void)[] = [];
  const full = (): boolean => pending >= data.maxPending || pendingBytes >= data.maxPendingBytes;

  let timer: NodeJS.Timeout | undefined;
  const send = (): void => {
    clearTimeout(timer);
    const b = batch.take();
    if (b) post({ type: 'batch', batch: b }, [b.buffer]);
  };
  const sink = (ex: ExchangeParts): void => {
    if (closing) return;
    // Batched by time, not by turn: the main thread is woken a few hundred times a second at most, whatever the
    // traffic, and never for each exchange. The client's answer has already gone; only the checks wait.
    if (batch.exchanges === 0) timer = setTimeout(send, BATCH_MS);
    pending++;
    pendingBytes += batch.add(ex);
    if (batch.exchanges >= BATCH_MAX || batch.bytes >= BATCH_MAX_BYTES) send();
  };
  const gate = (): Promise<void> | undefined => (full() ? new Promise<void>((resolve) => waiting.push(resolve)) : undefined);

  startForwarder(data.options, sink, gate).then(
    (forwarder) => {
      port.on('message', (m: ToThread) => {
        if (m.type === 'ack') {
          pending -= m.n;
          pendingBytes -= m.bytes;
          while (waiting.length > 0 && !full()) waiting.shift()!();
        } else if (m.type === 'flush') {
          send();
          post({ type: 'flushed', id: m.id });
        } else if (m.type === 'close') {
          // The exchanges that end while the connections close are still handed over, then the last batch.
          void forwarder.close().then(() => {
            send();
            closing = true;
            post({ type: 'closed' });
            port.close();
          });
        }
      });
      post({ type: 'listening', port: forwarder.port });
    },
    (e: Error) => {
      post({ type: 'error', message: redactText(e.message) });
      port.close();
    },
  );
}

if (parentPort) run(parentPort, workerData as ThreadData);
