#!/usr/bin/env node
// Node 20's test runner takes no globs, so this lists test/**/*.test.ts and hands them over. Extra arguments
// narrow the list: `npm test -- gateway` runs the files whose path contains "gateway".
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : walk(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}
const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = walk(path.join(root, 'test'))
  .map((p) => path.relative(root, p))
  .filter((p) => filters.length === 0 || filters.some((f) => p.includes(f)))
  .sort();
if (files.length === 0) {
  console.error('scripts/test.js: no test file matched');
  process.exit(1);
}
const env = { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' };
const r = spawnSync(process.execPath, ['--require', 'ts-node/register', '--test', '--test-concurrency=2', ...files], { cwd: root, env, stdio: 'inherit' });
process.exit(r.status === null ? 1 : r.status);
