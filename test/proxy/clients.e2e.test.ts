/**
 * Real clients through the checking proxy in front of the reference gateway (what `cardspec serve` runs): the
 * example Node client (examples/payments-client) and the Python and PHP adapter templates (examples/adapters), each
 * as shipped. Zero violations on either side; with a faulty variant behind the proxy, the variant's rule is named.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { PaymentsClient } from '../../examples/payments-client/client';
import { card, PAYMENT, SITE, SUBSCRIPTION, USER, type Obj } from '../contract/helpers';
import { broken, closedAtEnd } from './helpers';

const ROOT = path.join(__dirname, '..', '..');
const TEMPLATES = { python: ['python3', path.join(ROOT, 'examples', 'adapters', 'python', 'adapter.py')], php: ['php', path.join(ROOT, 'examples', 'adapters', 'php', 'adapter.php')] } as const;

const { path: through } = closedAtEnd();

/** False (and the test skipped with the reason) when the interpreter is missing; under CI=true that fails. */
function interpreter(t: TestContext, cmd: string): boolean {
  if (spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0) return true;
  if (process.env.CI === 'true') assert.fail(`${cmd} is missing: CI installs it (scripts/install-interpreters.sh)`);
  t.skip(`no ${cmd} here`);
  return false;
}

/**
 * One case through an adapter template, as `serve --client-cmd` gives it: the parts it got back. Asynchronous: the
 * proxy and the gateway answer from this process.
 */
async function viaTemplate(which: keyof typeof TEMPLATES, url: string, request: Obj): Promise<Obj[]> {
  const [cmd, file] = TEMPLATES[which];
  const input = JSON.stringify({ url, endpoint: `${url}/json/`, username: USER.username, password: USER.password, alias: USER.alias, format: 'json', request });
  const child = spawn(cmd, [file], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  const out = JSON.parse(stdout) as { parts?: Obj[]; error?: string };
  assert.equal(out.error, undefined, out.error);
  return out.parts ?? [];
}

const REQUESTS: Obj[] = [
  { requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 't-store', accounttypedescription: 'CARDSTORE', ...card('authorised', false), billingpremise: '789' },
  { requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 't-auth', ...card('authorised'), billingpremise: '789', billingpostcode: 'TE45 6ST' },
  { requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, baseamount: '0', orderreference: 't-ac', ...card('authorised'), billingpremise: '789', billingpostcode: 'TE45 6ST' },
  { requesttypedescriptions: ['RISKDEC'], ...PAYMENT, accounttypedescription: 'FRAUDCONTROL', orderreference: 't-rd', ...card('authorised') },
  { requesttypedescriptions: ['AUTH', 'SUBSCRIPTION'], ...PAYMENT, orderreference: 't-sub', ...SUBSCRIPTION, ...card('authorised') },
];

describe('clients through the proxy in front of the reference gateway', () => {
  it('the Node example client: store, pay with the stored card, 3-D Secure with the ACS: no violation', async () => {
    const p = await through();
    const client = new PaymentsClient({ baseUrl: p.proxy.url, username: USER.username, password: USER.password });
    const stored = await client.storeCard(SITE, { pan: '4111111111111111', expirydate: '12/2031' }, 'n-1');
    assert.equal(stored.errorcode, '0');
    const paid = await client.payWithStoredCard(SITE, String(stored.transactionreference), 1050, 'GBP');
    assert.equal(paid.errorcode, '0');
    const query = await client.threeDQuery(SITE, await p.client.token('authorised'), 1050, 'GBP', { accept: 'text/html', userAgent: 'Mozilla/5.0 (test)' }, 'https://merchant.example/return');
    assert.equal(query.enrolled, 'Y');
    const { md, pares } = await p.client.acs(query, 'Y');
    const auth = await client.authoriseAfterThreeDSecure(md, pares);
    assert.equal(auth.errorcode, '0');
    await p.proxy.settled();
    const report = p.proxy.session.report();
    assert.deepEqual(report.violations.list, [], JSON.stringify(report.violations.list, null, 1));
    assert.equal(report.exchanges.checked, 4, 'store, pay, THREEDQUERY, AUTH (the cache token and the ACS are not the interface)');
    assert.equal(p.proxy.session.exitCode(), 0);
  });

  for (const which of ['python', 'php'] as const) {
    it(`the ${which} adapter template as shipped: no violation`, async (t) => {
      if (!interpreter(t, TEMPLATES[which][0])) return;
      const p = await through();
      for (const request of REQUESTS) {
        const parts = await viaTemplate(which, p.proxy.url, request);
        assert.ok(
          parts.every((x) => x.errorcode === '0'),
          JSON.stringify(parts),
        );
      }
      await p.proxy.settled();
      const report = p.proxy.session.report();
      assert.deepEqual(report.violations.list, [], JSON.stringify(report.violations.list, null, 1));
      assert.equal(report.exchanges.checked, REQUESTS.length);
    });
  }

  it('with a faulty gateway behind the proxy, the fault is named on the gateway side', async (t) => {
    if (!interpreter(t, 'python3')) return;
    const p = await through('maskedpan-stars');
    await viaTemplate('python', p.proxy.url, REQUESTS[1]);
    assert.deepEqual(await broken(p.proxy, 'gateway'), ['FIELD-MASKEDPAN']);
    assert.deepEqual(await broken(p.proxy, 'client'), []);
  });
});
