/**
 * "No absolute path of the machine in any tracked file" (the brief): a path of the developer's machine works there
 * and nowhere else, and says where someone's files live. Every file git tracks is read (binary files skipped);
 * outside a git checkout (an unpacked tarball) the tree is walked instead.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.join(__dirname, '..', '..');

// Built from parts so that this file does not match itself.
const DIRS = ['work', 'home', 'root', 'Users', 'private/var/folders'].map((d) => '/' + d + '/');
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A machine path starts a word: after the start of a line, a space, a quote, a bracket, `=`, `:` or `file://`. */
const MACHINE_PATH = new RegExp(`(?:^|[\\s'"\`(<\\[=:,]|file://)(?:${DIRS.map(escape).join('|')}|[A-Za-z]:\\\\[A-Za-z0-9_])`, 'm');

function trackedFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\0')
      .filter(Boolean);
  } catch {
    const walk = (dir: string): string[] =>
      fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
        const p = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) return e.name === 'node_modules' || e.name === '.git' ? [] : walk(p);
        return [p];
      });
    return walk('');
  }
}

export function machinePaths(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (MACHINE_PATH.test(line)) out.push(`${i + 1}: ${line.trim().slice(0, 160)}`);
  });
  return out;
}

describe('no absolute path of a machine in tracked files', () => {
  it('finds the paths it is meant to find, and only those', () => {
    const home = DIRS[1] + 'ann/x';
    assert.deepEqual(machinePaths(`see ${DIRS[0]}shared/spec/x.md`).length, 1);
    assert.deepEqual(machinePaths(`(${home})`).length, 1);
    assert.deepEqual(machinePaths('C:\\Users\\ann\\spec.md').length, 1);
    assert.deepEqual(machinePaths(`file://${DIRS[3]}ann/x`).length, 1);
    assert.deepEqual(machinePaths('docs/spec/card-payment-web-service.md, https://example.com/home/ and a/root/b').length, 0);
  });

  it('every tracked file', () => {
    const files = trackedFiles();
    assert.ok(files.length > 100, `only ${files.length} files listed`);
    const found: string[] = [];
    for (const file of files) {
      const full = path.join(ROOT, file);
      if (!fs.existsSync(full) || !fs.statSync(full).isFile()) continue;
      const buf = fs.readFileSync(full);
      if (buf.includes(0)) continue;
      for (const hit of machinePaths(buf.toString('utf8'))) found.push(`${file}:${hit}`);
    }
    assert.deepEqual(found, [], 'write paths relative to the repository (docs/spec/... for the document)');
  });
});
