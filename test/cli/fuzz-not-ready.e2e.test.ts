/**
 * `cardspec fuzz` against a target it cannot reach at all (a refused port, a target hung from the start, refused
 * credentials) exits 2 with one line saying what to fix, before any case: the README's "2 ... (or nothing could be
 * sent)". Before, each of these was a FAILED run (exit 1) of thousands of failed cases, which a CI gate reads as a
 * finding against the target. An answer that is no envelope stays the oracles' to judge (test/fuzz/variants.e2e).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { fuzz } from '../fuzz/run';
import { listenOnLoopback, startBroken } from '../client/broken-servers';

const SMALL = ['--runs', '20', '--model-runs', '1', '--max-time', '60'];

describe('cardspec fuzz: a target that is not ready', () => {
  it('a refused port exits 2 at once, saying nothing listens there; no case is run', async () => {
    const server = await startBroken('refuses');
    const r = await fuzz(['--target', server.url, ...SMALL]);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(
      r.err,
      /^cardspec fuzz: the target is not ready: a known-good JSON Account check \(POST http:\/\/127\.0\.0\.1:\d+\/json\/\) was refused: nothing listens there\. Is the target running/,
    );
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.doesNotMatch(r.out, /FAILED|Oracle/);
  });

  it('a target hung from the start exits 2 within --timeout, saying to raise it if the target is only slow', async () => {
    const server = await startBroken('hangs');
    try {
      const r = await fuzz(['--target', server.url, '--timeout', '500', ...SMALL]);
      assert.equal(r.code, 2, r.out + r.err);
      assert.match(r.err, /got no answer: no answer arrived .* within 500 ms: the target hung\..* raise --timeout/);
      assert.doesNotMatch(r.out, /FAILED|Oracle/);
    } finally {
      await server.close();
    }
  });

  it('refused credentials exit 2 naming what to check, never the password', async () => {
    let seen = 0;
    const server = await listenOnLoopback(
      http.createServer((req, res) => {
        seen += 1;
        req.resume();
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="sandbox"', 'Content-Type': 'text/plain' });
        res.end('Unauthorized');
      }),
    );
    try {
      const r = await fuzz(['--target', server.url, '--user', 'ws@merchant.test', '--password', 'Sekr3t-Pa55', ...SMALL]);
      assert.equal(r.code, 2, r.out + r.err);
      assert.match(r.err, /HTTP 401: the target does not accept the credentials; check the user name and password/);
      assert.doesNotMatch(r.out + r.err, /Sekr3t-Pa55|U2Vrc/);
      assert.equal(seen, 1, 'only the preflight was sent');
    } finally {
      await server.close();
    }
  });
});
