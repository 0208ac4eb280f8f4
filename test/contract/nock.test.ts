/**
 * cardspec/nock beyond the example: bad input through nock is answered, never a crash; gzip and XML go through both
 * transports; the ACS is on the intercepted origin; `done()` asserts; `restore()` lets go of the host.
 */
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { DEFAULT_HOST, interceptGateway } from '../../src/nock';
import { card, envelope, JSON_HEADERS, PAYMENT, SITE, USER } from './helpers';

function viaHttps(url: string, headers: Record<string, string>, body: Buffer | string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('cardspec/nock', () => {
  it('answers a malformed body, a gzip body and an XML block, over fetch and https.request alike', async () => {
    const scope = interceptGateway();
    try {
      assert.equal(scope.host, DEFAULT_HOST);
      const bad = await fetch(`${DEFAULT_HOST}/json/`, { method: 'POST', headers: JSON_HEADERS, body: '{"alias":' });
      assert.equal(bad.status, 200);
      assert.match(await bad.text(), /Malformed JSON/);
      const gz = await viaHttps(
        `${DEFAULT_HOST}/json/`,
        { ...JSON_HEADERS, 'Content-Encoding': 'gzip' },
        gzipSync(JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') }))),
      );
      assert.equal((JSON.parse(gz.text) as { response: { errorcode: string }[] }).response[0].errorcode, '0');
      const c = card('authorised', false) as Record<string, string>;
      const xml = `<requestblock version="3.67"><alias>${USER.alias}</alias><request type="STORE"><operation><sitereference>${SITE}</sitereference><accounttypedescription>CARDSTORE</accounttypedescription></operation><merchant><orderreference>x</orderreference></merchant><billing><payment><pan>${c.pan}</pan><expirydate>${c.expirydate}</expirydate></payment></billing></request></requestblock>`;
      const block = await fetch(`${DEFAULT_HOST}/xml/`, { method: 'POST', headers: { Authorization: JSON_HEADERS.Authorization, 'Content-Type': 'text/xml;charset=utf-8' }, body: xml });
      assert.match(await block.text(), /<code>0<\/code>/);
      assert.deepEqual(
        scope.violations().map((v) => v.rule),
        ['TRANSPORT-REQUEST-BODY'],
      );
      assert.equal(scope.report().requests.xml, 1);
    } finally {
      scope.restore();
    }
  });

  it('keeps a card number and the password out of violations() and report(), wherever the client puts them', async () => {
    // A sloppy client: the card number among the request types (the operation each violation names) and the
    // account's password as a field name (the warning names the field), in a test process that never registered it.
    const scope = interceptGateway();
    try {
      const pan = String(card('authorised').pan);
      const headers = { ...JSON_HEADERS };
      await fetch(`${DEFAULT_HOST}/json/`, { method: 'POST', headers, body: JSON.stringify(envelope({ requesttypedescriptions: [pan, 'AUTH'], ...PAYMENT, ...card('authorised') })) });
      await fetch(`${DEFAULT_HOST}/json/`, { method: 'POST', headers, body: JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised'), [USER.password]: '1' })) });
      const rules = scope.violations().map((v) => v.rule);
      assert.ok(rules.includes('ENV-TYPES-NAMED') && rules.includes('FIELD-AUTH-FIELD-LIST'), rules.join());
      for (const text of [JSON.stringify(scope.violations()), JSON.stringify(scope.report())]) {
        assert.ok(!text.includes(pan), 'a full card number in the violations');
        assert.ok(!text.includes(USER.password), 'the password in the violations');
      }
      assert.ok(scope.violations().some((v) => v.operation.includes('411111######1111')));
    } finally {
      scope.restore();
    }
  });

  it('serves a base address with a path ("POST {base_url}/json/"): under it no violation, beside it the path is judged', async () => {
    const scope = interceptGateway({ host: 'https://payments.example.test/cardpay/' });
    try {
      const body = JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'o', ...card('authorised') }));
      const ok = await fetch('https://payments.example.test/cardpay/json/', { method: 'POST', headers: JSON_HEADERS, body });
      assert.equal(ok.status, 200);
      assert.equal(((await ok.json()) as { response: { errorcode: string }[] }).response[0].errorcode, '0');
      assert.deepEqual(scope.violations(), []);
      const report = await fetch('https://payments.example.test/cardpay/_cardspec/contract');
      assert.equal(((await report.json()) as { requests: { answered: number } }).requests.answered, 1);
      // The client that forgot its base address's path: not {base_url}/json/.
      const beside = await fetch('https://payments.example.test/json/', { method: 'POST', headers: JSON_HEADERS, body });
      assert.equal(beside.status, 404);
      assert.deepEqual(
        scope.violations().map((v) => v.rule),
        ['TRANSPORT-JSON-PATH'],
      );
    } finally {
      scope.restore();
    }
  });

  it('puts the ACS on the intercepted origin', async () => {
    const scope = interceptGateway({ host: 'https://psp.example.test:8443' });
    try {
      const token = (await (
        await fetch('https://psp.example.test:8443/_cardspec/cachetokens', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(card('authorised')) })
      ).json()) as { cachetoken: string };
      const res = await fetch('https://psp.example.test:8443/json/', {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify(envelope({ requesttypedescriptions: ['THREEDQUERY'], ...PAYMENT, cachetoken: token.cachetoken, termurl: 'https://shop.example/r', accept: 'text/html', useragent: 'UA' })),
      });
      const [part] = ((await res.json()) as { response: Record<string, string>[] }).response;
      assert.equal(part.acsurl, 'https://psp.example.test:8443/acs/');
      const page = await fetch(part.acsurl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ PaReq: part.pareq, TermUrl: 'https://shop.example/r', MD: part.md }).toString(),
      });
      assert.match(await page.text(), /<form id="acs-form"/);
      assert.equal(scope.isDone(), true);
      scope.done();
    } finally {
      scope.restore();
    }
  });

  it('done() throws when nothing reached the gateway, and on warnings with strict; restore() lets go of the host', async () => {
    const scope = interceptGateway({ host: 'http://strict.example.test', strict: true });
    assert.throws(() => scope.done(), /no request reached the stand-in gateway/);
    assert.equal(scope.isDone(), false);
    await fetch('http://strict.example.test/json/', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised', false) })),
    });
    assert.deepEqual(
      scope.violations('warning').map((v) => v.rule),
      ['FIELD-SECURITYCODE-OPTIONAL'],
    );
    assert.throws(() => scope.done(), /FIELD-SECURITYCODE-OPTIONAL/);
    scope.restore();
    await assert.rejects(fetch('http://strict.example.test/json/', { method: 'POST', headers: JSON_HEADERS, body: '{}', signal: AbortSignal.timeout(5000) }));
    assert.throws(() => interceptGateway({ host: 'not a url' }), /host must be a base address/);
    assert.throws(() => interceptGateway({ host: 'ftp://x.test' }), /http:\/\/ or https:\/\//);
  });
});
