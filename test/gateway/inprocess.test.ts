/**
 * The in-process API: the pure core (`processEnvelope`, JSON form in and out, no HTTP) and `createGateway`'s request
 * handler mounted on a server of the caller's own; and the engine catching up with a clock that moved by itself
 * (what a ticking clock does between requests).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createGateway, processEnvelope } from '../../src/gateway';
import { parseTimestamp } from '../../src/calendar';
import { createRuntime } from '../../src/gateway/runtime';
import { AUTH_HEADER, card, PAYMENT, USER, type Part } from './helpers';

const envelope = (request: Record<string, unknown>) => ({ alias: USER.alias, version: '1.00', request: [request] });

describe('in-process use', () => {
  it('processEnvelope answers the JSON form without HTTP, and the engine catches up when the clock moved by itself', () => {
    const rt = createRuntime();
    const ctx = { user: USER, format: 'json' as const, baseUrl: 'http://gateway.test', requestReference: 'Aref1' };
    const env = processEnvelope(rt, envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') }), ctx);
    assert.equal(env.requestreference, 'Aref1');
    const [part] = env.response as Part[];
    assert.equal(part.errorcode, '0');
    assert.equal(rt.ledger.get(String(part.transactionreference))?.settlestatus, '0');
    // The clock passes midnight without the control API (as a ticking clock does); the next request runs the
    // settlement that was due.
    rt.clock.setTo(parseTimestamp('2026-01-06 08:00:00')!);
    processEnvelope(rt, envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') }), ctx);
    assert.equal(rt.ledger.get(String(part.transactionreference))?.settlestatus, '100');
  });

  it('createGateway’s handler serves from a server of the caller’s own', async () => {
    const gw = createGateway({ control: true });
    const server = createServer(gw.handle);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${url}/json/`, {
        method: 'POST',
        headers: { Authorization: AUTH_HEADER, 'Content-Type': 'application/json' },
        body: JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') })),
      });
      const body = (await res.json()) as { response: Part[] };
      assert.equal(body.response[0].errorcode, '0');
      assert.equal(gw.ledger.size, 1);
      assert.equal(gw.clock.timestamp(), '2026-01-05 09:00:00');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
