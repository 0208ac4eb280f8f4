// Loaded by cucumber before the steps (`requireModule`), in its parallel workers above all: they are fresh Node
// processes that cannot read TypeScript yet. The one way the kit does it (bin/typescript.js): once per process,
// on demand where the kit is compiled.
require('../bin/typescript').useTypeScript();
