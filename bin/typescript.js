// How the kit's processes read TypeScript, in one place (bin/launch.js, nock.js, steps/register-ts.js for
// cucumber's workers). In a clone the kit runs from its sources: ts-node in transpile-only mode (type-checking is
// `npm run typecheck`), registered at once. A packed kit carries its modules compiled beside their sources
// (scripts/build.js, run by `prepack`): then ts-node, which loads the TypeScript compiler (most of a second), is
// registered only when a .ts file is first required: a user's own steps, checks or features' support code.
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

function registerNow() {
  if (process[INSTANCE]) return;
  settings();
  require('ts-node/register');
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
