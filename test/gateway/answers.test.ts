/**
 * src/gateway/answers.ts: answers written at the end of the turn. Each answer must reach its own request with its
 * headers, none may be written before the turn ends, and one that cannot be written must not keep the others back.
 * The bodies read in a turn are answered at its end, in the order they came, and their answers written after the last.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { AnswerBatch, BodyTurn } from '../../src/gateway/answers';

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

  it('answer the bodies of a turn at its end, in order, and write their answers after the last', async () => {
    const events: string[] = [];
    const response = (name: string): http.ServerResponse =>
      ({
        destroyed: false,
        headersSent: false,
        writeHead: () => undefined,
        end: (body: string) => events.push(`written ${name}:${body}`),
      }) as unknown as http.ServerResponse;
    const batch = new AnswerBatch();
    const turn = new BodyTurn<string>(batch, (name) => {
      events.push(`answered ${name}`);
      batch.write(response(name), 200, 'text/plain', name.toUpperCase());
    });
    // An answer made earlier in the turn is not held back by the bodies: it is written when its own flush comes.
    batch.write(response('early'), 200, 'text/plain', 'E');
    turn.push('a');
    turn.push('b');
    turn.push('c');
    assert.deepEqual(events, []);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, ['written early:E', 'answered a', 'answered b', 'answered c', 'written a:A', 'written b:B', 'written c:C']);
    // The next turn's bodies wait for its end, as the first's did.
    events.length = 0;
    turn.push('d');
    assert.deepEqual(events, []);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, ['answered d', 'written d:D']);
  });

  it('write the answers held when the work throws', () => {
    const written: string[] = [];
    const res = { destroyed: false, headersSent: false, writeHead: () => undefined, end: (b: string) => written.push(b) } as unknown as http.ServerResponse;
    const batch = new AnswerBatch();
    assert.throws(() =>
      batch.together(() => {
        batch.write(res, 200, 'text/plain', 'kept');
        throw new Error('a bug');
      }),
    );
    assert.deepEqual(written, ['kept']);
  });

  it('answer the other bodies of a turn when one fails', async () => {
    const written: string[] = [];
    const errors: unknown[] = [];
    const res = { destroyed: false, headersSent: false, writeHead: () => undefined, end: (b: string) => written.push(b) } as unknown as http.ServerResponse;
    const batch = new AnswerBatch();
    const turn = new BodyTurn<string>(
      batch,
      (name) => {
        if (name === 'bad') throw new Error('a bug');
        batch.write(res, 200, 'text/plain', name);
      },
      (err) => errors.push(err),
    );
    for (const name of ['a', 'bad', 'c']) turn.push(name);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(written, ['a', 'c']);
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /a bug/);
  });
});
