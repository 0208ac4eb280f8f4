/**
 * Observed coverage in `run`'s reports (src/proxy/certify.ts): a real proxy on loopback in front of the reference
 * gateway (and of a faulty variant), a few exchanges that carry a card number, a security code and the basic-auth
 * password, then the matrix, summary (json, md, the certificate page), JUnit and Allure results: the observed rules
 * passed or failed with the masked exchange, the rest never observed, the verdict never PASSED on what was not
 * seen, and no secret in any file written.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { observedName, writeObservedReports } from '../../src/proxy/certify';
import type { Matrix, Summary } from '../../src/report/model';
import { TEST_CARDS } from '../../src/testdata';
import { card, PAYMENT, USER } from '../contract/helpers';
import type { RunningProxy } from '../../src/proxy';
import { throughProxy, type Path } from './helpers';

const open: { close(): Promise<void> }[] = [];
const dirs: string[] = [];
after(async () => {
  for (const o of open) await o.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function traffic(variant?: string): Promise<Path> {
  const p = await throughProxy(variant);
  open.push(p);
  await p.client.send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'r-1', ...card('authorised') });
  await p.client.send({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, baseamount: '0', orderreference: 'r-2', billingpremise: '789', billingpostcode: 'TE45 6ST', ...card('authorised') });
  await settled(p.proxy);
  return p;
}

/** Every exchange so far checked (the checks may run after the answer has gone back). */
async function settled(proxy: RunningProxy): Promise<void> {
  const s = (proxy as { settled?: () => Promise<void> }).settled;
  if (s) await s.call(proxy);
}

function written(dir: string): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push({ name: path.relative(dir, p), text: fs.readFileSync(p, 'utf8') });
    }
  };
  walk(dir);
  return out;
}

const tmp = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-proxy-reports-'));
  dirs.push(d);
  return d;
};

describe("observed coverage in run's reports", () => {
  it('writes matrix, summary, certificate, JUnit and Allure from the observed checks, with no secret in them', async () => {
    const { proxy, upstream } = await traffic('maskedpan-stars');
    const dir = tmp();
    const { files, summary } = writeObservedReports(dir, proxy.session.report(upstream), {
      command: 'proxy',
      target: upstream,
      startedAt: '2026-01-05T09:00:00.000Z',
      finishedAt: '2026-01-05T09:01:00.000Z',
    });
    for (const f of ['matrix.md', 'matrix.json', 'matrix.html', 'summary.md', 'summary.json', 'summary.html', 'junit.xml', 'allure-results/categories.json', 'allure-results/environment.properties'])
      assert.ok(fs.existsSync(path.join(dir, f)), `${f} written`);
    assert.ok(files.length > 10);

    const matrix = JSON.parse(fs.readFileSync(path.join(dir, 'matrix.json'), 'utf8')) as Matrix;
    const row = (id: string) => matrix.rules.find((r) => r.id === id);
    assert.equal(row('FIELD-MASKEDPAN')?.overall.verdict, 'failed', 'the variant breaks the masked form of maskedpan');
    assert.equal(row('FIELD-MASKEDPAN')?.scenarios[0]?.name, observedName('FIELD-MASKEDPAN'));
    assert.equal(row('ENV-RESPONSE-ONE-PART-PER-TYPE')?.overall.verdict, 'passed', 'the part count was checked and held');
    assert.equal(row('SUB-OWN-REFERENCE')?.overall.verdict, 'not-covered');
    assert.equal(row('SUB-OWN-REFERENCE')?.overall.reason, 'never observed in this traffic');
    assert.deepEqual(matrix.meta.formats, ['json']);

    const s = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')) as Summary;
    assert.equal(s.result, 'failed');
    assert.equal(summary.result, 'failed');
    assert.ok(
      s.causes.some((c) => c.rule === 'FIELD-MASKEDPAN' && /maskedpan/.test(c.field ?? '') && /POST \/json\//.test(c.example.exchange ?? '')),
      JSON.stringify(s.causes),
    );
    assert.ok(s.unchecked.some((u) => u.rule === 'SUB-OWN-REFERENCE' && u.reason === 'never observed in this traffic'));
    assert.ok(
      s.byRequestType.some((t) => t.type === 'AUTH' && t.failed > 0),
      'the failed rule was observed in AUTH exchanges',
    );
    assert.match(s.meta.target, /^http:\/\/127\.0\.0\.1:/);

    const certificate = fs.readFileSync(path.join(dir, 'summary.html'), 'utf8');
    assert.match(certificate, /FAILED/);
    assert.match(certificate, /FIELD-MASKEDPAN/);
    const junit = fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8');
    assert.match(junit, /<testcase[^>]*name="FIELD-MASKEDPAN in the observed traffic \[json\]"[^>]*>(?:(?!<\/testcase>)[\s\S])*<failure/);

    const results = fs
      .readdirSync(path.join(dir, 'allure-results'))
      .filter((f) => f.endsWith('-result.json'))
      .map(
        (f) =>
          JSON.parse(fs.readFileSync(path.join(dir, 'allure-results', f), 'utf8')) as { name: string; status: string; labels: { name: string; value: string }[]; attachments: { source: string }[] },
      );
    const masked = results.find((r) => r.labels.some((l) => l.name === 'rule' && l.value === 'FIELD-MASKEDPAN'));
    assert.equal(masked?.status, 'failed');
    assert.ok(masked?.labels.some((l) => l.name === 'story' && l.value === 'FIELD-MASKEDPAN'));
    assert.equal(masked?.attachments.length, 1);
    assert.ok(fs.existsSync(path.join(dir, 'allure-results', masked!.attachments[0].source)), 'the example exchange is attached');
    assert.ok(results.some((r) => r.status === 'passed'));
    assert.equal(results.length, new Set(results.map((r) => r.name)).size, 'one result per rule (one form observed)');

    // What was sent: the card number, its security code, the basic-auth password and header.
    const c = TEST_CARDS.authorised;
    const secrets = [c.pan, `"${c.securitycode}"`, USER.password, Buffer.from(`${USER.username}:${USER.password}`).toString('base64')];
    for (const f of written(dir)) for (const secret of secrets) assert.ok(!f.text.includes(secret), `${f.name} holds a secret it was sent`);
  });

  it('a clean observation is never PASSED for the rules it did not see; an empty one says nothing was observed', async () => {
    const { proxy, upstream } = await traffic();
    const dir = tmp();
    const { summary } = writeObservedReports(dir, proxy.session.report(upstream), { command: 'proxy', target: upstream });
    assert.equal(summary.result, 'incomplete');
    assert.equal(summary.failures.length, 0);
    assert.ok(summary.coverage.covered > 5 && summary.coverage.covered < summary.coverage.testable, JSON.stringify(summary.coverage));

    const empty = await throughProxy();
    open.push(empty);
    const dir2 = tmp();
    const { summary: none } = writeObservedReports(dir2, empty.proxy.session.report(empty.upstream), { command: 'proxy', target: empty.upstream });
    assert.equal(none.result, 'incomplete');
    assert.match(none.incompleteBecause.join(), /nothing observed/);
    assert.match(fs.readFileSync(path.join(dir2, 'junit.xml'), 'utf8'), /<error/, 'a JUnit file of nothing checked never passes a CI gate');
  });

  it('a second observation in the same folder leaves no result of the first behind', async () => {
    const dir = tmp();
    const first = await traffic('maskedpan-stars');
    writeObservedReports(dir, first.proxy.session.report(), { command: 'proxy', target: first.upstream });
    const second = await throughProxy();
    open.push(second);
    await second.client.send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'r-3', ...card('authorised') });
    await settled(second.proxy);
    writeObservedReports(dir, second.proxy.session.report(), { command: 'proxy', target: second.upstream });
    const statuses = fs
      .readdirSync(path.join(dir, 'allure-results'))
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => (JSON.parse(fs.readFileSync(path.join(dir, 'allure-results', f), 'utf8')) as { status: string }).status);
    assert.ok(!statuses.includes('failed'), 'the first observation failure is gone');
  });
});
