#!/usr/bin/env node
// The compiled JavaScript of the published package (`npm pack` runs this as `prepack`, and `--clean` as
// `postpack`): every module of src/, steps/, schemas/ and generators/ gets its .js beside its .ts, so that the
// installed kit starts with plain node (bin/launch.js) instead of compiling itself through ts-node on every start;
// the sources stay, for types and for reading. A clone needs none of this: without the .js files, bin/launch.js
// runs the sources through ts-node. `--clean` removes exactly the .js files that sit beside a .ts of the same name,
// and the compiled catalogue.
//
// The rule catalogue (features/rules.yaml) is parsed here too, into features/rules.compiled.json with the sha256 of
// the text it was read from: parsing the YAML took a tenth of a second of every run's start-up, reading the JSON a
// millisecond. src/rules/catalogue.ts uses it only while rules.yaml is that very text.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..');
const ROOTS = ['src', 'steps', 'schemas', 'generators'];
const CATALOGUE = path.join(ROOT, 'features', 'rules.yaml');
const COMPILED_CATALOGUE = path.join(ROOT, 'features', 'rules.compiled.json');

function compiledFiles() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js') && fs.existsSync(p.slice(0, -3) + '.ts')) out.push(p);
    }
  };
  for (const r of ROOTS) if (fs.existsSync(path.join(ROOT, r))) walk(path.join(ROOT, r));
  return out;
}

function clean() {
  const files = compiledFiles();
  for (const f of files) fs.rmSync(f);
  fs.rmSync(COMPILED_CATALOGUE, { force: true });
  return files.length;
}

function compileCatalogue() {
  const text = fs.readFileSync(CATALOGUE, 'utf8');
  const doc = require('yaml').parse(text);
  const sha256 = require('node:crypto').createHash('sha256').update(text).digest('hex');
  fs.writeFileSync(COMPILED_CATALOGUE, JSON.stringify({ sha256, doc }));
}

if (process.argv.includes('--clean')) {
  console.log(`build: removed ${clean()} compiled files`);
} else {
  clean();
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit', cwd: ROOT });
  compileCatalogue();
  console.log(`build: compiled ${compiledFiles().length} modules beside their sources, and ${path.relative(ROOT, COMPILED_CATALOGUE)}`);
}
