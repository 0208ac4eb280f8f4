// `require('cardspec/nock')`: the in-process stand-in gateway for Node SDK tests (src/nock.ts). Like
// bin/cardspec.js it runs the TypeScript sources through ts-node in transpile-only mode, so no build step is needed.
process.env.TS_NODE_TRANSPILE_ONLY = process.env.TS_NODE_TRANSPILE_ONLY || 'true';
process.env.TS_NODE_PROJECT = process.env.TS_NODE_PROJECT || require('path').join(__dirname, 'tsconfig.json');
// Installed, these sources sit under node_modules/, which ts-node skips unless told otherwise.
process.env.TS_NODE_SKIP_IGNORE = process.env.TS_NODE_SKIP_IGNORE || 'true';
require('ts-node/register');
module.exports = require('./src/nock');
