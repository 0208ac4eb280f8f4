/**
 * The clone's `.ts` loader (bin/transpile-cache.js, registered by bin/typescript.js) must give what ts-node's
 * transpile-only mode gave, byte for byte, for every TypeScript file of the kit; and its disk cache must hand back
 * an entry only for the same source, path, tsconfig, compiler and hook version.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

interface Transpiler {
  transpile(source: string, fileName: string): string | undefined;
  readonly stats: { hits: number; misses: number; writes: number };
  readonly cacheDir: string | undefined;
}
interface CacheModule {
  createTranspiler(o: { projectFile: string; dir?: string | null }): Transpiler;
  needsTsNode(env: NodeJS.ProcessEnv): string | undefined;
  cacheDirFromEnv(env: NodeJS.ProcessEnv): string | undefined;
  DEFAULT_DIR: string;
}
interface TsNodeService {
  compile(code: string, fileName: string): string;
}

const ROOT = path.join(__dirname, '..', '..');
const PROJECT = path.join(ROOT, 'tsconfig.json');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS module of bin/, without types
const cache = require('../../bin/transpile-cache.js') as CacheModule;
/** An entry's name: its path's slot, then the key of everything its text depends on. */
const ENTRY = /^[0-9a-f]{16}-[0-9a-f]{64}\.js$/;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cardspec-ts-cache-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : tsFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

describe('the same JavaScript as ts-node in transpile-only mode', () => {
  // Through the project's own cache, as the kit's processes read it: what it holds (the files the test run has
  // loaded so far) and what it transpiles and writes (the others) are both compared.
  it('for every .ts file under src/, steps/, bench/, test/, schemas/, generators/ and examples/', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- ts-node's API, as the loader used it before
    const tsNode = (require('ts-node') as { create(o: object): TsNodeService }).create({ transpileOnly: true, project: PROJECT });
    const ours = cache.createTranspiler({ projectFile: PROJECT });
    const files = ['src', 'steps', 'bench', 'test', 'schemas', 'generators', 'examples'].flatMap((d) => tsFiles(path.join(ROOT, d)));
    assert.ok(files.length > 400, `only ${files.length} files found`);
    const differ: string[] = [];
    for (const file of files) {
      const source = fs.readFileSync(file, 'utf8');
      if (ours.transpile(source, file) !== tsNode.compile(source, file)) differ.push(path.relative(ROOT, file));
    }
    assert.deepEqual(differ, []);
    assert.equal(ours.stats.hits + ours.stats.misses, files.length);
  });

  it('for a file transpiled afresh, without the disk cache', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- ts-node's API, as the loader used it before
    const tsNode = (require('ts-node') as { create(o: object): TsNodeService }).create({ transpileOnly: true, project: PROJECT });
    const ours = cache.createTranspiler({ projectFile: PROJECT, dir: null });
    const file = path.join(ROOT, 'src', 'redact.ts');
    const source = fs.readFileSync(file, 'utf8');
    assert.equal(ours.transpile(source, file), tsNode.compile(source, file));
    assert.deepEqual(ours.stats, { hits: 0, misses: 1, writes: 0 });
  });
});

describe('the disk cache', () => {
  const file = path.join(ROOT, 'test', 'loader', 'fixtures', 'throws.ts');
  const source = fs.readFileSync(file, 'utf8');

  it('hands back what a miss wrote, to another process alike (a new transpiler), without the compiler', () => {
    const dir = path.join(scratch, 'hit');
    const first = cache.createTranspiler({ projectFile: PROJECT, dir });
    const js = first.transpile(source, file);
    assert.deepEqual(first.stats, { hits: 0, misses: 1, writes: 1 });
    const entries = fs.readdirSync(dir);
    assert.equal(entries.length, 1);
    assert.match(entries[0], ENTRY);
    const second = cache.createTranspiler({ projectFile: PROJECT, dir });
    assert.equal(second.transpile(source, file), js);
    assert.deepEqual(second.stats, { hits: 1, misses: 0, writes: 0 });
  });

  it('misses when the source, the path or the tsconfig differ', () => {
    const dir = path.join(scratch, 'keys');
    cache.createTranspiler({ projectFile: PROJECT, dir }).transpile(source, file);
    const again = cache.createTranspiler({ projectFile: PROJECT, dir });
    again.transpile(source + '\nexport const added = 1;\n', file);
    again.transpile(source, path.join(path.dirname(file), 'elsewhere.ts'));
    assert.deepEqual(again.stats, { hits: 0, misses: 2, writes: 2 });
    // The same options in another text: another key (the text is hashed, not read).
    const otherConfig = path.join(scratch, 'tsconfig.json');
    fs.writeFileSync(otherConfig, fs.readFileSync(PROJECT, 'utf8') + '\n');
    const third = cache.createTranspiler({ projectFile: otherConfig, dir });
    third.transpile(source, file);
    assert.deepEqual(third.stats, { hits: 0, misses: 1, writes: 1 });
  });

  it('keeps one entry per file: the version a miss wrote replaces the others of the same path', () => {
    const dir = path.join(scratch, 'pruned');
    const t = cache.createTranspiler({ projectFile: PROJECT, dir });
    t.transpile(source, file);
    const elsewhere = path.join(path.dirname(file), 'elsewhere.ts');
    t.transpile(source, elsewhere);
    assert.equal(fs.readdirSync(dir).length, 2);
    // An entry of the cache's first layout (a key alone) goes too.
    const old = path.join(dir, `${'0'.repeat(64)}.js`);
    fs.writeFileSync(old, 'stale');
    const changed = source + '\nexport const added = 1;\n';
    const js = t.transpile(changed, file);
    assert.equal(fs.readdirSync(dir).length, 2, fs.readdirSync(dir).join());
    assert.equal(fs.existsSync(old), false);
    // What is left is the new version of the one file, and the other file's entry, both still hits.
    const again = cache.createTranspiler({ projectFile: PROJECT, dir });
    assert.equal(again.transpile(changed, file), js);
    again.transpile(source, elsewhere);
    assert.deepEqual(again.stats, { hits: 2, misses: 0, writes: 0 });
    // A hit prunes nothing: going back to the first version is a miss, which then replaces the changed one.
    again.transpile(source, file);
    assert.deepEqual(again.stats, { hits: 2, misses: 1, writes: 1 });
    assert.equal(fs.readdirSync(dir).length, 2);
  });

  it('takes an entry that is not a whole output (written by something else) for a miss and replaces it', () => {
    const dir = path.join(scratch, 'damaged');
    const first = cache.createTranspiler({ projectFile: PROJECT, dir });
    const js = first.transpile(source, file);
    const [entry] = fs.readdirSync(dir);
    fs.writeFileSync(path.join(dir, entry), 'module.exports = 1;');
    const second = cache.createTranspiler({ projectFile: PROJECT, dir });
    assert.equal(second.transpile(source, file), js);
    assert.deepEqual(second.stats, { hits: 0, misses: 1, writes: 1 });
    assert.equal(fs.readFileSync(path.join(dir, entry), 'utf8'), js);
  });

  it('works without the disk cache where its folder cannot be made', () => {
    const blocker = path.join(scratch, 'a-file');
    fs.writeFileSync(blocker, '');
    const t = cache.createTranspiler({ projectFile: PROJECT, dir: path.join(blocker, 'cache') });
    const js = t.transpile(source, file);
    assert.ok(js?.includes('failed with'));
    assert.equal(t.cacheDir, undefined);
    assert.deepEqual(t.stats, { hits: 0, misses: 1, writes: 0 });
    assert.equal(t.transpile(source, file), js);
  });

  it('leaves no temporary file behind', () => {
    const dir = path.join(scratch, 'hit');
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => !ENTRY.test(f)),
      [],
    );
  });

  it('is node_modules/.cache/cardspec-ts/ of the project, another folder or none by CARDSPEC_TS_CACHE', () => {
    assert.equal(cache.cacheDirFromEnv({}), path.join(ROOT, 'node_modules', '.cache', 'cardspec-ts'));
    assert.equal(cache.cacheDirFromEnv({ CARDSPEC_TS_CACHE: scratch }), scratch);
    assert.equal(cache.cacheDirFromEnv({ CARDSPEC_TS_CACHE: 'off' }), undefined);
  });
});

describe('what stays with ts-node', () => {
  const kit = { TS_NODE_TRANSPILE_ONLY: 'true', TS_NODE_PROJECT: PROJECT, TS_NODE_SKIP_IGNORE: 'true' };
  it("nothing, under the kit's own settings", () => {
    assert.equal(cache.needsTsNode(kit), undefined);
  });
  it('type-checking, and ts-node options the hook does not reproduce', () => {
    assert.match(cache.needsTsNode({ ...kit, TS_NODE_TRANSPILE_ONLY: 'false' }) ?? '', /type-checking/);
    assert.match(cache.needsTsNode({ ...kit, TS_NODE_COMPILER_OPTIONS: '{"target":"ES5"}' }) ?? '', /TS_NODE_COMPILER_OPTIONS/);
    assert.match(cache.needsTsNode({ ...kit, TS_NODE_IGNORE: 'x' }) ?? '', /TS_NODE_IGNORE/);
  });
  it('a tsconfig that extends another (ts-node follows the chain)', () => {
    const extending = path.join(scratch, 'tsconfig.extends.json');
    fs.writeFileSync(extending, JSON.stringify({ extends: PROJECT }));
    const t = cache.createTranspiler({ projectFile: extending, dir: null });
    assert.equal(t.transpile('export const a = 1;\n', path.join(scratch, 'a.ts')), undefined);
  });
  it('a file with a syntax error (ts-node reports it)', () => {
    const t = cache.createTranspiler({ projectFile: PROJECT, dir: path.join(scratch, 'syntax') });
    assert.equal(t.transpile('export const x = ;\n', path.join(scratch, 'broken.ts')), undefined);
    assert.equal(fs.existsSync(path.join(scratch, 'syntax')), false);
  });
});
