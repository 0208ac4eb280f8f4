// `require('cardspec/nock')`: the in-process stand-in gateway for Node SDK tests (src/nock.ts). Like
// bin/cardspec.js it runs the compiled modules of a packed kit, or the TypeScript sources through ts-node in
// transpile-only mode (bin/typescript.js), so no build step is needed.
require('./bin/typescript').useTypeScript();
module.exports = require('./src/nock');
