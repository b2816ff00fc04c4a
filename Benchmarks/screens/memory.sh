#!/usr/bin/env bash
# Bytes and allocations a live detail screen keeps, counted by valgrind's DHAT: the release `movies` under DHAT,
# SCREENS page renders attached to shared streams ten to a stream (each becomes a live screen built from its page's
# token, as a browser's page does), held until the server has settled, then a stop. DHAT reports the heap at its
# peak, with every screen live. The server is run twice, with SCREENS and with twice as many, and the figures are the
# difference over SCREENS: what one more live screen (and a tenth of a stream) costs, without the heap the app holds
# whatever the number of screens (templates, the store, the client's files). Finer than the RSS a screen that
# `screens.py scale` reports (which includes malloc's own overhead), and repeatable on a busy machine.
#
# Usage: Benchmarks/screens/memory.sh [--screens 500] [--sites 30] [--no-build] [--bin PATH]
# Prints bytes and allocations per live screen at the peak; --sites N lists the N largest allocation sites per
# screen (the first frames in this package's code).
# Needs: valgrind, python3, swift (for demangling).
set -euo pipefail

SCREENS=500
SITES=0
BUILD=1
BIN=""
while [ $# -gt 0 ]; do
    case "$1" in
        --screens|--sessions) SCREENS=$2; shift 2 ;;
        --sites) SITES=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --bin) BIN=$2; BUILD=0; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

# shellcheck source=valgrind.sh
source "$(dirname "$0")/valgrind.sh"

# Runs the server under DHAT with $1 live screens; its profile goes to $WORK/dhat-$1.json. Each server listens on
# a port the system has just handed out (as scale.sh's does), so that another benchmark's server, or another
# checkout's, cannot hold it: a fixed port once made a run measure a server that never started.
measure() {
    PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # The server links mimalloc (Sources/CMimalloc): DHAT counts its malloc and free as it counts the C library's.
    valgrind --tool=dhat --soname-synonyms=somalloc='libmimalloc.so*' --dhat-out-file="$WORK/dhat-$1.json" "$BIN" \
        --root "$ROOT" --port "$PORT" \
        --database "$WORK/movies-$1.sqlite" --max-sessions 1000000 --log-level warning --no-access-log --metrics off \
        >"$WORK/server-$1.log" 2>&1 &
    SERVER_PID=$!
    python3 "$HERE/screens.py" live --port "$PORT" --pid "$SERVER_PID" --streams "$1" --shared 10 --timeout 900
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}
measure "$SCREENS"
measure $((SCREENS * 2))

python3 - "$WORK/dhat-$SCREENS.json" "$WORK/dhat-$((SCREENS * 2)).json" "$SCREENS" "$SITES" <<'PY' | swift demangle --simplified
import collections, json, re, sys
screens, sites = int(sys.argv[3]), int(sys.argv[4])

def name(frames, frame):
    return re.sub(r" \(in /.*", "", frames[frame].split(": ", 1)[-1])

def peak(path):
    """The heap at its peak: bytes and blocks in all, and by the first frame in this package's code."""
    data = json.load(open(path))
    frames = data["ftbl"]
    total = [0, 0]
    by_site = collections.defaultdict(lambda: [0, 0])
    for point in data["pps"]:
        names = [name(frames, frame) for frame in point["fs"][:16]]
        nbytes, nblocks = point.get("gb", 0), point.get("gbk", 0)
        total[0] += nbytes
        total[1] += nblocks
        ours = next((f for f in names[1:] if re.search(r"Reactive|ViewKit|Screenplay|MovieApp|HTTPServer", f)),
                    "elsewhere")
        by_site[ours[:100]][0] += nbytes
        by_site[ours[:100]][1] += nblocks
    return total, by_site

(small, small_sites), (large, large_sites) = peak(sys.argv[1]), peak(sys.argv[2])
print(f"a live screen: {(large[0] - small[0]) / screens:,.0f} bytes in {(large[1] - small[1]) / screens:.1f} "
      f"allocations (the heap's peak with {2 * screens} live screens less with {screens}, over {screens}; "
      f"{small[0] / 1024 / 1024:.1f} / {large[0] / 1024 / 1024:.1f} MiB at the peaks)")
growth = {site: (large_sites[site][0] - small_sites.get(site, [0, 0])[0],
                 large_sites[site][1] - small_sites.get(site, [0, 0])[1]) for site in large_sites}
for site, (nbytes, nblocks) in sorted(growth.items(), key=lambda item: -item[1][0])[:sites]:
    print(f"  {nbytes / screens:7.1f} bytes {nblocks / screens:5.2f} allocations  {site}")
PY
