/**
 * "Against `cardspec serve` without `--control`, `cardspec run` either checks the 3-D Secure and combined flows or
 * ends INCOMPLETE, never PASSED with skips": the clock-driven subscription flows are skipped there, so the verdict
 * is INCOMPLETE (exit 3; 0 with --allow-incomplete, still INCOMPLETE); a waivers file for them, each with its
 * reason, narrows the scope explicitly and the run is PASSED with every waiver printed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startGateway, type RunningGateway } from '../../src/gateway';
import type { Matrix, Summary } from '../../src/report/model';
import { runCli, tempDir } from './cli';

// The documented flows; the generated boundary phase adds nothing to this question and much time.
const TAGS = 'not @phase:boundary';

describe('the verdict against a target without the test-control API', () => {
  let plain: RunningGateway;
  before(async () => {
    plain = await startGateway({ control: false });
  });
  after(async () => {
    await plain.close();
  });

  it('is INCOMPLETE (exit 3), naming the rules it could not check; --allow-incomplete exits 0 with the same verdict', async () => {
    const r = await runCli(['--target', plain.url, '--tags', TAGS]);
    assert.equal(r.code, 3, r.out);
    const summary = JSON.parse(fs.readFileSync(path.join(r.reports, 'summary.json'), 'utf8')) as Summary;
    assert.equal(summary.result, 'incomplete');
    assert.ok(
      summary.unchecked.some((u) => u.rule.startsWith('SUB-') && /clock/.test(u.why)),
      JSON.stringify(summary.unchecked.slice(0, 3)),
    );
    assert.match(r.out, /^Result: INCOMPLETE/m);
    assert.ok(
      r.scenarios('json').some((s) => s.rules.includes('3DS-NEXT-Y') && s.verdict === 'passed'),
      'the 3-D Secure flows ran',
    );
    const allowed = await runCli(['--target', plain.url, '--tags', TAGS, '--allow-incomplete']);
    assert.equal(allowed.code, 0, allowed.out);
    assert.match(allowed.out, /Result: INCOMPLETE \(exit 0: --allow-incomplete\)/);
  });

  it('is PASSED once the flows it cannot run are waived, each waiver with its reason in the summary and the matrix', async () => {
    const file = path.join(tempDir('waivers'), 'waivers.yaml');
    fs.writeFileSync(
      file,
      [
        'waivers:',
        '  - tag: "@requires:clock"',
        '    reason: the sandbox has no movable clock (certified on the bench)',
        '  - tag: "@requires:ledger"',
        '    reason: the sandbox offers no ledger reads (certified on the bench)',
        '',
      ].join('\n'),
    );
    const r = await runCli(['--target', plain.url, '--tags', TAGS, '--waivers', file]);
    assert.equal(r.code, 0, r.out);
    const summary = JSON.parse(fs.readFileSync(path.join(r.reports, 'summary.json'), 'utf8')) as Summary;
    const matrix = JSON.parse(fs.readFileSync(path.join(r.reports, 'matrix.json'), 'utf8')) as Matrix;
    assert.equal(summary.result, 'passed');
    assert.deepEqual(
      summary.waivers.map((w) => w.id),
      ['@requires:clock', '@requires:ledger'],
    );
    assert.deepEqual(
      matrix.waivers.map((w) => w.id),
      ['@requires:clock', '@requires:ledger'],
    );
    assert.match(fs.readFileSync(path.join(r.reports, 'summary.md'), 'utf8'), /no movable clock \(certified on the bench\)/);
    assert.match(fs.readFileSync(path.join(r.reports, 'matrix.md'), 'utf8'), /## Waivers[\s\S]*no ledger reads/);
    assert.match(r.out, /Waivers \(2\):/);
  });
});

describe('a field the document returns only on some accounts, never returned by the target', () => {
  it('makes the check of its form not applicable, said so in the reports, and the run can be PASSED', async () => {
    // "`threedversion` ... Returned only for accounts with certain acquiring banks": this target's account is not one.
    const gw = await startGateway({
      mutate: {
        part: (part) => {
          const { threedversion: _dropped, ...rest } = part;
          return rest;
        },
      },
    });
    try {
      const r = await runCli(['--target', gw.url, '--tags', '@rule:FIELD-TYPES:threedversion or @rule:3DS-QUERY-RESPONSE']);
      assert.equal(r.code, 0, r.out);
      const summary = JSON.parse(fs.readFileSync(path.join(r.reports, 'summary.json'), 'utf8')) as Summary;
      assert.equal(summary.result, 'passed');
      const form = r.scenarios('json').filter((s) => s.rules.includes('FIELD-TYPES:threedversion'));
      assert.ok(form.length > 0);
      for (const s of form) {
        assert.equal(s.verdict, 'skipped');
        assert.match(s.reason ?? '', /^not applicable to this target: the THREEDQUERY part does not carry threedversion \("Returned only for accounts/);
      }
      assert.match(fs.readFileSync(path.join(r.reports, 'summary.md'), 'utf8'), /not applicable to this target/);
      assert.match(fs.readFileSync(path.join(r.reports, 'matrix.md'), 'utf8'), /not applicable to this target/);
    } finally {
      await gw.close();
    }
  });

  it('is still a gap for a field every account returns: the run is INCOMPLETE', async () => {
    const gw = await startGateway({
      mutate: {
        part: (part) => {
          const { tid: _dropped, ...rest } = part;
          return rest;
        },
      },
    });
    try {
      const r = await runCli(['--target', gw.url, '--tags', '@rule:FIELD-TYPES:tid and @type:THREEDQUERY']);
      assert.equal(r.code, 3, r.out);
    } finally {
      await gw.close();
    }
  });
});

describe('run --strict: the SHOULD-level points the kit counts apart', () => {
  // HTTP semantics the document relies on: the answer declares text/plain where the request accepted application/json.
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ mutate: { wire: (reply, ctx) => (ctx.format === 'json' ? { ...reply, headers: { ...reply.headers, 'Content-Type': 'text/plain' } } : reply) } });
  });
  after(async () => {
    await gw.close();
  });

  it('are warnings in every report without --strict: the run is PASSED', async () => {
    const r = await runCli(['--target', gw.url, '--tags', '@rule:AUTH-AUTHORISE']);
    assert.equal(r.code, 0, r.out);
    const summary = JSON.parse(fs.readFileSync(path.join(r.reports, 'summary.json'), 'utf8')) as Summary;
    assert.equal(summary.result, 'passed');
    assert.match(
      summary.advisories?.map((a) => `${a.rule}: ${a.message}`).join('\n') ?? '',
      /TRANSPORT-HEADERS: the JSON answer declares Content-Type "text\/plain"; the request accepted "application\/json"/,
    );
    assert.match(r.out, /Warnings \(1; SHOULD-level, a failure only with --strict\)/);
    assert.match(fs.readFileSync(path.join(r.reports, 'summary.md'), 'utf8'), /Warnings \(SHOULD-level points; a failure only with --strict\)/);
  });

  it('fail the run with --strict (exit 1), saying why', async () => {
    const r = await runCli(['--target', gw.url, '--tags', '@rule:AUTH-AUTHORISE', '--strict']);
    assert.equal(r.code, 1, r.out);
    const summary = JSON.parse(fs.readFileSync(path.join(r.reports, 'summary.json'), 'utf8')) as Summary;
    assert.equal(summary.result, 'failed');
    assert.match(r.out, /Result: FAILED: --strict: 1 SHOULD-level warning\(s\)/);
  });

  it('are none against the reference gateway, --strict or not', async () => {
    const plain = await startGateway({});
    try {
      const r = await runCli(['--target', plain.url, '--tags', '@rule:AUTH-AUTHORISE', '--format', 'both', '--strict']);
      assert.equal(r.code, 0, r.out);
    } finally {
      await plain.close();
    }
  });
});
