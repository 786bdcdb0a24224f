#!/usr/bin/env bash
# Smoke test of the scaled Docker setup (docker/compose.scale.yml): HAProxy in its own
# container and two server containers, built from the working tree. Brings it up on a
# random port under its own project name, then docker/smoke_scale_client.py plays rooms
# on both processes through the balancer with real WebSockets, SIGKILLs app-a mid-round
# (app-b's room is unaffected; app-a's rooms and Devil's Grip games come back after
# `start` with every acknowledged move), drains app-a (SIGUSR1: new rooms go to app-b, its
# own room plays on) and checks recent games cover both. `down -v` removes everything.
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

logs=$("${DC[@]}" logs --no-color 2>&1)
if grep -q "shard=A event=" <<<"$logs" && grep -q "shard=B event=" <<<"$logs"; then
  pass "compose logs show both processes' events, each line with its shard"
else
  fail "compose logs show both processes' events, each line with its shard"
fi
exit $FAILED
