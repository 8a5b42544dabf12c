#!/usr/bin/env bash
# What every test needs from the machine beyond Node and npm: redis-server (private servers for
# the Redis tests), g++ (the C++ yardsticks), iproute2 (the multi-host test's network
# namespaces), openssl (a throwaway CA for the TLS tests) and Debian's Chromium (the dashboard's
# browser test), and a container engine (below). Installs what is missing when
# it can (root and apt-get); otherwise names what is missing and fails, so no test skips silently.
set -euo pipefail

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# faketime: worker processes whose clock is off the Redis server's (test/clock-skew.test.ts).
command -v faketime >/dev/null 2>&1 || missing+=(faketime)

# The container tests (Compose, the image, Testcontainers): a Docker engine and base images,
# installed and built once per machine (scripts/container-engine.sh). Without them, those tests
# skip with one line saying what is missing; under CI=1 that is a failure here.
if ! bash "$(dirname "$0")/container-engine.sh" prepare; then
  if [ -n "${CI:-}" ] && [ "${CI}" != false ]; then
    echo "CI=1: the container tests need an engine (above)" >&2
    exit 1
  fi
fi

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing: ${missing[*]}" >&2
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && command -v apt-get >/dev/null 2>&1; then
  echo "installing: ${missing[*]}" >&2
  sudo apt-get update
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "the tests need: ${missing[*]} (Debian: apt-get install ${missing[*]}); not installed, and this user cannot install them" >&2
  exit 1
fi
