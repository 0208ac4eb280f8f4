/**
 * "The security code is never stored": an answer that carries one fails the gateway in the checking proxy as it
 * fails it in a run (the same walk, src/rules/answers.ts), without the code in the finding.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HttpExchange } from '../../src/proxy/exchange';
import { ProxySession } from '../../src/proxy/session';

const CODE = '737';
const exchange = (part: Record<string, unknown>): HttpExchange => {
  const request = {
    alias: 'site@example.com',
    version: '1.00',
    request: [{ requesttypedescriptions: ['STORE'], sitereference: 'test_site', accounttypedescription: 'CARDSTORE', orderreference: 'order-1', pan: '4111111111111111', expirydate: '12/2030' }],
  };
  const answer = { version: '1.00', requestreference: 'W1-abc', secrand: 'abcdef0123', response: [part] };
  return {
    method: 'POST',
    path: '/json/',
    requestHeaders: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('site@example.com:pw').toString('base64')}` },
    requestBody: Buffer.from(JSON.stringify(request)),
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: Buffer.from(JSON.stringify(answer)),
  };
};
const store = { requesttypedescription: 'STORE', errorcode: '0', errormessage: 'Ok', transactionreference: '1-2-3', transactionactive: '1', maskedpan: '411111######1111' };

describe('a security code in an answer, through the proxy', () => {
  it('is a gateway finding of STORE-NO-BANK that names where, not what', () => {
    for (const part of [
      { ...store, securitycode: CODE },
      { ...store, SecurityCode: CODE },
    ]) {
      const session = new ProxySession();
      const found = session.observe(exchange(part)).filter((f) => f.rule === 'STORE-NO-BANK');
      assert.equal(found.length, 1, JSON.stringify(part));
      assert.equal(found[0].side, 'gateway');
      assert.match(found[0].field, /^response\[0\]\.securitycode$/i);
      assert.ok(!JSON.stringify(session.report()).includes(`"${CODE}"`), 'the code is not repeated in the report');
      assert.equal(session.exitCode(), 1);
    }
  });

  it('is not found in an answer without one', () => {
    const session = new ProxySession();
    assert.deepEqual(
      session.observe(exchange(store)).filter((f) => f.rule === 'STORE-NO-BANK'),
      [],
    );
  });
});
