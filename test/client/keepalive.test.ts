/**
 * The lean keep-alive client (src/client/keepalive.ts) against raw loopback servers that write their answers byte
 * by byte as HTTP/1.1 allows: chunked bodies, interim answers, answers cut or framed by the close, HTTP/1.0,
 * garbage. Every failure must be an HttpFailure of the kind and words of src/client/http.ts.
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { HttpFailure } from '../../src/client/http';
import { KeepAliveClient } from '../../src/client/keepalive';

type Answer = (request: string, socket: net.Socket) => void;

interface RawServer {
  readonly url: string;
  /** Connections accepted so far. */
  connections(): number;
  /** The requests as received, head and body. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** A server that reads one request at a time (head, then Content-Length bytes) and answers it with `answer`. */
async function rawServer(answer: Answer): Promise<RawServer> {
  let accepted = 0;
  const sockets = new Set<net.Socket>();
  const requests: string[] = [];
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.toString('latin1', 0, end);
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const request = buf.toString('utf8', 0, end + 4 + length);
        buf = buf.subarray(end + 4 + length);
        requests.push(request);
        answer(request, socket);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/json/`,
    connections: () => accepted,
    requests,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

// A generous guard for every exchange that must end on its own words; only the hung answer is given a short time,
// since its timeout is the outcome checked (a 500 ms limit on every exchange could expire on a busy CI machine).
const LIMITS = { connectTimeoutMs: 5000, totalTimeoutMs: 30_000, maxResponseBytes: 1000 };
const HUNG_LIMITS = { ...LIMITS, totalTimeoutMs: 500 };
const clients: KeepAliveClient[] = [];
function client(): KeepAliveClient {
  const c = new KeepAliveClient(4);
  clients.push(c);
  return c;
}
after(() => clients.forEach((c) => c.close()));

async function failure(p: Promise<unknown>): Promise<HttpFailure> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof HttpFailure, `not an HttpFailure: ${String(e)}`);
    return e;
  }
  assert.fail('the request did not fail');
}

const ok = (body: string, extra = ''): string => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe('the keep-alive client', () => {
  it('writes one well-formed request and reuses the connection for the next', async () => {
    const server = await rawServer((_req, s) => s.write(ok('{"a":1}')));
    const c = client();
    try {
      for (let i = 0; i < 3; i++) {
        const res = await c.request({ url: server.url, headers: { 'Content-Type': 'application/json' }, body: '{"x":"é"}', limits: LIMITS });
        assert.equal(res.status, 200);
        assert.equal(res.body.toString(), '{"a":1}');
        assert.equal(res.headers['content-type'], 'application/json');
      }
      assert.equal(server.connections(), 1, 'a kept-alive connection is reused');
      const [first] = server.requests;
      assert.match(first, /^POST \/json\/ HTTP\/1\.1\r\n/);
      assert.match(first, /\r\nHost: 127\.0\.0\.1:\d+\r\n/);
      // The body is UTF-8: "é" is two bytes.
      assert.match(first, /\r\nContent-Length: 10\r\n\r\n\{"x":"é"\}$/);
    } finally {
      await server.close();
    }
  });

  it('writes the requests started in one turn together, each on its own connection with its own answer', async () => {
    // The server answers each request with its own body, late and out of order: an answer must reach its request.
    const server = await rawServer((req, s) => {
      const body = req.slice(req.indexOf('\r\n\r\n') + 4);
      setTimeout(() => s.write(ok(body)), 20 - Number(JSON.parse(body).n) * 5);
    });
    try {
      const c = client();
      const answers = await Promise.all([0, 1, 2, 3].map((n) => c.request({ url: server.url, body: JSON.stringify({ n }), limits: LIMITS })));
      assert.deepEqual(
        answers.map((a) => JSON.parse(a.body.toString()).n),
        [0, 1, 2, 3],
      );
      assert.equal(server.connections(), 4);
    } finally {
      await server.close();
    }
  });

  it('reads a chunked answer, with extensions and trailers, split across writes', async () => {
    const server = await rawServer((_req, s) => {
      s.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\nx-a: 2\r\n\r\n5;ext=1\r\nhel');
      setImmediate(() => s.write('lo\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n'));
    });
    try {
      const res = await client().request({ url: server.url, body: '{}', limits: LIMITS });
      assert.equal(res.body.toString(), 'hello world');
      assert.equal(res.headers['x-a'], '1, 2', 'repeated headers are joined, names lower-cased');
    } finally {
      await server.close();
    }
  });

  it('skips an interim 100 Continue answer', async () => {
    const server = await rawServer((_req, s) => s.write('HTTP/1.1 100 Continue\r\n\r\n' + ok('{}')));
    try {
      const res = await client().request({ url: server.url, body: '{}', limits: LIMITS });
      assert.equal(res.status, 200);
      assert.equal(res.body.toString(), '{}');
    } finally {
      await server.close();
    }
  });

  it('reads an answer framed by the close (no length), and an HTTP/1.0 answer, then opens a new connection', async () => {
    let n = 0;
    const server = await rawServer((_req, s) => {
      n++;
      if (n === 1) s.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end');
      else s.write('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    const c = client();
    try {
      assert.equal((await c.request({ url: server.url, body: '{}', limits: LIMITS })).body.toString(), 'until the end');
      assert.equal((await c.request({ url: server.url, body: '{}', limits: LIMITS })).body.toString(), 'ok');
      assert.equal((await c.request({ url: server.url, body: '{}', limits: LIMITS })).body.toString(), 'ok');
      assert.equal(server.connections(), 3, 'neither a close-framed nor an HTTP/1.0 answer leaves its connection open');
    } finally {
      await server.close();
    }
  });

  it('says "closed before any answer" when a kept-alive connection is closed under a request', async () => {
    let n = 0;
    const server = await rawServer((_req, s) => {
      n++;
      if (n === 1) s.write(ok('{}'));
      else s.destroy();
    });
    const c = client();
    try {
      await c.request({ url: server.url, body: '{}', limits: LIMITS });
      const e = await failure(c.request({ url: server.url, body: '{}', limits: LIMITS }));
      assert.equal(e.kind, 'reset');
      assert.match(e.message, /the connection to http:\/\/127\.0\.0\.1:\d+\/json\/ was closed before any answer/);
    } finally {
      await server.close();
    }
  });

  it('fails an answer cut in the middle, one too large (by length or by chunks), a hung one, and garbage', async () => {
    const cases: [string, Answer, HttpFailure['kind'], RegExp][] = [
      ['cut', (_r, s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{"a"'), 'reset', /closed in the middle of the answer \(HTTP 200, 4 bytes received\)/],
      ['too large by length', (_r, s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n'), 'too-large', /larger than 1000 bytes \(HTTP 200\)/],
      ['too large by chunks', (_r, s) => s.write(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${'400\r\n' + 'x'.repeat(1024) + '\r\n'}`), 'too-large', /larger than 1000 bytes/],
      ['hung', () => undefined, 'timeout', /no answer arrived from http:\/\/127\.0\.0\.1:\d+\/json\/ within 500 ms: the target hung/],
      ['garbage', (_r, s) => s.write('\u0000\u0001garbage\r\n\r\n'), 'network', /the answer is not HTTP\/1\.x/],
      ['a bad chunk size', (_r, s) => s.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'), 'network', /chunk size/],
    ];
    for (const [what, answer, kind, words] of cases) {
      const server = await rawServer(answer);
      try {
        const e = await failure(client().request({ url: server.url, body: '{}', limits: what === 'hung' ? HUNG_LIMITS : LIMITS }));
        assert.equal(e.kind, kind, what);
        assert.match(e.message, words, what);
      } finally {
        await server.close();
      }
    }
  });

  it('refuses a header HTTP forbids, a URL that is not http, and a port nothing listens on', async () => {
    const c = client();
    const injected = await failure(c.request({ url: 'http://127.0.0.1:9/json/', headers: { 'X-A': 'a\r\nX-B: b' }, body: '{}', limits: LIMITS }));
    assert.match(injected.message, /holds a character HTTP does not allow/);
    assert.equal((await failure(c.request({ url: 'ftp://127.0.0.1/', limits: LIMITS }))).kind, 'bad-url');
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const { port } = s.address() as AddressInfo;
    await new Promise<void>((r) => s.close(() => r()));
    const refused = await failure(c.request({ url: `http://127.0.0.1:${port}/json/`, body: '{}', limits: LIMITS }));
    assert.equal(refused.kind, 'refused');
    assert.match(refused.message, /refused the connection/);
  });

  it('holds at most its number of connections, the other requests waiting their turn', async () => {
    const server = await rawServer((_req, s) => setImmediate(() => s.write(ok('{}'))));
    const c = client();
    try {
      const all = await Promise.all(Array.from({ length: 12 }, () => c.request({ url: server.url, body: '{}', limits: LIMITS })));
      assert.equal(all.length, 12);
      assert.ok(all.every((r) => r.status === 200));
      assert.equal(server.connections(), 4);
    } finally {
      await server.close();
    }
  });
});
