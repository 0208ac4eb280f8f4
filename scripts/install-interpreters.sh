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

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-interpreters.sh: apt-get not found; install$missing so that the adapter templates can be tested" >&2
  exit 2
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install-interpreters.sh: needs root (or sudo) to run apt-get" >&2
    exit 2
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
# shellcheck disable=SC2086 # one word per package
$SUDO apt-get install -y --no-install-recommends $missing

for tool in python3 php ruby; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "install-interpreters.sh: apt-get finished but $tool is not on PATH" >&2
    exit 1
  fi
done
echo "interpreters: installed ($(python3 --version 2>&1); $(php --version 2>/dev/null | head -n 1); $(ruby --version 2>&1))"
