#!/bin/sh
# Installs the interpreters that the SDK adapter templates (examples/adapters/) run under: Debian's python3,
# php-cli and ruby. Their tests (test/contract/templates.e2e.test.ts) skip with the reason when an interpreter is
# missing, except under CI=true, where a missing one fails: so CI installs all three, as it installs Chromium.
# Idempotent: does nothing when all three are already on PATH.
set -eu

missing=""
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
command -v php >/dev/null 2>&1 || missing="$missing php-cli"
command -v ruby >/dev/null 2>&1 || missing="$missing ruby"

if [ -z "$missing" ]; then
  echo "interpreters: already installed (python3, php, ruby)"
  exit 0
fi

sh "$(dirname "$0")/apt-install.sh" install-interpreters.sh $missing

for tool in python3 php ruby; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "install-interpreters.sh: apt-get finished but $tool is not on PATH" >&2
    exit 1
  fi
done
echo "interpreters: installed ($(python3 --version 2>&1); $(php --version 2>/dev/null | head -n 1); $(ruby --version 2>&1))"
