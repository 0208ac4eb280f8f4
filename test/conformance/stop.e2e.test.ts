/**
 * Every run ends, and keeps what it did: a target that stops answering mid-run stops the run after a few transport
 * failures in a row; `--max-time` stops it; SIGINT and SIGTERM stop it. What was not reached is reported skipped
 * with the reason (never passed), and the reports are written. Real loopback targets (test/conformance/turncoat.ts);
 * the signal test runs the real command in a child process.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readMessagesFile } from '../../src/report/messages';
import { SUITE } from '../../src/suite';
import { DEFAULT_MAX_TRANSPORT_FAILURES } from '../../src/stop';
import { profileFile, runCli, tempDir } from './cli';
import { startTurncoat } from './turncoat';

const BIN = path.join(SUITE.root, 'bin', 'cardspec.js');

describe('cardspec run stops, and keeps its reports', () => {
  it(`stops after ${DEFAULT_MAX_TRANSPORT_FAILURES} requests in a row without an answer; the rest is skipped with the reason`, async () => {
    const server = await startTurncoat('hangs', 1);
    try {
      const profile = profileFile({ limits: { connectTimeoutMs: 1000, totalTimeoutMs: 1500, maxResponseBytes: 1024 * 1024 } });
      const r = await runCli(['--target', server.url, '--profile', profile, '--tags', '@type:AUTH']);
      assert.equal(r.code, 1, r.out);
      const scenarios = r.scenarios('json');
      const failed = scenarios.filter((s) => s.verdict === 'failed');
      const stopped = scenarios.filter((s) => s.verdict === 'skipped' && /the run was stopped/.test(s.reason ?? ''));
      assert.ok(failed.length >= 1 && failed.length <= DEFAULT_MAX_TRANSPORT_FAILURES, `${failed.length} failed`);
      assert.ok(stopped.length > 0, 'scenarios after the stop are skipped');
      for (const s of stopped) assert.match(s.reason ?? '', new RegExp(`${DEFAULT_MAX_TRANSPORT_FAILURES} requests in a row got no answer from the target; the last: .*the target hung`));
      assert.equal(failed.length + stopped.length, scenarios.length, 'nothing passed against a hung target');
      assert.match(r.out, /Problem: The run was stopped before its end: 5 requests in a row got no answer/);
      assert.ok(fs.existsSync(path.join(r.reports, 'summary.md')));
    } finally {
      await server.close();
    }
  });

  it('--max-time stops the run: what it did not reach is skipped with the reason, exit 3, reports written', async () => {
    const r = await runCli(['--max-time', '1ms', '--tags', '@rule:AUTH-AUTHORISE or @rule:FIELD-MASKEDPAN']);
    assert.equal(r.code, 3, r.out);
    const scenarios = r.scenarios('json');
    assert.ok(scenarios.length >= 2);
    for (const s of scenarios) {
      assert.equal(s.verdict, 'skipped');
      assert.match(s.reason ?? '', /the run was stopped before this scenario: the time limit of the run \(--max-time\) was reached/);
    }
    assert.ok(fs.existsSync(path.join(r.reports, 'summary.json')));
  });

  it('rejects a --timeout or --max-time that is no duration (exit 2)', async () => {
    for (const args of [['--timeout', 'soon'], ['--max-time', '0'], ['--timeout=-5s']]) {
      const r = await runCli(args);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, /must be a duration such as 15s, 500ms or 2m/);
    }
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} in the middle of a run stops it: the scenarios that ran keep their verdicts, the rest is skipped, the reports are written`, async () => {
      // The preflight and a few scenarios' requests are answered; then the target hangs, and the run gets the signal.
      const server = await startTurncoat('hangs', 8);
      const reports = tempDir('stop-reports');
      try {
        // The hung request may take 120 s: a run that waited for it instead of abandoning it would take far longer than
        // the bound below, which leaves room for writing the reports on a busy machine (4.7-6 s at load 7 on two cores,
        // against the built-in 15 s request time the bound used to have to stay under).
        const child = spawn(process.execPath, [BIN, 'run', '--target', server.url, '--reports', reports, '--timeout', '120s', '--tags', '@type:AUTH or @type:ACCOUNTCHECK'], {
          cwd: SUITE.root,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
        await server.misbehaving;
        const signalled = process.hrtime.bigint();
        child.kill(signal);
        const code = await exited;
        const seconds = Number(process.hrtime.bigint() - signalled) / 1e9;
        assert.equal(code, 3, out);
        assert.ok(seconds < 60, `took ${seconds} s after the signal`);
        assert.match(out, new RegExp(`${signal}: stopping; the reports of what ran are being written`));
        const messages = path.join(reports, 'json', 'messages.ndjson');
        const scenarios = readMessagesFile(messages, 'json').scenarios;
        assert.ok(
          scenarios.some((s) => s.verdict === 'passed'),
          'the scenarios before the hang passed',
        );
        assert.ok(!scenarios.some((s) => s.verdict === 'failed'), 'the abandoned request fails nothing');
        const stopped = scenarios.filter((s) => s.verdict === 'skipped');
        assert.ok(stopped.length > 0);
        for (const s of stopped) assert.match(s.reason ?? '', new RegExp(`the run was stopped (before|during) this scenario: interrupted \\(${signal}\\)`));
        for (const f of ['summary.md', 'summary.json', 'junit.xml']) assert.ok(fs.existsSync(path.join(reports, f)), f);
        // Without a terminal, progress is one line per feature.
        assert.match(out, /^JSON [^\n]+: \d+ passed, \d+ failed, \d+ skipped/m);
        assert.doesNotMatch(out, /^[.F-]+$/m);
      } finally {
        await server.close();
      }
    });
  }
});
