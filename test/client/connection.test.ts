/**
 * One reading of the connection options (src/client/connection.ts) for every command. The alias rule: "`alias`:
 * Identifies the operator account. In the examples it equals the basic-auth user name": `--alias` when given, the
 * profile's alias when the user is the profile's own, else the user name. `run` and `fuzz` are started in-process
 * against a loopback server that records what arrives, so the alias each command sends is seen on the wire; the
 * self-check uses the built-in connection.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { runCommand as fuzzCommand } from '../../src/cli/fuzz';
import { connectionOptions, UsageError } from '../../src/cli/options';
import { aliasFor, builtinConnection, ConnectionError, resolveConnection } from '../../src/client/connection';
import { BUILTIN_PROFILE, type Profile } from '../../src/client/profile';

const profile: Profile = { ...BUILTIN_PROFILE, credentials: { user: 'profile-user', password: 'profile-pw', alias: 'profile-alias' } };

describe('the alias rule', () => {
  it('--alias wins; the profile alias goes with the profile user only; any other user is its own alias', () => {
    assert.equal(aliasFor(profile, 'profile-user', 'given'), 'given');
    assert.equal(aliasFor(profile, 'profile-user', undefined), 'profile-alias');
    assert.equal(aliasFor(profile, 'someone-else', undefined), 'someone-else');
    assert.equal(aliasFor({ ...profile, credentials: undefined }, 'u', undefined), 'u');
    assert.equal(aliasFor({ ...profile, credentials: { user: 'profile-user', password: 'p' } }, 'profile-user', undefined), 'profile-user');
  });

  it('the environment counts as given: CARDSPEC_USER=X with a profile for another user sends alias X', () => {
    const c = resolveConnection({}, { CARDSPEC_USER: 'env-user', CARDSPEC_PASSWORD: 'env-pw' }, profile);
    assert.deepEqual([c.user, c.password, c.alias], ['env-user', 'env-pw', 'env-user']);
    const same = resolveConnection({}, { CARDSPEC_USER: 'profile-user' }, profile);
    assert.deepEqual([same.user, same.password, same.alias], ['profile-user', 'profile-pw', 'profile-alias']);
  });

  it('mistakes are usage errors with what to do', () => {
    assert.throws(
      () => resolveConnection({}, {}, { ...profile, credentials: undefined }),
      (e: unknown) => e instanceof ConnectionError && /give --user and --password/.test(e.message),
    );
    assert.throws(
      () => resolveConnection({ site: 'has space' }, {}, profile),
      (e: unknown) => e instanceof ConnectionError && /^--site/.test(e.message),
    );
    assert.throws(() => resolveConnection({ target: 'ftp://x' }, {}, profile), ConnectionError);
    assert.throws(() => connectionOptions({ target: 'nope' }, {}), UsageError);
  });

  it('the self-check and serve use the built-in profile read the same way', () => {
    const c = builtinConnection();
    const own = BUILTIN_PROFILE.credentials!;
    assert.deepEqual([c.user, c.alias, c.site, c.target], [own.user, own.alias ?? own.user, BUILTIN_PROFILE.sites.main, 'builtin']);
  });
});

describe('every command sends the alias the rule gives', () => {
  let server: Server;
  let base = '';
  const seen: { alias: unknown; authorization: string | undefined }[] = [];
  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        try {
          const env = JSON.parse(body) as { alias?: unknown; request?: unknown };
          // Envelopes only: a control-API call has a body of its own.
          if (Array.isArray(env.request)) seen.push({ alias: env.alias, authorization: req.headers.authorization });
        } catch {
          /* not an envelope */
        }
        res.writeHead(401, { 'Content-Type': 'text/plain' });
        res.end('no');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const sink = { write: () => true };
  const cases = [
    { args: ['--user', 'other-user', '--password', 'pw-1234'], env: {}, alias: 'other-user' },
    { args: ['--user', 'other-user', '--password', 'pw-1234', '--alias', 'the-alias'], env: {}, alias: 'the-alias' },
    { args: [], env: { CARDSPEC_USER: 'env-user', CARDSPEC_PASSWORD: 'pw-5678' }, alias: 'env-user' },
  ];

  for (const c of cases) {
    it(`fuzz ${c.args.join(' ') || JSON.stringify(c.env)} -> alias ${c.alias}`, async () => {
      seen.length = 0;
      await fuzzCommand(['--target', base, '--property', 'requests', '--runs', '1', '--max-time', '20', ...c.args], { out: sink, err: sink, tty: false, env: c.env } as never);
      assert.ok(seen.length > 0, 'the fuzz run sent nothing');
      for (const s of seen) assert.equal(s.alias, c.alias);
    });

    it(`run ${c.args.join(' ') || JSON.stringify(c.env)} -> alias ${c.alias}`, async () => {
      seen.length = 0;
      const { run } = await import('../../src/cli/run');
      const saved = { ...process.env };
      Object.assign(process.env, c.env);
      try {
        // The preflight's known-good request is the first thing `run` sends; the 401 ends the run there (exit 2).
        const code = await run(['--target', base, '--reports', path.join(os.tmpdir(), `cardspec-conn-${process.pid}`), '--timeout', '10s', ...c.args]);
        assert.equal(code, 2);
      } finally {
        process.env = saved;
      }
      assert.ok(seen.length > 0, 'the run sent nothing');
      for (const s of seen) assert.equal(s.alias, c.alias);
    });
  }
});
