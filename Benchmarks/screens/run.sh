#!/usr/bin/env bash
# End-to-end benchmark of the movie app as a browser uses it: a release `movies` on loopback, seeded with the shipped
# catalog into a temporary database.
#   1. start-up to the first served page (fresh database: seeding included; then an existing database);
#   2. page: wrk on GET /movies/1 (every GET builds and renders a new screen session) against nginx serving the same
#      bytes as a static file, in alternating rounds; and the same page on a second `movies` whose session cap
#      (10,000, the default) is full, so that each page load also ends the least recently active session;
#   3. fan-out: N detail screens with their event streams, one rating PATCH, arrival time on every stream; then the
#      floor under it (fanout_floor.c): N loopback streams sent the patch's 133 bytes by two threads, no server;
#   4. held screens: the fan-out to 1,000 screens and streams on a fresh server (default session cap) and on one that
#      first served 10,000 page loads of the same movie that never attached a stream, in alternating rounds;
#   5. shared streams: 10,000 screens over 1,000 shared streams (10 each) beside 10,000 streams of one screen each,
#      in alternating rounds: the rating patch's arrival for every screen, and the server's RSS;
#   6. action round trip: POST .../actions/refresh from script to the first patch on the screen's stream;
#   7. memory after changes: 10,000 detail screens of one movie, 40 changes of its rating, RSS before and after.
#
# Usage: Benchmarks/screens/run.sh [--duration 10s] [--rounds 3] [--streams "1000 10000"] [--iterations 500]
#                                  [--held-streams 1000] [--preload 10000] [--shared-screens 10000] [--shared 10]
# Needs: wrk, nginx-light, python3, gcc (Debian). Run from anywhere; builds in release mode first.
# Under Benchmarks/run.sh (`make bench`) the figures are also recorded for its JSON file (Benchmarks/figures.py).
set -euo pipefail

DURATION=10s
CONNECTIONS=64
ROUNDS=3
STREAMS="1000 10000"
ITERATIONS=500
HELD_STREAMS=1000
PRELOAD=10000
SHARED_SCREENS=10000
SHARED=10
while [ $# -gt 0 ]; do
    case "$1" in
        --duration) DURATION=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --streams) STREAMS=$2; shift 2 ;;
        --iterations) ITERATIONS=$2; shift 2 ;;
        --held-streams) HELD_STREAMS=$2; shift 2 ;;
        --preload) PRELOAD=$2; shift 2 ;;
        --shared-screens) SHARED_SCREENS=$2; shift 2 ;;
        --shared) SHARED=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# The Python below records its figures through Benchmarks/figures.py (only when BENCH_FIGURES names a file).
export PYTHONPATH="$HERE/..${PYTHONPATH:+:$PYTHONPATH}"
figure() { python3 "$HERE/../figures.py" add "$@"; }
PORT=18090
NGINX_PORT=18091
CAPPED_PORT=18093
WORK=$(mktemp -d)
SERVER_PID=""
NGINX_PID=""
CAPPED_PID=""

stop_server() {
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    fi
}
cleanup() {
    stop_server
    [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null || true
    [ -n "$CAPPED_PID" ] && kill "$CAPPED_PID" 2>/dev/null && wait "$CAPPED_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

for tool in wrk nginx python3 curl; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "missing $tool (apt-get install wrk nginx-light)" >&2; exit 1; }
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# Every stream needs a descriptor on both ends.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

for port in "$PORT" "$NGINX_PORT" "$CAPPED_PORT"; do
    ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "port $port is in use; stop what listens there" >&2; exit 1; }
done

echo "== building movies (release)"
(cd "$ROOT" && swift build -c release --product movies -Xswiftc -warnings-as-errors >/dev/null)
BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)/movies

# Starts movies on the run's database (seeded from the shipped catalog on first start). Every page load opens a screen session, so the session cap
# (10,000 by default, least recently active ended first) is raised to keep every session of a run alive; `start_server
# default` keeps the default cap.
start_server() {
    local cap=(--max-sessions "${1:-1000000}")
    [ "${1:-}" = default ] && cap=()
    "$BIN" --root "$ROOT" --port "$PORT" --database "$WORK/run.sqlite" "${cap[@]}" \
        --max-connections 30000 --log-level warning >>"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 200); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && return; sleep 0.05; done
    echo "movies did not start" >&2; cat "$WORK/server.log" >&2; exit 1
}

echo "== start-up: process launch to the first 200 for GET /movies/1 (best of 5)"
python3 - "$BIN" "$ROOT" "$PORT" "$WORK" <<'PY'
import os, socket, subprocess, sys, time
from figures import record
binary, root, port, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def once(database):
    start = time.perf_counter()
    server = subprocess.Popen([binary, "--root", root, "--port", str(port), "--database", database,
                               "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port)) as s:
                    s.sendall(b"GET /movies/1 HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
                    head = s.recv(64)
                    if head.startswith(b"HTTP/1.1 200"):
                        while s.recv(65536):
                            pass
                        return 1000 * (time.perf_counter() - start)
            except ConnectionError:
                time.sleep(0.001)
    finally:
        server.terminate()
        server.wait()
fresh = []
for i in range(5):
    fresh.append(once(f"{work}/startup-{i}.sqlite"))
existing = [once(f"{work}/startup-0.sqlite") for _ in range(5)]
print(f"start-up to first page: fresh database (seeding the catalog) {min(fresh):.0f} ms, "
      f"existing database {min(existing):.0f} ms (all runs: {' '.join(f'{t:.0f}' for t in fresh)} / "
      f"{' '.join(f'{t:.0f}' for t in existing)})")
record("startup.fresh_database", round(min(fresh), 1), "ms")
record("startup.existing_database", round(min(existing), 1), "ms")
PY

start_server
# The identical page bytes for nginx: one rendered detail page, saved as a static file.
mkdir -p "$WORK/Public"
curl -sf "http://127.0.0.1:$PORT/movies/1" -o "$WORK/Public/page.html"
chmod 755 "$WORK" "$WORK/Public"
chmod 644 "$WORK/Public/page.html"
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
    types { text/html html; }
    client_body_temp_path $WORK/nginx;
    proxy_temp_path $WORK/nginx;
    fastcgi_temp_path $WORK/nginx;
    uwsgi_temp_path $WORK/nginx;
    scgi_temp_path $WORK/nginx;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location = /movies/1 { alias $WORK/Public/page.html; default_type text/html; }
    }
}
CONF
"$NGINX" -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
NGINX_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$NGINX_PORT/movies/1" >/dev/null 2>&1 && break; sleep 0.1; done
cmp -s <(curl -s "http://127.0.0.1:$NGINX_PORT/movies/1" | wc -c) <(wc -c <"$WORK/Public/page.html") ||
    { echo "nginx does not serve the page" >&2; exit 1; }

measure() {
    local output
    output=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "$2")
    echo "$output" >>"$WORK/wrk.log"
    echo "$output" | awk -v target="$1" '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
        /Requests\/sec/ { rps = $2 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        /Non-2xx|Socket errors/ { errors = errors $0 " " }
        END { printf "%s %s %s %s %s\n", target, rps, p50, p99, (errors == "" ? "-" : "\"" errors "\"") }' >>"$WORK/results"
}

# A second movies with the default session cap (10,000), filled first: each page load there also ends the least
# recently active session, as on a server that has been up a while.
"$BIN" --root "$ROOT" --port "$CAPPED_PORT" --database "$WORK/capped.sqlite" --max-connections 30000 \
    --log-level warning >>"$WORK/server.log" 2>&1 &
CAPPED_PID=$!
for _ in $(seq 200); do curl -sf "http://127.0.0.1:$CAPPED_PORT/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
for _ in $(seq 30); do
    open=$(curl -sf "http://127.0.0.1:$CAPPED_PORT/metrics" | awk '$1 == "screenplay_sessions_open" { print $2 }')
    [ "${open:-0}" -ge 10000 ] && break
    wrk -t2 -c"$CONNECTIONS" -d2s "http://127.0.0.1:$CAPPED_PORT/movies/1" >/dev/null
done

echo "== page: wrk -t2 -c$CONNECTIONS -d$DURATION --latency, $ROUNDS alternating rounds (median shown);" \
    "$(wc -c <"$WORK/Public/page.html") bytes"
for _ in $(seq "$ROUNDS"); do
    measure screen "http://127.0.0.1:$PORT/movies/1"
    measure nginx "http://127.0.0.1:$NGINX_PORT/movies/1"
    measure capped "http://127.0.0.1:$CAPPED_PORT/movies/1"
done
kill "$CAPPED_PID" 2>/dev/null; wait "$CAPPED_PID" 2>/dev/null || true
CAPPED_PID=""
SESSIONS_RSS=$(awk '/VmRSS/ { print $2 }' "/proc/$SERVER_PID/status")
python3 - "$WORK/results" "$SESSIONS_RSS" <<'PY'
import shlex, statistics, sys
from figures import record
rows = {}
for line in open(sys.argv[1]):
    target, rps, p50, p99, errors = shlex.split(line)
    rows.setdefault(target, []).append((float(rps), float(p50), float(p99), errors))
labels = {"screen": "movies: GET /movies/1 (new screen)", "nginx": "nginx: same bytes, static file",
          "capped": "movies at the session cap (10,000)"}
median = {}
print(f"{'target':<38} {'requests/s':>11} {'p50 ms':>7} {'p99 ms':>7}   rounds (requests/s)")
for target in ("screen", "nginx", "capped"):
    runs = rows[target]
    median[target] = statistics.median(r[0] for r in runs)
    errors = " ".join(r[3] for r in runs if r[3] != "-")
    print(f"{labels[target]:<38} {median[target]:>11.0f} {statistics.median(r[1] for r in runs):>7.2f} "
          f"{statistics.median(r[2] for r in runs):>7.2f}   {' '.join(f'{r[0]:.0f}' for r in runs)} {errors}")
    record(f"page.{target}.rate", median[target], "requests/s")
    record(f"page.{target}.p50", statistics.median(r[1] for r in runs), "ms")
    record(f"page.{target}.p99", statistics.median(r[2] for r in runs), "ms")
print(f"at the session cap: {median['capped'] / median['nginx']:.0%} of nginx")
print(f"screen / nginx = {median['screen'] / median['nginx']:.0%}; "
      f"server RSS after the run (every session kept): {int(sys.argv[2]) / 1024:.0f} MiB")
record("page.screen_share_of_nginx", median["screen"] / median["nginx"], "ratio")
record("page.capped_share_of_nginx", median["capped"] / median["nginx"], "ratio")
record("page.rss_after_rounds", int(sys.argv[2]) / 1024, "MiB")
PY
kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null || true
NGINX_PID=""
stop_server

cc -O2 -pthread -o "$WORK/fanout_floor" "$HERE/fanout_floor.c"
for n in $STREAMS; do
    echo "== fan-out: $n screens and streams"
    start_server
    python3 "$HERE/screens.py" fanout --port "$PORT" --pid "$SERVER_PID" --streams "$n" --figures "fanout.$n"
    stop_server
    # The floor: the same number of loopback streams sent the same bytes by two threads with no server behind them.
    "$WORK/fanout_floor" "$n" 2 3 | tee "$WORK/floor"
    figure "fanout.$n.floor_p99" "$(sed -n 's/^  median p99 over [0-9]* rounds: \([0-9.]*\) ms$/\1/p' "$WORK/floor")" ms
done

# The medians over rounds of `screens.py fanout --record` lines, one row per label, and every round; the medians are
# recorded as figures named PREFIX.LABEL.*. Usage: fanout_rounds PREFIX FILE LABEL TITLE [LABEL TITLE]...
fanout_rounds() {
    python3 - "$@" <<'PY'
import statistics, sys
from figures import record
prefix, path, labels = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = {}
for line in open(path):
    label, n, streams, received, p50, p99, most, cpu, rss, rss_before = line.split()
    rows.setdefault(label, []).append((int(n), int(streams), int(received), float(p50), float(p99), float(most),
                                       float(cpu), float(rss), float(rss_before)))
print(f"{'':<44} {'received':>11} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'µs/screen':>9} {'RSS MiB':>8}   rounds: p50/p99")
for label, title in zip(labels[0::2], labels[1::2]):
    runs = rows[label]
    med = lambda i: statistics.median(r[i] for r in runs)
    received = f"{min(r[2] for r in runs)}/{runs[0][0]}"
    print(f"{title:<44} {received:>11} {med(3):>7.1f} {med(4):>7.1f} {med(5):>7.1f} {med(6):>9.1f} {med(7):>8.1f}   "
          + ", ".join(f"{r[3]:.1f}/{r[4]:.1f}" for r in runs))
    for name, index, unit in (("screens", 0, "screens"), ("received", 2, "screens"), ("p50", 3, "ms"), ("p99", 4, "ms"),
                              ("max", 5, "ms"), ("server_cpu_per_screen", 6, "µs"), ("rss", 7, "MiB")):
        value = {"screens": runs[0][index], "received": min(r[index] for r in runs)}.get(name, med(index))
        record(f"{prefix}.{label}.{name}", value, unit)
PY
}

echo "== held screens: fan-out to $HELD_STREAMS screens and streams, fresh server vs after $PRELOAD page loads" \
    "without a stream (default session cap), $ROUNDS alternating rounds"
for _ in $(seq "$ROUNDS"); do
    start_server default
    python3 "$HERE/screens.py" fanout --port "$PORT" --pid "$SERVER_PID" --streams "$HELD_STREAMS" \
        --record "$WORK/held" --label fresh >>"$WORK/fanout.log"
    stop_server
    start_server default
    python3 "$HERE/screens.py" fanout --port "$PORT" --pid "$SERVER_PID" --streams "$HELD_STREAMS" \
        --preload "$PRELOAD" --record "$WORK/held" --label preloaded >>"$WORK/fanout.log"
    stop_server
done
fanout_rounds held "$WORK/held" fresh "fresh server" preloaded "after $PRELOAD page loads without a stream"
python3 - "$WORK/held" <<'PY'
import statistics, sys
from figures import record
p99 = {}
for line in open(sys.argv[1]):
    fields = line.split()
    p99.setdefault(fields[0], []).append(float(fields[5]))
ratio = statistics.median(p99["preloaded"]) / statistics.median(p99["fresh"])
print(f"p99 after the page loads / fresh: {ratio:.2f} (target: at most 1.20)")
record("held.p99_ratio", ratio, "ratio")
PY

echo "== shared streams: $SHARED_SCREENS screens over $((SHARED_SCREENS / SHARED)) shared streams ($SHARED each," \
    "shared) vs $SHARED_SCREENS streams of one screen, $ROUNDS alternating rounds"
for _ in $(seq "$ROUNDS"); do
    start_server
    python3 "$HERE/screens.py" fanout --port "$PORT" --pid "$SERVER_PID" --streams "$SHARED_SCREENS" \
        --record "$WORK/shared" --label v1 >>"$WORK/fanout.log"
    stop_server
    start_server
    python3 "$HERE/screens.py" fanout --port "$PORT" --pid "$SERVER_PID" --streams "$SHARED_SCREENS" \
        --shared "$SHARED" --record "$WORK/shared" --label shared >>"$WORK/fanout.log"
    stop_server
done
fanout_rounds shared "$WORK/shared" v1 "$SHARED_SCREENS v1 streams (one per screen)" \
    shared "$((SHARED_SCREENS / SHARED)) shared streams, $SHARED screens each"
# The first shared stream's bytes are checked: one event with the new value per screen attached to it (screens.py).
grep -h "NOT the screens attached\|more events with it than screens" "$WORK/fanout.log" || true

echo "== memory after changes: 10000 screens of one movie, 40 changes of its rating"
start_server
python3 "$HERE/screens.py" changes --port "$PORT" --pid "$SERVER_PID" --streams 10000 --changes 40 --figures changes
stop_server

echo "== action round trip: $ITERATIONS refreshes from script on one screen"
start_server
python3 "$HERE/screens.py" action --port "$PORT" --iterations "$ITERATIONS" --figures action
stop_server
