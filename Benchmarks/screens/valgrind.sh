# Shared by the scripts that run the release `movies` under valgrind (profile.sh, memory.sh); sourced after they
# read their options. Expects BUILD (1: build the release product first) and BIN (a movies binary, or empty for the
# release build's). Sets HERE, ROOT, WORK (a temporary folder, removed on exit) and SERVER_PID (the server to stop
# on exit, once started).
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

command -v valgrind >/dev/null || { echo "missing valgrind (apt-get install valgrind)" >&2; exit 1; }
if [ "$BUILD" = 1 ]; then
    (cd "$ROOT" && swift build -c release --product movies -Xswiftc -warnings-as-errors >/dev/null)
fi
[ -n "$BIN" ] || BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)/movies
