/**
 * Hundreds of concurrent clients leave the ledger consistent: no lost or duplicated transaction, subscription
 * numbers that never skip or repeat, updates applied whole.
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { describe, it } from 'node:test';
import { AUTH_HEADER, card, gateway, PAYMENT, SITE, SUBSCRIPTION_FIELDS, USER, type Obj, type Part } from './helpers';

/** A bare node:http POST on its own connection (fetch would share a small pool): real concurrent clients. */
function post(url: string, agent: Agent, body: Obj): Promise<{ response: Part[] }> {
  const text = JSON.stringify({ alias: USER.alias, version: '1.00', request: [body] });
  return new Promise((resolve, reject) => {
    const req = request(`${url}/json/`, { method: 'POST', agent, headers: { Authorization: AUTH_HEADER, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          assert.equal(res.statusCode, 200);
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (e) {
          reject(e);
        }
      });
    });
    req.on('error', reject);
    req.end(text);
  });
}

describe('concurrency', () => {
  it('300 concurrent clients: every transaction stored once, references unique and gap-free', async () => {
    const { gw } = await gateway();
    const agent = new Agent({ keepAlive: false, maxSockets: 300 });
    try {
      const before = gw.ledger.size;
      const kinds: Obj[] = [
        { requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') },
        { requesttypedescriptions: ['RISKDEC', 'AUTH'], ...PAYMENT, ...card('shieldChallenge') },
        { requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'c', accounttypedescription: 'CARDSTORE', ...card('amex', false) },
        { requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('declined2') },
        { requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised'), baseamount: 'bad' },
      ];
      const replies = await Promise.all(Array.from({ length: 300 }, (_, i) => post(gw.url, agent, { ...kinds[i % kinds.length], orderreference: `c-${i}` })));
      const refs = replies.flatMap((r) => r.response.map((p) => p.transactionreference)).filter((r): r is string => typeof r === 'string');
      // 60 of each kind: 1 + 2 + 1 + 1 + 0 stored transactions
      assert.equal(refs.length, 60 * 5);
      assert.equal(new Set(refs).size, refs.length, 'no reference answered twice');
      assert.equal(gw.ledger.size - before, refs.length, 'every answered transaction is stored, and nothing else');
      for (const ref of refs) assert.ok(gw.ledger.get(ref), ref);
      const seqs = refs.map((r) => Number(r.split('-')[2])).sort((a, b) => a - b);
      assert.deepEqual(
        seqs,
        Array.from({ length: refs.length }, (_, i) => 1001 + i),
        'no reference lost or skipped',
      );
      // each combined request's AUTH points at its own RISKDEC
      for (const r of replies) if (r.response.length === 2) assert.equal(r.response[1].parenttransactionreference, r.response[0].transactionreference);
    } finally {
      agent.destroy();
      await gw.close();
    }
  });

  it('concurrent subscriptions, updates and clock moves: payment numbers never skip or repeat', async () => {
    const { client, gw } = await gateway();
    const agent = new Agent({ keepAlive: false, maxSockets: 100 });
    try {
      const subs = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          post(gw.url, agent, {
            requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'],
            ...PAYMENT,
            ...SUBSCRIPTION_FIELDS,
            ...card('authorised'),
            orderreference: `s-${i}`,
            transactionactive: '1',
            subscriptionunit: 'DAY',
            subscriptionbegindate: '2026-01-06',
            subscriptionfinalnumber: String(5 + (i % 7)),
          }),
        ),
      );
      const subRefs = subs.map((r) => String(r.response[1].transactionreference));
      // Clock moves interleaved with updates and queries from many clients.
      await Promise.all([
        ...Array.from({ length: 10 }, () => client.advance({ advanceDays: 1 })),
        ...subRefs.map((ref, i) =>
          post(gw.url, agent, { requesttypedescriptions: ['TRANSACTIONUPDATE'], filter: { transactionreference: [{ value: ref }] }, updates: { baseamount: String(2000 + i) } }),
        ),
        ...subRefs.map((ref) => post(gw.url, agent, { requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { parenttransactionreference: [{ value: ref }] } })),
      ]);
      for (const [i, ref] of subRefs.entries()) {
        const final = 5 + (i % 7);
        const numbers = (await client.children(ref)).map((p) => Number(p.subscriptionnumber));
        assert.deepEqual(
          numbers,
          Array.from({ length: final - 1 }, (_, k) => k + 2),
          `${ref}: payments 2..${final}, each once`,
        );
      }
    } finally {
      agent.destroy();
      await gw.close();
    }
  });
});
