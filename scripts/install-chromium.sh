#!/bin/sh
# Installs Debian's chromium, which the report test drives through playwright-core (executablePath
# /usr/bin/chromium): playwright's own browser download is not used. Idempotent: does nothing when
# /usr/bin/chromium is already there. CI calls it before the tests.
set -eu

if [ -x /usr/bin/chromium ]; then
  echo "chromium: already installed ($(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium))"
  exit 0
fi

sh "$(dirname "$0")/apt-install.sh" install-chromium.sh chromium

if [ ! -x /usr/bin/chromium ]; then
  echo "install-chromium.sh: apt-get finished but /usr/bin/chromium is missing" >&2
  exit 1
fi
echo "chromium: installed ($(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium))"
