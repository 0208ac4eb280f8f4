/**
 * `--ca FILE` and `--insecure` against a loopback HTTPS reference gateway whose certificate is signed by a private
 * CA made here (openssl, at test time: no key is committed). Without either, the run refuses the target with a
 * message naming --ca; with the CA (option or CARDSPEC_CA) the suite passes, the ACS round trip included (its acsurl
 * is https, so the browser flow trusts the same CA); --insecure passes with a loud warning.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createGateway } from '../../src/gateway';
import { cardspec, cardspecAsync } from '../cli/spawn';

interface Pki {
  readonly dir: string;
  readonly ca: string;
  readonly key: string;
  readonly cert: string;
}

/** A CA and a server certificate for 127.0.0.1 signed by it. */
function makePki(): Pki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-tls-'));
  const p = (f: string): string => path.join(dir, f);
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    p('ca.key'),
    '-out',
    p('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=cardspec test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', p('server.key'), '-out', p('server.csr'), '-subj', '/CN=127.0.0.1');
  fs.writeFileSync(p('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', p('server.csr'), '-CA', p('ca.pem'), '-CAkey', p('ca.key'), '-CAcreateserial', '-out', p('server.pem'), '-days', '2', '-extfile', p('ext.cnf'));
  return { dir, ca: p('ca.pem'), key: p('server.key'), cert: p('server.pem') };
}

describe('TLS targets: --ca and --insecure', () => {
  let pki: Pki;
  let server: https.Server;
  let url = '';
  const paths: string[] = [];

  before(async () => {
    pki = makePki();
    const gw = createGateway({ control: true }, () => url);
    server = https.createServer({ key: fs.readFileSync(pki.key), cert: fs.readFileSync(pki.cert) }, (req, res) => {
      paths.push(req.url ?? '');
      // As behind a TLS-terminating front: the gateway builds an https acsurl from it.
      req.headers['x-forwarded-proto'] = 'https';
      gw.handle(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
    fs.rmSync(pki.dir, { recursive: true, force: true });
  });

  const reports = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-tls-reports-'));
  const ONE = '@rule:AUTH-AUTHORISE';

  test('without --ca, the private CA is refused before the suite, and the message says to give --ca', async () => {
    const r = await cardspecAsync(['run', '--target', url, '--tags', ONE, '--reports', reports()]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /TLS certificate of https:\/\/127\.0\.0\.1:\d+\/json\/ was not accepted \((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)/);
    assert.match(r.stderr, /give --ca <file>/);
  });

  test('with --ca, the suite passes, the ACS round trip over https included', async () => {
    const before = paths.filter((p) => p.startsWith('/acs')).length;
    const r = await cardspecAsync(['run', '--target', url, '--ca', pki.ca, '--tags', `${ONE} or @rule:ACS-MERCHANT-TO-ACS`, '--reports', reports()]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stderr, /WARNING/);
    assert.ok(paths.filter((p) => p.startsWith('/acs')).length > before, 'the browser flow posted to the https acsurl');
  });

  test('CARDSPEC_CA does the same as --ca', async () => {
    const r = await cardspecAsync(['run', '--target', url, '--tags', ONE, '--reports', reports()], { env: { CARDSPEC_CA: pki.ca } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  test('--insecure passes, with a loud warning', async () => {
    const r = await cardspecAsync(['run', '--target', url, '--insecure', '--tags', ONE, '--reports', reports()]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /cardspec run: WARNING: --insecure: the TLS certificate of the target is NOT verified/);
  });

  test('fuzz takes --ca too', async () => {
    const r = await cardspecAsync(['fuzz', '--target', url, '--ca', pki.ca, '--property', 'requests', '--runs', '20', '--seed', '7']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  test('a --ca that is no certificate, or a key, is a usage error (exit 2) that says so', () => {
    const r = cardspec(['run', '--ca', pki.key, '--reports', reports()]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--ca .*: it holds a private key; give the CA's certificate only|no PEM certificate/);
    const missing = cardspec(['run', '--ca', path.join(pki.dir, 'nope.pem'), '--reports', reports()]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--ca .*nope\.pem: cannot read it \(ENOENT\)/);
  });
});
