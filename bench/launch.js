// The one start of a bench entry point: ts-node in transpile-only mode (as bin/cardspec.js runs the CLI), then the
// module's main(argv) as the exit code; a crash is printed masked and exits 2.
module.exports = function launch(modulePath) {
  process.env.TS_NODE_TRANSPILE_ONLY = process.env.TS_NODE_TRANSPILE_ONLY || 'true';
  process.env.TS_NODE_PROJECT = process.env.TS_NODE_PROJECT || require('path').join(__dirname, '..', 'tsconfig.json');
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
