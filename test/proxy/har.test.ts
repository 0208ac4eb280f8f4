/**
 * `--record x.har` (src/proxy/har.ts): a real proxy on loopback in front of the reference gateway (and of a faulty
 * variant) recording HAR 1.2. The file is a HAR others can read, holds no full card number, security code, password
 * or Authorization header of what was sent, and `cardspec audit` reads it back to the same verdict as the live
 * proxy: no false violation from the masking, the gateway's fault named again.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { auditFiles, type RunningProxy } from '../../src/proxy';
import { HAR_CREATOR, HarWriter } from '../../src/proxy/har';
import { TEST_CARDS } from '../../src/testdata';
import { card, PAYMENT, SITE, USER } from '../contract/helpers';
import { throughProxy } from './helpers';

const open: { close(): Promise<void> }[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-har-'));
after(async () => {
  for (const o of open) await o.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every exchange so far checked (the checks may run after the answer has gone back). */
async function settled(proxy: RunningProxy): Promise<void> {
  const s = (proxy as { settled?: () => Promise<void> }).settled;
  if (s) await s.call(proxy);
}

async function recorded(name: string, variant?: string): Promise<{ file: string; proxy: RunningProxy }> {
  const file = path.join(dir, name);
  const record = new HarWriter(file);
  const p = await throughProxy(variant, { record });
  open.push(p);
  await p.client.send({ requesttypedescriptions: ['AUTH'], ...PAYMENT, orderreference: 'h-1', ...card('authorised') });
  await p.client.send({ requesttypedescriptions: ['STORE'], sitereference: SITE, orderreference: 'h-2', accounttypedescription: 'CARDSTORE', ...card('authorised', false) });
  await p.client.send({ requesttypedescriptions: ['ACCOUNTCHECK'], ...PAYMENT, baseamount: '0', orderreference: 'h-3', billingpremise: '789', billingpostcode: 'TE45 6ST', ...card('authorised') });
  await settled(p.proxy);
  record.close();
  return { file, proxy: p.proxy };
}

describe('--record x.har', () => {
  it('writes HAR 1.2, masked, that the audit reads to the live verdict', async () => {
    const { file, proxy } = await recorded('clean.har');
    const text = fs.readFileSync(file, 'utf8');
    const har = JSON.parse(text) as {
      log: { version: string; creator: { name: string }; entries: { request: { url: string; headers: { name: string; value: string }[] }; response: { status: number } }[] };
    };
    assert.equal(har.log.version, '1.2');
    assert.equal(har.log.creator.name, HAR_CREATOR);
    assert.equal(har.log.entries.length, 3);
    assert.ok(har.log.entries.every((e) => e.response.status === 200 && /^http:\/\/127\.0\.0\.1:\d+\/json\/$/.test(e.request.url)));

    // The bodies as a HAR reader gets them (unescaped), and the file as it lies on disk.
    const bodies = (JSON.parse(text) as { log: { entries: { request: { postData?: { text: string } }; response: { content: { text: string } } }[] } }).log.entries
      .flatMap((e) => [e.request.postData?.text ?? '', e.response.content.text])
      .join('\n');
    const c = TEST_CARDS.authorised;
    for (const where of [text, bodies])
      for (const secret of [c.pan, `"securitycode":"${c.securitycode}"`, USER.password, Buffer.from(`${USER.username}:${USER.password}`).toString('base64')])
        assert.ok(!where.includes(secret), 'the HAR holds a secret it was sent');
    assert.ok(bodies.includes('"securitycode":"***"'), 'the security code was sent, and is hidden');
    assert.ok(
      har.log.entries.every((e) => e.request.headers.some((h) => h.name === 'authorization' && /^\**$/.test(h.value))),
      'the Authorization header is there, hidden',
    );

    const live = proxy.session.report();
    assert.equal(live.violations.errors, 0, JSON.stringify(live.violations.list));
    const audit = auditFiles([file]);
    assert.deepEqual(audit.leaks, [], 'the proxy HAR holds nothing a capture must not');
    assert.equal(audit.report.exchanges.checked, 3);
    assert.deepEqual(audit.report.violations.list, [], 'no false violation from the masking');
    assert.equal(audit.exitCode, 0);
  });

  it("names the gateway's fault again from the HAR", async () => {
    const { file, proxy } = await recorded('faulty.har', 'maskedpan-stars');
    const gateway = (r: ReturnType<RunningProxy['session']['report']>): string[] => r.violations.byRule.filter((b) => b.side === 'gateway' && b.errors > 0).map((b) => b.rule);
    assert.deepEqual(gateway(proxy.session.report()), ['FIELD-MASKEDPAN']);
    assert.deepEqual(gateway(auditFiles([file]).report), ['FIELD-MASKEDPAN']);
  });
});
