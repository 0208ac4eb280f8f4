#!/usr/bin/env node
/**
 * A template of a cache-token provider for `cardspec run` (docs/conformance.md, "Cache tokens").
 *
 * A real sandbox hands out cache tokens only the way a merchant's payment page gets them: the customer types the
 * card into the form the service's JavaScript library renders, and the library posts a `cachetoken` to the merchant.
 * The kit cannot guess that page, so the profile names a command that does it:
 *
 *   "cachetokenProvider": { "command": ["node", "cachetoken-provider.js"], "timeoutMs": 30000 }
 *
 * (relative paths are relative to the profile file's folder). The protocol:
 *   - standard input: one JSON object, the card: {"pan": "...", "expirydate": "MM/YYYY", "securitycode": "..."}
 *     (never on the command line, where other processes could read it);
 *   - environment: CARDSPEC_TARGET (the base URL under test), CARDSPEC_SITE (the site reference), CARDSPEC_CURRENCY;
 *   - standard output: the token, as the last line; exit 0. Anything else (a non-zero exit, no token, a value
 *     that is no `cachetoken`) skips the scenario with the reason, and fails the preflight (exit 2).
 *   - never print the card: standard error is quoted (masked) when the command fails.
 *
 * As shipped, this template gets the token from the reference gateway's test-control API (`cardspec serve
 * --control`, or CARDSPEC_CONTROL_URL), which is what the JavaScript library would have posted. For a real target,
 * replace `obtainToken` with your payment page, for example with playwright-core (a devDependency of the kit):
 *
 *   const { chromium } = require('playwright-core');
 *   const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
 *   const page = await browser.newPage();
 *   await page.goto(process.env.PAYMENT_PAGE_URL);                     // your page, with the JavaScript library
 *   await page.frameLocator('iframe#card').locator('#pan').fill(card.pan); // the fields as your library renders them
 *   ...expiry date and security code likewise...
 *   const posted = page.waitForRequest((r) => r.method() === 'POST' && /cachetoken=/.test(r.postData() || ''));
 *   await page.click('button[type=submit]');
 *   const token = new URLSearchParams((await posted).postData()).get('cachetoken');
 *   await browser.close();
 */
'use strict';

async function readCard() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const card = JSON.parse(text);
  if (typeof card.pan !== 'string' || typeof card.expirydate !== 'string') throw new Error('the card on standard input has no pan or expirydate');
  return card;
}

/** The reference gateway's test-control API: `POST <target>/_cardspec/cachetokens` with the card. */
async function obtainToken(card) {
  const base = process.env.CARDSPEC_CONTROL_URL || `${(process.env.CARDSPEC_TARGET || '').replace(/\/+$/, '')}/_cardspec/`;
  const res = await fetch(`${base.replace(/\/?$/, '/')}cachetokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ pan: card.pan, expirydate: card.expirydate, ...(card.securitycode ? { securitycode: card.securitycode } : {}) }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`${base}cachetokens answered HTTP ${res.status}: is the gateway started with --control?`);
  const doc = await res.json();
  if (typeof doc.cachetoken !== 'string') throw new Error('the answer holds no cachetoken');
  return doc.cachetoken;
}

readCard()
  .then(obtainToken)
  .then((token) => process.stdout.write(`${token}\n`))
  .catch((e) => {
    // The message only: never the card.
    process.stderr.write(`cachetoken-provider: ${e.message}\n`);
    process.exitCode = 1;
  });
