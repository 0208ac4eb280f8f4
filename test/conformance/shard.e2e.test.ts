/**
 * "A three-shard run merged gives the same verdicts, matrix and JUnit counts as one run": three `cardspec run
 * --shard i/3` processes and one unsharded process, each against its own instance of the same faulty loopback target
 * (so that the comparison covers failures, blocked rules and causes), then `cardspec report --merge` of the three
 * folders. Its own instance, because a target's clock is shared by every scenario: within one process a scenario
 * that moves it runs alone, but shards in separate processes cannot keep each other's clock moves out of their
 * scenarios ("moves on by 6 days ... has taken 0 automatic payments" sees another shard's month).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { variantNamed } from '../../src/selfcheck/gallery';
import { startVariant } from '../../src/selfcheck/start';
import type { Matrix, Summary } from '../../src/report/model';
import { parseShard, shardOf } from '../../src/suite';
import { tempDir } from './cli';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'cardspec.js');
// The flows without the generated boundary phase: enough scenarios to spread over three shards, quick to run.
const TAGS = 'not @phase:boundary';

function cardspec(args: readonly string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

const read = <T>(dir: string, file: string): T => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as T;
const junitCounts = (dir: string): string => /<testsuites [^>]*>/.exec(fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8'))![0].replace(/ time="[^"]*"| timestamp="[^"]*"/g, '');

describe('--shard i/n and cardspec report --merge', () => {
  it('the split is stable and whole: every scenario in exactly one shard, the same in any process', () => {
    const names = Array.from({ length: 300 }, (_, i) => ['features/a.feature', `scenario ${i}`] as const);
    const counts = [0, 0, 0];
    for (const [uri, name] of names) counts[shardOf(uri, name, 3) - 1]++;
    assert.equal(
      counts.reduce((a, b) => a + b),
      300,
    );
    assert.ok(
      counts.every((c) => c > 60),
      `uneven: ${counts.join(', ')}`,
    );
    assert.equal(shardOf('features/a.feature', 'x', 7), shardOf('features\\a.feature', 'x', 7));
    assert.deepEqual(parseShard('2/3'), { index: 2, total: 3 });
    for (const bad of ['0/3', '4/3', '1/0', 'x', '1-3']) assert.throws(() => parseShard(bad), /--shard must be i\/n/);
  });

  it('three shards in separate processes, merged, give the verdicts, matrix and JUnit counts of one run', { timeout: 600_000 }, async () => {
    const variant = variantNamed('maskedpan-stars')!;
    const gws = await Promise.all([1, 2, 3, 4].map(() => startVariant(variant)));
    const work = tempDir('shards');
    const dirs = [1, 2, 3].map((i) => path.join(work, `shard-${i}`));
    const single = path.join(work, 'single');
    try {
      // A generous --timeout: four runs share the machine's cores, and a slow answer must not read as the target's fault.
      const common = (i: number): string[] => ['run', '--target', gws[i].url, '--format', 'json', '--tags', TAGS, '--timeout', '60s'];
      const shards = await Promise.all(dirs.map((d, i) => cardspec([...common(i), '--shard', `${i + 1}/3`, '--reports', d])));
      const whole = await cardspec([...common(3), '--reports', single]);
      assert.equal(whole.code, 1, whole.out);
      for (const s of shards) assert.ok([0, 1].includes(s.code), s.out);

      // Disjoint and whole.
      const keys = (dir: string): string[] => read<Summary>(dir, 'summary.json').scenarios.map((s) => `${s.format} ${s.uri}:${s.line} ${s.name}`);
      const parts = dirs.map(keys);
      assert.ok(
        parts.every((p) => p.length > 0),
        'a shard ran nothing',
      );
      assert.deepEqual(parts.flat().sort(), keys(single).sort());
      assert.equal(new Set(parts.flat()).size, parts.flat().length);

      const out = path.join(work, 'merged');
      const merged = await cardspec(['report', '--merge', ...dirs, '--out', out]);
      assert.equal(merged.code, 1, merged.out);
      assert.match(merged.out, /Result: FAILED/);

      const a = read<Summary>(out, 'summary.json');
      const b = read<Summary>(single, 'summary.json');
      assert.equal(a.result, b.result);
      assert.deepEqual(a.totals, b.totals);
      assert.deepEqual(a.coverage, b.coverage);
      assert.deepEqual(
        a.causes.map((c) => [c.rule, c.field, c.scenarios]),
        b.causes.map((c) => [c.rule, c.field, c.scenarios]),
      );
      const verdicts = (m: Matrix): string[] => m.rules.map((r) => `${r.id} ${r.overall.verdict} ${JSON.stringify(r.byFormat)}`);
      assert.deepEqual(verdicts(read<Matrix>(out, 'matrix.json')), verdicts(read<Matrix>(single, 'matrix.json')));
      assert.equal(junitCounts(out), junitCounts(single));
    } finally {
      await Promise.all(gws.map((g) => g.close()));
    }
  });
});
