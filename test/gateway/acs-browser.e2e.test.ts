/**
 * The ACS round trip in a real browser ("Customer redirect to the issuer's ACS (browser, not JSON)"): a merchant
 * page on loopback posts `PaReq`, `TermUrl` and `MD` to the THREEDQUERY's `acsurl`; the customer submits the ACS
 * page; the browser returns by POST to `termurl` with `PaRes` and `MD`; the merchant sends AUTH with `md` and
 * `pares`. The outcome is picked on the page, as a person would.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { escapeHtml } from '../../src/gateway/acs';
import { launchChromium } from '../chromium';
import { Client, gateway, threedquery } from './helpers';

let client: Client;
let closeGateway: () => Promise<void>;
let merchant: http.Server;
let merchantUrl: string;
/** What the browser posted back to the merchant's termurl. */
let returned: URLSearchParams | undefined;
let started: { acsurl: string; pareq: string; md: string } | undefined;

before(async () => {
  const g = await gateway();
  client = g.client;
  closeGateway = () => g.gw.close();
  merchant = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (req.url === '/checkout' && started) {
        // The merchant's redirect page: the document's form fields, case sensitive.
        const s = started;
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          `<!doctype html><form id="to-acs" method="post" action="${escapeHtml(s.acsurl)}">` +
            `<input type="hidden" name="PaReq" value="${escapeHtml(s.pareq)}"><input type="hidden" name="TermUrl" value="${merchantUrl}/return">` +
            `<input type="hidden" name="MD" value="${escapeHtml(s.md)}"><button id="pay">Pay</button></form>`,
        );
        return;
      }
      if (req.url === '/return' && req.method === 'POST') {
        returned = new URLSearchParams(body);
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end('<!doctype html><p id="back">Back at the merchant</p>');
        return;
      }
      res.statusCode = 404;
      res.end();
    });
  });
  await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
  merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((resolve) => merchant.close(() => resolve()));
  await closeGateway();
});

async function roundTrip(t: import('node:test').TestContext, outcome: 'Y' | 'N'): Promise<Record<string, unknown> | undefined> {
  const query = await client.ok(threedquery(await client.token('authorised'), { termurl: `${merchantUrl}/return` }));
  assert.equal(query.enrolled, 'Y');
  started = { acsurl: String(query.acsurl), pareq: String(query.pareq), md: String(query.md) };
  returned = undefined;
  const browser = await launchChromium(t);
  if (!browser) return undefined;
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 400 } });
    // Waits bounded by what a busy CI machine (two cores, Chromium beside two test files) may need, not by an idle one.
    page.setDefaultTimeout(60_000);
    await page.goto(`${merchantUrl}/checkout`);
    await Promise.all([page.waitForSelector('#acs-form'), page.click('#pay')]);
    await page.selectOption('#acs-outcome', outcome);
    await Promise.all([page.waitForSelector('#back'), page.click('#acs-submit')]);
  } finally {
    await browser.close();
  }
  assert.ok(returned, 'the browser came back to termurl by POST');
  const back = returned as URLSearchParams;
  assert.deepEqual([...back.keys()].sort(), ['MD', 'PaRes'], 'the return form holds PaRes and MD, case sensitive');
  assert.equal(back.get('MD'), started.md, 'MD comes back unmodified');
  return client.part({ requesttypedescriptions: ['AUTH'], md: back.get('MD'), pares: back.get('PaRes') });
}

describe('the ACS round trip in headless Chromium', () => {
  it('authenticated on the page: the AUTH with md and pares is authorised with status Y', async (t) => {
    const auth = await roundTrip(t, 'Y');
    if (!auth) return;
    assert.equal(auth.errorcode, '0');
    assert.equal(auth.status, 'Y');
  });

  it('not authenticated on the page: the AUTH gives 60022 Unauthenticated', async (t) => {
    const auth = await roundTrip(t, 'N');
    if (!auth) return;
    assert.equal(auth.errorcode, '60022');
    assert.equal(auth.errormessage, 'Unauthenticated');
  });
});
