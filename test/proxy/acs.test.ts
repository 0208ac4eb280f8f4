/**
 * The ACS round trip through the proxy (src/proxy/acs.ts): the reference gateway's emulated ACS behind a real proxy
 * on loopback, the customer's browser posting to the proxy's address of `acsurl` (its traffic goes through too).
 * A well-behaved round trip and the AUTH after it leave no violation and show ACS-MERCHANT-TO-ACS, ACS-TO-MERCHANT
 * and 3DS-MD-PARES-UNMODIFIED checked; the merchant's mistakes are the client's; an ACS of the gallery that returns
 * the browser wrongly is the gateway's; and the PaRes the ACS returned is what the AUTH is held to.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { auditFiles, CaptureWriter, type RunningProxy } from '../../src/proxy';
import type { Obj } from '../contract/helpers';
import { throughProxy, type Path } from './helpers';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const TERMURL = 'https://merchant.example/return';
const open: { close(): Promise<void> }[] = [];
const dirs: string[] = [];
after(async () => {
  for (const o of open) await o.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function path3ds(variant?: string, opts: Parameters<typeof throughProxy>[1] = {}): Promise<Path> {
  const p = await throughProxy(variant, opts);
  open.push(p);
  return p;
}

/** Every exchange so far checked (the checks may run after the answer has gone back). */
async function settled(proxy: RunningProxy): Promise<void> {
  const s = (proxy as { settled?: () => Promise<void> }).settled;
  if (s) await s.call(proxy);
}

/** The rules the proxy found broken on one side, with errors, once every exchange so far is checked. */
async function broken(proxy: RunningProxy, side: 'client' | 'gateway'): Promise<string[]> {
  await settled(proxy);
  return proxy.session
    .report()
    .violations.byRule.filter((b) => b.side === side && b.errors > 0)
    .map((b) => b.rule);
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** The browser's form POST, to the proxy's address of the given acsurl path. */
async function post(proxy: RunningProxy, acsurl: string, relative: string, fields: Record<string, string>): Promise<{ status: number; html: string }> {
  const at = new URL(relative, acsurl);
  const res = await fetch(`${proxy.url}${at.pathname}`, { method: 'POST', headers: FORM, body: new URLSearchParams(fields).toString() });
  return { status: res.status, html: await res.text() };
}

const hidden = (html: string): Record<string, string> =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" id="[^"]*" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      m[2]
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'"),
    ]),
  );

/** THREEDQUERY through the proxy, then the browser at the ACS through the proxy: the form it is returned with. */
async function roundTrip(p: Path, names = { pareq: 'PaReq', termurl: 'TermUrl', md: 'MD' }): Promise<{ query: Obj; first: { status: number; html: string }; back?: Record<string, string> }> {
  const query = await p.client.ok(p.client.threedquery(await p.client.token('authorised')));
  const acsurl = String(query.acsurl);
  const first = await post(p.proxy, acsurl, acsurl, { [names.pareq]: String(query.pareq), [names.termurl]: TERMURL, [names.md]: String(query.md) });
  if (first.status !== 200) return { query, first };
  const second = await post(p.proxy, acsurl, 'complete', hidden(first.html));
  assert.equal(second.status, 200, second.html);
  return { query, first, back: hidden(second.html) };
}

/** A rule's observed coverage (after settled). */
const status = (p: Path, rule: string): string | undefined => p.proxy.session.report().coverage.find((c) => c.rule === rule)?.status;

describe('the ACS round trip through the proxy', () => {
  it('a well-behaved round trip and its AUTH: no violation, the ACS rules and the md/pares rule checked', async () => {
    const p = await path3ds();
    const { back } = await roundTrip(p);
    assert.ok(back?.PaRes && back.MD);
    const auth = await p.client.ok({ requesttypedescriptions: ['AUTH'], md: back.MD, pares: back.PaRes });
    assert.equal(auth.status, 'Y');
    await settled(p.proxy);
    const report = p.proxy.session.report();
    assert.deepEqual(report.violations.list, [], JSON.stringify(report.violations.list, null, 1));
    assert.equal(report.exchanges.acs, 2, 'both pages of the round trip were judged');
    assert.equal(status(p, 'ACS-MERCHANT-TO-ACS'), 'passed');
    assert.equal(status(p, 'ACS-TO-MERCHANT'), 'passed');
    assert.equal(status(p, '3DS-MD-PARES-UNMODIFIED'), 'passed');
  });

  it("with --preserve-host the gateway's acsurl names the proxy: the browser, sent where the answer says, is checked", async () => {
    const p = await path3ds(undefined, { preserveHost: true });
    const query = await p.client.ok(p.client.threedquery(await p.client.token('authorised')));
    const acsurl = String(query.acsurl);
    assert.ok(acsurl.startsWith(`${p.proxy.url}/`), `acsurl ${acsurl} is the proxy's address, not the upstream's ${p.upstream}`);
    // The browser as a shop's page sends it: to acsurl as answered, nothing rewritten.
    const form = async (url: string, fields: Record<string, string>): Promise<string> => {
      const res = await fetch(url, { method: 'POST', headers: FORM, body: new URLSearchParams(fields).toString() });
      const html = await res.text();
      assert.equal(res.status, 200, html);
      return html;
    };
    const first = await form(acsurl, { PaReq: String(query.pareq), TermUrl: TERMURL, MD: String(query.md) });
    const back = hidden(await form(new URL('complete', acsurl).toString(), hidden(first)));
    const auth = await p.client.ok({ requesttypedescriptions: ['AUTH'], md: back.MD, pares: back.PaRes });
    assert.equal(auth.status, 'Y');
    await settled(p.proxy);
    const report = p.proxy.session.report();
    assert.deepEqual(report.violations.list, [], JSON.stringify(report.violations.list, null, 1));
    assert.equal(report.exchanges.acs, 2, 'both pages of the round trip went through the proxy and were judged');
    assert.equal(status(p, 'ACS-MERCHANT-TO-ACS'), 'passed');
    assert.equal(status(p, 'ACS-TO-MERCHANT'), 'passed');
    assert.equal(status(p, '3DS-MD-PARES-UNMODIFIED'), 'passed');
  });

  it('holds the AUTH to the PaRes the ACS returned: a changed pares is the client’s', async () => {
    const p = await path3ds();
    const { back } = await roundTrip(p);
    const pares = back!.PaRes;
    const changed = (pares[0] === 'A' ? 'B' : 'A') + pares.slice(1);
    await p.client.send({ requesttypedescriptions: ['AUTH'], md: back!.MD, pares: changed });
    assert.ok((await broken(p.proxy, 'client')).includes('3DS-MD-PARES-UNMODIFIED'), JSON.stringify(p.proxy.session.report().violations.byRule));
  });

  it("the merchant's form with the names in lower case, or another TermUrl, is the client's", async () => {
    const p = await path3ds();
    const { first } = await roundTrip(p, { pareq: 'pareq', termurl: 'termurl', md: 'md' });
    assert.equal(first.status, 400, 'the ACS refuses it');
    assert.deepEqual(await broken(p.proxy, 'client'), ['ACS-MERCHANT-TO-ACS']);
    assert.deepEqual(await broken(p.proxy, 'gateway'), [], 'the ACS was right to refuse it');
    assert.match(p.proxy.session.report().violations.list[0].message, /sends pareq, not PaReq: these names are case sensitive/);

    const q = await path3ds();
    const query = await q.client.ok(q.client.threedquery(await q.client.token('authorised')));
    await post(q.proxy, String(query.acsurl), String(query.acsurl), { PaReq: String(query.pareq), TermUrl: 'https://elsewhere.example/', MD: String(query.md) });
    assert.deepEqual(await broken(q.proxy, 'client'), ['ACS-MERCHANT-TO-ACS']);
  });

  for (const variant of ['acs-returns-pares-lower-case', 'acs-returns-by-get', 'acs-returns-other-md'])
    it(`an ACS that returns the browser wrongly is the gateway's (${variant})`, async () => {
      const p = await path3ds(variant);
      await roundTrip(p);
      assert.deepEqual(await broken(p.proxy, 'gateway'), ['ACS-TO-MERCHANT']);
      assert.deepEqual(await broken(p.proxy, 'client'), []);
    });

  it('is judged the same from the capture (cardspec audit)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-acs-'));
    dirs.push(dir);
    const file = path.join(dir, 'capture.jsonl');
    const record = new CaptureWriter(file);
    const p = await path3ds('acs-returns-other-md', { record });
    await roundTrip(p);
    await settled(p.proxy);
    record.close();
    const live = p.proxy.session.report();
    const audited = auditFiles([file]).report;
    assert.equal(audited.exchanges.acs, live.exchanges.acs);
    assert.deepEqual(
      audited.violations.byRule.map((b) => [b.side, b.rule]),
      live.violations.byRule.map((b) => [b.side, b.rule]),
    );
    assert.ok(audited.violations.byRule.some((b) => b.side === 'gateway' && b.rule === 'ACS-TO-MERCHANT'));
  });
});
