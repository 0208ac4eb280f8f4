// A fuzz thread's first module. Threads start without the parent's require hooks, so when the kit runs from its
// TypeScript sources, the thread makes TypeScript readable as every process of the kit does (bin/typescript.js)
// before it loads the thread's code (./worker.ts).
const { workerData } = require('node:worker_threads');
if (workerData.entry.endsWith('.ts')) require('../../bin/typescript.js').useTypeScript();
require(workerData.entry);
