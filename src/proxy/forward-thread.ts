/**
 * The proxy's forwarding thread (./forward.ts): forwards the traffic, and hands the finished exchanges to the main
 * thread, which checks them (./server.ts). Exchanges go over in batches, one message per turn of the event loop,
 * their bodies moved rather than copied. The checks may fall behind the traffic, but only so far: past
 * `maxPending` exchanges (or `maxPendingBytes` of bodies) handed over and not yet checked, each new request waits
 * until the checks have caught up below the bound. Nothing is dropped unchecked, and memory stays bounded.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { redactText } from '../redact';
import type { HttpExchange } from './exchange';
import { startForwarder, type ForwarderOptions } from './forward';

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
  | { readonly type: 'batch'; readonly exchanges: readonly HttpExchange[] }
  | { readonly type: 'flushed'; readonly id: number }
  | { readonly type: 'closed' };

/** The bytes an exchange holds in memory until it is checked. */
export const weight = (ex: HttpExchange): number => ex.requestBody.length + (ex.responseBody?.length ?? 0);

function run(port: NonNullable<typeof parentPort>, data: ThreadData): void {
  const post = (m: FromThread, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);
  let batch: HttpExchange[] = [];
  let transfer: ArrayBuffer[] = [];
  let pending = 0;
  let pendingBytes = 0;
  let closing = false;
  const waiting: (() => void)[] = [];
  const full = (): boolean => pending >= data.maxPending || pendingBytes >= data.maxPendingBytes;

  const send = (): void => {
    if (batch.length === 0) return;
    post({ type: 'batch', exchanges: batch }, transfer);
    batch = [];
    transfer = [];
  };
  const sink = (ex: HttpExchange): void => {
    if (closing) return;
    pending++;
    pendingBytes += weight(ex);
    if (batch.length === 0) setImmediate(send);
    batch.push(ex);
    // Each body owns its memory (forward.ts): moved to the main thread, not copied.
    for (const b of [ex.requestBody, ex.responseBody]) if (b && b.length > 0 && !transfer.includes(b.buffer as ArrayBuffer)) transfer.push(b.buffer as ArrayBuffer);
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
