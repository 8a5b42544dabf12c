#!/usr/bin/env bash
# A Docker engine for the container tests (docker-compose.yml, the image, Testcontainers).
#
#   container-engine.sh prepare        install the engine and build the base images (cached)
#   container-engine.sh up [--pid P] [--if-prepared]
#                                      use the engine that answers, or start ours; prints env lines
#   container-engine.sh down [--pid P] drop P's lease; the last one stops the engine we started
#   container-engine.sh status         what of ours is running (nothing, after the tests)
#
# An engine that already answers (DOCKER_HOST, or /var/run/docker.sock) is used as it is and never
# stopped. Otherwise we run Debian's dockerd by hand (machines like CI have no systemd), on our own
# socket and data root: dockerd runs healthchecks itself, so Compose's `service_healthy` works
# (podman needs systemd timers for them). Base images come from the registry when it answers;
# where none does, they are built from a debootstrapped Debian and kept in the data root, so only
# the first run on a machine pays for them.
#
# `up` exits 3 with one line on stderr naming what is missing when there is no engine and none can
# be installed (not root, no apt-get); the tests then skip (or fail under CI=1). Several test runs
# can share the engine: each holds a lease (its pid) and the last `down` stops what `up` started,
# removes every container, network and volume in it, and puts back the firewall rules, the
# forwarding switch and the bridges as they were before dockerd changed them.
set -euo pipefail

STATE_DIR=${WQ_CONTAINER_STATE:-/var/lib/weak-queens-containers}
RUN_DIR=${WQ_CONTAINER_RUN:-/run/weak-queens-containers}
SOCK="$RUN_DIR/docker.sock"
OUR_HOST="unix://$SOCK"
DEBIAN_SUITE=bookworm
DEBIAN_MIRROR=${WQ_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# The official images, as users get them; the local stand-ins the tests build when no registry
# answers (same roles: `node` user 1000, redis-server on PATH with /data as its directory).
OFFICIAL_NODE_IMAGE=node:20-bookworm-slim
OFFICIAL_REDIS_IMAGE=redis:7-alpine
LOCAL_DEBIAN_IMAGE=weak-queens-test/debian:$DEBIAN_SUITE
LOCAL_NODE_IMAGE=weak-queens-test/node:20-$DEBIAN_SUITE
LOCAL_REDIS_IMAGE=weak-queens-test/redis:7-$DEBIAN_SUITE
# Bump when the local images' recipes below change, so cached ones are rebuilt.
LOCAL_RECIPE=1
PULL_TIMEOUT_S=20
# The 28.x client needs the buildx plugin for BuildKit; the classic builder is enough here.
export DOCKER_BUILDKIT=0

log() { echo "container-engine: $*" >&2; }

# Exit 3: what is missing, in one line (the tests print it when they skip).
missing() {
  echo "container tests need $1" >&2
  exit 3
}

answers() { DOCKER_HOST=$1 timeout 10 docker info >/dev/null 2>&1; }

can_install() { [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; }

# Debian packages for the commands that are missing.
install_packages() {
  local wanted=() pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || wanted+=("${pair#*:}")
  done
  [ ${#wanted[@]} -eq 0 ] && return 0
  [ -n "$IF_PREPARED" ] && missing "${wanted[*]} (run: bash scripts/container-engine.sh prepare, or npm test)"
  if ! can_install; then
    missing "${wanted[*]} (Debian: apt-get install ${wanted[*]}; as root, or start a Docker engine and set DOCKER_HOST)"
  fi
  log "installing ${wanted[*]}"
  # policy-rc.d keeps the package from starting a system dockerd of its own.
  local policy=/usr/sbin/policy-rc.d made_policy=
  if [ ! -e $policy ]; then
    printf '#!/bin/sh\nexit 101\n' >$policy && chmod +x $policy && made_policy=1
  fi
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${wanted[@]}" >/dev/null; } || {
    [ -n "$made_policy" ] && rm -f $policy
    missing "${wanted[*]} (apt-get install ${wanted[*]} failed)"
  }
  [ -n "$made_policy" ] && rm -f $policy
  return 0
}

# DOCKER_HOST of an engine that answers without us, or nothing.
external_engine() {
  if [ -n "${DOCKER_HOST:-}" ] && [ "$DOCKER_HOST" != "$OUR_HOST" ]; then
    answers "$DOCKER_HOST" && echo "$DOCKER_HOST"
    return 0
  fi
  if [ -S /var/run/docker.sock ] && answers unix:///var/run/docker.sock; then
    echo unix:///var/run/docker.sock
  fi
  return 0
}

start_dockerd() {
  install_packages dockerd:docker.io
  mkdir -p "$RUN_DIR" "$STATE_DIR/docker"
  # What dockerd changes on the host, to put back when it stops.
  iptables-save >"$RUN_DIR/iptables.before" 2>/dev/null || true
  ip6tables-save >"$RUN_DIR/ip6tables.before" 2>/dev/null || true
  sysctl -n net.ipv4.ip_forward >"$RUN_DIR/ip_forward.before"
  ip -o link show type bridge | awk -F': ' '{print $2}' >"$RUN_DIR/bridges.before"
  log "starting dockerd (data root $STATE_DIR/docker)"
  # 9>&-: dockerd must not inherit the lock's descriptor (it would hold the lock for its life).
  setsid dockerd -H "$OUR_HOST" --data-root "$STATE_DIR/docker" --exec-root "$RUN_DIR/exec" \
    --pidfile "$RUN_DIR/dockerd.pid" </dev/null >"$RUN_DIR/dockerd.log" 2>&1 9>&- &
  echo $! >"$RUN_DIR/started"
  local i
  for i in $(seq 1 60); do
    answers "$OUR_HOST" && return 0
    kill -0 "$(cat "$RUN_DIR/started")" 2>/dev/null || break
    sleep 0.5
  done
  log "dockerd did not answer; its log: $RUN_DIR/dockerd.log"
  tail -5 "$RUN_DIR/dockerd.log" >&2 || true
  stop_dockerd
  missing "a Docker engine (dockerd did not start: $(tail -1 "$RUN_DIR/dockerd.log" 2>/dev/null))"
}

stop_dockerd() {
  local pid
  pid=$(cat "$RUN_DIR/started" 2>/dev/null || true)
  [ -n "$pid" ] || return 0
  if kill -0 "$pid" 2>/dev/null && answers "$OUR_HOST"; then
    local ids
    ids=$(DOCKER_HOST=$OUR_HOST docker ps -aq)
    [ -n "$ids" ] && DOCKER_HOST=$OUR_HOST docker rm -f -v $ids >/dev/null 2>&1
    DOCKER_HOST=$OUR_HOST docker network prune -f >/dev/null 2>&1 || true
    DOCKER_HOST=$OUR_HOST docker volume prune -f >/dev/null 2>&1 || true
  fi
  kill -TERM "$pid" 2>/dev/null || true
  local i
  for i in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill -KILL "$pid" 2>/dev/null || true
  # dockerd's containerd and shims live under our exec root; none may outlive it.
  local left
  left=$(pgrep -f "$RUN_DIR/exec" || true)
  [ -n "$left" ] && kill -KILL $left 2>/dev/null || true
  restore_host
  rm -f "$RUN_DIR/started" "$SOCK"
  log "dockerd stopped"
}

restore_host() {
  [ -f "$RUN_DIR/iptables.before" ] && iptables-restore <"$RUN_DIR/iptables.before" 2>/dev/null || true
  [ -f "$RUN_DIR/ip6tables.before" ] && ip6tables-restore <"$RUN_DIR/ip6tables.before" 2>/dev/null || true
  [ -f "$RUN_DIR/ip_forward.before" ] && sysctl -q -w "net.ipv4.ip_forward=$(cat "$RUN_DIR/ip_forward.before")" || true
  local bridge
  for bridge in $(ip -o link show type bridge | awk -F': ' '{print $2}' | sed 's/@.*//'); do
    case $bridge in docker0 | br-*) ;; *) continue ;; esac
    grep -qx "$bridge" "$RUN_DIR/bridges.before" 2>/dev/null || ip link del "$bridge" 2>/dev/null || true
  done
  rm -f "$RUN_DIR"/iptables.before "$RUN_DIR"/ip6tables.before "$RUN_DIR"/ip_forward.before \
    "$RUN_DIR"/bridges.before
}

has_image() { docker image inspect "$1" >/dev/null 2>&1; }

pulled() {
  has_image "$1" && return 0
  timeout "$PULL_TIMEOUT_S" docker pull -q "$1" >/dev/null 2>&1
}

# Debian's root file system from the mirror, as an image (the tarball is kept: ~2.5 min to make).
build_debian() {
  has_image "$LOCAL_DEBIAN_IMAGE" && return 0
  local tarball="$STATE_DIR/debian-$DEBIAN_SUITE.tar"
  if [ ! -s "$tarball" ]; then
    can_install || missing "a Debian base image (no registry answers; debootstrap needs root)"
    install_packages debootstrap:debootstrap
    local root="$STATE_DIR/rootfs.tmp"
    rm -rf "$root"
    log "debootstrap $DEBIAN_SUITE (no registry answers; about 2.5 minutes, once per machine)"
    debootstrap --variant=minbase "$DEBIAN_SUITE" "$root" "$DEBIAN_MIRROR" >"$STATE_DIR/debootstrap.log" 2>&1 ||
      missing "a Debian base image (debootstrap failed: $(tail -1 "$STATE_DIR/debootstrap.log"))"
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
    tar -C "$root" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$root"
  fi
  docker import "$tarball" "$LOCAL_DEBIAN_IMAGE" >/dev/null
}

# Node 20 on that Debian: this machine's own node and npm (Debian's nodejs is 18, without npm),
# a uid-1000 `node` user as in the official image, and this machine's certificate authorities so
# that `npm ci` in a build trusts what the host trusts (an egress proxy's CA, say).
build_node() {
  local ctx
  ctx=$(mktemp -d)
  cp "$(readlink -f "$(command -v node)")" "$ctx/node"
  cp -r "$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")" "$ctx/npm"
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/ca-certificates.crt"
  cat >"$ctx/Dockerfile" <<EOF
FROM $LOCAL_DEBIAN_IMAGE
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
LABEL weak-queens.recipe=$LOCAL_RECIPE
CMD ["node"]
EOF
  docker build -q -t "$LOCAL_NODE_IMAGE" "$ctx" >/dev/null
  rm -rf "$ctx"
}

# Debian's redis-server (7.0), started the way the official image starts it: protected mode off
# (the container's network is the boundary), /data as its directory, as the `redis` user.
build_redis() {
  local ctx
  ctx=$(mktemp -d)
  cat >"$ctx/entrypoint.sh" <<'EOF'
#!/bin/sh
set -e
if [ "${1#-}" != "$1" ]; then set -- redis-server "$@"; fi
if [ "$1" = redis-server ]; then
  case " $* " in *" --protected-mode "*) ;; *) set -- "$@" --protected-mode no ;; esac
fi
exec "$@"
EOF
  cat >"$ctx/Dockerfile" <<EOF
FROM $LOCAL_DEBIAN_IMAGE
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \\
      redis-server && rm -rf /var/lib/apt/lists/* \\
 && mkdir /data && chown redis:redis /data
COPY entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN chmod 755 /usr/local/bin/docker-entrypoint.sh
WORKDIR /data
VOLUME /data
USER redis
EXPOSE 6379
LABEL weak-queens.recipe=$LOCAL_RECIPE
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["redis-server"]
EOF
  docker build -q -t "$LOCAL_REDIS_IMAGE" "$ctx" >/dev/null
  rm -rf "$ctx"
}

current() {
  [ "$(docker image inspect -f '{{index .Config.Labels "weak-queens.recipe"}}' "$1" 2>/dev/null)" = "$LOCAL_RECIPE" ]
}

# Sets NODE_IMAGE and REDIS_IMAGE: the official ones when present or pullable, else local ones.
ensure_images() {
  if has_image "$OFFICIAL_NODE_IMAGE" && has_image "$OFFICIAL_REDIS_IMAGE"; then
    NODE_IMAGE=$OFFICIAL_NODE_IMAGE REDIS_IMAGE=$OFFICIAL_REDIS_IMAGE
    return 0
  fi
  # Local ones built on an earlier run: the registry did not answer then, no need to ask again.
  if ! current "$LOCAL_NODE_IMAGE" || ! current "$LOCAL_REDIS_IMAGE"; then
    if pulled "$OFFICIAL_NODE_IMAGE" && pulled "$OFFICIAL_REDIS_IMAGE"; then
      NODE_IMAGE=$OFFICIAL_NODE_IMAGE REDIS_IMAGE=$OFFICIAL_REDIS_IMAGE
      return 0
    fi
    [ -n "$IF_PREPARED" ] && missing "base images (run: bash scripts/container-engine.sh prepare, or npm test)"
    local started=$SECONDS
    build_debian
    current "$LOCAL_NODE_IMAGE" || build_node
    current "$LOCAL_REDIS_IMAGE" || build_redis
    log "base images built in $((SECONDS - started)) s: $LOCAL_NODE_IMAGE, $LOCAL_REDIS_IMAGE"
  fi
  NODE_IMAGE=$LOCAL_NODE_IMAGE REDIS_IMAGE=$LOCAL_REDIS_IMAGE
}

# Sets COMPOSE to a Compose command that answers (the v2 plugin, else docker-compose 1.29+).
ensure_compose() {
  if docker compose version >/dev/null 2>&1; then
    COMPOSE="docker compose"
    return 0
  fi
  install_packages docker-compose:docker-compose
  COMPOSE=docker-compose
}

prune_leases() {
  local lease
  for lease in "$RUN_DIR"/leases/*; do
    [ -e "$lease" ] || continue
    kill -0 "$(basename "$lease")" 2>/dev/null || rm -f "$lease"
  done
}

leases_left() { [ -n "$(ls -A "$RUN_DIR/leases" 2>/dev/null)" ]; }

with_lock() {
  mkdir -p "$RUN_DIR/leases" 2>/dev/null || missing "a Docker engine (cannot write $RUN_DIR; run as root or set DOCKER_HOST)"
  exec 9>"$RUN_DIR/lock"
  flock -w 900 9 || missing "a Docker engine (another test run has held $RUN_DIR/lock for 15 minutes)"
}

pid=$PPID
cmd=${1:-}
shift || true
# --if-prepared: use only what `prepare` installed and built (a single test file run by hand
# should not start a 3-minute build); `up` without it installs and builds what is missing.
IF_PREPARED=
while [ $# -gt 0 ]; do
  case $1 in
    --pid) pid=$2 && shift 2 ;;
    --if-prepared) IF_PREPARED=1 && shift ;;
    *) echo "unknown argument: $1" >&2 && exit 2 ;;
  esac
done

case $cmd in
  prepare)
    # Installs and builds what `up` needs; leaves nothing running.
    host=$(external_engine)
    if [ -n "$host" ]; then
      export DOCKER_HOST=$host
      ensure_images
      ensure_compose
      exit 0
    fi
    install_packages dockerd:docker.io docker-compose:docker-compose
    if [ -f "$STATE_DIR/images.ok" ] && [ "$(cat "$STATE_DIR/images.ok")" = "$LOCAL_RECIPE" ]; then
      exit 0
    fi
    with_lock
    prune_leases
    [ -f "$RUN_DIR/started" ] || start_dockerd
    export DOCKER_HOST=$OUR_HOST
    status=0
    (ensure_images) || status=$?
    leases_left || stop_dockerd
    [ $status -eq 0 ] && echo "$LOCAL_RECIPE" >"$STATE_DIR/images.ok"
    exit $status
    ;;
  up)
    host=$(external_engine)
    engine=external
    if [ -z "$host" ]; then
      with_lock
      prune_leases
      if [ -f "$RUN_DIR/started" ] && answers "$OUR_HOST"; then
        engine=ours
      else
        [ -f "$RUN_DIR/started" ] && stop_dockerd
        start_dockerd
        engine=started
      fi
      host=$OUR_HOST
      touch "$RUN_DIR/leases/$pid"
      # Whatever fails from here drops the lease, and stops dockerd when no one else holds one.
      trap 'status=$?; if [ $status -ne 0 ]; then rm -f "$RUN_DIR/leases/$pid"; leases_left || stop_dockerd; fi' EXIT
    fi
    export DOCKER_HOST=$host
    ensure_images
    ensure_compose
    echo "DOCKER_HOST=$host"
    echo "WQ_CONTAINER_ENGINE=$engine"
    echo "WQ_NODE_IMAGE=$NODE_IMAGE"
    echo "WQ_REDIS_IMAGE=$REDIS_IMAGE"
    echo "WQ_COMPOSE=$COMPOSE"
    ;;
  down)
    [ -d "$RUN_DIR" ] || exit 0
    with_lock
    rm -f "$RUN_DIR/leases/$pid"
    prune_leases
    if ! leases_left && [ -f "$RUN_DIR/started" ]; then stop_dockerd; fi
    ;;
  status)
    # One line per thing of ours still running; nothing at all when everything is stopped.
    for lease in "$RUN_DIR"/leases/*; do
      [ -e "$lease" ] && kill -0 "$(basename "$lease")" 2>/dev/null && echo "lease $(basename "$lease")"
    done
    [ -f "$RUN_DIR/started" ] && echo "dockerd $(cat "$RUN_DIR/started") ($OUR_HOST)"
    pgrep -af "$RUN_DIR/exec" || true
    ip -o link show type bridge | awk -F': ' '{print $2}' | grep -E '^(docker0|br-)' |
      sed 's/^/bridge /' || true
    ;;
  *)
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
