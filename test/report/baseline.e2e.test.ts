/**
 * Gating on what changed, end to end: `cardspec run --baseline` against gallery variants on loopback (one rule the
 * faulty variant breaks), and `cardspec serve --client-cmd ... --baseline` with a real adapter process. A new failure
 * exits 1 naming it; only old failures exit 0 saying how many remain.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { runAgainstVariant, runCli, tempDir } from '../conformance/cli';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'cardspec.js');
const ADAPTER = path.join(ROOT, 'test', 'contract', 'fixtures', 'adapter.js');
const ARGS = ['--format', 'json', '--tags', '@type:STORE'];

describe('run --baseline', () => {
  it('a new failing rule exits 1 naming it; the same failures again exit 0 saying how many remain', async () => {
    const benign = await runAgainstVariant('extra-fields', ARGS);
    const faulty = await runAgainstVariant('maskedpan-stars', ARGS);
    assert.equal(faulty.r.code, 1);
    assert.ok(faulty.failed.includes('FIELD-MASKEDPAN') && !benign.failed.includes('FIELD-MASKEDPAN'), faulty.failed.join());

    const fresh = await runAgainstVariant('maskedpan-stars', [...ARGS, '--baseline', path.join(benign.r.reports, 'summary.json')]);
    assert.equal(fresh.r.code, 1, fresh.r.out);
    assert.match(fresh.r.out, /NEW {5}FIELD-MASKEDPAN \(passed in the baseline\)/);
    assert.match(fresh.r.out, /Gate against the baseline: FAILED: new failing rule\(s\): .*FIELD-MASKEDPAN/);

    const again = await runAgainstVariant('maskedpan-stars', [...ARGS, '--baseline', path.join(faulty.r.reports, 'summary.json')]);
    assert.equal(again.summary.result, 'failed', 'the verdict itself stays FAILED');
    assert.equal(again.r.code, 0, again.r.out);
    assert.match(again.r.out, new RegExp(`0 new failure\\(s\\), 0 fixed, ${faulty.failed.length} already failing`));
    assert.match(again.r.out, new RegExp(`no new failure; ${faulty.failed.length} rule\\(s\\) already failing remain`));
    assert.match(again.r.out, /already FIELD-MASKEDPAN/);
  });

  it('refuses a baseline that is not a run summary before running anything', async () => {
    const file = path.join(tempDir('baseline'), 'cases.json');
    fs.writeFileSync(file, JSON.stringify({ kind: 'cardspec-client-cases', cases: [] }));
    const r = await runCli([...ARGS, '--baseline', file]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /--baseline .*cases\.json is a client report's cases: give an earlier run's summary\.json/);
    assert.deepEqual(r.scenarios(), [], 'nothing ran');
  });
});

function serve(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe('serve --client-cmd --baseline', () => {
  it('old failing cases alone exit 0 saying how many remain; a new failing case exits 1 naming it', async () => {
    const dir = tempDir('client-baseline');
    const adapter = (mode: string): string => `CARDSPEC_FIXTURE_MODE=${mode} "${process.execPath}" "${ADAPTER}"`;
    const cases = ['--cases', 'auth-60022,subscription-not-enrolled,riskdec-then-auth,threedquery-enrolled-Y'];
    // The baseline: a client that reads only the first part fails the two two-part cases.
    const first = await serve(['--client-cmd', adapter('first-part'), ...cases, '--report', path.join(dir, 'before')]);
    assert.equal(first.code, 1, first.out);
    const baseline = path.join(dir, 'before', 'cases.json');

    const same = await serve(['--client-cmd', adapter('first-part'), ...cases, '--baseline', baseline, '--report', path.join(dir, 'same')]);
    assert.equal(same.code, 0, same.out);
    assert.match(same.out, /0 new failure\(s\), 0 fixed, 2 already failing/);
    assert.match(same.out, /no new failure; 2 case\(s\) already failing remain/);

    // A client that cuts md short: the enrolled THREEDQUERY case is new, the two-part cases are fixed.
    const worse = await serve(['--client-cmd', adapter('truncate-md'), ...cases, '--baseline', baseline]);
    assert.equal(worse.code, 1, worse.out);
    assert.match(worse.out, /NEW {5}threedquery-enrolled-Y \(passed in the baseline\)/);
    assert.match(worse.out, /fixed {3}subscription-not-enrolled/);
    assert.match(worse.out, /Gate against the baseline: FAILED: new failing case\(s\): threedquery-enrolled-Y/);

    const wrong = await serve(['--client-cmd', adapter('good'), '--baseline', path.join(dir, 'same', 'contract.json')]);
    assert.equal(wrong.code, 2, wrong.out);
    assert.match(wrong.out, /--baseline .*contract\.json is neither a run's summary\.json nor a client report's cases\.json/);
  });
});
