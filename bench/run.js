#!/usr/bin/env node
// `npm run bench`: runs bench/main.ts with ts-node in transpile-only mode, like bin/cardspec.js runs the CLI.
process.env.TS_NODE_TRANSPILE_ONLY = process.env.TS_NODE_TRANSPILE_ONLY || 'true';
process.env.TS_NODE_PROJECT = process.env.TS_NODE_PROJECT || require('path').join(__dirname, '..', 'tsconfig.json');
require('ts-node/register');
require('./main')
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(require('../src/redact').redactText(String((err && err.stack) || err)));
      process.exitCode = 2;
    },
  );
