#!/bin/sh
# The package as a user gets it: `npm pack`, the tarball's contents checked (no test/, bench/, .ci/), installed
# into an empty project (dependencies from the npm registry, the local cache first), then `npx cardspec run`
# certifies the built-in target from there. Exit 0 only if every step does.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cardspec-package-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

cd "$root"
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
echo "check-package: packed $tarball"
tar -tzf "$work/$tarball" > "$work/contents"
if grep -E '^package/(test|bench|\.ci|reports|node_modules)/' "$work/contents" > "$work/stray"; then
  echo "check-package: the tarball holds files it must not:" >&2
  head -n 20 "$work/stray" >&2
  exit 1
fi
# The compiled modules (prepack: scripts/build.js) beside the sources, which stay for types and for reading.
for must in package/bin/cardspec.js package/src/cli/main.ts package/src/cli/main.js package/features/rules.yaml package/steps/world.ts package/steps/world.js package/features/rules.compiled.json package/tsconfig.json package/nock.js; do
  grep -qx "$must" "$work/contents" || { echo "check-package: the tarball lacks ${must#package/}" >&2; exit 1; }
done
# postpack removed them again: in a clone they would be run in place of the sources (test/structure/compiled.test.ts).
if [ -e src/cli/main.js ] || [ -e features/rules.compiled.json ]; then echo 'check-package: npm pack left compiled modules in the clone (postpack did not run?)' >&2; exit 1; fi
if grep -q '"private"' package.json; then echo 'check-package: package.json says "private": npm publish would refuse it' >&2; exit 1; fi

mkdir "$work/project"
cd "$work/project"
printf '{ "name": "cardspec-package-check", "version": "1.0.0", "private": true }\n' > package.json
npm install --no-audit --no-fund --prefer-offline --omit=dev "$work/$tarball" > "$work/install.log" 2>&1 || { cat "$work/install.log" >&2; exit 1; }
echo "check-package: installed into an empty project: cardspec $(npx --no-install cardspec --version)"
npx --no-install cardspec run --reports "$work/reports"
node -e "process.exit(typeof require('cardspec/nock').interceptGateway === 'function' ? 0 : 1)" || { echo "check-package: require('cardspec/nock') failed" >&2; exit 1; }
echo "check-package: OK"
