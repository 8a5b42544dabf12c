#!/usr/bin/env bash
# A worker of an older build beside one of this checkout's, on one private Redis: this build's
# sweep of 1..N and its `wq verify`, then a sweep of N+1 by the old build's own CLI, which this
# build verifies too. Prints each command's output and, per queue, which worker took its jobs.
# The old build is exported with `git archive` into a temporary directory and built there.
# Usage: bash scripts/mixed-builds.sh <old-commit> [N=12]   (needs redis-server and `npm run build`)
set -euo pipefail
OLD_COMMIT=${1:?usage: mixed-builds.sh <old-commit> [N]}
N=${2:-12}
cd "$(dirname "$0")/.."
NEW=$PWD
DIR=$(mktemp -d)
PORT=${PORT:-6396}
OLD=$DIR/old
mkdir -p "$OLD"
git archive "$OLD_COMMIT" | tar -x -C "$OLD"
(cd "$OLD" && npm ci --prefer-offline --no-audit --no-fund >/dev/null &&
  npx turbo run build --filter=@weak-queens/worker --filter=@weak-queens/producer \
    --output-logs=errors-only >/dev/null)
redis-server --port "$PORT" --save '' --appendonly no --dir "$DIR" --daemonize yes >/dev/null
stop() {
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  redis-cli -p "$PORT" shutdown nosave >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop EXIT
export REDIS_URL=redis://127.0.0.1:$PORT WQ_PREFIX=mixed LOG_LEVEL=warn WQ_CONCURRENCY=1
node "$OLD/worker/dist/main.js" &
node "$NEW/worker/dist/main.js" &
sleep 4
new() { node "$NEW/producer/bin/wq.js" "$@"; }
old() { node "$OLD/producer/bin/wq.js" "$@"; }
run() { echo "== $*"; "$@" || echo "(exit $?)"; }

run new sweep "1-$N" --wait --json
run new status
run new verify "1-$N"
run old sweep "$((N + 1))" --wait --json
run new verify "1-$((N + 1))"
echo "== jobs taken, by queue and worker"
for key in $(redis-cli -p "$PORT" --scan --pattern 'mixed:*'); do
  [ "$(redis-cli -p "$PORT" type "$key")" = hash ] || continue
  by=$(redis-cli -p "$PORT" hget "$key" pb)
  if [ -n "$by" ]; then echo "$(echo "$key" | cut -d: -f2) $by"; fi
done | sort | uniq -c
