#!/usr/bin/env node
// `npm run bench:gallery`: runs bench/gallery.ts.
require('../bin/launch')(require('path').join(__dirname, 'gallery.ts'));
