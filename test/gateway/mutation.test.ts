/**
 * The mutation hook that variants of the gateway (a gallery of faulty gateways) are built on: parts, envelopes and
 * the wire can be changed, a handler can be replaced or wrapped; the ledger stays right.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GatewayMutation } from '../../src/gateway';
import { card, gateway, PAYMENT, type Obj } from './helpers';

async function withVariant(mutate: GatewayMutation, fn: (c: Awaited<ReturnType<typeof gateway>>['client']) => Promise<void>): Promise<void> {
  const { client, gw } = await gateway({ mutate });
  try {
    await fn(client);
  } finally {
    await gw.close();
  }
}

const auth: Obj = { requesttypedescriptions: ['AUTH', 'RISKDEC'], ...PAYMENT, ...card('authorised') };

describe('mutation hook', () => {
  it('part: drop a field and change a value; the ledger keeps the truth', () =>
    withVariant(
      {
        part: (p, ctx) => {
          const { maskedpan: _drop, ...rest } = p;
          return ctx.index === 0 ? { ...rest, errormessage: 'OK!' } : rest;
        },
      },
      async (c) => {
        const r = await c.send(auth);
        assert.equal(r.json.response[0].maskedpan, undefined);
        assert.equal(r.json.response[0].errormessage, 'OK!');
        const rec = await c.record(String(r.json.response[0].transactionreference));
        assert.equal(rec.maskedpan, '411111######1111');
        assert.equal(rec.errormessage, 'Ok');
      },
    ));

  it('part: returning null drops the part', () =>
    withVariant({ part: (p) => (p.requesttypedescription === 'RISKDEC' ? null : p) }, async (c) => {
      const r = await c.send(auth);
      assert.deepEqual(
        r.json.response.map((p) => p.requesttypedescription),
        ['AUTH'],
      );
    }));

  it('envelope: reorder the parts and change the version', () =>
    withVariant({ envelope: (env) => ({ ...env, version: '9.99', response: [...(env.response as Obj[])].reverse() }) }, async (c) => {
      const r = await c.send(auth);
      assert.equal(r.json.version, '9.99');
      assert.deepEqual(
        r.json.response.map((p) => p.requesttypedescription),
        ['RISKDEC', 'AUTH'],
      );
    }));

  it('wire: change the content type and the body text', () =>
    withVariant({ wire: (reply) => ({ ...reply, headers: { 'Content-Type': 'text/html' }, body: reply.body.replace('"version":"1.00"', '"version":1') }) }, async (c) => {
      const res = await c.raw('/json/', JSON.stringify({ alias: 'webservices@example.test', version: '1.00', request: [auth] }));
      assert.equal(res.headers.get('content-type'), 'text/html');
      assert.equal(((await res.json()) as Obj).version, 1);
    }));

  it('operations: wrap the real handler (next), or replace it', () =>
    withVariant(
      {
        operations: {
          AUTH: (input, next) => {
            const out = next(input);
            return { ...out, part: { ...out.part, settlestatus: '2' } };
          },
          RISKDEC: () => ({ part: { requesttypedescription: 'RISKDEC', errorcode: '0', errormessage: 'Ok', fraudcontrolshieldstatuscode: 'MAYBE' } }),
        },
      },
      async (c) => {
        const r = await c.send(auth);
        assert.equal(r.json.response[0].settlestatus, '2');
        assert.equal(r.json.response[1].fraudcontrolshieldstatuscode, 'MAYBE');
        // the real AUTH was stored by `next`
        assert.equal((await c.record(String(r.json.response[0].transactionreference))).settlestatus, '0');
      },
    ));
});
