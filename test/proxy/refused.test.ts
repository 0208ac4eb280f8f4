/**
 * A refused call as the checking proxy reads it (src/proxy/session.ts `refused`): the contract session's transport
 * checks judge it, and the violations they list for it are the proxy's client findings for that exchange, none of
 * an earlier one again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HttpExchange } from '../../src/proxy/exchange';
import { ProxySession } from '../../src/proxy/session';

const refused = (headers: Record<string, string>): HttpExchange => ({
  method: 'POST',
  path: '/json/',
  requestHeaders: headers,
  requestBody: Buffer.from('{"request":[]}'),
  status: 401,
  responseHeaders: { 'content-type': 'text/plain' },
  responseBody: Buffer.from('unauthorised'),
});

describe('a refused call through the proxy', () => {
  it("gives the transport checks' findings of that exchange alone, as the contract session lists them", () => {
    const session = new ProxySession();
    const first = session.observe(refused({ 'content-type': 'application/json' }));
    // "Every call uses HTTP basic authentication."
    assert.deepEqual(
      first.map((f) => [f.exchange, f.side, f.rule, f.severity]),
      [[1, 'client', 'SEC-BASIC-AUTH', 'error']],
    );
    const second = session.observe(refused({ 'content-type': 'application/json' }));
    assert.deepEqual(
      second.map((f) => [f.exchange, f.rule]),
      [[2, 'SEC-BASIC-AUTH']],
    );
    const report = session.report();
    assert.deepEqual(
      report.contract.violations.list.map((v) => [v.call, v.rule, v.message]),
      [...first, ...second].map((f) => [f.exchange, f.rule, f.message]),
    );
    assert.equal(report.coverage.find((c) => c.rule === 'SEC-BASIC-AUTH')?.failed, 2);
    assert.equal(session.exitCode(), 1);
  });

  it('keeps finding the fault in every refused call, past the few the contract report lists as examples', () => {
    const session = new ProxySession();
    const calls = 12;
    for (let i = 1; i <= calls; i++) {
      const found = session.observe(refused({ 'content-type': 'application/json' }));
      assert.deepEqual(
        found.map((f) => [f.exchange, f.rule]),
        [[i, 'SEC-BASIC-AUTH']],
        `refused call ${i}`,
      );
    }
    assert.equal(session.report().coverage.find((c) => c.rule === 'SEC-BASIC-AUTH')?.failed, calls);
  });
});
