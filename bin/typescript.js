// How the kit's processes read TypeScript, in one place (bin/launch.js, bin/register.js for the test files, nock.js,
// steps/register-ts.js for cucumber's workers, the proxy's threads). In a clone the kit runs from its sources,
// transpiled as ts-node's transpile-only mode does (type-checking is `npm run typecheck`) through a cache on disk
// (bin/transpile-cache.js), so that a process loads the TypeScript compiler only when a file changed. A packed kit
// carries its modules compiled beside their sources (scripts/build.js, run by `prepack`): then ts-node, which loads
// the compiler (most of a second), is registered only when a .ts file is first required: a user's own steps, checks
// or features' support code.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const INSTANCE = Symbol.for('ts-node.register.instance');

/** The kit's modules are compiled (a packed kit), not only sources (a clone). */
function compiled() {
  return fs.existsSync(path.join(ROOT, 'src', 'cli', 'main.js'));
}

/** The settings every ts-node of the kit uses, in the environment so that child processes inherit them. */
function settings() {
  process.env.TS_NODE_TRANSPILE_ONLY = process.env.TS_NODE_TRANSPILE_ONLY || 'true';
  process.env.TS_NODE_PROJECT = process.env.TS_NODE_PROJECT || path.join(ROOT, 'tsconfig.json');
  // Installed as a package, the sources sit under node_modules/, which ts-node skips unless told otherwise.
  process.env.TS_NODE_SKIP_IGNORE = process.env.TS_NODE_SKIP_IGNORE || 'true';
}

const HOOK = Symbol.for('cardspec.transpile-cache');

/**
 * The clone's `.ts` loader: the transpile cache (bin/transpile-cache.js), or ts-node where the environment asks for
 * what the cache does not do. Also where a preload registered ts-node already (a process started with
 * `--require ts-node/register`): the modules still to load come from the cache.
 */
function registerNow() {
  const current = require.extensions['.ts'];
  if (current && current[HOOK]) return;
  settings();
  const { needsTsNode, createTranspiler } = require('./transpile-cache');
  if (needsTsNode()) {
    if (!process[INSTANCE]) require('ts-node/register');
    return;
  }
  const transpiler = createTranspiler({ projectFile: path.resolve(process.env.TS_NODE_PROJECT) });
  // Stack traces name the .ts lines through the inline source maps. Node's own source maps cost less than
  // source-map-support, which ts-node installs: 29 against 68 µs per stack of a thrown error, 5 against 12 ms to
  // set up (docs/testing.md). But source-map-support replaces Error.prepareStackTrace, and then Node's maps are not
  // read: where ts-node is in the process too, source-map-support is told this hook's output.
  process.setSourceMapsEnabled(true);
  let ours; // filename -> JavaScript, for source-map-support once ts-node is in the process
  const withTsNode = () => {
    if (ours) return;
    ours = new Map();
    require('@cspotcode/source-map-support').install({ environment: 'node', retrieveFile: (file) => ours.get(file) });
  };
  if (process[INSTANCE]) withTsNode();
  let tsNode;
  const load = function cardspecTypeScript(module, filename) {
    const source = fs.readFileSync(filename, 'utf8');
    let js = transpiler.transpile(source, filename);
    if (js === undefined) {
      // What the hook leaves to ts-node (a syntax error: ts-node's own message; a tsconfig that extends another).
      tsNode = tsNode || process[INSTANCE] || require('ts-node').create();
      withTsNode();
      js = tsNode.compile(source, filename);
    } else if (ours) ours.set(filename, js);
    module._compile(js, filename);
  };
  load[HOOK] = transpiler;
  require.extensions['.ts'] = load;
}

/** A stand-in for the .ts loader that registers ts-node on the first .ts file and hands the file to it. */
function registerOnDemand() {
  if (process[INSTANCE] || require.extensions['.ts']) return;
  settings();
  require.extensions['.ts'] = function firstTypeScript(module, filename) {
    // ts-node keeps the loader it replaces for the files it ignores: it must find node's, not this one.
    delete require.extensions['.ts'];
    registerNow();
    return require.extensions['.ts'](module, filename);
  };
}

/** TypeScript readable in this process: now (from the sources) or on demand (compiled). */
function useTypeScript() {
  if (compiled()) registerOnDemand();
  else registerNow();
}

module.exports = { compiled, useTypeScript };
