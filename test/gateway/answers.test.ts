/**
 * src/gateway/answers.ts: answers written at the end of the turn. Each answer must reach its own request with its
 * headers, none may be written before the turn ends, and one that cannot be written must not keep the others back.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { AnswerBatch } from '../../src/gateway/answers';

describe('answers written at the end of the turn', () => {
  it('reach their own requests, with Content-Type and Content-Length, over a real server', async () => {
    const batch = new AnswerBatch();
    const server = http.createServer((req, res) => {
      const body = JSON.stringify({ path: req.url, text: 'é' });
      batch.write(res, 200, 'application/json', body);
      // Nothing is written in the turn the answer was made.
      assert.equal(res.headersSent, false);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const answers = await Promise.all(
        ['/a', '/b', '/c', '/d'].map(async (path) => {
          const res = await fetch(`http://127.0.0.1:${port}${path}`);
          return { path, type: res.headers.get('content-type'), length: res.headers.get('content-length'), body: (await res.json()) as { path: string } };
        }),
      );
      for (const a of answers) {
        assert.equal(a.body.path, a.path);
        assert.equal(a.type, 'application/json');
        // "é" is two bytes: the length is of the bytes, not of the characters.
        assert.equal(a.length, String(Buffer.byteLength(JSON.stringify({ path: a.path, text: 'é' }))));
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('skip a response whose client went away, and write the rest when one fails', async () => {
    const written: string[] = [];
    const errors: unknown[] = [];
    const response = (name: string, opts: { destroyed?: boolean; fails?: boolean } = {}): http.ServerResponse =>
      ({
        destroyed: opts.destroyed ?? false,
        headersSent: false,
        writeHead: () => {
          if (opts.fails) throw new Error(`${name} cannot be written`);
        },
        end: (body: string) => written.push(`${name}:${body}`),
      }) as unknown as http.ServerResponse;
    const batch = new AnswerBatch((err) => errors.push(err));
    batch.write(response('gone', { destroyed: true }), 200, 'text/plain', '1');
    batch.write(response('broken', { fails: true }), 200, 'text/plain', '2');
    batch.write(response('fine'), 200, 'text/plain', '3');
    assert.deepEqual(written, []);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(written, ['fine:3']);
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /broken cannot be written/);
  });
});
