#!/usr/bin/env bash
# Bytes and allocations a detail screen's session keeps, counted by valgrind's DHAT: the release `movies` under
# `valgrind --tool=dhat`, SESSIONS sequential `GET /movies/1` on one keep-alive connection (each opens a session that
# stays), then a stop. DHAT reports the heap at its peak, with every session open; work that the stop queues to end
# them, if any is live at the peak, is counted apart (about 200 bytes a session until a screen's work ran on a lane of
# its own, whose idle sessions end without queueing anything). Finer than the RSS per session that
# `screens.py fanout` reports (which includes malloc's own overhead), and repeatable on a busy machine.
#
# Since a page GET keeps no screen (History/30), these GETs leave no session at the peak and the figure per session
# is the render's garbage; measuring a live screen needs each page attached to a stream first (not done yet).
#
# Usage: Benchmarks/screens/memory.sh [--sessions 1000] [--sites 30] [--no-build] [--bin PATH]
# Prints bytes and allocations per session at the peak, without the stop's queued work; --sites N lists the N
# largest allocation sites per session (the first frames in this package's code).
# Needs: valgrind, python3, swift (for demangling).
set -euo pipefail

SESSIONS=1000
SITES=0
BUILD=1
BIN=""
while [ $# -gt 0 ]; do
    case "$1" in
        --sessions) SESSIONS=$2; shift 2 ;;
        --sites) SITES=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --bin) BIN=$2; BUILD=0; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

PORT=18093
# shellcheck source=valgrind.sh
source "$(dirname "$0")/valgrind.sh"

valgrind --tool=dhat --dhat-out-file="$WORK/dhat.json" "$BIN" --root "$ROOT" --port "$PORT" \
    --database "$WORK/movies.sqlite" --max-sessions 1000000 --log-level warning --no-access-log --metrics off \
    >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
python3 "$HERE/screens.py" pages --port "$PORT" --pages "$SESSIONS" --timeout 120

kill -TERM "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""

python3 - "$WORK/dhat.json" "$SESSIONS" "$SITES" <<'PY' | swift demangle --simplified
import collections, json, re, sys
data = json.load(open(sys.argv[1]))
sessions, sites = int(sys.argv[2]), int(sys.argv[3])
frames = data["ftbl"]

def name(frame):
    return re.sub(r" \(in /.*", "", frames[frame].split(": ", 1)[-1])

total_bytes = total_blocks = stop_bytes = stop_blocks = 0
by_site = collections.Counter()
blocks_by_site = collections.Counter()
for point in data["pps"]:
    names = [name(frame) for frame in point["fs"][:16]]
    nbytes, nblocks = point.get("gb", 0), point.get("gbk", 0)
    total_bytes += nbytes
    total_blocks += nblocks
    if any("endAll" in frame for frame in names):  # the stop's queued end of every session
        stop_bytes += nbytes
        stop_blocks += nblocks
        continue
    ours = next((frame for frame in names[1:] if re.search(r"Reactive|ViewKit|Screenplay|MovieApp|HTTPServer", frame)), "elsewhere")
    by_site[ours[:100]] += nbytes
    blocks_by_site[ours[:100]] += nblocks
kept_bytes, kept_blocks = total_bytes - stop_bytes, total_blocks - stop_blocks
print(f"per session: {kept_bytes / sessions:,.0f} bytes in {kept_blocks / sessions:.1f} allocations "
      f"({sessions} sessions; the stop's queued work, not counted: {stop_bytes / sessions:,.0f} bytes in "
      f"{stop_blocks / sessions:.1f} allocations)")
for site, nbytes in by_site.most_common(sites):
    print(f"  {nbytes / sessions:7.1f} bytes {blocks_by_site[site] / sessions:5.2f} allocations  {site}")
PY
