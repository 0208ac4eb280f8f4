/**
 * `runProxyCommand(plan, io)` as a script calls it: a faulty variant of the gallery on loopback as the upstream,
 * the client's calls through the proxy, what the command prints captured from `io`, and the stop sent through
 * `io.interrupts` (no signal to the test's own process). The report is printed and written on that interrupt.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { runProxyCommand, type ProxyIo, type ProxyPlan } from '../../src/proxy/command';
import { variantNamed } from '../../src/selfcheck/gallery';
import { startVariant } from '../../src/selfcheck/start';
import { card, envelope, JSON_HEADERS, PAYMENT } from '../contract/helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-proxy-command-'));
const closing: { close(): Promise<void> }[] = [];
after(async () => {
  for (const c of closing) await c.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An io whose interrupt the test sends, with stdout and stderr kept apart. */
function testIo(): { io: ProxyIo; out: () => string; err: () => string; interrupt: () => void; listening: () => number } {
  let out = '';
  let err = '';
  const listeners = new Set<(signal: string) => void>();
  return {
    io: {
      out: { write: (t: string) => void (out += t) },
      err: { write: (t: string) => void (err += t) },
      // Its own environment: the command writes the TLS choice there, never into the test process's.
      env: {},
      cwd: dir,
      interrupts: (on) => {
        listeners.add(on);
        return () => void listeners.delete(on);
      },
    },
    out: () => out,
    err: () => err,
    interrupt: () => [...listeners].forEach((l) => l('SIGINT')),
    listening: () => listeners.size,
  };
}

async function upstreamOf(variant: string): Promise<string> {
  const gw = await startVariant(variantNamed(variant)!);
  closing.push(gw);
  return gw.url;
}

/** The address the banner tells the client to use, once printed. */
async function pointedAt(out: () => string): Promise<string> {
  for (let i = 0; i < 1000; i++) {
    const m = /Point the client at (http:\/\/\S+)/.exec(out());
    if (m) return m[1];
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no banner: ${out()}`);
}

const plan = (upstream: string, more: Partial<ProxyPlan> = {}): ProxyPlan => ({ upstream, port: 0, basePath: '', strict: false, tls: { insecure: false }, ...more });

const auth = (url: string): Promise<Response> =>
  fetch(`${url}/json/`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(envelope({ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') })) });

describe('runProxyCommand', () => {
  it('prints the banner and a line per violation; on the interrupt the report, written where asked (exit 1)', async () => {
    const t = testIo();
    const done = runProxyCommand(plan(await upstreamOf('maskedpan-stars'), { report: 'proxy.json', record: 'capture.jsonl' }), t.io);
    const url = await pointedAt(t.out);
    assert.match(t.out(), /cardspec proxy: checking the traffic to http:\/\/127\.0\.0\.1:[0-9]+\nPoint the client at/);
    assert.match(t.out(), /recording to capture\.jsonl \(masked\)/);
    assert.equal(t.listening(), 1, 'listening for the interrupt once the banner is out');
    const res = await auth(url);
    assert.equal(res.status, 200);
    await res.text();
    t.interrupt();
    assert.equal(await done, 1, t.out() + t.err());
    assert.equal(t.listening(), 0, 'the interrupt listener is removed at the first interrupt');
    assert.match(t.out(), /#1 \[gateway\] ERROR FIELD-MASKEDPAN/);
    assert.match(t.out(), /cardspec proxy report: FAIL/);
    assert.match(t.out(), /Report written to proxy\.json/);
    // Relative names are the io's folder's, not the test process's.
    const written = JSON.parse(fs.readFileSync(path.join(dir, 'proxy.json'), 'utf8')) as { kind: string; violations: { errors: number } };
    assert.equal(written.kind, 'cardspec-proxy-report');
    assert.equal(written.violations.errors, 1);
    assert.ok(fs.existsSync(path.join(dir, 'capture.jsonl')));
    assert.equal(t.err(), '');
    for (const text of [t.out(), fs.readFileSync(path.join(dir, 'capture.jsonl'), 'utf8')]) assert.doesNotMatch(text, /4111111111111111/);
    await assert.rejects(auth(url), 'the proxy is closed');
  });

  it('--junit FILE writes the very JUnit document --reports DIR holds: the shape of run, one for CI tools', async () => {
    const t = testIo();
    const done = runProxyCommand(plan(await upstreamOf('maskedpan-stars'), { junit: 'proxy-junit.xml', reports: 'proxy-reports' }), t.io);
    const res = await auth(await pointedAt(t.out));
    await res.text();
    t.interrupt();
    assert.equal(await done, 1, t.out() + t.err());
    assert.match(t.out(), /JUnit written to proxy-junit\.xml/);
    const junit = fs.readFileSync(path.join(dir, 'proxy-junit.xml'), 'utf8');
    assert.equal(junit, fs.readFileSync(path.join(dir, 'proxy-reports', 'junit.xml'), 'utf8'));
    assert.match(junit, /<testsuite name="cardspec json"/);
    assert.match(
      junit,
      /<testcase classname="Observed traffic \(cardspec proxy\)" name="FIELD-MASKEDPAN in the observed traffic \[json\]"[^>]*>(?:(?!<\/testcase>)[\s\S])*<failure message="Broke FIELD-MASKEDPAN:/,
    );
    assert.doesNotMatch(junit, /4111111111111111/);
  });

  it('exits 3 when no call went through, and says where the client should have been pointed', async () => {
    const t = testIo();
    const done = runProxyCommand(plan(await upstreamOf('maskedpan-first-four'), { basePath: '/api' }), t.io);
    const url = await pointedAt(t.out);
    assert.match(url, /\/api$/);
    t.interrupt();
    assert.equal(await done, 3);
    assert.match(t.out(), /cardspec proxy report: NOTHING OBSERVED/);
    assert.ok(t.out().includes(`nothing was checked: exit 3. Point the client at ${url}.`), t.out());
  });

  it('a CA file that cannot serve is a configuration error (exit 2), before anything listens', async () => {
    const t = testIo();
    assert.equal(await runProxyCommand(plan('https://127.0.0.1:9', { tls: { ca: 'missing.pem', insecure: false } }), t.io), 2);
    assert.match(t.err(), /^cardspec proxy: --ca \S*missing\.pem: cannot read it \(ENOENT\)\n$/);
    assert.equal(t.out(), '');
    assert.equal(t.listening(), 0);
  });

  it('an upstream that is no http(s) address is a configuration error (exit 2), said as such', async () => {
    for (const upstream of ['ftp://127.0.0.1/', 'not a url']) {
      const t = testIo();
      assert.equal(await runProxyCommand(plan(upstream), t.io), 2);
      assert.equal(t.err(), `cardspec proxy: the upstream must be an http:// or https:// address, not "${upstream}"\n`);
      assert.equal(t.listening(), 0);
    }
  });

  it('--insecure is said loudly on err and travels in the io environment only', async () => {
    const t = testIo();
    const done = runProxyCommand(plan('https://127.0.0.1:9', { tls: { insecure: true } }), t.io);
    await pointedAt(t.out);
    t.interrupt();
    assert.equal(await done, 3);
    assert.match(t.err(), /WARNING: --insecure: the TLS certificate of the target is NOT verified/);
    assert.equal(t.io.env.CARDSPEC_INSECURE, '1');
    assert.equal(process.env.CARDSPEC_INSECURE, undefined);
  });
});
