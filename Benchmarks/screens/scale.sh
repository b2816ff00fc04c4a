#!/usr/bin/env bash
# Scale on one machine: 100,000 live screens on one movie app, over shared streams (a browser's tabs share one stream;
# ten screens a stream by default, so the server and the client each hold 10,000 sockets, within this machine's limit
# of open files), 99% of them showing movie 1 and 1% movie 2. Reports the server's memory a screen, its CPU while
# nothing but heartbeats flows, and the time to the last delivery of a change every screen watches and of one 1%
# watch (Benchmarks/screens/screens.py scale).
#
# Usage: Benchmarks/screens/scale.sh [--screens 100000] [--shared 10] [--idle-seconds 35] [--bin PATH]
# Needs: python3, cc (Debian). Builds the app in release mode first unless --bin names a binary.
set -euo pipefail

SCREENS=100000
SHARED=10
IDLE=35
BIN=""
while [ $# -gt 0 ]; do
    case "$1" in
        --screens) SCREENS=$2; shift 2 ;;
        --shared) SHARED=$2; shift 2 ;;
        --idle-seconds) IDLE=$2; shift 2 ;;
        --bin) BIN=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

if [ -z "$BIN" ]; then
    echo "== building movies (release)"
    (cd "$ROOT" && swift build -c release --product movies -Xswiftc -warnings-as-errors >/dev/null)
    BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)/movies
fi

# Every stream is a descriptor on each side; the hard limit is as far as an unprivileged process goes.
ulimit -n "$(ulimit -Hn)"
STREAMS=$((SCREENS / SHARED + 200))
if [ "$STREAMS" -gt "$(ulimit -Hn)" ]; then
    echo "$SCREENS screens at $SHARED a stream need $STREAMS descriptors; the limit is $(ulimit -Hn): raise --shared" >&2
    exit 1
fi
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN" --port "$PORT" --root "$ROOT" --database "$WORK/movies.sqlite" --no-access-log \
    --max-sessions $((SCREENS * 2)) --max-connections "$STREAMS" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 300); do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.1; done

python3 "$HERE/screens.py" scale --port "$PORT" --pid "$SERVER_PID" --streams "$SCREENS" --shared "$SHARED" \
    --seconds "$IDLE" --timeout 120 --expect-all ${BENCH_FIGURES:+--figures scale}
