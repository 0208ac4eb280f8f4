/**
 * The example of docs/contract.md: a Node client's own test, certified in-process with cardspec/nock. Every request
 * the client makes to its configured host is answered by the reference gateway inside this process and checked
 * against the document; the test fails on any violation. It runs for both transports a Node client may use:
 * `http.request`/`https.request` and the global `fetch`.
 *
 * In your project: `import { interceptGateway } from 'cardspec/nock';` (here, inside the kit, the source path).
 * npm test runs this file through test/contract/example.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { interceptGateway, type GatewayScope } from '../../src/nock';
import { PaymentsClient, type Transport } from './client';

const HOST = 'https://payments.example.test';
// The stand-in gateway's built-in test account and test card (docs/gateway.md, "Default configuration").
const ACCOUNT = { username: 'webservices@example.test', password: 'cardspec-password-1' };
const SITE = 'test_site12345';
const CARD = { pan: '4111111111111111', expirydate: '12/2031', securitycode: '123' };
const BROWSER = { accept: 'text/html,application/xhtml+xml', userAgent: 'Mozilla/5.0 (example)' };

/** What the customer's browser does at the ACS: post PaReq, TermUrl and MD, submit the page, read PaRes and MD. */
async function browserAtTheAcs(query: Record<string, unknown>, termurl: string): Promise<{ md: string; pares: string }> {
  const post = async (url: string, fields: Record<string, string>): Promise<string> =>
    (await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })).text();
  const hidden = (html: string): Record<string, string> =>
    Object.fromEntries(
      [...html.matchAll(/<input type="hidden" id="[^"]*" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1],
        m[2]
          .replace(/&amp;/g, '&')
          .replace(/&#39;/g, "'")
          .replace(/&quot;/g, '"')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>'),
      ]),
    );
  const page = await post(String(query.acsurl), { PaReq: String(query.pareq), TermUrl: termurl, MD: String(query.md) });
  const action = /<form id="acs-form" method="post" action="([^"]+)">/.exec(page)?.[1] ?? 'complete';
  const back = await post(new URL(action, String(query.acsurl)).toString(), { ...hidden(page), outcome: 'Y' });
  const form = hidden(back);
  return { md: form.MD, pares: form.PaRes };
}

for (const transport of ['http', 'fetch'] as Transport[]) {
  describe(`a payments client over ${transport === 'http' ? 'https.request' : 'fetch'}, certified with cardspec/nock`, () => {
    let scope: GatewayScope;
    let client: PaymentsClient;
    before(() => {
      scope = interceptGateway({ host: HOST });
      client = new PaymentsClient({ baseUrl: HOST, ...ACCOUNT, transport });
    });
    after(() => scope.restore());

    it('stores a card, pays with it, and pays with 3-D Secure without breaking the contract', async () => {
      const stored = await client.storeCard(SITE, { pan: CARD.pan, expirydate: CARD.expirydate }, 'order-1');
      assert.equal(stored.errorcode, '0');
      const paid = await client.payWithStoredCard(SITE, String(stored.transactionreference), 1050, 'GBP');
      assert.equal(paid.errorcode, '0');

      // What the JavaScript library would have posted to the merchant: a cache token (the test-control API).
      const minted = await fetch(`${HOST}/_cardspec/cachetokens`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(CARD) });
      const { cachetoken } = (await minted.json()) as { cachetoken: string };
      const query = await client.threeDQuery(SITE, cachetoken, 1050, 'GBP', BROWSER, 'https://shop.example.test/3ds-return');
      assert.equal(query.enrolled, 'Y');
      const { md, pares } = await browserAtTheAcs(query, 'https://shop.example.test/3ds-return');
      const auth = await client.authoriseAfterThreeDSecure(md, pares);
      assert.equal(auth.errorcode, '0');
      assert.equal(auth.status, 'Y');

      assert.deepEqual(scope.violations(), []);
      scope.done();
      const covered = scope
        .report()
        .flows.filter((f) => f.covered)
        .map((f) => f.id);
      assert.deepEqual(covered, ['auth', 'threeds-enrolled', 'store', 'stored-card']);
    });

    it('is caught sending the security code in a STORE, a number as baseamount, and a modified pares', async () => {
      // The mistakes the contract is there to catch; each is still answered, as the service would.
      const [store] = await client.send({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'order-2', accounttypedescription: 'CARDSTORE', ...CARD });
      assert.equal(store.errorcode, '30000');
      await client.send({ requesttypedescriptions: ['AUTH'], sitereference: SITE, accounttypedescription: 'ECOM', currencyiso3a: 'GBP', baseamount: 1050 as unknown as string, ...CARD });
      const minted = await fetch(`${HOST}/_cardspec/cachetokens`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(CARD) });
      const query = await client.threeDQuery(SITE, ((await minted.json()) as { cachetoken: string }).cachetoken, 1050, 'GBP', BROWSER, 'https://shop.example.test/r');
      const { md, pares } = await browserAtTheAcs(query, 'https://shop.example.test/r');
      const auth = await client.authoriseAfterThreeDSecure(md, pares.slice(0, -1) + (pares.endsWith('A') ? 'B' : 'A'));
      assert.equal(auth.errorcode, '60022');

      const rules = scope.violations('error').map((v) => v.rule);
      assert.deepEqual(rules, ['FIELD-SECURITYCODE-NOT-IN-STORE', 'FIELD-STRINGS', '3DS-MD-PARES-UNMODIFIED']);
      assert.throws(() => scope.done(), /FIELD-SECURITYCODE-NOT-IN-STORE/);
      // Masked: the card number never appears in what the contract reports.
      assert.doesNotMatch(JSON.stringify(scope.report()), /4111111111111111/);
    });
  });
}
