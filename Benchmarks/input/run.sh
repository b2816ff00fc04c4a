#!/usr/bin/env bash
# Input round trip: a keystroke's post to the patch it causes. A release `movies` on loopback over a temporary
# SQLite database (seeded from the shipped catalog), and from a second process (roundtrip.py, Python's standard
# library only) one list screen on a shared stream (wire protocol v2), as a browser tab has it: ITERATIONS posts of
# its search field (POST /screens/{sid}/input, name=q, event=change) with values that each filter the list
# differently, each timed from just before it is sent to the arrival of the `patch` event it causes. Prints p50, p99
# and max in ms.
#
# Usage: Benchmarks/input/run.sh [--iterations 500] [--warmup 10] [--values "dr,co,th,sa,"]
# Needs: python3, curl. Run from anywhere; builds in release mode first.
# Under Benchmarks/run.sh (`make bench`) the figures are also recorded for its JSON file (Benchmarks/figures.py):
# input.p50, input.p99, input.max.
set -euo pipefail

ITERATIONS=500
WARMUP=10
VALUES="dr,co,th,sa,"
while [ $# -gt 0 ]; do
    case "$1" in
        --iterations) ITERATIONS=$2; shift 2 ;;
        --warmup) WARMUP=$2; shift 2 ;;
        --values) VALUES=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(mktemp -d)
SERVER_PID=""

stop_server() {
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    fi
}
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT

for tool in python3 curl; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done

echo "== building movies (release)"
(cd "$ROOT" && swift build -c release --product movies -Xswiftc -warnings-as-errors >/dev/null)
BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)/movies

# A port nothing listens on, picked by the kernel.
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

"$BIN" --root "$ROOT" --port "$PORT" --database "$WORK/run.sqlite" --no-access-log --log-level warning \
    >>"$WORK/server.log" 2>&1 &
SERVER_PID=$!
started=0
for _ in $(seq 200); do
    curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && { started=1; break; }
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.05
done
[ "$started" = 1 ] || { echo "movies did not start" >&2; cat "$WORK/server.log" >&2; exit 1; }

echo "== input round trip: $ITERATIONS search posts on one list screen, post to patch"
python3 "$HERE/roundtrip.py" --port "$PORT" --iterations "$ITERATIONS" --warmup "$WARMUP" --values "$VALUES"
stop_server
