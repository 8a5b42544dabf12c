#!/usr/bin/env bash
# What every test needs from the machine beyond Node and npm: redis-server (private servers for
# the Redis tests), g++ (the C++ yardsticks), iproute2 (the multi-host test's network
# namespaces), openssl (a throwaway CA for the TLS tests) and Debian's Chromium (the dashboard's
# browser test). Installs what is missing when
# it can (root and apt-get); otherwise names what is missing and fails, so no test skips silently.
set -euo pipefail

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[ -x /usr/bin/chromium ] || missing+=(chromium)
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
