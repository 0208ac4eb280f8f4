#!/bin/sh
# Installs Debian's chromium, which the report test drives through playwright-core (executablePath
# /usr/bin/chromium): playwright's own browser download is not used. Idempotent: does nothing when
# /usr/bin/chromium is already there. CI calls it before the tests.
set -eu

if [ -x /usr/bin/chromium ]; then
  echo "chromium: already installed ($(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium))"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium.sh: apt-get not found; install Chromium so that /usr/bin/chromium exists" >&2
  exit 2
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install-chromium.sh: needs root (or sudo) to run apt-get" >&2
    exit 2
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium

if [ ! -x /usr/bin/chromium ]; then
  echo "install-chromium.sh: apt-get finished but /usr/bin/chromium is missing" >&2
  exit 1
fi
echo "chromium: installed ($(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium))"
