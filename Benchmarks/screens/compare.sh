#!/usr/bin/env bash
# Two builds of `movies` side by side: alternating rounds of one fan-out (`screens.py fanout`), each on a fresh
# server with its own temporary database, A then B then A..., so that both meet the same moments of a shared
# machine. Prints every round and then, per build, the medians of the first arrival, p50, p99 and the server's CPU
# (its threads' schedstat) from the PATCH to the last arrival. On these two shared cores a fan-out's p99 moves by
# ±15% round to round: compare medians of several rounds, and instruction counts (profile.sh) for the steady figure.
# With --pages: page loads instead of a fan-out, `wrk -t2 -c64` for 8 s after a 2 s warm-up on each fresh server,
# every session kept or, with --max-sessions N, each page past the cap ending the oldest session; medians of the
# requests/s, p50 and p99. With --action: the action round trip instead (`screens.py action`: 200 refreshes posted
# from script on one screen, each from the post to the first patch on its stream); medians of the p50 and p99.
#
# With --shared K: K screens a shared stream in the fan-out (`screens.py fanout --shared K`).
#
# Usage: Benchmarks/screens/compare.sh A_BINARY B_BINARY [--streams 1000] [--shared K] [--rounds 8]
#            [--pages [--max-sessions N]] [--action]
#   Build a second binary from another commit with, for example:
#   git worktree add /tmp/base <commit> && (cd /tmp/base && swift build -c release --product movies)
# Needs: python3, a C compiler (`cc`) for the fan-out client.
set -euo pipefail

[ $# -ge 2 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
A=$1
B=$2
shift 2
STREAMS=1000
SHARED=()
ROUNDS=8
PAGES=0
ACTION=0
MAX_SESSIONS=1000000
while [ $# -gt 0 ]; do
    case "$1" in
        --streams) STREAMS=$2; shift 2 ;;
        --shared) SHARED=(--shared "$2"); shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --pages) PAGES=1; shift ;;
        --action) ACTION=1; shift ;;
        --max-sessions) MAX_SESSIONS=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
for binary in "$A" "$B"; do [ -x "$binary" ] || { echo "not an executable: $binary" >&2; exit 2; }; done

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(mktemp -d)
PORT=18096
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# One round: a fresh server on a fresh database, one fan-out (or the page loads), the server stopped. Appends
# "LABEL <output>".
round() {
    local label=$1 binary=$2
    rm -f "$WORK/run.sqlite"*
    "$binary" --root "$ROOT" --port "$PORT" --database "$WORK/run.sqlite" --max-sessions "$MAX_SESSIONS" \
        --max-connections 30000 --log-level warning >>"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    python3 "$HERE/screens.py" pages --port "$PORT" --pages 1 --timeout 30 >/dev/null
    local output
    if [ "$PAGES" = 1 ]; then
        wrk -t2 -c64 -d2s "http://127.0.0.1:$PORT/movies/1" >/dev/null
        output=$(wrk -t2 -c64 -d8s --latency "http://127.0.0.1:$PORT/movies/1" |
            awk 'function ms(text) {  # wrk writes 850.00us, 4.20ms or 1.02s
                    if (text ~ /us$/) return text / 1000; if (text ~ /ms$/) return text + 0; return text * 1000 }
                /Requests\/sec/ { rate = $2 } $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) }
                END { printf "requests/s %s p50 %.2fms p99 %.2fms", rate, p50, p99 }')
    elif [ "$ACTION" = 1 ]; then
        output=$(python3 "$HERE/screens.py" action --port "$PORT" --iterations 200 | grep -E '^action round trip')
    else
        output=$(python3 "$HERE/screens.py" fanout --port "$PORT" --pid "$SERVER_PID" --streams "$STREAMS" \
            ${SHARED[@]+"${SHARED[@]}"} |
            grep -E 'patch received|server CPU' | tr -s ' ' | tr '\n' ' ')
    fi
    kill "$SERVER_PID" && wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
    echo "$label $output" | tee -a "$WORK/rounds"
}

echo "A: $A"
echo "B: $B"
if [ "$PAGES" = 1 ]; then
    echo "$ROUNDS alternating rounds of page loads (wrk -t2 -c64 -d8s), session cap $MAX_SESSIONS"
elif [ "$ACTION" = 1 ]; then
    echo "$ROUNDS alternating rounds of the action round trip (200 refreshes)"
else
    echo "$ROUNDS alternating rounds of $STREAMS screens${SHARED[1]:+, ${SHARED[1]} a shared stream}"
fi
for _ in $(seq 1 "$ROUNDS"); do
    round A "$A"
    round B "$B"
done

python3 - "$WORK/rounds" <<'PYTHON'
import re, statistics, sys
figures = {"A": {}, "B": {}}
patterns = {"first": r"first ([0-9.]+) ms", "p50": r"p50 ([0-9.]+) ms", "p99": r"p99 ([0-9.]+) ms",
            "server CPU": r"last arrival: ([0-9.]+) ms", "requests/s": r"requests/s ([0-9.]+)",
            "page p50": r"p50 ([0-9.]+)ms", "page p99": r"p99 ([0-9.]+)ms",
            "action p50": r"round trip over \d+: p50 ([0-9.]+) ms", "action p99": r"round trip over \d+: .*p99 ([0-9.]+) ms"}
for line in open(sys.argv[1]):
    label = line.split()[0]
    for name, pattern in patterns.items():
        if ("round trip" in line) != name.startswith("action"):
            continue
        match = re.search(pattern, line)
        if match:
            figures[label].setdefault(name, []).append(float(match.group(1)))
for label in ("A", "B"):
    medians = ", ".join(f"{name} {statistics.median(values):.1f}" + ("" if name == "requests/s" else " ms")
                        for name, values in figures[label].items())
    print(f"{label} medians: {medians}")
PYTHON
