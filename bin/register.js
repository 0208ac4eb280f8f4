// A preload (`node --require bin/register.js`) that makes TypeScript readable the kit's one way (bin/typescript.js):
// scripts/test.js starts every test file with it.
require('./typescript').useTypeScript();
