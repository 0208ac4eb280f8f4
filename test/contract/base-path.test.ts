/**
 * A client whose base address has a path ("`POST {base_url}/json/`": an SDK configured with `<url>/api` posts
 * `/api/json/`) against the stand-in gateway on the real loopback server, served with a base path as `cardspec serve
 * --base-path` serves it: the same meaning as a `cardspec/nock` host with a path (test/contract/nock.test.ts).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startContractGateway, type RunningContractGateway } from '../../src/contract';
import { runClientCases } from '../../src/cases';
import { normaliseBasePath, startGateway } from '../../src/gateway';
import { serveInProcess } from '../gateway/helpers';
import { card, envelope, JSON_HEADERS, PAYMENT, rules, Sender, SITE, USER } from './helpers';

const open: { close(): Promise<void> }[] = [];
after(async () => {
  for (const gw of open) await gw.close();
});

/** A Sender whose every path is under the base address (the SDK's configuration). */
class BaseSender extends Sender {
  constructor(
    gw: RunningContractGateway,
    private readonly base: string,
  ) {
    super(gw);
  }
  override raw(path: string, body: string | Buffer | undefined, headers?: Record<string, string>, method?: string): ReturnType<Sender['raw']> {
    return super.raw(path.startsWith('/_cardspec/') || path.startsWith('/acs') ? path : `${this.base}${path}`, body, headers, method);
  }
}

const authBody = JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'base-1', ...card('authorised') }));

describe('a base address with a path', () => {
  it('a client configured with <url>/api: JSON, XML, 3-D Secure through the ACS, no violation; the report under it too', async () => {
    const gw = await startContractGateway({ control: true, basePath: '/api/' });
    open.push(gw);
    assert.equal(gw.basePath, '/api');
    const client = new BaseSender(gw, '/api');
    await client.ok({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'base-2', ...card('authorised') });
    const c = card('authorised') as Record<string, string>;
    const xml = `<requestblock version="3.67"><alias>${USER.alias}</alias><request type="AUTH"><operation><sitereference>${SITE}</sitereference><accounttypedescription>ECOM</accounttypedescription></operation><merchant><orderreference>base-3</orderreference></merchant><billing><amount currencycode="GBP">1050</amount><payment type="VISA"><pan>${c.pan}</pan><expirydate>${c.expirydate}</expirydate><securitycode>${c.securitycode}</securitycode></payment></billing></request></requestblock>`;
    const x = await client.raw('/xml/', xml, { ...JSON_HEADERS, 'Content-Type': 'text/xml' });
    assert.match(x.text, /<code>0<\/code>/);
    // The ACS is on the origin (acsurl), as a browser reaches it; the AUTH goes back under the base path.
    const query = await client.ok(client.threedquery(await client.token('authorised')));
    assert.match(String(query.acsurl), new RegExp(`^${gw.url}/acs/$`));
    const { md, pares } = await client.acs(query);
    await client.ok({ requesttypedescriptions: ['AUTH'], md, pares });
    assert.deepEqual(gw.session.violations(), []);
    for (const path of ['/api/_cardspec/contract', '/_cardspec/contract']) {
      const report = (await (await fetch(gw.url + path)).json()) as { requests: { answered: number } };
      assert.equal(report.requests.answered, 4, path);
    }
  });

  it('the client that forgot the path, or posts beside it: 404, a TRANSPORT-JSON-PATH error naming the base path', async () => {
    const gw = await startContractGateway({ basePath: 'v1/cardpay' });
    open.push(gw);
    for (const path of ['/json/', '/v1/json/', '/v1/cardpayjson/']) {
      const r = await fetch(gw.url + path, { method: 'POST', headers: JSON_HEADERS, body: authBody });
      assert.equal(r.status, 404, path);
      assert.match(await r.text(), /is not under the base path \/v1\/cardpay \(the gateway serves POST \/v1\/cardpay\/json\//);
    }
    assert.deepEqual(rules(gw), ['TRANSPORT-JSON-PATH', 'TRANSPORT-JSON-PATH', 'TRANSPORT-JSON-PATH']);
    const ok = await fetch(`${gw.url}/v1/cardpay/json/?trace=1`, { method: 'POST', headers: JSON_HEADERS, body: authBody });
    assert.match(await ok.text(), /"errorcode":"0"/);
    // Without the final slash, under the base path: answered, and judged as /json is (the document's path is /json/).
    await fetch(`${gw.url}/v1/cardpay/json`, { method: 'POST', headers: JSON_HEADERS, body: authBody });
    assert.deepEqual(rules(gw).slice(3), ['TRANSPORT-JSON-PATH']);
  });

  it('the reference gateway alone serves a base path too; without one, a 404 for <path>/json/ says how to serve it', async () => {
    const gw = await startGateway({ basePath: '/api' });
    open.push(gw);
    const r = await fetch(`${gw.url}/api/json/`, { method: 'POST', headers: JSON_HEADERS, body: authBody });
    assert.match(await r.text(), /"errorcode":"0"/);
    const plain = await startGateway();
    open.push(plain);
    const miss = await fetch(`${plain.url}/api/json/`, { method: 'POST', headers: JSON_HEADERS, body: authBody });
    assert.equal(miss.status, 404);
    assert.match(await miss.text(), /start the gateway with that base path \(cardspec serve --base-path \/api\)/);
  });

  it('--client-cmd: the adapter is given the base address with its path, as url and $CARDSPEC_URL', async () => {
    const gw = await startContractGateway({ scenarios: true, basePath: '/api' });
    open.push(gw);
    const echo = `"${process.execPath}" -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.stringify({error: process.env.CARDSPEC_URL + ' ' + JSON.parse(s).url})))"`;
    const [result] = await runClientCases(gw, { command: echo, only: ['auth'], timeoutMs: 30_000 });
    assert.ok(
      result.problems.some((p) => p.includes(`the client raised: ${gw.url}/api ${gw.url}/api`)),
      result.problems.join('; '),
    );
  });

  it('one form of a base path; anything that is not a path is refused with what a base path is', () => {
    assert.deepEqual(['', '/', 'api', '/api/', '/v1/cardpay//'].map(normaliseBasePath), ['', '', '/api', '/api', '/v1/cardpay']);
    for (const bad of ['/api?x=1', '/a/../b', 'https://host/api', '/a b', '/a//b']) assert.throws(() => normaliseBasePath(bad), /a base path is the path of the base address/, bad);
  });

  it('cardspec serve --base-path: in --help, and a usage error (exit 2) for what is not a path', async () => {
    const { run, restore } = serveInProcess();
    try {
      assert.match((await run('--help')).text, /--base-path PATH {6}serve the interface under the path of a base address/);
      const bad = await run('--base-path', '/api?v=1');
      assert.equal(bad.code, 2);
      assert.match(bad.text, /--base-path: a base path is the path of the base address/);
    } finally {
      restore();
    }
  });
});
