// Loaded by cucumber before the steps (`requireModule`), in its parallel workers above all: they are fresh Node
// processes that cannot read TypeScript yet. The main process of `cardspec run` has ts-node already (bin/
// cardspec.js, or the test runner), and registering it twice would transpile every file twice.
if (!process[Symbol.for('ts-node.register.instance')]) {
  require('ts-node').register({ transpileOnly: true, skipIgnore: true, project: require('path').join(__dirname, '..', 'tsconfig.json') });
}
