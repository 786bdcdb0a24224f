#!/usr/bin/env bash
# Smoke test of the Docker image, built from the working tree (uncommitted changes too):
#
#   1. `docker run`: the image's HEALTHCHECK turns healthy; /health, the home page and
#      a rules text answer; the server runs as non-root and writes the /data volume; a new
#      room's WebSocket answers hello with welcome then snapshot. Then `docker stop`:
#      it must take < 5 s, close that socket with 1001 or 1012, and the server must exit
#      with status 0. Then the container is removed.
#   2. The same once through docker/compose.yml (Debian's docker-compose if present, else
#      `docker compose`; docker-compose is installed with apt-get when neither is), with
#      its own project name and a random port; `down -v` removes it all again.
#
# One PASS/FAIL line per check; exits 1 when any check failed, 0 when all passed.
# Needs a running Docker daemon. With no container registry reachable, a local
# python:3.11-slim image must exist first (a Debian bookworm with Python 3.11, tagged so).
#
# Environment: SMOKE_PYTHON  a host python with `websockets` for the client (default: the
#                            repo's .venv, then python3; else the client runs in a
#                            container of the image, on the host network)
#              SMOKE_LOGS=1  print each container's log after it stopped
# Note: the compose step builds and tags demon-devils-grip:latest, as `up --build` does.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
TAG=demon-devils-grip:smoke
NAME=demon-smoke-$$
PROJECT=demonsmoke$$
COMPOSE_FILE=docker/compose.yml
TMP=$(mktemp -d)
RESULTS=$TMP/results
: >"$RESULTS"
VERSION=$(sed -n 's/^__version__ *= *"\(.*\)".*/\1/p' app/__init__.py | head -n 1)
COMPOSE=()
CLIENT_PID=

pass() { echo "PASS  [$1] $2" | tee -a "$RESULTS"; }
fail() { echo "FAIL  [$1] $2" | tee -a "$RESULTS"; }
info() { echo "      [$1] $2"; }
indent() { sed 's/^/        | /'; }
seconds_since() { awk -v t0="$1" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.2f", t1 - t0 }'; }

cleanup() {
  if [ -n "$CLIENT_PID" ]; then kill "$CLIENT_PID" 2>/dev/null; fi
  docker rm -f -v "$NAME" >/dev/null 2>&1
  if [ ${#COMPOSE[@]} -gt 0 ]; then
    "${COMPOSE[@]}" -p "$PROJECT" -f "$COMPOSE_FILE" down -v --remove-orphans >/dev/null 2>&1
  fi
  docker rmi "$TAG" >/dev/null 2>&1
  rm -rf "$TMP"
}
trap cleanup EXIT

summary() {
  local failed total
  failed=$(grep -c '^FAIL' "$RESULTS")
  total=$(grep -c -E '^(PASS|FAIL)' "$RESULTS")
  echo
  if [ "$failed" -eq 0 ]; then
    echo "SMOKE PASS: $total checks passed"
    exit 0
  fi
  echo "SMOKE FAIL: $failed of $total checks failed"
  exit 1
}

# ------------------------------------------------------------------ the client

PY=
for candidate in "${SMOKE_PYTHON:-}" "$ROOT/.venv/bin/python" python3; do
  if [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1 \
     && "$candidate" -c 'import websockets' >/dev/null 2>&1; then
    PY=$candidate
    break
  fi
done

client() {  # docker/smoke_client.py ARGS..., on the host or in a container of the image
  if [ -n "$PY" ]; then
    "$PY" docker/smoke_client.py "$@"
  else
    docker run --rm --network host -v "$ROOT/docker/smoke_client.py:/smoke_client.py:ro" \
      "$TAG" python /smoke_client.py "$@"
  fi
}

# ------------------------------------------------------------------ the checks

# exercise LABEL CONTAINER BASE_URL WALL STOP_COMMAND...: everything after "the server is
# up". WALL=1: the stop command's own wall time must be < 5 s too (docker stop; not
# Compose, whose CLI takes a second or so to start).
exercise() {
  local label=$1 cid=$2 base=$3 wall=$4
  shift 4
  local uid files t0 rc elapsed server closed_at exit_code line

  client http "$base" "$VERSION" "$label" | tee -a "$RESULTS"

  uid=$(docker exec "$cid" id -u 2>&1)
  if [ -n "$uid" ] && [ "$uid" != 0 ]; then
    pass "$label" "runs as a non-root user (uid $uid)"
  else
    fail "$label" "runs as a non-root user (id -u: '$uid')"
  fi

  # The WebSocket client stays connected while the container is stopped.
  client ws "$base" "$label" >"$TMP/ws" 2>&1 &
  CLIENT_PID=$!
  for _ in $(seq 200); do
    grep -q '^READY' "$TMP/ws" && break
    kill -0 "$CLIENT_PID" 2>/dev/null || break
    sleep 0.1
  done
  sed -n '/^READY/q; p' "$TMP/ws" | tee -a "$RESULTS"
  if ! grep -q '^READY' "$TMP/ws"; then
    fail "$label" "WebSocket client ready within 20 s"
    kill "$CLIENT_PID" 2>/dev/null
    CLIENT_PID=
  fi

  files=$(docker exec "$cid" ls -A /data 2>&1 | tr '\n' ' ')
  if docker exec "$cid" sh -c 'test -n "$(ls -A /data)" && test -w /data'; then
    pass "$label" "the server writes the /data volume (${files% })"
  else
    fail "$label" "the server writes the /data volume (ls -A /data: '${files% }')"
  fi

  # The stop: the command's wall time, and the server's own time from SIGTERM to exit
  # (from Docker's kill and die events), which leaves out the Compose CLI's start-up.
  t0=$(date +%s.%N)
  "$@" >"$TMP/stop.log" 2>&1
  rc=$?
  elapsed=$(seconds_since "$t0")
  server=$(docker events --since "$t0" --until "$(date +%s.%N)" --filter "container=$cid" \
             --format '{{.Action}} {{.TimeNano}}' 2>/dev/null \
           | awk '$1 == "kill" && !k { k = $2 } $1 == "die" { d = $2 }
                  END { if (k && d) printf "%.2f", (d - k) / 1e9; else print "?" }')
  if [ "$rc" -eq 0 ] && awk -v s="$server" -v e="$elapsed" -v w="$wall" \
       'BEGIN { exit !(s != "?" && s < 5 && (w != 1 || e < 5)) }'; then
    pass "$label" "'$*' took $elapsed s; SIGTERM to exit $server s (< 5 s)"
  else
    fail "$label" "'$*' took $elapsed s; SIGTERM to exit $server s (< 5 s); exit status $rc"
    indent <"$TMP/stop.log"
  fi

  if [ -n "$CLIENT_PID" ]; then
    for _ in $(seq 100); do
      kill -0 "$CLIENT_PID" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$CLIENT_PID" 2>/dev/null; then
      kill "$CLIENT_PID" 2>/dev/null
      fail "$label" "WebSocket client finished within 10 s of the stop"
    fi
    wait "$CLIENT_PID" 2>/dev/null
    CLIENT_PID=
    closed_at=$(sed -n 's/^CLOSED_AT //p' "$TMP/ws")
    if [ -n "$closed_at" ]; then
      info "$label" "the socket closed $(awk -v a="$closed_at" -v b="$t0" 'BEGIN { printf "%.2f", a - b }') s after the stop began"
    fi
    sed -n '/^READY/,$ p' "$TMP/ws" | grep -v -E '^(READY|CLOSED_AT)' | while IFS= read -r line; do
      case $line in
        PASS*|FAIL*) echo "$line" | tee -a "$RESULTS" ;;
        *) echo "$line" | indent ;;
      esac
    done
  fi

  exit_code=$(docker inspect -f '{{.State.ExitCode}}' "$cid" 2>&1)
  if [ "$exit_code" = 0 ]; then
    pass "$label" "the server exited with status 0 on SIGTERM"
  else
    fail "$label" "the server exited with status 0 on SIGTERM (got $exit_code; 137 = killed)"
  fi
  if [ "${SMOKE_LOGS:-0}" = 1 ] || grep -q "^FAIL  \[$label\]" "$RESULTS"; then
    info "$label" "container log:"
    docker logs "$cid" 2>&1 | tail -n 40 | indent
  fi
}

# ------------------------------------------------------------------ 0. build

if ! docker info >/dev/null 2>&1; then
  fail build "Docker daemon reachable"
  summary
fi
info build "version $VERSION, client python: ${PY:-in a container of the image}"
t0=$(date +%s.%N)
if docker build -f docker/Dockerfile -t "$TAG" . >"$TMP/build.log" 2>&1; then
  pass build "docker build -f docker/Dockerfile . ($(seconds_since "$t0") s)"
else
  fail build "docker build -f docker/Dockerfile ."
  tail -n 40 "$TMP/build.log" | indent
  summary
fi

# ------------------------------------------------------------------ 1. docker run

label=run
# The image checks its health every 30 s; here every 2 s, so "healthy" comes quickly.
if docker run -d --name "$NAME" -p 127.0.0.1::8000 --health-interval 2s "$TAG" >"$TMP/run.log" 2>&1; then
  pass $label "docker run -d $TAG (container $NAME)"
  health=
  for _ in $(seq 60); do
    health=$(docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{end}} {{.State.Status}}' "$NAME" 2>&1)
    case $health in healthy*|*exited*|*dead*) break ;; esac
    sleep 1
  done
  if [ "${health%% *}" = healthy ]; then
    pass $label "HEALTHCHECK reports healthy"
    port=$(docker port "$NAME" 8000/tcp | head -n 1)
    info $label "published on $port"
    exercise $label "$NAME" "http://127.0.0.1:${port##*:}" 1 docker stop "$NAME"
  else
    fail $label "HEALTHCHECK reports healthy within 60 s (got: $health)"
    docker logs "$NAME" 2>&1 | tail -n 40 | indent
  fi
  if docker rm -v "$NAME" >/dev/null 2>&1 || docker rm -f -v "$NAME" >/dev/null 2>&1; then
    pass $label "container removed"
  else
    fail $label "container removed"
  fi
else
  fail $label "docker run -d $TAG"
  indent <"$TMP/run.log"
fi

# ------------------------------------------------------------------ 2. docker compose

label=compose
if command -v docker-compose >/dev/null 2>&1; then
  COMPOSE=(docker-compose)
elif docker compose version >/dev/null 2>&1; then
  COMPOSE=(docker compose)
else
  info $label "no docker-compose: apt-get install -y docker-compose"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose; } \
    >"$TMP/apt.log" 2>&1
  if command -v docker-compose >/dev/null 2>&1; then
    COMPOSE=(docker-compose)
  else
    fail $label "docker-compose installed"
    tail -n 20 "$TMP/apt.log" | indent
    summary
  fi
fi
info $label "$("${COMPOSE[@]}" version 2>&1 | head -n 1), project $PROJECT"
dc() { "${COMPOSE[@]}" -p "$PROJECT" -f "$COMPOSE_FILE" "$@"; }

if dc config -q >"$TMP/config.log" 2>&1; then
  pass $label "$COMPOSE_FILE is valid (config -q)"
else
  fail $label "$COMPOSE_FILE is valid (config -q)"
  indent <"$TMP/config.log"
fi

t0=$(date +%s.%N)
# 127.0.0.1: + ":8000" = "127.0.0.1::8000": a random free port on the loopback.
if PUBLISH_PORT=127.0.0.1: dc up -d --build >"$TMP/up.log" 2>&1; then
  pass $label "up -d --build ($(seconds_since "$t0") s)"
  cid=$(dc ps -q demon 2>/dev/null | head -n 1)
  up=
  for _ in $(seq 60); do
    docker exec "$cid" python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=2)" \
      >/dev/null 2>&1 && { up=1; break; }
    sleep 1
  done
  if [ -n "$up" ]; then
    pass $label "the server answers /health inside the container"
    restart=$(docker inspect -f '{{.HostConfig.RestartPolicy.Name}}' "$cid")
    if [ "$restart" = unless-stopped ]; then
      pass $label "restart policy unless-stopped"
    else
      fail $label "restart policy unless-stopped (got '$restart')"
    fi
    mount=$(docker inspect -f '{{range .Mounts}}{{if eq .Destination "/data"}}{{.Type}} {{.Name}}{{end}}{{end}}' "$cid")
    if [ "$mount" = "volume ${PROJECT}_demon-data" ]; then
      pass $label "/data is the named volume ${PROJECT}_demon-data"
    else
      fail $label "/data is the named volume ${PROJECT}_demon-data (got '$mount')"
    fi
    port=$(dc port demon 8000 2>/dev/null | head -n 1)
    info $label "published on $port"
    exercise $label "$cid" "http://127.0.0.1:${port##*:}" 0 "${COMPOSE[@]}" -p "$PROJECT" -f "$COMPOSE_FILE" stop
  else
    fail $label "the server answers /health inside the container within 60 s"
    dc logs --tail 40 2>&1 | indent
  fi
else
  fail $label "up -d --build"
  tail -n 40 "$TMP/up.log" | indent
fi
if dc down -v --remove-orphans >"$TMP/down.log" 2>&1 \
   && [ -z "$(docker ps -a -q --filter "label=com.docker.compose.project=$PROJECT")" ] \
   && ! docker volume inspect "${PROJECT}_demon-data" >/dev/null 2>&1; then
  pass $label "down -v removed the container and the volume"
else
  fail $label "down -v removed the container and the volume"
  indent <"$TMP/down.log"
fi

summary
