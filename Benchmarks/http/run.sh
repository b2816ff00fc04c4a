#!/usr/bin/env bash
# HTTP server benchmark: wrk against the release HTTPBenchmarkServer (a 5 KB page rendered per
# request, and a 5 KB static file) and against nginx serving the same file, in one run; then
# 10,000 idle event streams, measuring the server's CPU and threads.
#
# The machine may be shared: targets are measured in alternating rounds and each figure is the
# median over the rounds, so a burst of background load does not land on one target only.
#
# Usage: Benchmarks/http/run.sh [--duration 10s] [--connections 64] [--rounds 3] [--streams 10000]
# Needs: wrk, nginx-light, python3 (Debian). Run from anywhere; builds in release mode first.
# Under Benchmarks/run.sh (`make bench`) the figures are also recorded for its JSON file (Benchmarks/figures.py).
set -euo pipefail

DURATION=10s
CONNECTIONS=64
STREAMS=10000
ROUNDS=3
while [ $# -gt 0 ]; do
    case "$1" in
        --duration) DURATION=$2; shift 2 ;;
        --connections) CONNECTIONS=$2; shift 2 ;;
        --streams) STREAMS=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# The Python below records its figures through Benchmarks/figures.py (only when BENCH_FIGURES names a file).
export PYTHONPATH="$HERE/..${PYTHONPATH:+:$PYTHONPATH}"
SERVER_PORT=18080
NGINX_PORT=18081
WORK=$(mktemp -d)
SERVER_PID=""
NGINX_PID=""

cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

for tool in wrk nginx python3; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "missing $tool (apt-get install wrk nginx-light)" >&2; exit 1; }
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# Idle streams need a descriptor each, on both ends.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

echo "== building HTTPBenchmarkServer (release)"
(cd "$ROOT" && swift build -c release --product HTTPBenchmarkServer -Xswiftc -warnings-as-errors >/dev/null)
BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)/HTTPBenchmarkServer

# The same 5 KB file for both servers.
mkdir -p "$WORK/Public"
python3 - "$WORK/Public/bench.css" <<'PY'
import sys
rule = ".movie-card { display: grid; grid-template-columns: 1fr 2fr; gap: 12px; }\n"
with open(sys.argv[1], "w") as f:
    f.write((rule * (5120 // len(rule) + 1))[:5120])
PY
# nginx workers run as an unprivileged user and need to read the file.
chmod 755 "$WORK" "$WORK/Public"
chmod 644 "$WORK/Public/bench.css"

"$BIN" --port "$SERVER_PORT" --public "$WORK/Public" --connections $((STREAMS + 1000)) >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

mkdir -p "$WORK/nginx"
cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes auto;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    types { text/css css; }
    client_body_temp_path $WORK/nginx;
    proxy_temp_path $WORK/nginx;
    fastcgi_temp_path $WORK/nginx;
    uwsgi_temp_path $WORK/nginx;
    scgi_temp_path $WORK/nginx;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location /public/ { alias $WORK/Public/; etag on; }
    }
}
CONF
"$NGINX" -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
NGINX_PID=$!

for url in "http://127.0.0.1:$SERVER_PORT/healthz" "http://127.0.0.1:$NGINX_PORT/public/bench.css"; do
    for _ in $(seq 100); do curl -sf "$url" >/dev/null 2>&1 && break; sleep 0.1; done
done

# Appends "target requests/s p99-ms errors" for one wrk run to $WORK/results.
measure() {
    local output
    output=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "$2")
    echo "$output" >>"$WORK/wrk.log"
    echo "$output" | awk -v target="$1" '
        /Requests\/sec/ { rps = $2 }
        $1 == "99%" { p99 = $2; if (p99 ~ /us$/) p99 = p99 / 1000; else if (p99 ~ /ms$/) p99 = p99 + 0; else if (p99 ~ /s$/) p99 = p99 * 1000 }
        /Non-2xx|Socket errors/ { errors = errors $0 " " }
        END { printf "%s %s %s %s\n", target, rps, p99, (errors == "" ? "-" : "\"" errors "\"") }' >>"$WORK/results"
}

echo "== wrk -t2 -c$CONNECTIONS -d$DURATION --latency, $ROUNDS alternating rounds (median shown)"
for round in $(seq "$ROUNDS"); do
    measure dynamic "http://127.0.0.1:$SERVER_PORT/dynamic"
    measure static "http://127.0.0.1:$SERVER_PORT/public/bench.css"
    measure nginx "http://127.0.0.1:$NGINX_PORT/public/bench.css"
done

python3 - "$WORK/results" <<'PY'
import shlex, statistics, sys
from figures import record
rows = {}
for line in open(sys.argv[1]):
    target, rps, p99, errors = shlex.split(line)
    rows.setdefault(target, []).append((float(rps), float(p99), errors))
labels = {"dynamic": "HTTPServer: 5 KB dynamic page", "static": "HTTPServer: 5 KB static file",
          "nginx": "nginx: same 5 KB static file"}
median = {}
print(f"{'target':<32} {'requests/s':>12} {'p99 ms':>8}   rounds (requests/s)")
for target in ("dynamic", "static", "nginx"):
    runs = rows[target]
    rps = statistics.median(r[0] for r in runs)
    p99 = statistics.median(r[1] for r in runs)
    median[target] = rps
    errors = " ".join(r[2] for r in runs if r[2] != "-")
    print(f"{labels[target]:<32} {rps:>12.0f} {p99:>8.2f}   {' '.join(f'{r[0]:.0f}' for r in runs)} {errors}")
    record(f"http.{target}.rate", rps, "requests/s")
    record(f"http.{target}.p99", p99, "ms")
print(f"dynamic / nginx static = {median['dynamic'] / median['nginx']:.0%}   "
      f"static / nginx static = {median['static'] / median['nginx']:.0%}")
record("http.dynamic_share_of_nginx", median["dynamic"] / median["nginx"], "ratio")
record("http.static_share_of_nginx", median["static"] / median["nginx"], "ratio")
PY

# nginx is done; stop it so it does not sit in the idle-stream measurement.
kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null || true
NGINX_PID=""

if [ "$STREAMS" -gt 0 ]; then
    echo "== $STREAMS idle event streams"
    python3 "$HERE/idle_streams.py" --port "$SERVER_PORT" --streams "$STREAMS" --pid "$SERVER_PID" \
        --figures http.idle_streams
fi
