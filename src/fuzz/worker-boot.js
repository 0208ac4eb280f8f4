// A fuzz thread's first module. Threads start without the parent's require hooks, so when the kit runs from its
// TypeScript sources (bin/cardspec.js), the thread registers ts-node the same way (transpile only: `npm test`
// type-checks) before it loads the thread's code (./worker.ts).
const { workerData } = require('node:worker_threads');
if (workerData.entry.endsWith('.ts')) {
  process.env.TS_NODE_TRANSPILE_ONLY = 'true';
  require('ts-node/register');
}
require(workerData.entry);
