// The one start of the kit's entry points (the CLI, the bench): ts-node in transpile-only mode (type-checking is
// `npm run typecheck`, done once in `npm test`, not on every start), so a fresh clone needs no build step; then the
// module's main(argv) as the exit code; a crash is printed masked and exits 2.
module.exports = function launch(modulePath) {
  process.env.TS_NODE_TRANSPILE_ONLY = process.env.TS_NODE_TRANSPILE_ONLY || 'true';
  process.env.TS_NODE_PROJECT = process.env.TS_NODE_PROJECT || require('path').join(__dirname, '..', 'tsconfig.json');
  // Installed as a package, the sources sit under node_modules/, which ts-node skips unless told otherwise.
  process.env.TS_NODE_SKIP_IGNORE = process.env.TS_NODE_SKIP_IGNORE || 'true';
  require('ts-node/register');
  require(modulePath)
    .main(process.argv.slice(2))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (err) => {
        console.error(require('../src/redact').redactText(String((err && err.stack) || err)));
        process.exitCode = 2;
      },
    );
};
