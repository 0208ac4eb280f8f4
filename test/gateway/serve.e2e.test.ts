/**
 * `cardspec serve` through the real CLI: prints its configuration without the password, serves on loopback, stops
 * cleanly on SIGTERM (exit 0); usage and configuration errors exit 2.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/testdata';
import { AUTH_HEADER, card, PAYMENT, serveInProcess, USER } from './helpers';

const BIN = join(__dirname, '..', '..', 'bin', 'cardspec.js');

describe('cardspec serve', () => {
  it('prints users, sites and addresses (no password), answers, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--control'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /JSON\s+POST (http:\/\/127\.0\.0\.1:[0-9]+)\/json\//.exec(out);
        if (m && out.includes('Serving until')) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}${err}`)));
    });
    try {
      assert.match(out, new RegExp(USER.username.replace('.', '\\.')));
      assert.doesNotMatch(out, new RegExp(USER.password));
      for (const s of DEFAULT_CONFIG.sites) assert.match(out, new RegExp(s.sitereference));
      assert.match(out, /test_site6012\s+card store on\s+fraud control on\s+merchant category 6012/);
      assert.match(out, /\/xml\//);
      assert.match(out, /\/acs\//);
      const res = await fetch(`${url}/json/`, {
        method: 'POST',
        headers: { Authorization: AUTH_HEADER, 'Content-Type': 'application/json' },
        body: JSON.stringify({ alias: USER.alias, version: '1.00', request: [{ requesttypedescriptions: ['AUTH'], ...PAYMENT, ...card('authorised') }] }),
      });
      const body = (await res.json()) as { response: { errorcode: string }[] };
      assert.equal(body.response[0].errorcode, '0');
      assert.equal((await fetch(`${url}/_cardspec/clock`)).status, 200);
    } finally {
      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      assert.equal(await exit, 0, err);
    }
  });

  it('--help exits 0; a bad port, an unknown option or a bad configuration file exits 2 with the reason', async () => {
    // In-process (the same `run` the CLI calls), capturing what it prints: one process start is enough per file.
    const { run, restore } = serveInProcess();
    try {
      const help = await run('--help');
      assert.equal(help.code, 0);
      assert.match(help.text, /--control/);
      assert.equal((await run('--port', '70000')).code, 2);
      assert.equal((await run('--clock-start', '2026-13-01 00:00:00')).code, 2);
      const unknown = await run('--bogus');
      assert.equal(unknown.code, 2);
      assert.match(unknown.text, /bogus/);
      const dir = mkdtempSync(join(tmpdir(), 'cardspec-serve-'));
      const file = join(dir, 'config.json');
      writeFileSync(
        file,
        JSON.stringify({ users: [{ username: 'u', password: 'secret-pw-123', alias: 'u', sites: ['nope'] }], sites: [{ sitereference: 'test_a', cardstore: true, fraudcontrol: true, mcc: '5969' }] }),
      );
      const bad = await run('--config', file);
      assert.equal(bad.code, 2);
      assert.match(bad.text, /site nope is not in "sites"/);
      assert.doesNotMatch(bad.text, /secret-pw-123/);
      writeFileSync(file, '{not json');
      assert.match((await run('--config', file)).text, /not JSON/);
      assert.equal((await run('--config', join(dir, 'missing.json'))).code, 2);
    } finally {
      restore();
    }
  });
});
