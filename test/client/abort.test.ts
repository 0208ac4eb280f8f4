/**
 * A stopped run abandons the requests in flight: both HTTP clients (node:http for HTTPS targets, the keep-alive
 * client for plain http) fail an exchange at once with an `HttpFailure` of kind `stopped` when its AbortSignal
 * fires, and refuse to start one whose signal already has. Against a real loopback server that never answers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HttpFailure, httpRequest, type HttpRequest, type HttpResponse } from '../../src/client/http';
import { KeepAliveClient } from '../../src/client/keepalive';
import { startBroken, type BrokenServer } from './broken-servers';

const clients: [string, (req: HttpRequest) => Promise<HttpResponse>][] = [
  ['httpRequest (node:http)', httpRequest],
  ['KeepAliveClient', (req) => new KeepAliveClient().request(req)],
];

describe('an AbortSignal stops an exchange', () => {
  let hung: BrokenServer;
  before(async () => {
    hung = await startBroken('hangs');
  });
  after(async () => {
    await hung.close();
  });

  for (const [name, send] of clients) {
    it(`${name}: an exchange in flight fails at once with kind "stopped", naming the reason`, async () => {
      const controller = new AbortController();
      const started = process.hrtime.bigint();
      const pending = send({ url: `${hung.url}/json/`, body: '{}', limits: { totalTimeoutMs: 10_000 }, signal: controller.signal });
      setTimeout(() => controller.abort(new Error('interrupted (SIGINT)')), 100);
      await assert.rejects(pending, (e: unknown) => {
        assert.ok(e instanceof HttpFailure);
        assert.equal(e.kind, 'stopped');
        assert.match(e.message, /the request to http:\/\/127\.0\.0\.1:\d+\/json\/ was abandoned: the run was stopped \(interrupted \(SIGINT\)\)/);
        return true;
      });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      assert.ok(ms < 5000, `took ${ms} ms`);
    });

    it(`${name}: an exchange whose signal has fired is not started`, async () => {
      const controller = new AbortController();
      controller.abort(new Error('--max-time'));
      await assert.rejects(send({ url: `${hung.url}/json/`, body: '{}', signal: controller.signal }), (e: unknown) => e instanceof HttpFailure && e.kind === 'stopped');
    });
  }
});
