/**
 * The package is publishable and ships what a user runs, not the kit's own tests (issue 18). What `npm pack` would
 * put in the tarball is read with `--dry-run`; scripts/check-package.sh (run by .ci/run) installs the real tarball
 * into an empty project and certifies the built-in target from there.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './spawn';

interface Manifest {
  private?: boolean;
  files?: string[];
  types?: string;
  engines?: Record<string, string>;
  repository?: { url?: string };
  bin?: Record<string, string>;
}

test('package.json is publishable: no "private", a files list, types, engines, repository', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
  assert.equal(pkg.private, undefined);
  assert.ok(pkg.files && pkg.files.length > 0);
  assert.ok(pkg.types && fs.existsSync(path.join(ROOT, pkg.types)), `types ${pkg.types} exists`);
  assert.match(pkg.engines?.node ?? '', /^>=20/);
  assert.match(pkg.repository?.url ?? '', /^git\+https:\/\//);
  assert.ok(fs.existsSync(path.join(ROOT, 'scripts', 'check-package.sh')));
  assert.match(fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8'), /scripts\/check-package\.sh/, 'CI installs the tarball');
});

test('the tarball holds the kit and none of test/, bench/, .ci/', () => {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const [pack] = JSON.parse(r.stdout) as { files: { path: string }[] }[];
  const files = pack.files.map((f) => f.path);
  for (const stray of files.filter((f) => /^(test|bench|\.ci|reports|node_modules)\//.test(f))) assert.fail(`${stray} is in the tarball`);
  for (const must of ['bin/cardspec.js', 'nock.js', 'tsconfig.json', 'src/cli/main.ts', 'steps/world.ts', 'features/rules.yaml', 'README.md', 'package.json']) {
    assert.ok(files.includes(must), `${must} is in the tarball`);
  }
  assert.ok(files.some((f) => f.startsWith('schemas/') && f.endsWith('.schema.json')));
});
