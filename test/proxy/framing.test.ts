/**
 * The proxy's HTTP/1.1 framing (src/proxy/framing.ts, src/proxy/forward.ts) against real sockets on loopback: a
 * client and an upstream that write exact bytes, so that what the proxy passes on can be compared byte for byte:
 * chunked answers, pipelined requests, Expect: 100-continue, an answer in many small pieces, an upstream that closes
 * mid-body, a chunked request, and what the proxy refuses to read.
 *
 * A proxy's thread takes seconds to start, so the tests that need no fresh state share one: one upstream that
 * answers by the request's path and one proxy for the answers, one of each for the requests (and one with a small
 * body limit); each test reads only what was seen and checked after it began.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import * as net from 'node:net';
import { after, describe, it } from 'node:test';
import type { HttpExchange } from '../../src/proxy/exchange';
import { startProxy, type ProxyOptions, type RunningProxy } from '../../src/proxy';

const open: { close(): unknown }[] = [];
after(async () => {
  for (const o of open) await o.close();
});

/** A TCP upstream that answers each connection's requests with `answer(requestText, socket)`. */
async function rawUpstream(answer: (socket: net.Socket, request: string) => void): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let seen = '';
    socket.on('data', (c: Buffer) => {
      seen += c.toString('latin1');
      // One request at a time: each ends with its head (the tests' requests through here have no body).
      for (let end = seen.indexOf('\r\n\r\n'); end >= 0; end = seen.indexOf('\r\n\r\n')) {
        const request = seen.slice(0, end + 4);
        seen = seen.slice(end + 4);
        answer(socket, request);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise<void>((done) => (sockets.forEach((s) => s.destroy()), server.close(() => done()))) });
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

/** What a node:http upstream received, and from which connection (the proxy's port). */
interface Seen {
  readonly method?: string;
  readonly url?: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly from?: number;
}

/** A node:http upstream that tells what it received. */
async function httpUpstream(seen: Seen[]): Promise<string> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method, url: req.url, headers: req.headers, body, from: req.socket.remotePort });
      const answer = `answer-${req.url}:${body}`;
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))) });
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

/** The proxy in front of `upstream`, and every exchange it hands to its checks. */
async function proxyTo(upstream: string, opts: Partial<ProxyOptions> = {}): Promise<{ proxy: RunningProxy; exchanges: HttpExchange[] }> {
  const exchanges: HttpExchange[] = [];
  const proxy = await startProxy({ upstream, record: { write: (ex: HttpExchange) => void exchanges.push(ex) }, ...opts });
  open.push(proxy);
  return { proxy, exchanges };
}

/** Started on first use, then shared: each test takes what it added from `since()`. */
function shared<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => (started ??= start());
}

/** What was added to a list after now. */
const since = <T>(list: readonly T[]): (() => T[]) => {
  const from = list.length;
  return () => list.slice(from);
};

/** How many faults of a kind the proxy's report holds. */
const faults = (proxy: RunningProxy, kind: string): number => (proxy.session.report().faults.byKind as Record<string, number | undefined>)[kind] ?? 0;

/** A raw client connection to the proxy: write bytes, read until the bytes received say enough. */
async function rawClient(proxy: RunningProxy): Promise<{ socket: net.Socket; until(enough: (text: string) => boolean): Promise<string>; closed: Promise<void> }> {
  const socket = net.connect(proxy.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  let text = '';
  let wake: (() => void) | undefined;
  socket.on('data', (c: Buffer) => {
    text += c.toString('latin1');
    wake?.();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => (resolve(), wake?.())));
  open.push({ close: () => socket.destroy() });
  return {
    socket,
    closed,
    until: async (enough) => {
      while (!enough(text) && !socket.destroyed) await new Promise<void>((resolve) => (wake = resolve));
      return text;
    },
  };
}

/** What the answers' upstream does for each request path (the tests' requests there have no body). */
const answerers = new Map<string, (socket: net.Socket) => void>();
const answersProxy = shared(async () => {
  const upstream = await rawUpstream((socket, request) => {
    const target = /^\S+ (\S+)/.exec(request)?.[1] ?? '';
    const answer = answerers.get(target);
    if (answer) answer(socket);
    else socket.destroy();
  });
  return proxyTo(upstream);
});
/** The shared proxy, with `answer` for each path, and the exchanges checked from now. */
async function answering(routes: Record<string, (socket: net.Socket) => void>): Promise<{ proxy: RunningProxy; exchanges: () => HttpExchange[] }> {
  for (const [target, answer] of Object.entries(routes)) answerers.set(target, answer);
  const { proxy, exchanges } = await answersProxy();
  await proxy.settled();
  return { proxy, exchanges: since(exchanges) };
}

describe('the framing of answers', () => {
  it('a chunked answer goes back with its chunks as written (extensions, trailer); the checks get the body without them', async () => {
    const wire = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n' + '4;ext=1\r\n{"a"\r\n' + 'A\r\n:"chunked"\r\n' + '1\r\n}\r\n' + '0\r\nX-Trailer: t\r\n\r\n';
    const { proxy, exchanges: checked } = await answering({ '/chunked': (socket) => socket.write(wire) });
    const c = await rawClient(proxy);
    c.socket.write('GET /chunked HTTP/1.1\r\nHost: h\r\n\r\n');
    const got = await c.until((t) => t.endsWith('\r\n\r\n') && t.includes('X-Trailer'));
    assert.equal(got, wire, 'the bytes as the upstream wrote them');
    await proxy.settled();
    const exchanges = checked();
    assert.equal(exchanges.length, 1);
    assert.equal(exchanges[0].responseBody?.toString('utf8'), '{"a":"chunked"}');
    assert.equal(exchanges[0].responseHeaders?.['transfer-encoding'], 'chunked');
  });

  it('an answer written a few bytes at a time arrives whole, and the connection serves the next request', async () => {
    const body = '{"response":[{"errorcode":"0"}]}';
    const wire = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const inPieces = (socket: net.Socket): void => {
      socket.setNoDelay(true);
      // Each piece in a turn of its own: many TCP segments, the head split anywhere.
      const pieces = wire.match(/[\s\S]{1,3}/g)!;
      const send = (i: number): void => {
        if (i < pieces.length) socket.write(pieces[i], () => setImmediate(() => send(i + 1)));
      };
      send(0);
    };
    const { proxy, exchanges } = await answering({ '/pieces/1': inPieces, '/pieces/2': inPieces });
    const c = await rawClient(proxy);
    c.socket.write('GET /pieces/1 HTTP/1.1\r\nHost: h\r\n\r\n');
    assert.equal(await c.until((t) => t.length >= wire.length), wire);
    c.socket.write('GET /pieces/2 HTTP/1.1\r\nHost: h\r\n\r\n');
    assert.equal(await c.until((t) => t.length >= 2 * wire.length), wire + wire);
    await proxy.settled();
    assert.deepEqual(
      exchanges().map((e) => [e.path, e.status, e.responseBody?.toString('utf8')]),
      [
        ['/pieces/1', 200, body],
        ['/pieces/2', 200, body],
      ],
    );
  });

  it('an answer whose lines end in LF alone (RFC 9112 2.2) goes back as it came, read as the same head', async () => {
    const body = '{"response":[{"errorcode":"0"}]}';
    // LF alone throughout, and a head mixing CRLF and LF whose empty line is LF CR LF; then a second answer on the same connection.
    const bare = `HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: ${body.length}\n\n${body}`;
    const mixed = `HTTP/1.1 201 Created\r\nContent-Type: application/json\nContent-Length: ${body.length}\r\nX-Mixed: yes\n\r\n${body}`;
    const { proxy, exchanges } = await answering({ '/bare-lf': (socket) => socket.write(bare), '/mixed-lf': (socket) => socket.write(mixed) });
    const c = await rawClient(proxy);
    c.socket.write('GET /bare-lf HTTP/1.1\r\nHost: h\r\n\r\n');
    assert.equal(await c.until((t) => t.length >= bare.length), bare, 'the bytes as the upstream wrote them');
    c.socket.write('GET /mixed-lf HTTP/1.1\r\nHost: h\r\n\r\n');
    assert.equal(await c.until((t) => t.length >= bare.length + mixed.length), bare + mixed);
    await proxy.settled();
    assert.deepEqual(
      exchanges().map((e) => [e.path, e.status, e.responseHeaders?.['content-type'], e.responseHeaders?.['x-mixed'], e.responseBody?.toString('utf8'), e.fault]),
      [
        ['/bare-lf', 200, 'application/json', undefined, body, undefined],
        ['/mixed-lf', 201, 'application/json', 'yes', body, undefined],
      ],
    );
  });

  it('an answer delimited by the close of the connection goes back whole, and the client is closed after it', async () => {
    const { proxy, exchanges: checked } = await answering({ '/until-close': (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end') });
    const c = await rawClient(proxy);
    c.socket.write('GET /until-close HTTP/1.1\r\nHost: h\r\n\r\n');
    await c.closed;
    assert.equal(await c.until(() => true), 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end');
    await proxy.settled();
    const exchanges = checked();
    assert.equal(exchanges.length, 1);
    assert.equal(exchanges[0].responseBody?.toString('utf8'), 'until the end');
    assert.equal(exchanges[0].fault, undefined);
  });

  it('an upstream that closes mid-body: the client, whose answer had begun, is closed; a reset in the report; the proxy serves on', async () => {
    const { proxy, exchanges } = await answering({
      '/mid-body': (socket) => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"response":');
        setImmediate(() => socket.destroy());
      },
      '/again': (socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}'),
    });
    const resets = faults(proxy, 'reset');
    const c = await rawClient(proxy);
    c.socket.write('GET /mid-body HTTP/1.1\r\nHost: h\r\n\r\n');
    await c.closed;
    assert.match(await c.until(() => true), /^HTTP\/1\.1 200 OK\r\n[\s\S]*\{"response":$/, 'what had come went back, then the close');
    const res = await fetch(`${proxy.url}/again`);
    assert.equal(await res.text(), '{}');
    await proxy.settled();
    assert.deepEqual(
      exchanges().map((e) => [e.path, e.fault?.kind]),
      [
        ['/mid-body', 'reset'],
        ['/again', undefined],
      ],
    );
    assert.equal(faults(proxy, 'reset'), resets + 1, 'one more reset in the report');
  });

  it("an upstream that closes its idle connection has the client's closed with it; the next connection is served", async () => {
    const answer = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nKeep-Alive: timeout=1\r\n\r\nok';
    const { proxy, exchanges } = await answering({ '/idle/1': (socket) => socket.end(answer), '/idle/2': (socket) => socket.end(answer) });
    const c = await rawClient(proxy);
    c.socket.write('GET /idle/1 HTTP/1.1\r\nHost: h\r\n\r\n');
    await c.closed;
    assert.equal(await c.until(() => true), answer);
    const d = await rawClient(proxy);
    d.socket.write('GET /idle/2 HTTP/1.1\r\nHost: h\r\n\r\n');
    assert.equal(await d.until((t) => t.endsWith('ok')), answer);
    await proxy.settled();
    assert.deepEqual(
      exchanges().map((e) => [e.path, e.status, e.fault]),
      [
        ['/idle/1', 200, undefined],
        ['/idle/2', 200, undefined],
      ],
    );
  });

  it('an HTTP/1.0 client gets a chunked answer without its chunks, and its connection closed after it', async () => {
    const { proxy } = await answering({ '/http10': (socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n') });
    const c = await rawClient(proxy);
    c.socket.write('GET /http10 HTTP/1.0\r\n\r\n');
    await c.closed;
    assert.equal(await c.until(() => true), 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nabcde');
  });

  it('an interim 100 Continue of the upstream is not passed on: the client had its own', async () => {
    const { proxy } = await answering({ '/interim': (socket) => socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok') });
    const c = await rawClient(proxy);
    c.socket.write('GET /interim HTTP/1.1\r\nHost: h\r\n\r\n');
    assert.equal(await c.until((t) => t.endsWith('ok')), 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
  });
});

/** A node:http upstream and a proxy in front of it, shared; each test takes what was seen and checked from now. */
const requestsPath = (opts: Partial<ProxyOptions>): (() => Promise<{ proxy: RunningProxy; seen: () => Seen[]; exchanges: () => HttpExchange[] }>) => {
  const path = shared(async () => {
    const seen: Seen[] = [];
    return { seen, ...(await proxyTo(await httpUpstream(seen), opts)) };
  });
  return async () => {
    const p = await path();
    await p.proxy.settled();
    return { proxy: p.proxy, seen: since(p.seen), exchanges: since(p.exchanges) };
  };
};
const requestsProxy = requestsPath({});
const smallBodiesProxy = requestsPath({ maxBodyBytes: 8 });

describe('the framing of requests', () => {
  it("a request's head goes on with its path under the upstream's, the upstream's Host, no header of the hop, the other lines as written", async () => {
    let got = '';
    const upstream = await rawUpstream((socket, request) => {
      got = request;
      socket.write('HTTP/1.1 204 No Content\r\n\r\n');
    });
    const { proxy, exchanges } = await proxyTo(`${upstream}/base`, { basePath: '/shop' });
    const c = await rawClient(proxy);
    const head =
      'GET /shop/json/?a=1 HTTP/1.1\r\nHost: client.example\r\nX-Spaced:  two spaces\t\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\nTE: trailers\r\nProxy-Authorization: Basic eDp5\r\naccept: */*\r\n\r\n';
    c.socket.write(head);
    await c.until((t) => t.endsWith('\r\n\r\n'));
    assert.equal(got, `GET /base/json/?a=1 HTTP/1.1\r\nX-Spaced:  two spaces\t\r\naccept: */*\r\nHost: ${new URL(upstream).host}\r\n\r\n`);
    await proxy.settled();
    // The checks see the head as the client sent it.
    assert.equal(exchanges[0].path, '/shop/json/?a=1');
    assert.deepEqual(
      [exchanges[0].requestHeaders.host, exchanges[0].requestHeaders['x-spaced'], exchanges[0].requestHeaders.te, exchanges[0].status],
      ['client.example', 'two spaces', 'trailers', 204],
    );
  });

  it('pipelined requests are forwarded in turn and answered in their order', async () => {
    const { proxy, seen, exchanges } = await requestsProxy();
    const c = await rawClient(proxy);
    const request = (i: number): string => `POST /p${i} HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nbody-${i}`;
    // Three requests in one write: the proxy must find where each ends.
    c.socket.write(request(1) + request(2) + request(3));
    const got = await c.until((t) => t.includes('answer-/p3:body-3'));
    assert.deepEqual(
      [...got.matchAll(/answer-\/p(\d):body-(\d)/g)].map((m) => [m[1], m[2]]),
      [
        ['1', '1'],
        ['2', '2'],
        ['3', '3'],
      ],
    );
    assert.deepEqual(
      seen().map((s) => [s.url, s.body]),
      [
        ['/p1', 'body-1'],
        ['/p2', 'body-2'],
        ['/p3', 'body-3'],
      ],
    );
    await proxy.settled();
    assert.deepEqual(
      exchanges().map((e) => e.requestBody.toString('utf8')),
      ['body-1', 'body-2', 'body-3'],
    );
  });

  it('a client that opens a connection per request still has its requests go over one upstream connection', async () => {
    const { proxy, seen } = await requestsProxy();
    for (let i = 1; i <= 3; i++) {
      const c = await rawClient(proxy);
      c.socket.write(`GET /${i} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n`);
      await c.closed;
      assert.match(await c.until(() => true), new RegExp(`\r\n\r\nanswer-/${i}:$`));
    }
    assert.deepEqual(
      seen().map((s) => s.url),
      ['/1', '/2', '/3'],
    );
    assert.equal(new Set(seen().map((s) => s.from)).size, 1, 'the upstream saw one connection');
  });

  it('Expect: 100-continue is answered by the proxy, which then takes the body and sends it on whole', async () => {
    const { proxy, seen } = await requestsProxy();
    const c = await rawClient(proxy);
    c.socket.write('POST /e HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n');
    assert.equal(await c.until((t) => t.includes('\r\n\r\n')), 'HTTP/1.1 100 Continue\r\n\r\n');
    c.socket.write('hello');
    assert.match(await c.until((t) => t.includes('answer-/e')), /answer-\/e:hello$/);
    assert.equal(seen().length, 1);
    assert.equal(seen()[0].body, 'hello');
    assert.equal(seen()[0].headers.expect, undefined, 'the upstream gets the body with its head, nothing to expect');
  });

  it('a chunked request goes on whole with its length; the checks get the body', async () => {
    const { proxy, seen, exchanges } = await requestsProxy();
    const c = await rawClient(proxy);
    c.socket.write('POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n');
    c.socket.write('2\r\nde\r\n0\r\n\r\n');
    await c.until((t) => t.includes('answer-/c'));
    assert.equal(seen().length, 1);
    assert.equal(seen()[0].body, 'abcde');
    assert.equal(seen()[0].headers['content-length'], '5');
    assert.equal(seen()[0].headers['transfer-encoding'], undefined);
    await proxy.settled();
    assert.deepEqual(
      exchanges().map((e) => e.requestBody.toString('utf8')),
      ['abcde'],
    );
  });

  it('a request body over the limit, by its length or by its chunks, gets a 413, its connection closed, the fault kept', async () => {
    const { proxy, seen, exchanges } = await smallBodiesProxy();
    for (const big of ['POST /l HTTP/1.1\r\nHost: h\r\nContent-Length: 9\r\n\r\n123456789', 'POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n12345\r\n4\r\n6789\r\n0\r\n\r\n']) {
      const c = await rawClient(proxy);
      c.socket.write(big);
      await c.closed;
      assert.match(await c.until(() => true), /^HTTP\/1\.1 413 Payload Too Large\r\n[\s\S]*cardspec proxy: [\s\S]*8 bytes/);
    }
    assert.equal(seen().length, 0, 'nothing reached the upstream');
    await proxy.settled();
    assert.deepEqual(
      exchanges().map((ex) => [ex.path, ex.fault?.kind]),
      [
        ['/l', 'too-large'],
        ['/c', 'too-large'],
      ],
    );
  });

  it('what is not HTTP, or a body whose end is ambiguous, gets a 400 and the connection closed', async () => {
    const { proxy, seen, exchanges } = await requestsProxy();
    // The last: a line ended by LF alone hides a header from the proxy's framing that an upstream may read (smuggling).
    for (const bad of [
      'HELLO\r\n\r\n',
      'POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'POST / HTTP/1.1\r\nHost: h\r\nX-A: b\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n',
      // LF alone throughout: refused at once, not waited for until the connection idles out.
      'GET / HTTP/1.1\nHost: h\n\n',
    ]) {
      const c = await rawClient(proxy);
      c.socket.write(bad);
      await c.closed;
      assert.match(await c.until(() => true), /^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*cardspec proxy: the request is not HTTP\/1\.1 the proxy can read/);
    }
    assert.equal(seen().length, 0, 'nothing reached the upstream');
    await proxy.settled();
    assert.equal(exchanges().length, 0, 'nothing to check');
  });

  it('a request body over the limit: 413, in the report', async () => {
    const { proxy, seen, exchanges } = await smallBodiesProxy();
    const tooLarge = faults(proxy, 'too-large');
    const res = await fetch(`${proxy.url}/big`, { method: 'POST', body: 'x'.repeat(9) });
    assert.equal(res.status, 413);
    assert.match(await res.text(), /the request body is larger than the proxy's limit of 8 bytes/);
    await proxy.settled();
    assert.deepEqual(
      exchanges().map((ex) => [ex.path, ex.fault?.kind]),
      [['/big', 'too-large']],
    );
    assert.equal(faults(proxy, 'too-large'), tooLarge + 1, 'one more too large in the report');
    assert.equal(seen().length, 0);
  });
});
