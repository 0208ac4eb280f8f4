/**
 * Faults of the path, each from a real loopback upstream that misbehaves once and then answers: the client gets a
 * 502 (a 504 for the timeout) that says why, the exchange is in the report, and the proxy keeps serving.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { after, describe, it } from 'node:test';
import { startProxy, type RunningProxy } from '../../src/proxy';
import { envelope, JSON_HEADERS, PAYMENT } from '../contract/helpers';

const open: { close(): unknown }[] = [];
after(async () => {
  for (const o of open) await o.close();
});

const BODY = JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT }));
const ANSWER = JSON.stringify({
  requestreference: 'W1',
  version: '1.00',
  secrand: 'k2j4h5g6f7d8',
  response: [{ requesttypedescription: 'AUTH', errorcode: '70000', errormessage: 'Decline', transactionreference: '1-9-1001' }],
});

/** An upstream whose first call misbehaves as told, and whose later calls are answered properly. */
async function upstream(first: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (calls++ === 0) return first(req, res);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(ANSWER);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function proxyTo(url: string, opts: { timeoutMs?: number; maxBodyBytes?: number } = {}): Promise<RunningProxy> {
  const proxy = await startProxy({ upstream: url, ...opts });
  open.push(proxy);
  return proxy;
}

async function post(proxy: RunningProxy): Promise<{ status: number; text: string; fault: string | null }> {
  const res = await fetch(`${proxy.url}/json/`, { method: 'POST', headers: JSON_HEADERS, body: BODY });
  return { status: res.status, text: await res.text(), fault: res.headers.get('x-cardspec-proxy-fault') };
}

/** The fault, then a proper answer through the same proxy; the report holds the fault. */
async function faultThenServed(proxy: RunningProxy, kind: string, status: number, words: RegExp): Promise<void> {
  const bad = await post(proxy);
  assert.equal(bad.status, status, bad.text);
  assert.equal(bad.fault, kind);
  assert.match(bad.text, words);
  const good = await post(proxy);
  assert.equal(good.status, 200, 'the proxy keeps serving');
  assert.equal(good.text, ANSWER);
  await proxy.settled();
  const report = proxy.session.report();
  assert.deepEqual(report.faults.byKind, { [kind]: 1 });
  assert.equal(report.faults.list[0].exchange, 1);
  assert.equal(report.exchanges.checked, 2);
}

describe('faults of the path', () => {
  it('an upstream that resets the connection: 502, a gateway error under TRANSPORT-RESPONSE-BODY', async () => {
    const proxy = await proxyTo(await upstream((req) => req.socket.destroy()));
    await faultThenServed(proxy, 'reset', 502, /closed the connection before the answer was complete/);
    const rule = proxy.session.report().violations.byRule.find((b) => b.side === 'gateway');
    assert.deepEqual(rule && [rule.rule, rule.errors], ['TRANSPORT-RESPONSE-BODY', 1]);
  });

  it('an upstream that hangs: 504 after --timeout', async () => {
    const proxy = await proxyTo(
      await upstream(() => {
        // Never answers.
      }),
      { timeoutMs: 300 },
    );
    await faultThenServed(proxy, 'timeout', 504, /did not answer within 300 ms/);
  });

  it('an answer larger than the limit: 502', async () => {
    const proxy = await proxyTo(
      await upstream((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('x'.repeat(4096));
      }),
      { maxBodyBytes: 1024 },
    );
    await faultThenServed(proxy, 'too-large', 502, /larger than the proxy's limit of 1024 bytes/);
  });

  it('an answer HTTP cannot read: 502', async () => {
    let calls = 0;
    const tcp: Server = createTcpServer((socket) => {
      socket.once('data', () => {
        if (calls++ === 0) socket.end('HELLO this is not HTTP\r\n\r\n');
        else socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(ANSWER)}\r\nConnection: close\r\n\r\n${ANSWER}`);
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((done) => tcp.close(() => done())) });
    const proxy = await proxyTo(`http://127.0.0.1:${(tcp.address() as AddressInfo).port}`);
    await faultThenServed(proxy, 'malformed', 502, /answered what HTTP cannot read/);
  });

  it('an upstream that refuses the connection: 502 each time, a warning on the path, the proxy still up', async () => {
    const gone = await upstream(() => undefined);
    await open.pop()!.close();
    const proxy = await proxyTo(gone);
    for (let i = 0; i < 2; i++) {
      const r = await post(proxy);
      assert.equal(r.status, 502);
      assert.equal(r.fault, 'refused');
      assert.match(r.text, /refused the connection/);
    }
    await proxy.settled();
    const report = proxy.session.report();
    assert.deepEqual(report.faults.byKind, { refused: 2 });
    assert.deepEqual(report.violations.bySide.path, { errors: 0, warnings: 2 });
    assert.equal(report.violations.errors, 0, "a refused connection is the path's, not the gateway's");
  });

  it('an answer that is no envelope is forwarded as it came, and reported', async () => {
    const proxy = await proxyTo(
      await upstream((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html><body>maintenance</body></html>');
      }),
    );
    const r = await post(proxy);
    assert.equal(r.status, 200);
    assert.equal(r.text, '<html><body>maintenance</body></html>');
    await proxy.settled();
    const list = proxy.session.report().violations.list;
    assert.deepEqual(
      list.map((f) => [f.side, f.rule]),
      [['gateway', 'TRANSPORT-RESPONSE-BODY']],
    );
  });
});
