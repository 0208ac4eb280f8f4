/**
 * `cardspec run` habits of CI users (issue 18): --list sends nothing; --bail stops at the first failed scenario
 * with its reports and a FAILED verdict; --verbose prints each failing exchange, masked; a live-looking site is
 * refused without --allow-live. Against a faulty variant of the gallery where a failure is needed.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { variantNamed } from '../../src/selfcheck/gallery';
import { startVariant, type StartedVariant } from '../../src/selfcheck/start';
import { cardspec, cardspecAsync } from './spawn';

const reports = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-habits-'));

describe('cardspec run: --list, --bail, --verbose, --allow-live', () => {
  let faulty: StartedVariant;
  before(async () => {
    // Answers a full card number in maskedpan: FIELD-MASKEDPAN fails, and the exchange holds a PAN to mask.
    faulty = await startVariant(variantNamed('maskedpan-unmasked')!);
  });
  after(() => faulty.close());

  test('--list names the scenarios and rules for the tags and profile, and sends no request', async () => {
    let requests = 0;
    const server = http.createServer((_req, res) => {
      requests += 1;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await cardspecAsync(['run', '--list', '--target', url, '--format', 'both', '--tags', '@rule:AUTH-AUTHORISE or @requires:mcc6012']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^JSON features\/auth\.feature:\d+ +The acquiring bank authorises a payment +\[AUTH-AUTHORISE/m);
      assert.match(r.stdout, /^XML {2}features\/auth\.feature:\d+/m);
      // auth.feature and the generated inheritance scenarios, in both formats: none would be skipped.
      assert.match(r.stdout, /^ {2}AUTH-AUTHORISE +\d+\/0$/m);
      assert.match(r.stdout, /scenario\(s\): \d+ would run/);
      assert.equal(requests, 0, 'no request reached the target');
    } finally {
      server.close();
    }
    // A profile without a capability: the scenarios needing it are listed as skipped, with the reason.
    const profile = path.join(reports(), 'profile.json');
    const { BUILTIN_PROFILE } = await import('../../src/client/profile');
    fs.writeFileSync(profile, JSON.stringify({ ...BUILTIN_PROFILE, name: 'no clock', capabilities: { ...BUILTIN_PROFILE.capabilities, clock: false } }));
    const r = cardspec(['run', '--list', '--profile', profile, '--tags', '@requires:clock']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\(would be skipped: the profile "no clock" lacks the capability "clock"/);
    assert.match(r.stdout, / 0 would run, \d+ would be skipped/);
  });

  test('--list marks the waived rules and tags with their reasons', () => {
    const waivers = path.join(reports(), 'waivers.yaml');
    fs.writeFileSync(waivers, '- rule: AUTH-BANK-CONTACTED\n  reason: our sandbox has no bank\n- tag: "@requires:clock"\n  reason: no clock in the sandbox\n');
    const r = cardspec(['run', '--list', '--waivers', waivers, '--tags', '@rule:AUTH-AUTHORISE or @requires:clock']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\[AUTH-AUTHORISE ERR-0 AUTH-BANK-CONTACTED \(waived\)\]/);
    assert.match(r.stdout, /^ {2}AUTH-BANK-CONTACTED +1\/0 +waived: our sandbox has no bank$/m);
    assert.match(r.stdout, /\(waived by @requires:clock: no clock in the sandbox\)/);
  });

  test('--verbose prints each failing scenario and its exchanges, masked', async () => {
    const dir = reports();
    const r = await cardspecAsync(['run', '--target', faulty.url, '--verbose', '--tags', '@rule:FIELD-MASKEDPAN', '--reports', dir]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^--- FAILED \[JSON\] features\/[\w-]+\.feature:\d+ \S/m);
    assert.match(r.stdout, /^ {4}exchange 1 of \d+:$/m);
    assert.match(r.stdout, /"maskedpan": "/);
    assert.doesNotMatch(r.stdout, /\b\d{13,19}\b/, 'no full card number on the console');
    const quiet = await cardspecAsync(['run', '--target', faulty.url, '--tags', '@rule:FIELD-MASKEDPAN', '--reports', reports()]);
    assert.doesNotMatch(quiet.stdout, /--- FAILED/, 'without --verbose, only the summary');
  });

  test('--bail stops at the first failed scenario; the rest is skipped with the reason, reports written, FAILED', async () => {
    const dir = reports();
    const r = await cardspecAsync(['run', '--target', faulty.url, '--bail', '--tags', '@rule:FIELD-MASKEDPAN or @rule:AUTH-AUTHORISE or @rule:FIELD-ECHO', '--reports', dir]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')) as { result: string; totals: { failed: number; skipped: number } };
    assert.equal(summary.result.toUpperCase(), 'FAILED');
    assert.equal(summary.totals.failed, 1, 'one failure, then the stop');
    assert.ok(summary.totals.skipped > 0, 'what it did not reach is skipped');
    assert.match(r.stdout, /--bail: the scenario ".+" \(JSON\) failed/);
    assert.equal(cardspec(['run', '--bail', '--parallel', '2']).code, 2, '--bail with --parallel is refused');
  });

  test('a live-looking site is refused without --allow-live, with the reason', () => {
    const r = cardspec(['run', '--site', 'site12345', '--reports', reports()]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^cardspec run: the site "site12345" is not a test site \(test site references start with "test_"\).*Give --allow-live/m);
    const allowed = cardspec(['run', '--site', 'site12345', '--allow-live', '--tags', '@rule:AUTH-AUTHORISE', '--reports', reports()]);
    assert.doesNotMatch(allowed.stderr, /not a test site/);
  });
});
