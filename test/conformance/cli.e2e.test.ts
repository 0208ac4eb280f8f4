/**
 * The command-line contract of `cardspec run`, through the real command (bin/cardspec.js): options, exit codes,
 * credentials from the environment, and no secret in what it prints.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SUITE } from '../../src/suite';
import { BUILTIN_PROFILE } from '../../src/client/profile';
import { runCli, tempDir } from './cli';

const BIN = path.join(SUITE.root, 'bin', 'cardspec.js');

function cardspec(args: string[], env: Record<string, string> = {}): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [BIN, 'run', ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('cardspec run, the command', () => {
  it('prints its usage for --help and exits 0', () => {
    const r = cardspec(['--help']);
    assert.equal(r.code, 0);
    for (const flag of ['--target', '--format', '--profile', '--tags', '--user', '--password', '--alias', '--site', '--reports', '--parallel', 'CARDSPEC_USER', 'CARDSPEC_PASSWORD']) {
      assert.ok(r.out.includes(flag), `the usage does not mention ${flag}`);
    }
  });

  const USAGE_ERRORS: [string[], RegExp][] = [
    [['--bogus'], /unknown option '--bogus'/],
    [['--format', 'yaml'], /--format must be json, xml or both/],
    [['--parallel', 'two'], /--parallel must be a whole number/],
    [['--target', 'ftp://example.test'], /--target must be an http\(s\) URL/],
    [['--target', 'not a url'], /--target must be "builtin" or an http\(s\) base URL/],
    [['--profile', '/nonexistent/profile.json'], /profile \/nonexistent\/profile\.json cannot be used:\n {2}- the file cannot be read \(ENOENT\)/],
    [['--site', 'not a site!'], /--site: sitereference must be Alphanumeric incl\. underscore/],
  ];
  // In this process: a usage error is found before anything starts, so these cost nothing.
  for (const [args, message] of USAGE_ERRORS) {
    it(`exits 2 with a clear message for ${args.join(' ')}`, async () => {
      const r = await runCli(args);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, message);
    });
  }

  it('exits 2 when the tag expression is not one, and when no scenario matches --tags', async () => {
    const bad = await runCli(['--tags', '@rule:ENV-ORDER and (']);
    assert.equal(bad.code, 2, bad.out);
    assert.match(bad.out, /--tags is not a valid tag expression/);
    const none = cardspec(['--tags', '@rule:NO-SUCH-RULE', '--reports', tempDir('cli')]);
    assert.equal(none.code, 2, none.out);
    assert.match(none.out, /no scenario matched --tags "@rule:NO-SUCH-RULE"/);
  });

  it('takes credentials from CARDSPEC_USER and CARDSPEC_PASSWORD, and never prints the password', () => {
    const reports = tempDir('cli');
    const password = 'not-the-password-7731';
    // A wrong password is a setup mistake: the preflight says so (exit 2) before the suite, without the password.
    const r = cardspec(['--tags', '@rule:AUTH-AUTHORISE', '--reports', reports], { CARDSPEC_USER: 'webservices@example.test', CARDSPEC_PASSWORD: password });
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /HTTP 401: the target does not accept the credentials; .*the user name sent was "webservices@example\.test"/);
    assert.ok(!r.out.includes(password), 'the password was printed');
    // The right password from the environment: used, and in no output or report.
    const right = BUILTIN_PROFILE.credentials!.password;
    const envRun = cardspec(['--tags', '@rule:AUTH-AUTHORISE', '--reports', reports], { CARDSPEC_USER: 'webservices@example.test', CARDSPEC_PASSWORD: right });
    assert.equal(envRun.code, 0, envRun.out);
    assert.ok(!envRun.out.includes(right), 'the password was printed');
    for (const f of ['json/messages.ndjson', 'summary.md', 'junit.xml']) {
      assert.ok(!fs.readFileSync(path.join(reports, f), 'utf8').includes(right), `the password is in ${f}`);
    }
    const good = cardspec(['--tags', '@rule:AUTH-AUTHORISE', '--reports', reports, '--format', 'both']);
    assert.equal(good.code, 0, good.out);
    assert.match(good.out, /AUTH +1\/0\/0 +1\/0\/0/);
  });
});
