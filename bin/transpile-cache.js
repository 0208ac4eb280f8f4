// The `.ts` loader of a clone (bin/typescript.js): what ts-node's transpile-only mode does, with the JavaScript kept
// on disk. Every process and worker thread of the kit used to load the TypeScript compiler (about 0.3 s of CPU) and
// transpile every module it required again (another second or two for a run): hundreds of processes per CI run.
// Here a file's JavaScript is looked up by a hash of everything its transpiled text depends on (the source, its
// path, which the inline source map names, the tsconfig's text, the compiler's version, this file's version); only
// a miss loads `typescript` and transpiles, as ts-node does (its compiler options resolved as ts-node resolves them,
// its inline source map). The cache is node_modules/.cache/cardspec-ts/ under the project; where that cannot be
// written the hook works without it (each process transpiles what it needs, as ts-node did).
//
// Anything this hook does not reproduce goes to ts-node itself: type-checking (TS_NODE_TRANSPILE_ONLY not true),
// ts-node options from the environment other than the kit's own (TS_NODE_COMPILER_OPTIONS, TS_NODE_IGNORE, ...), a
// tsconfig that extends another or carries a "ts-node" section, and a file the compiler reports a syntax error in
// (ts-node throws its own error for it).
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

/** Bump when the text this hook writes changes for the same input (the cache's entries then stop matching). */
const HOOK_VERSION = '1';
const ROOT = path.join(__dirname, '..');
const DEFAULT_DIR = path.join(ROOT, 'node_modules', '.cache', 'cardspec-ts');
/** An entry's name before entries were named by their path's slot too: a key alone. */
const FIRST_LAYOUT = /^[0-9a-f]{64}\.js$/;

/** The cache's folder: CARDSPEC_TS_CACHE names another one (a test's), or is `off`; undefined: no disk cache. */
function cacheDirFromEnv(env = process.env) {
  const v = env.CARDSPEC_TS_CACHE;
  if (v === 'off') return undefined;
  return v ? path.resolve(v) : DEFAULT_DIR;
}

/** The TS_NODE_* variables this hook honours; any other one set means ts-node's own behaviour is wanted. */
const UNDERSTOOD = new Set(['TS_NODE_TRANSPILE_ONLY', 'TS_NODE_PROJECT', 'TS_NODE_SKIP_IGNORE', 'TS_NODE_FILES', 'TS_NODE_PRETTY', 'TS_NODE_LOG_ERROR']);
// ts-node's reading of a yes/no variable (its util.yn).
const yes = (v) => v !== undefined && ['y', 'yes', 'true', '1', 'on'].includes(String(v).toLowerCase());

/**
 * Why this process must use ts-node instead of the hook, or undefined when the hook can do what ts-node would.
 * The kit's settings (bin/typescript.js) are in the environment by then.
 */
function needsTsNode(env = process.env) {
  if (!yes(env.TS_NODE_TRANSPILE_ONLY)) return 'TS_NODE_TRANSPILE_ONLY is not true (type-checking)';
  if (!env.TS_NODE_PROJECT) return 'no TS_NODE_PROJECT';
  const other = Object.keys(env).filter((k) => k.startsWith('TS_NODE_') && !UNDERSTOOD.has(k) && env[k] !== '');
  if (other.length > 0) return `ts-node options in the environment: ${other.join(', ')}`;
  return undefined;
}

/** The compiler's version without loading the compiler. */
function typescriptVersion() {
  return JSON.parse(fs.readFileSync(require.resolve('typescript/package.json', { paths: [ROOT] }), 'utf8')).version;
}

/**
 * The compiler options ts-node's transpile-only mode uses for a tsconfig without "extends" or a "ts-node" section
 * (ts-node's configuration.js, readConfig and fixConfig): the file's compilerOptions, then the options ts-node
 * forces, parsed as TypeScript parses a tsconfig, then ts-node's defaults for target and module. undefined when the
 * tsconfig is one this hook leaves to ts-node.
 */
function tsNodeCompilerOptions(ts, projectFile) {
  const read = ts.readConfigFile(projectFile, ts.sys.readFile);
  if (read.error) return undefined;
  const config = read.config || {};
  if (config.extends !== undefined || config['ts-node'] !== undefined) return undefined;
  const merged = {
    ...config,
    compilerOptions: { ...config.compilerOptions, sourceMap: true, inlineSourceMap: false, inlineSources: true, declaration: false, noEmit: false, outDir: '.ts-node' },
  };
  const host = { fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: () => [], useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames };
  const options = ts.parseJsonConfigFileContent(merged, host, path.dirname(projectFile), undefined, projectFile).options;
  for (const k of ['out', 'outFile', 'composite', 'declarationDir', 'declarationMap', 'emitDeclarationOnly']) delete options[k];
  if (options.target === undefined) options.target = ts.ScriptTarget.ES5;
  if (options.module === undefined) options.module = ts.ModuleKind.CommonJS;
  return options;
}

/** ts-node's updateOutput: the emitted map, naming the .ts file alone, inline in place of the map file's comment. */
function withInlineMap(outputText, sourceMapText, fileName) {
  const map = JSON.parse(sourceMapText);
  map.file = fileName;
  map.sources = [fileName];
  delete map.sourceRoot;
  const inline = `//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(JSON.stringify(map), 'utf8').toString('base64')}`;
  const prefix = '//# sourceMappingURL=';
  const mapFile = path.basename(fileName).slice(0, -path.extname(fileName).length) + '.js.map';
  for (const name of [mapFile, encodeURI(mapFile)]) {
    const tail = prefix.length + name.length;
    if (outputText.substr(-tail, prefix.length) === prefix) return outputText.slice(0, -tail) + inline;
  }
  return `${outputText}\n${inline}`;
}

const MAP_LINE = '\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,';

/**
 * A transpiler with the disk cache in `dir` (null: none; by default node_modules/.cache/cardspec-ts/, or where
 * CARDSPEC_TS_CACHE says). Its `transpile(source, fileName)` returns the JavaScript, or undefined where ts-node
 * must do it (see the head of this file).
 */
function createTranspiler({ projectFile, dir = cacheDirFromEnv() }) {
  const configText = fs.readFileSync(projectFile, 'utf8');
  const base = createHash('sha256').update(`${HOOK_VERSION}\0${typescriptVersion()}\0${projectFile}\0${configText}\0`);
  let cacheDir = dir || undefined; // null: no disk cache
  let compiler; // { ts, options } once a miss needed them; null: the tsconfig is ts-node's to read
  const stats = { hits: 0, misses: 0, writes: 0 };

  function compilerFor() {
    if (compiler === undefined) {
      const ts = require(require.resolve('typescript', { paths: [ROOT] }));
      const options = tsNodeCompilerOptions(ts, projectFile);
      compiler = options ? { ts, options } : null;
    }
    return compiler;
  }

  /** Writes an entry; false where the folder cannot be written (the process then goes on without the cache). */
  function write(file, text) {
    if (cacheDir === undefined) return false;
    // Many processes start at once: each writes its own temporary file and renames it over the entry, so that a
    // reader sees a whole entry or none.
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      fs.mkdirSync(cacheDir, { recursive: true });
      fs.writeFileSync(tmp, text);
      fs.renameSync(tmp, file);
      stats.writes++;
      return true;
    } catch {
      // Read-only or full: this process goes on without the disk cache.
      cacheDir = undefined;
      try {
        fs.unlinkSync(tmp);
      } catch {
        /* never written */
      }
      return false;
    }
  }

  /**
   * After a miss, the entries of the same path (other sources, another compiler or tsconfig) and those of the
   * cache's first layout (a key alone) go: the cache keeps one entry per file, not one per version ever loaded.
   */
  function prune(slot, kept) {
    try {
      for (const name of fs.readdirSync(cacheDir)) {
        if (name === kept) continue;
        if ((name.startsWith(`${slot}-`) && name.endsWith('.js')) || FIRST_LAYOUT.test(name)) fs.unlinkSync(path.join(cacheDir, name));
      }
    } catch {
      /* another process pruned first, or the folder went: nothing to keep tidy */
    }
  }

  function transpile(source, fileName) {
    const key = base.copy().update(`${fileName}\0${source}`).digest('hex');
    // The path's slot leads the name, so that the entries of one file can be found (and pruned) by name.
    const slot = createHash('sha256').update(fileName).digest('hex').slice(0, 16);
    const name = `${slot}-${key}.js`;
    const file = cacheDir === undefined ? undefined : path.join(cacheDir, name);
    if (file !== undefined) {
      try {
        const text = fs.readFileSync(file, 'utf8');
        // An entry is written whole (rename), so this holds unless something else wrote there.
        if (text.includes(MAP_LINE)) {
          stats.hits++;
          return text;
        }
      } catch {
        /* a miss */
      }
    }
    const c = compilerFor();
    if (c === null) return undefined;
    const result = c.ts.transpileModule(source, { fileName, compilerOptions: c.options, reportDiagnostics: true });
    if (result.diagnostics && result.diagnostics.length > 0) return undefined;
    stats.misses++;
    const text = withInlineMap(result.outputText, result.sourceMapText, fileName);
    if (file !== undefined && write(file, text)) prune(slot, name);
    return text;
  }

  return {
    transpile,
    stats,
    get cacheDir() {
      return cacheDir;
    },
  };
}

module.exports = { createTranspiler, needsTsNode, tsNodeCompilerOptions, withInlineMap, cacheDirFromEnv, DEFAULT_DIR, HOOK_VERSION };
