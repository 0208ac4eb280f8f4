/**
 * A target that dies during a fuzz run (principle 6: every run ends): after `TARGET_GONE_AFTER` cases in a row
 * without an answer no more cases start, nothing is shrunk against the dead target, and the report says what
 * happened. The run is FAILED (the cases that got no answer fail `answered`), and bounded by a count of cases, not by
 * `--max-time`. A real gateway behind a real proxy on loopback that starts dropping every connection.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { TARGET_GONE_AFTER } from '../../src/fuzz/detect';
import { startGateway, type RunningGateway } from '../../src/gateway';
import { fuzz } from './run';

/** Requests the proxy forwards before it drops every connection: the preflight, the pool, some cases. */
const ANSWERED = 120;

describe('cardspec fuzz against a target that dies mid-run', () => {
  let gw: RunningGateway;
  let proxy: http.Server;
  let seen = 0;
  let url = '';

  before(async () => {
    gw = await startGateway({ control: true });
    const upstream = new URL(gw.url);
    proxy = http.createServer((req, res) => {
      if (++seen > ANSWERED) {
        req.socket.destroy();
        return;
      }
      const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.destroy());
      req.pipe(out);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });

  after(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await gw.close();
  });

  it('stops starting cases once the target stops answering, shrinks nothing, and says why', async () => {
    const runs = 5000;
    const r = await fuzz(['--target', url, '--property', 'requests', '--format', 'json', '--runs', String(runs), '--seed', '11', '--concurrency', '4']);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, new RegExp(`the target stopped answering: ${TARGET_GONE_AFTER} cases in a row got no answer`), r.out);
    assert.match(r.out, /FAILED/);
    const sent = Number(/(\d+) sent/.exec(r.out)?.[1]);
    // What was answered, then at most the cases in flight when the fifth no-answer came back, and those five.
    assert.ok(sent < ANSWERED + 4 + TARGET_GONE_AFTER + 4, `${sent} cases sent of ${runs}:\n${r.out}`);
    // Every request after the limit was dropped: the proxy saw the cases, their one retry each, and no shrinking.
    assert.ok(seen < ANSWERED + 2 * (4 + TARGET_GONE_AFTER + 4), `the proxy saw ${seen} requests`);
  });
});
