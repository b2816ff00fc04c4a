#!/usr/bin/env bash
# Instructions per page, counted by callgrind: the release `movies` under valgrind, WARMUP pages of `GET /movies/1`
# first, counters zeroed, then PAGES sequential pages on one keep-alive connection, counters dumped. Instruction
# counts repeat to within a fraction of a percent on a busy machine, where wall-clock figures do not.
# With --fanout N: instructions per screen of a fan-out instead: N detail screens of one movie with their event
# streams (`screens.py fanout`), counted from just before the rating PATCH to the patch's arrival on every stream;
# with --shared S as well, the N screens share N/S streams, S screens each (the shared fan-out of `run.sh`).
# With --http-floor: instructions per page of HTTPServer alone instead (`HTTPBenchmarkServer`, its 5 KB `/dynamic`
# page made per request, one handler thread), counted the same way: what a page costs with no screen at all.
#
# Usage: Benchmarks/screens/profile.sh [--pages 300] [--warmup 30] [--fanout N [--shared S] | --http-floor] [--keep DIR] [--no-build]
#        [--bin PATH]
# Prints the instructions per page (or per screen); with --keep, leaves the callgrind output in DIR for
# callgrind_annotate. --bin profiles another build of movies (built with other flags, say) instead of the release one.
# Needs: valgrind, python3, a C compiler (`cc`) for --fanout.
set -euo pipefail

PAGES=300
WARMUP=30
FANOUT=0
SHARED=()
FLOOR=0
KEEP=""
BUILD=1
BIN=""
while [ $# -gt 0 ]; do
    case "$1" in
        --pages) PAGES=$2; shift 2 ;;
        --fanout) FANOUT=$2; shift 2 ;;
        --shared) SHARED=(--shared "$2"); shift 2 ;;
        --http-floor) FLOOR=1; shift ;;
        --warmup) WARMUP=$2; shift 2 ;;
        --keep) KEEP=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --bin) BIN=$2; BUILD=0; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

# A port the system has just handed out (as memory.sh's and scale.sh's servers use): another benchmark's server, or
# another checkout's, cannot hold it.
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# shellcheck source=valgrind.sh
source "$(dirname "$0")/valgrind.sh"

# Prints the instructions per unit of the callgrind dump named TRIGGER; keeps the dump with --keep.
# Usage: report TRIGGER COUNT UNIT DETAIL
report() {
    local dump total
    dump=$(grep -l "^desc: Trigger: .*$1" "$WORK"/callgrind.out.* | head -1)
    total=$(awk '/^(summary|totals):/ { print $2; exit }' "$dump")
    echo "instructions per $3: $((total / $2)) ($total $4)"
    if [ -n "$KEEP" ]; then
        mkdir -p "$KEEP"
        cp "$dump" "$KEEP/callgrind.out.$1"
        echo "callgrind output: $KEEP/callgrind.out.$1"
    fi
}

if [ "$FLOOR" = 1 ]; then
    if [ "$BUILD" = 1 ]; then
        (cd "$ROOT" && swift build -c release --product HTTPBenchmarkServer -Xswiftc -warnings-as-errors >/dev/null)
    fi
    FLOOR_BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)/HTTPBenchmarkServer
    [ -x "$FLOOR_BIN" ] || { echo "missing $FLOOR_BIN (build it, or drop --no-build)" >&2; exit 1; }
    valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out.%p" "$FLOOR_BIN" --port "$PORT" --threads 1 \
        >"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    python3 "$HERE/screens.py" pages --port "$PORT" --path /dynamic --pages "$WARMUP" --timeout 120
    callgrind_control --zero "$SERVER_PID" >/dev/null
    python3 "$HERE/screens.py" pages --port "$PORT" --path /dynamic --pages "$PAGES"
    callgrind_control --dump=pages "$SERVER_PID" >/dev/null
    report pages "$PAGES" "page of HTTPServer alone" "over $PAGES pages after $WARMUP warm-up pages"
    exit 0
fi

if [ "$FANOUT" -gt 0 ]; then
    # Instrumentation starts off: screens.py switches it on just before the PATCH and dumps after the last arrival.
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$WORK/callgrind.out.%p" \
        "$BIN" --root "$ROOT" --port "$PORT" --database "$WORK/run.sqlite" --max-sessions 1000000 \
        --log-level warning >"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 600); do
        python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" "$PORT" \
            2>/dev/null && break
        sleep 0.2
    done
    python3 "$HERE/screens.py" fanout --port "$PORT" --pid "$SERVER_PID" --streams "$FANOUT" --timeout 300 \
        "${SHARED[@]}" --callgrind --expect-all | grep "patch received"
    report fanout "$FANOUT" "screen of a fan-out" "for $FANOUT screens with streams"
    exit 0
fi

valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out.%p" \
    "$BIN" --root "$ROOT" --port "$PORT" --database "$WORK/run.sqlite" --max-sessions 1000000 \
    --log-level warning >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

python3 "$HERE/screens.py" pages --port "$PORT" --pages "$WARMUP" --timeout 120
callgrind_control --zero "$SERVER_PID" >/dev/null
python3 "$HERE/screens.py" pages --port "$PORT" --pages "$PAGES"
callgrind_control --dump=pages "$SERVER_PID" >/dev/null

report pages "$PAGES" "page" "over $PAGES pages after $WARMUP warm-up pages"
