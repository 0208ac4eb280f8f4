/**
 * The hand-off of exchanges from the proxy's forwarding thread to its checks (src/proxy/handoff.ts): what is written
 * into a batch's one buffer is read back as the exchanges the checks see, the heads read as node reads them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readRequestHead, readStatusHead, readWholeRequestHead, readWholeStatusHead } from '../../src/proxy/framing';
import { BatchWriter, readBatch } from '../../src/proxy/handoff';

const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');

describe('the hand-off of exchanges to the checks', () => {
  it('an answered exchange, a fault and a refused body come back as they were written, in order', () => {
    const w = new BatchWriter();
    assert.equal(w.take(), undefined, 'nothing to hand over');
    const big = 'x'.repeat(200 * 1024);
    w.add({
      requestHead: bytes('POST /json/?a=1 HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nX-Two: a\r\nX-Two: b\r\n\r\n'),
      requestBody: [bytes('{"a":'), bytes('1}')],
      answerHead: bytes('HTTP/1.1 200 OK\r\nSet-Cookie: s=1\r\nSet-Cookie: t=2\r\nTransfer-Encoding: chunked\r\n\r\n'),
      answerBody: [bytes(big), Buffer.from('é', 'utf8')],
    });
    w.add({ requestHead: bytes('GET / HTTP/1.0\r\n\r\n'), requestBody: [], fault: { kind: 'timeout', message: 'the upstream did not answer within 300 ms — (--timeout)' } });
    w.add({ requestHead: bytes('POST /big HTTP/1.1\r\nContent-Length: 9\r\n\r\n'), requestBody: [], fault: { kind: 'too-large', message: 'too large' } });
    w.add({ requestHead: bytes('HEAD /h HTTP/1.1\r\n\r\n'), requestBody: [], answerHead: bytes('HTTP/1.1 204 No Content\r\n\r\n'), answerBody: [] });
    assert.equal(w.exchanges, 4);
    const batch = w.take()!;
    assert.equal(batch.count, 4);
    assert.equal(w.take(), undefined, 'a new batch begins empty');
    const [a, b, c, d] = readBatch(batch);
    assert.deepEqual([a.method, a.path, a.requestHeaders['x-two'], a.requestHeaders['content-type'], a.requestBody.toString('utf8')], ['POST', '/json/?a=1', 'a, b', 'application/json', '{"a":1}']);
    assert.deepEqual([a.status, a.responseHeaders?.['set-cookie'], a.responseHeaders?.['transfer-encoding'], a.fault], [200, ['s=1', 't=2'], 'chunked', undefined]);
    assert.equal(a.responseBody?.toString('utf8'), `${big}é`);
    assert.deepEqual([b.method, b.path, b.status, b.responseHeaders, b.responseBody, b.requestBody.length], ['GET', '/', undefined, undefined, undefined, 0]);
    assert.deepEqual(b.fault, { kind: 'timeout', message: 'the upstream did not answer within 300 ms — (--timeout)' });
    assert.deepEqual([c.path, c.fault?.kind, c.responseBody], ['/big', 'too-large', undefined]);
    assert.deepEqual([d.method, d.status, d.responseBody?.length, d.fault], ['HEAD', 204, 0, undefined]);
  });

  it('a head handed over whole is read as the reader that looks for its end reads it, and refused alike', () => {
    const requests = [
      'POST /json/?a=1 HTTP/1.1\r\nHost: shop\r\nX-Two: a\r\nx-two: b\r\nCookie: a=1\r\nCookie: b=2\r\nContent-Length: 3\r\nUser-Agent: u\r\nUser-Agent: v\r\n\r\n',
      'GET / HTTP/1.0\r\n\r\n',
      'GET /x HTTP/1.1\r\nA:   padded\t \r\nB:\r\n\r\n',
    ];
    for (const text of requests) {
      const head = bytes(`junk${text}more`);
      const whole = readWholeRequestHead(head, 4, 4 + text.length);
      const searched = readRequestHead(head.subarray(4))!;
      assert.deepEqual([whole.method, whole.target, whole.headers], [searched.method, searched.target, searched.headers], text);
    }
    const answers = [
      'HTTP/1.1 200 OK\r\nSet-Cookie: s=1\r\nSet-Cookie: t=2\r\nContent-Length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\nContent-Type: a/b\nX: 1\n\n',
      'HTTP/1.1 201 Created\r\nContent-Type: a/b\nX: 1\r\n\n',
      'HTTP/1.1 202 Accepted\r\nX: 1\n\r\n',
      'HTTP/1.0 304 Not Modified\r\n\r\n',
    ];
    for (const text of answers) {
      const head = bytes(`junk${text}more`);
      const whole = readWholeStatusHead(head, 4, 4 + text.length);
      const searched = readStatusHead(head.subarray(4))!;
      assert.equal(searched.size, text.length, text);
      assert.deepEqual([whole.status, whole.headers], [searched.status, searched.headers], text);
    }
    for (const bad of ['GET / HTTP/1.1\r\nX: a\nY: b\r\n\r\n', 'GET / HTTP/1.1\r\nNo colon\r\n\r\n', 'HELLO\r\n\r\n']) {
      const code = (read: () => unknown): string | undefined => {
        try {
          read();
        } catch (e) {
          return (e as { code?: string }).code;
        }
        return undefined;
      };
      const searched = code(() => readRequestHead(bytes(bad)));
      assert.match(searched ?? '', /^HPE_/, bad);
      assert.equal(
        code(() => readWholeRequestHead(bytes(bad), 0, bad.length)),
        searched,
        bad,
      );
    }
    assert.throws(() => readWholeStatusHead(bytes('HTTP/1.1 200 OK\r\n'), 0, 17), /empty line/);
  });
});
