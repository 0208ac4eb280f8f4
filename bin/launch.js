// The one start of the kit's entry points (the CLI, the bench): TypeScript made readable (bin/typescript.js: the
// compiled modules of a packed kit, else ts-node over the sources, so a fresh clone needs no build step); then the
// module's main(argv) as the exit code; a crash is printed masked and exits 2.
module.exports = function launch(modulePath) {
  require('./typescript').useTypeScript();
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
