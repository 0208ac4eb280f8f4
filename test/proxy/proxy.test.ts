/**
 * The checking proxy on loopback, in front of the reference gateway or a variant of the self-check gallery: it
 * forwards both ways unchanged, a well-behaved client goes through with no violation, and what a client sends wrong
 * or a gateway answers wrong is reported on the right side under the document's rule.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { startProxy } from '../../src/proxy';
import { card, envelope, JSON_HEADERS, PAYMENT, SITE, SUBSCRIPTION } from '../contract/helpers';
import { broken, closedAtEnd } from './helpers';

const { open, path } = closedAtEnd();

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('forwarding', () => {
  it('gives the client the status, the headers and the bytes the upstream answered, and the upstream the request as sent', async () => {
    let seen: { method?: string; url?: string; headers?: Record<string, unknown>; body?: string } = {};
    const answer = Buffer.from('{"odd":  "spacing",\n "kept": true}\n');
    const upstream = await listen(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          seen = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
          res.writeHead(
            299,
            'Odd Status',
            [
              ['X-Upstream-Case', 'Kept'],
              ['Set-Cookie', 'a=1'],
              ['Set-Cookie', 'b=2'],
              ['Content-Type', 'application/json'],
            ].flat(),
          );
          res.end(answer);
        });
      }),
    );
    const proxy = await startProxy({ upstream: `${upstream}/base` });
    open.push(proxy);
    const body = '{"alias":"a",  "version":"1.00","request":[]}';
    const res = await fetch(`${proxy.url}/json/?q=1`, { method: 'POST', headers: { ...JSON_HEADERS, 'X-Client': 'mine' }, body });
    assert.equal(res.status, 299);
    assert.equal(res.statusText, 'Odd Status');
    assert.equal(res.headers.get('x-upstream-case'), 'Kept');
    assert.deepEqual(res.headers.getSetCookie(), ['a=1', 'b=2']);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), answer);
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/base/json/?q=1', 'the path under the upstream base, query kept');
    assert.equal(seen.body, body, 'the body bytes as sent');
    assert.equal(seen.headers?.['x-client'], 'mine');
    assert.equal(seen.headers?.authorization, JSON_HEADERS.Authorization);
    assert.equal(seen.headers?.host, new URL(upstream).host, 'Host is the upstream');
  });

  it('keeps the connection alive: many calls through one keep-alive agent', async () => {
    const { client, proxy } = await path();
    for (let i = 0; i < 5; i++) await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: `k-${i}`, ...card('authorised') });
    await proxy.settled();
    assert.equal(proxy.session.report().exchanges.checked, 5);
  });
});

describe('forwarding first, checking after', () => {
  it('streams an answer as it comes: the client has its first bytes before the upstream has sent the rest', async () => {
    let finish: (() => void) | undefined;
    const upstream = await listen(
      createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write('{"first":');
          // The rest only once the client has read the first bytes: a proxy that waited for the whole answer
          // would never let this test end.
          finish = () => res.end('"and the rest"}');
        });
      }),
    );
    const proxy = await startProxy({ upstream });
    open.push(proxy);
    const res = await fetch(`${proxy.url}/json/`, { method: 'POST', headers: JSON_HEADERS, body: '{}' });
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.equal(Buffer.from(first.value!).toString('utf8'), '{"first":');
    finish!();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += Buffer.from(r.value).toString('utf8');
    assert.equal(rest, '"and the rest"}');
    await proxy.settled();
    assert.equal(proxy.session.report().exchanges.checked, 1, 'the exchange checked whole once it ended');
  });

  it('checks every exchange when the checks fall behind: new requests wait, none goes unchecked', async () => {
    const direct = await path();
    // A queue of one: every request beyond it waits for the checks of the one before.
    const proxy = await startProxy({ upstream: direct.upstream, maxPending: 1 });
    open.push(proxy);
    const send = (i: number): Promise<Response> =>
      fetch(`${proxy.url}/json/`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: `q-${i}`, ...card('authorised') })),
      });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => send(i)));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array.from({ length: 12 }, () => 200),
    );
    await Promise.all(answers.map((a) => a.text()));
    // close() drains: the report is complete without asking for it.
    await proxy.close();
    const report = proxy.session.report();
    assert.equal(report.exchanges.checked, 12);
    assert.deepEqual(report.violations.list, []);
  });
});

describe('a well-behaved client in front of the reference gateway', () => {
  it('goes through the documented flows with no violation on either side, and the coverage says what was observed', async () => {
    const { client, proxy } = await path();
    const store = await client.ok({
      requesttypedescriptions: ['STORE'],
      sitereference: SITE,
      orderreference: 'o-1',
      accounttypedescription: 'CARDSTORE',
      ...card('authorised', false),
      billingpremise: '789',
    });
    const paid = await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'o-2', parenttransactionreference: store.transactionreference });
    await client.ok({ requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 'o-3', parenttransactionreference: paid.transactionreference });
    const combined = await client.send({ requesttypedescriptions: ['RISKDEC', 'AUTH'], ...PAYMENT, cachetoken: await client.token('authorised') });
    assert.deepEqual(
      combined.map((p) => p.errorcode),
      ['0', '0'],
    );
    await client.send({ requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, orderreference: 'o-5', ...SUBSCRIPTION, ...card('authorised') });
    // 3-D Secure, enrolled: THREEDQUERY through the proxy, the browser at the upstream's ACS, AUTH with md and pares.
    const query = await client.ok(client.threedquery(await client.token('authorised')));
    const { md, pares } = await client.acs(query, 'Y');
    const auth = await client.ok({ requesttypedescriptions: ['AUTH'], md, pares });
    assert.equal(auth.status, 'Y');
    await proxy.settled();
    const report = proxy.session.report();
    assert.deepEqual(report.violations.list, [], JSON.stringify(report.violations.list, null, 1));
    assert.equal(proxy.session.exitCode(), 0);
    const status = (rule: string): string | undefined => report.coverage.find((c) => c.rule === rule)?.status;
    assert.equal(status('3DS-AUTH-ENROLLED'), 'passed', 'the AUTH after 3-D Secure was checked against its observed THREEDQUERY');
    assert.equal(status('INHERIT-PARENT-ECHO'), 'passed');
    assert.equal(status('RISKDEC-FIRST'), 'passed');
    assert.equal(status('SUB-OWN-REFERENCE'), 'passed');
    assert.equal(status('ACS-TO-MERCHANT'), 'not-observed', 'the browser went to the upstream directly: not claimed');
  });

  it('exits 3 when nothing went through', async () => {
    const { proxy } = await path();
    assert.equal(proxy.session.exitCode(), 3);
  });
});

describe('violations, on their side, under their rule', () => {
  it("reports the client's mistakes as the client's (the contract checks), the answer untouched", async () => {
    const { client, proxy } = await path();
    const r = await client.raw(
      '/json/',
      JSON.stringify(envelope({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'o', accounttypedescription: 'CARDSTORE', ...card('authorised') })),
    );
    assert.equal(r.status, 200);
    assert.ok((await broken(proxy, 'client')).includes('FIELD-SECURITYCODE-NOT-IN-STORE'), JSON.stringify(proxy.session.report().violations.byRule));
    assert.deepEqual(await broken(proxy, 'gateway'), []);
    assert.equal(proxy.session.exitCode(), 1);
  });

  it("reports the gateway's answer against the document (a variant that masks with *)", async () => {
    const { client, proxy } = await path('maskedpan-stars');
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'm', ...card('authorised') });
    assert.deepEqual(await broken(proxy, 'gateway'), ['FIELD-MASKEDPAN']);
    assert.deepEqual(await broken(proxy, 'client'), []);
    const example = proxy.session.report().coverage.find((c) => c.rule === 'FIELD-MASKEDPAN')?.example ?? '';
    assert.match(example, /POST \/json\//);
    assert.doesNotMatch(example, /4111111111111111/, 'the example exchange is masked');
  });

  it('reads a follow-up against its parent as observed (a variant that drops parenttransactionreference)', async () => {
    const { client, proxy } = await path('parent-not-echoed');
    const store = await client.ok({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 's', accounttypedescription: 'CARDSTORE', ...card('authorised', false) });
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'c', parenttransactionreference: store.transactionreference });
    assert.deepEqual(await broken(proxy, 'gateway'), ['INHERIT-PARENT-ECHO']);
  });

  it('compares the AUTH after 3-D Secure with its observed THREEDQUERY (a variant that answers its own amount)', async () => {
    const { client, proxy } = await path('enrolled-auth-amount-not-inherited');
    const query = await client.ok(client.threedquery(await client.token('authorised')));
    const { md, pares } = await client.acs(query, 'Y');
    await client.ok({ requesttypedescriptions: ['AUTH'], md, pares });
    assert.ok((await broken(proxy, 'gateway')).includes('3DS-AUTH-ENROLLED'), JSON.stringify(proxy.session.report().violations.list));
  });

  it('does not hold against the client a parent it never saw (the proxy started mid-session)', async () => {
    const direct = await path();
    const store = await direct.client.ok({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 's', accounttypedescription: 'CARDSTORE', ...card('authorised', false) });
    // A second proxy in front of the same gateway: it never saw the STORE.
    const late = await startProxy({ upstream: direct.upstream });
    open.push(late);
    const res = await fetch(`${late.url}/json/`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'p', parenttransactionreference: store.transactionreference })),
    });
    assert.equal(res.status, 200);
    await res.text();
    await late.settled();
    assert.deepEqual(late.session.report().violations.list, []);
    assert.equal(late.session.report().coverage.find((c) => c.rule === 'FIELD-PARENT')?.status, 'not-observed');
  });
});

describe('memory', () => {
  it('stays flat under sustained traffic: counts grow, examples and the observed ledger do not', async () => {
    const { client, proxy } = await path('maskedpan-stars');
    for (let i = 0; i < 300; i++) await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: `x-${i}`, ...card('authorised') });
    await proxy.settled();
    const report = proxy.session.report();
    assert.equal(report.violations.errors, 300);
    assert.equal(report.violations.list.length, 5, 'the first five of the rule are examples');
    assert.equal(report.violations.omitted, 295);
    assert.equal(report.coverage.find((c) => c.rule === 'FIELD-MASKEDPAN')?.failed, 300);
  });

  it("keeps no more transactions than the observed ledger's window", async () => {
    const { ProxySession } = await import('../../src/proxy');
    const session = new ProxySession({ maxRecords: 10 });
    for (let i = 0; i < 100; i++) {
      const answer = {
        requestreference: `W${i}`,
        version: '1.00',
        secrand: `s${i}xxxxxxxx`,
        response: [{ requesttypedescription: 'STORE', errorcode: '0', errormessage: 'Ok', transactionreference: `1-9-${1000 + i}` }],
      };
      session.observe({
        method: 'POST',
        path: '/json/',
        requestHeaders: {},
        requestBody: Buffer.from(JSON.stringify(envelope({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT }))),
        status: 200,
        responseBody: Buffer.from(JSON.stringify(answer)),
      });
    }
    assert.ok(session.observed.ledger.stats().records <= 20, JSON.stringify(session.observed.ledger.stats()));
  });
});
