/**
 * The `.ts` loader as the kit's processes meet it (bin/register.js, bin/typescript.js): stack traces name the .ts
 * file and line, from a cold cache and a warm one, and where ts-node was preloaded; many processes filling one
 * empty cache at once; a cache that cannot be written; what stays ts-node's (a syntax error, type-checking).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = path.join(__dirname, '..', '..');
const REGISTER = path.join(ROOT, 'bin', 'register.js');
const FIXTURE = path.join(__dirname, 'fixtures', 'throws.ts');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-ts-loader-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `node [preloads] -e script` with the kit's loader and the given cache folder. */
function node(script: string, opts: { cache: string; preload?: readonly string[]; env?: NodeJS.ProcessEnv }): Promise<Ran> {
  const env: NodeJS.ProcessEnv = { ...process.env, CARDSPEC_TS_CACHE: opts.cache, ...opts.env };
  const args = [...(opts.preload ?? []).flatMap((p) => ['--require', p]), '--require', REGISTER, '-e', script];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const THROW = `try { require(${JSON.stringify(FIXTURE)}).fail({ value: 7 }); } catch (e) { process.stdout.write(e.stack); }`;
const HOOKED = `process.stdout.write(String(Boolean(require.extensions['.ts'][Symbol.for('cardspec.transpile-cache')])));`;
const entries = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

describe('stack traces name the .ts file and line', () => {
  const cache = path.join(scratch, 'stacks');
  it('from a cold cache, which the process fills', async () => {
    const r = await node(THROW, { cache });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Error: failed with 7\n\s+at (Object\.)?fail \(.*throws\.ts:9:\d+\)/);
    assert.equal(entries(cache).length, 1);
  });
  it('from the warm cache', async () => {
    const before = fs.statSync(path.join(cache, entries(cache)[0])).mtimeMs;
    const r = await node(THROW, { cache });
    assert.match(r.stdout, /^Error: failed with 7\n\s+at (Object\.)?fail \(.*throws\.ts:9:\d+\)/);
    assert.equal(fs.statSync(path.join(cache, entries(cache)[0])).mtimeMs, before, 'the entry was read, not written again');
  });
  it('where ts-node was preloaded (its source-map-support in place of Node’s maps), the loader taking over', async () => {
    const r = await node(THROW + HOOKED, { cache: path.join(scratch, 'preloaded'), preload: ['ts-node/register'], env: { TS_NODE_TRANSPILE_ONLY: 'true' } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Error: failed with 7\n\s+at (Object\.)?fail \(.*throws\.ts:9:\d+\)/);
    assert.match(r.stdout, /true$/);
    assert.equal(entries(path.join(scratch, 'preloaded')).length, 1);
  });
});

describe('the disk cache across processes', () => {
  it('is filled by many processes started at once, each seeing whole entries', async () => {
    const cache = path.join(scratch, 'crowd');
    const script = `const r = require('./src/redact'); process.stdout.write(typeof r.redactText);`;
    const runs = await Promise.all(Array.from({ length: 4 }, () => node(script, { cache })));
    for (const r of runs) assert.deepEqual({ code: r.code, stdout: r.stdout }, { code: 0, stdout: 'function' }, r.stderr);
    const names = entries(cache);
    assert.ok(names.length > 0);
    assert.deepEqual(
      names.filter((n) => !/^[0-9a-f]{16}-[0-9a-f]{64}\.js$/.test(n)),
      [],
      'no temporary file left',
    );
    for (const n of names) assert.match(fs.readFileSync(path.join(cache, n), 'utf8'), /\n\/\/# sourceMappingURL=data:application\/json;charset=utf-8;base64,[A-Za-z0-9+/=]+$/);
  });

  it('is done without where its folder cannot be made', async () => {
    const blocker = path.join(scratch, 'blocker');
    fs.writeFileSync(blocker, '');
    const r = await node(THROW + HOOKED, { cache: path.join(blocker, 'cache') });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /throws\.ts:9:\d+\)[\s\S]*true$/);
  });
});

describe('what stays with ts-node', () => {
  it('a syntax error: ts-node’s message, naming the file', async () => {
    const broken = path.join(scratch, 'broken.ts');
    fs.writeFileSync(broken, 'export const x = ;\n');
    const r = await node(`require(${JSON.stringify(broken)})`, { cache: path.join(scratch, 'broken') });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Unable to compile TypeScript/);
    assert.match(r.stderr, /broken\.ts\(1,18\): error TS1109: Expression expected/);
  });

  it('type-checking (TS_NODE_TRANSPILE_ONLY=false): ts-node registered, not the cache', async () => {
    const r = await node(HOOKED + `process.stdout.write(' ' + Boolean(process[Symbol.for('ts-node.register.instance')]));`, {
      cache: path.join(scratch, 'typecheck'),
      env: { TS_NODE_TRANSPILE_ONLY: 'false' },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'false true');
  });
});
