/**
 * The two members the self-check added to the gateway's mutation hook, on a real gateway: `request` rewrites a
 * request object before the request check (so a variant can accept what the check would refuse), and `reference`
 * gives every transaction reference another form that the whole gateway then uses (parents, the control API, the
 * engine). And the front: a proxy that keeps the Host, so `acsurl` names the proxy.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { GatewayMutation } from '../../src/gateway';
import { startFront } from '../../src/selfcheck/front';
import { card, Client, gateway, PAYMENT, USER, type Obj } from '../gateway/helpers';

async function withGateway(mutate: GatewayMutation, fn: (c: Client) => Promise<void>): Promise<void> {
  const { client, gw } = await gateway({ mutate });
  try {
    await fn(client);
  } finally {
    await gw.close();
  }
}

const auth: Obj = { requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') };

describe('the mutation hook: request', () => {
  it('changes what the request check reads: a refused amount becomes one the gateway takes', async () => {
    await withGateway({}, async (c) => {
      const p = await c.part({ ...auth, baseamount: '10.50' });
      assert.equal(p.errorcode, '30000');
    });
    await withGateway({ request: (r) => ({ ...(r as Obj), baseamount: '1050' }) }, async (c) => {
      const p = await c.ok({ ...auth, baseamount: '10.50' });
      assert.equal(p.baseamount, '1050');
    });
  });

  it('is told the format and the index of the request object', async () => {
    // One request object per call (the gateway refuses more since src/wire/reading.ts): index 0.
    const seen: string[] = [];
    await withGateway({ request: (r, ctx) => (seen.push(`${ctx.format}:${ctx.index}`), r) }, async (c) => {
      await c.send([auth]);
    });
    assert.deepEqual(seen, ['json:0']);
  });
});

describe('the mutation hook: reference', () => {
  const reference = (standard: string): string => {
    const [site, node, seq] = standard.split('-');
    return `T${seq}N${node}S${site}`;
  };

  it('writes every reference in the new form, and takes it back as a parent and in the control API', async () => {
    await withGateway({ reference }, async (c) => {
      const first = await c.ok(auth);
      assert.match(String(first.transactionreference), /^T\d+N9S12$/);
      const child = await c.ok({ requesttypedescriptions: ['AUTH'], sitereference: PAYMENT.sitereference, parenttransactionreference: first.transactionreference });
      assert.equal(child.parenttransactionreference, first.transactionreference);
      assert.equal(child.maskedpan, first.maskedpan);
      const record = await c.control('GET', `transactions/${String(child.transactionreference)}`);
      assert.equal(record.status, 200);
      assert.equal(record.body.transactionreference, child.transactionreference);
    });
  });
});

describe('the front of a variant', () => {
  it('forwards requests and answers, rewriting them, with the Host kept so acsurl names the front', async () => {
    const { client, gw } = await gateway({});
    const rewritten: string[] = [];
    const front = await startFront(gw.url, {
      request: (req) => (rewritten.push(req.path), req),
      response: (res) => ({ ...res, headers: { ...res.headers, 'x-front': 'yes' } }),
    });
    try {
      const token = await client.control('POST', 'cachetokens', card('authorised'));
      const res = await fetch(`${front.url}/json/`, {
        method: 'POST',
        headers: { Authorization: 'Basic ' + Buffer.from(`${USER.username}:${USER.password}`).toString('base64'), 'Content-Type': 'application/json' },
        body: JSON.stringify({
          alias: USER.alias,
          version: '1.00',
          request: [{ requesttypedescriptions: ['THREEDQUERY'], ...PAYMENT, cachetoken: token.body.cachetoken, termurl: 'https://merchant.example.test/3ds', accept: 'text/html' }],
        }),
      });
      assert.equal(res.headers.get('x-front'), 'yes');
      const part = ((await res.json()) as { response: Obj[] }).response[0];
      assert.equal(part.errorcode, '0', JSON.stringify(part));
      assert.equal(part.acsurl, `${front.url}/acs/`);
      assert.deepEqual(rewritten, ['/json/']);
    } finally {
      await front.close();
      await gw.close();
    }
  });
});
