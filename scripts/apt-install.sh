#!/bin/sh
# Installs Debian packages with apt-get, as root or through sudo: the one way the project's install scripts
# (install-chromium.sh, install-interpreters.sh) reach Debian. Usage: apt-install.sh WHO PACKAGE...
# (WHO names the calling script in messages). Exits 2 when apt-get or root is not to be had.
set -eu

who=$1
shift

if ! command -v apt-get >/dev/null 2>&1; then
  echo "$who: apt-get not found; install $* by other means" >&2
  exit 2
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "$who: needs root (or sudo) to run apt-get" >&2
    exit 2
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
# shellcheck disable=SC2086,SC2048 # one word per package
$SUDO apt-get install -y --no-install-recommends $*
