/**
 * Targets that speak something else where the kit expects an HTTP answer: a port of another protocol (an SSH
 * banner), TLS where http:// was given and plain HTTP where https:// was given, and redirects (to itself, to
 * another host). Each gives a clear error saying what to do next, at once rather than at a timeout, and a redirect
 * is never followed (the credentials would go along). Real loopback servers, through the Target and the preflight.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { preflight } from '../../src/client/preflight';
import { BUILTIN_PROFILE } from '../../src/client/profile';
import { Target } from '../../src/client/target';
import type { Format } from '../../src/wire/types';
import { listenOnLoopback } from './broken-servers';

// A generous guard: every case here must end long before it, on its own words, not on the timeout.
const LIMITS = { connectTimeoutMs: 5000, totalTimeoutMs: 30_000, maxResponseBytes: 1024 * 1024 };
const CREDS = BUILTIN_PROFILE.credentials!;

function targetFor(baseUrl: string, format: Format = 'json'): Target {
  return new Target({ baseUrl, format, user: CREDS.user, password: CREDS.password, alias: CREDS.alias ?? CREDS.user, jsonPath: '/json/', xmlPath: '/xml/', limits: LIMITS });
}

/** A TCP server that writes `first` when a request arrives and then keeps the connection open (or closes it). */
async function rawSpeaker(first: Buffer | undefined, then: 'stay' | 'close'): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.once('data', () => {
      if (first) s.write(first);
      if (then === 'close') s.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

async function sendOnce(url: string): Promise<{ error: string; kind: string | undefined }> {
  const target = targetFor(url);
  try {
    const ex = await target.sendRaw({ body: '{}' });
    assert.ok(ex.error, 'an error');
    return { error: ex.error, kind: ex.failureKind };
  } finally {
    target.close();
  }
}

describe('a target that speaks something else', () => {
  it('another protocol on the port (an SSH banner, the connection kept open) is told at once, with its first bytes', async () => {
    const server = await rawSpeaker(Buffer.from('SSH-2.0-OpenSSH_9.6\r\n'), 'stay');
    try {
      const r = await sendOnce(server.url);
      assert.equal(r.kind, 'network', r.error);
      assert.match(r.error, /network error talking to http:\/\/127\.0\.0\.1:\d+\/json\/: the answer is not HTTP\/1\.x \(it starts "SSH-2\.0-OpenSSH_9\.6\.\."\)/);
    } finally {
      await server.close();
    }
  });

  it('TLS where http:// was given (a TLS alert record, the connection kept open) says to give an https:// URL', async () => {
    const server = await rawSpeaker(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46]), 'stay');
    try {
      const r = await sendOnce(server.url);
      assert.equal(r.kind, 'network', r.error);
      assert.match(r.error, /answered in TLS, not plain HTTP: give an https:\/\/ URL in --target/);
    } finally {
      await server.close();
    }
  });

  it('plain HTTP where https:// was given says the server does not speak TLS and to give an http:// URL', async () => {
    const server = await listenOnLoopback(http.createServer((req, res) => res.end('{}')));
    try {
      const r = await sendOnce(server.url.replace('http:', 'https:'));
      assert.match(r.error, /the TLS handshake with https:\/\/127\.0\.0\.1:\d+\/json\/ failed \(.+\): the server there does not speak TLS; if it is plain HTTP, give an http:\/\/ URL in --target/);
    } finally {
      await server.close();
    }
  });

  it('https:// to a server that accepts and waits (plain HTTP waits for a request): the TLS handshake is named, not "no connection"', async () => {
    const server = await rawSpeaker(undefined, 'stay');
    const target = new Target({ ...targetFor(server.url).options, baseUrl: server.url.replace('http:', 'https:'), limits: { ...LIMITS, connectTimeoutMs: 300 } });
    try {
      const ex = await target.sendRaw({ body: '{}' });
      assert.equal(ex.failureKind, 'network', ex.error);
      assert.match(
        ex.error ?? '',
        /the TLS handshake with https:\/\/127\.0\.0\.1:\d+\/json\/ did not finish within 300 ms, though the connection was made: the server there may not speak TLS; if it is plain HTTP, give an http:\/\/ URL/,
      );
    } finally {
      target.close();
      await server.close();
    }
  });

  it('a server that closes at once: the preflight says it may speak HTTPS there', async () => {
    const server = await rawSpeaker(undefined, 'close');
    try {
      const ready = await preflight({
        baseUrl: server.url,
        formats: ['json'],
        user: CREDS.user,
        password: CREDS.password,
        alias: CREDS.alias ?? CREDS.user,
        site: BUILTIN_PROFILE.sites.main,
        profile: { ...BUILTIN_PROFILE, limits: LIMITS },
      });
      assert.equal(ready.ok, false);
      assert.ok(!ready.ok);
      assert.equal(ready.kind, 'unreachable');
      assert.match(ready.problem, /closed before any answer .* Is --target an HTTP server of the service \(if it speaks HTTPS there, give an https:\/\/ URL\)\?/);
    } finally {
      await server.close();
    }
  });

  for (const where of ['itself', 'another host'] as const) {
    it(`a redirect to ${where} is not followed, and the error names where it points`, async () => {
      let elsewhere = 0;
      const other = await listenOnLoopback(
        http.createServer((req, res) => {
          elsewhere += 1;
          res.end('{}');
        }),
      );
      const server = await listenOnLoopback(
        http.createServer((req, res) => {
          req.resume();
          res.writeHead(302, { Location: where === 'itself' ? req.url : `${other.url}/json/`, 'Content-Type': 'text/html' });
          res.end('<html><body>Moved</body></html>');
        }),
      );
      try {
        const r = await sendOnce(server.url);
        const location = where === 'itself' ? '/json/' : `${other.url}/json/`;
        assert.ok(r.error.includes(`the answer is a redirect (HTTP 302 to "${location}"), not an envelope; the kit does not follow redirects`), r.error);
        assert.equal(elsewhere, 0, 'nothing was sent where the redirect points');
      } finally {
        await server.close();
        await other.close();
      }
    });
  }
});
