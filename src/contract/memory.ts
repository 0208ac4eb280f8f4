/**
 * A request handler called without a socket: a buffered request in, a buffered reply out. The nock entry point
 * (src/nock.ts) routes intercepted requests through the stand-in gateway's handler this way, inside the test
 * process. The two objects implement exactly what the gateway's transport uses of node:http's request and response
 * (src/gateway/server.ts): method, url and headers; the body as a stream; writeHead with an object or a flat list;
 * end; headersSent; destroy.
 */
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

export interface BufferedRequest {
  readonly method: string;
  /** Path and query: `/json/`. */
  readonly url: string;
  /** Header names in lower case, as node:http gives them. */
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface BufferedReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

class MemoryRequest extends Readable {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: IncomingHttpHeaders,
    body: Buffer,
  ) {
    super({ read: () => undefined });
    if (body.length > 0) this.push(body);
    this.push(null);
  }
}

class MemoryResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  private readonly headers: Record<string, string> = {};
  private readonly chunks: Buffer[] = [];

  constructor(private readonly done: (reply: BufferedReply) => void) {
    super();
  }

  setHeader(name: string, value: number | string | readonly string[]): this {
    this.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    return this;
  }

  writeHead(status: number, headers?: OutgoingHttpHeaders | readonly (string | number)[]): this {
    this.statusCode = status;
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) this.setHeader(String(headers[i]), String(headers[i + 1]));
    } else if (headers) {
      for (const [k, v] of Object.entries(headers)) if (v !== undefined) this.setHeader(k, Array.isArray(v) ? v.map(String) : String(v));
    }
    this.headersSent = true;
    return this;
  }

  write(chunk: string | Buffer): boolean {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return true;
  }

  end(chunk?: string | Buffer): this {
    if (chunk !== undefined) this.write(chunk);
    this.headersSent = true;
    this.done({ status: this.statusCode, headers: this.headers, body: Buffer.concat(this.chunks) });
    this.emit('finish');
    return this;
  }

  destroy(): this {
    this.done({ status: this.statusCode, headers: this.headers, body: Buffer.concat(this.chunks) });
    return this;
  }
}

/** Calls `handle` with the request and resolves with what it answered. */
export function dispatch(handle: Handler, request: BufferedRequest): Promise<BufferedReply> {
  return new Promise((resolve) => {
    let settled = false;
    const res = new MemoryResponse((reply) => {
      if (settled) return;
      settled = true;
      resolve(reply);
    });
    const req = new MemoryRequest(request.method, request.url, request.headers, request.body);
    // The two stand in for node:http's objects: only the members listed above are used (see the module comment).
    handle(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  });
}
