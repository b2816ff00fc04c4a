#!/usr/bin/env bash
# Idle keep-alive connections against the movie app: what each costs in the server's resident memory. N connections
# each send one `GET /healthz` (keep-alive), read the answer and stay open; the app's RSS is read before and after.
# libmicrohttpd keeps a connection's whole memory pool resident between requests, so this is what a larger pool would
# cost (Benchmarks/History/31-uploads.md, 33-upload-throughput.md).
#
# Usage: Benchmarks/uploads/idle-connections.sh [--connections 3000] [--bin PATH]
# Needs: python3, curl. Builds the app in release mode first unless --bin names a binary.
set -euo pipefail

CONNECTIONS=3000
BIN=""
while [ $# -gt 0 ]; do
    case "$1" in
        --connections) CONNECTIONS=$2; shift 2 ;;
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
ulimit -n $((CONNECTIONS + 1024)) 2>/dev/null || true
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN" --port "$PORT" --root "$ROOT" --database "$WORK/movies.sqlite" --upload-folder "$WORK/uploads" \
    --no-access-log >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 300); do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.1; done

python3 - "$PORT" "$SERVER_PID" "$CONNECTIONS" <<'PY'
import resource, socket, sys, time

port, pid, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 1024), hard))

def rss_kib():
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))

time.sleep(1)
before = rss_kib()
connections = []
for _ in range(count):
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    answer = b""
    while not answer.endswith(b"\r\n\r\nok\n"):
        chunk = connection.recv(4096)
        if not chunk: raise SystemExit("the server closed a connection")
        answer += chunk
    connections.append(connection)
time.sleep(1)
after = rss_kib()
print(f"== {count} idle keep-alive connections (one GET /healthz each)")
print(f"server RSS: {before / 1024:.1f} MiB idle, {after / 1024:.1f} MiB with them open: "
      f"{(after - before) / count:.1f} KiB each")
for connection in connections: connection.close()
PY
