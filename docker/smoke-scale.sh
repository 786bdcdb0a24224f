#!/usr/bin/env bash
# Smoke test of the scaled Docker setup (docker/compose.scale.yml): HAProxy in its own
# container and two server containers, built from the working tree. Brings it up on a
# random port under its own project name, then docker/smoke_scale_client.py plays rooms
# on both processes through the balancer with real WebSockets, opens every kind of link
# ten times (rooms, spectators, own and shared replays, the daily race's table and
# replays, Devil's Grip games, recent games; a second daily attempt refused on every
# process), tries /metrics in several spellings through the balancer, SIGKILLs app-a
# mid-round (app-b's room is unaffected; app-a's rooms and Devil's Grip games come back
# after `start` with every acknowledged move), drains app-a (SIGUSR1: new rooms go to
# app-b, its own room plays on) and checks recent games cover both. Then the backup
# one-liner with no terminal (setsid, stdin from /dev/null, as from cron) on both
# processes, its copy-off twice, and a stop right after a start (exit 0, within the
# grace period). `down -v` removes everything.
#
# One PASS/FAIL line per check; exits 1 when any failed. Needs a running Docker daemon
# (.ci/run skips this script where `docker info` fails). With no container registry
# reachable, a local python:3.11-slim image must exist first (any Debian bookworm image with
# Python 3.11 tagged so); the balancer is built FROM it too (compose.scale.yml's default).
#
# Environment: SMOKE_PYTHON  host python with httpx, websockets and pytest (default .venv)
#              SMOKE_LOGS=1  print every container's log at the end
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
PROJECT=demonscale$$
TMP=$(mktemp -d)
COMPOSE=()
FAILED=0

pass() { echo "PASS  [scale] $1"; }
fail() { echo "FAIL  [scale] $1"; FAILED=1; }
info() { echo "      [scale] $1"; }

if command -v docker-compose >/dev/null 2>&1; then
  COMPOSE=(docker-compose)
elif docker compose version >/dev/null 2>&1; then
  COMPOSE=(docker compose)
else
  info "no docker-compose: apt-get install -y docker-compose"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose; } >/dev/null 2>&1
  command -v docker-compose >/dev/null 2>&1 && COMPOSE=(docker-compose)
fi
if [ ${#COMPOSE[@]} -eq 0 ]; then
  fail "docker-compose available"
  exit 1
fi
PY=${SMOKE_PYTHON:-$ROOT/.venv/bin/python}
[ -x "$PY" ] || PY=python3

# The daily race's key, one for both processes (compose.scale.yml requires it).
DEMON_DAILY_SECRET=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
export DEMON_DAILY_SECRET

# Test settings: quick countdowns, no certified-deal search eating the CPU, and the
# per-address budgets out of the way (every request here comes from this one host).
cat >"$TMP/override.yml" <<YML
x-test-env: &test_env
  DEMON_COUNTDOWN_S: "0.2"
  DEMON_WINNABLE_READY: "0"
  DEMON_RATE_PER_S: "400"
  DEMON_RATE_BURST: "400"
  DEMON_ROOM_CREATE_BURST: "1000"
  DEMON_JOIN_BURST: "1000"
  DEMON_GRIP_CREATE_BURST: "1000"
  DEMON_MISS_BURST: "1000"
  DEMON_DAILY_TIME_LIMIT_S: "3"
  DEMON_BOT_THINK_SCALE: "0.2"
services:
  app-a:
    environment: *test_env
  app-b:
    environment: *test_env
YML
DC=("${COMPOSE[@]}" -p "$PROJECT" -f "$ROOT/docker/compose.scale.yml" -f "$TMP/override.yml")

cleanup() {
  if [ "${SMOKE_LOGS:-}" = 1 ]; then "${DC[@]}" logs --no-color 2>&1 | tail -n 200; fi
  "${DC[@]}" down -v --remove-orphans >/dev/null 2>&1
  rm -rf "$TMP"
}
trap cleanup EXIT

PORT=$((20000 + RANDOM % 20000))
export PUBLISH_PORT=127.0.0.1:$PORT
# A /24 of its own, so that runs side by side (and a real deployment) do not collide.
export BALANCER_NET=10.$((100 + RANDOM % 100)).$((RANDOM % 250))
info "$("${COMPOSE[@]}" version 2>&1 | head -n 1), project $PROJECT, port $PORT"

if "${DC[@]}" config -q; then pass "docker/compose.scale.yml is valid (config -q)"; else fail "docker/compose.scale.yml is valid"; fi
if "${DC[@]}" up -d --build >"$TMP/up.log" 2>&1; then
  pass "up -d --build: balancer + app-a + app-b"
else
  fail "up -d --build: balancer + app-a + app-b"
  tail -n 30 "$TMP/up.log"
  exit 1
fi

"$PY" docker/smoke_scale_client.py "http://127.0.0.1:$PORT" "${DC[@]}" || FAILED=1

# Backups as cron runs them: no terminal, nothing on standard input.
mkdir -p "$TMP/copies"
backed=1
for svc in app-a app-b; do
  if ! out=$(setsid "${DC[@]}" exec -T "$svc" python -m app backup /data/backups </dev/null 2>&1) \
     || ! grep -q "/data/backups/demon-" <<<"$out"; then
    backed=0; info "$svc: $out"
  fi
done
if [ $backed = 1 ]; then pass "backup one-liner (exec -T) with no terminal, on both processes"; else fail "backup one-liner (exec -T) with no terminal, on both processes"; fi
cid=$("${DC[@]}" ps -q app-a)
docker cp "$cid:/data/backups/." "$TMP/copies/" && docker cp "$cid:/data/backups/." "$TMP/copies/"
if [ ! -e "$TMP/copies/backups" ] && ls "$TMP/copies"/demon-*.sqlite3 >/dev/null 2>&1; then
  pass "copy-off (docker cp .../backups/. ./backups/) twice: the same files, no backups/backups/"
else
  fail "copy-off (docker cp .../backups/. ./backups/) twice: the same files, no backups/backups/"
fi

# A stop right after a start (the restore sequence does one): exit 0, within the grace period.
"${DC[@]}" restart app-b >/dev/null 2>&1
sleep 1
t0=$(date +%s%N)
"${DC[@]}" stop app-b >/dev/null 2>&1
took_ms=$((($(date +%s%N) - t0) / 1000000))
code=$(docker inspect -f '{{.State.ExitCode}}' "$("${DC[@]}" ps -q app-b)")
if [ "$code" = 0 ] && [ "$took_ms" -lt 8000 ]; then
  pass "stop one second after a start: exit 0 in ${took_ms} ms"
else
  fail "stop one second after a start: exit $code in ${took_ms} ms"
fi
"${DC[@]}" start app-b >/dev/null 2>&1

logs=$("${DC[@]}" logs --no-color 2>&1)
if grep -q "shard=A event=" <<<"$logs" && grep -q "shard=B event=" <<<"$logs"; then
  pass "compose logs show both processes' events, each line with its shard"
else
  fail "compose logs show both processes' events, each line with its shard"
fi
if grep -q '"GET /health/accepting HTTP' <<<"$logs"; then
  fail "the balancer's health checks are not in the log at info"
else
  pass "the balancer's health checks are not in the log at info"
fi
exit $FAILED
