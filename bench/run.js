#!/usr/bin/env node
// `npm run bench`: runs bench/main.ts.
require('../bin/launch')(require('path').join(__dirname, 'main'));
