/**
 * `require('cardspec/nock')` resolves through package.json's `exports` (Node's self-reference of a package by its
 * own name), the way an SDK's tests import it once cardspec is installed.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { it } from 'node:test';

it("require('cardspec/nock') gives interceptGateway", () => {
  const r = spawnSync(process.execPath, ['-e', "process.stdout.write(typeof require('cardspec/nock').interceptGateway)"], {
    cwd: path.join(__dirname, '..', '..'),
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, 'function');
});
