#!/usr/bin/env node
// `npm run bench`: runs bench/main.ts.
// `node bench/run.js proxy`: the checking proxy's overhead alone (bench/proxy.ts; also `npm run bench -- --only proxy`).
require('../bin/launch')(require('path').join(__dirname, process.argv[2] === 'proxy' ? 'proxy' : 'main'));
