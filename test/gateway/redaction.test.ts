/**
 * No secret leaves the gateway: request logs are masked, responses never carry a full card number or a security
 * code, the ledger never holds a security code or an ACS realPan.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { card, gateway, PAYMENT, SUBSCRIPTION_FIELDS, threedquery, USER, valuesEqualTo } from './helpers';

describe('no secret leaves the run', () => {
  it('logs pass through redactText; responses and the ledger hold no full PAN, security code or realPan', async () => {
    const lines: string[] = [];
    const { client, gw } = await gateway({ log: (l) => lines.push(l) });
    try {
      const pan = card('authorised').pan as string;
      const texts: string[] = [];
      // A card number and a security code in the URL, so that the request line itself would leak them.
      const res = await fetch(`${client.url}/json/?pan=${pan}&securitycode=987`, {
        method: 'POST',
        headers: { Authorization: 'Basic ' + Buffer.from(`${USER.username}:${USER.password}`).toString('base64'), 'Content-Type': 'application/json' },
        body: '{',
      });
      texts.push(await res.text());
      texts.push(
        (await client.send({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, ...SUBSCRIPTION_FIELDS, ...card('authorised'), securitycode: '987', realPan: pan, RealPan: pan })).text,
      );
      const q = await client.ok(threedquery(await client.token('authorised')));
      const { md, pares } = await client.acs(q);
      texts.push((await client.send({ requesttypedescriptions: ['AUTH'], md, pares, realPan: pan })).text);
      texts.push((await client.send({ requesttypedescriptions: ['TRANSACTIONQUERY'], filter: { sitereference: [{ value: 'test_site12345' }] } })).text);
      await client.advance({ advanceMonths: 2 });
      for (const t of texts) {
        assert.doesNotMatch(t, new RegExp(pan));
        assert.doesNotMatch(t, /"securitycode"/);
        assert.doesNotMatch(t, /realpan/i);
      }
      const ledger = JSON.stringify([...gw.ledger.all()]);
      // The code as a whole value: a bare /987/ also matched random Base64 in pareq, md or pares now and then.
      assert.deepEqual(valuesEqualTo([...gw.ledger.all()], '987'), [], 'the security code is stored nowhere');
      assert.doesNotMatch(ledger, /realpan/i);
      assert.doesNotMatch(ledger, /"securitycode"/);
      assert.ok(lines.length >= 5);
      const log = lines.join('\n');
      assert.doesNotMatch(log, new RegExp(pan));
      assert.doesNotMatch(log, /securitycode=987/);
      assert.doesNotMatch(log, new RegExp(USER.password));
    } finally {
      await gw.close();
    }
  });
});
