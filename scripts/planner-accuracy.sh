#!/usr/bin/env bash
# The planner's makespan against the measured one, after calibration, on this machine:
# S(n) once under prefix {A} on 2 one-slot workers (its units calibrate the cost model), the
# calibration copied to prefix {B}, `wq plan n --workers 2 --slots 1` there, then the same sweep
# timed under {B} end to end (`wq sweep n --wait`: planning, enqueue, counting, the sums).
# Usage: bash scripts/planner-accuracy.sh <n>   (needs redis-server; run `npm run build` first)
set -euo pipefail
N=${1:?usage: planner-accuracy.sh <n>}
cd "$(dirname "$0")/.."
PORT=${PORT:-6395}
DIR=$(mktemp -d)
redis-server --port "$PORT" --save '' --appendonly no --dir "$DIR" --daemonize yes >/dev/null
trap 'redis-cli -p "$PORT" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$DIR"' EXIT
sleep 0.5
URL=redis://127.0.0.1:$PORT
wq() { REDIS_URL=$URL WQ_PREFIX=$1 LOG_LEVEL=warn node producer/bin/wq.js "${@:2}"; }
workers() { for _ in 1 2; do REDIS_URL=$URL WQ_PREFIX=$1 WQ_CONCURRENCY=1 LOG_LEVEL=warn node producer/bin/wq.js worker & done; sleep 3; }
stop() { kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; }

workers '{A}'
wq '{A}' sweep "$N" --wait --json >/dev/null 2>&1
stop
redis-cli -p "$PORT" --raw hgetall '{A}:results:calibration' | paste - - |
  while read -r field value; do redis-cli -p "$PORT" hset '{B}:results:calibration' "$field" "$value" >/dev/null; done
plan=$(wq '{B}' plan "$N" --workers 2 --slots 1 --json | tail -1)
workers '{B}'
started=$(date +%s.%N)
wq '{B}' sweep "$N" --wait --json 2>/dev/null | tail -1
ended=$(date +%s.%N)
stop
echo "planned: $plan"
echo "measured: $(echo "$ended - $started" | bc) s end to end"
