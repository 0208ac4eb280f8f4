/**
 * An https upstream whose certificate the proxy cannot verify: the client gets a 502 that says to give the CA, the
 * fault is in the report as `tls`; trusted through --ca (CARDSPEC_CA, src/client/tls.ts), the same upstream is
 * proxied. The certificate is made here with openssl (no key is committed).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CA_ENV } from '../../src/client/tls';
import { startProxy } from '../../src/proxy';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-proxy-tls-'));
const closing: { close(): unknown }[] = [];
after(async () => {
  for (const c of closing) await c.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

describe('an https upstream', { skip: hasOpenssl ? false : 'no openssl here' }, () => {
  it('that the proxy cannot verify: 502 naming the TLS failure; trusted with its CA: proxied', async () => {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], {
      stdio: 'pipe',
    });
    const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('hello over tls');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closing.push({ close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))) });
    const upstream = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const untrusted = await startProxy({ upstream });
    closing.push(untrusted);
    const bad = await fetch(`${untrusted.url}/anything`);
    assert.equal(bad.status, 502);
    assert.equal(bad.headers.get('x-cardspec-proxy-fault'), 'tls');
    assert.match(await bad.text(), /TLS handshake .* failed .* give its CA with --ca/);
    await untrusted.settled();
    assert.deepEqual(untrusted.session.report().faults.byKind, { tls: 1 });

    const before = process.env[CA_ENV];
    process.env[CA_ENV] = cert;
    try {
      const trusted = await startProxy({ upstream });
      closing.push(trusted);
      const good = await fetch(`${trusted.url}/anything`);
      assert.equal(good.status, 200);
      assert.equal(await good.text(), 'hello over tls');
    } finally {
      if (before === undefined) delete process.env[CA_ENV];
      else process.env[CA_ENV] = before;
    }
  });
});
