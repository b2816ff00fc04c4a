#!/usr/bin/env bash
# Many `movies` instances on one PostgreSQL database (issue 23): a release `movies`, a throwaway PostgreSQL cluster
# on a Unix socket (Deployment/postgres.sh) and nginx in front (Deployment/nginx.sh), all on 127.0.0.1.
#   1. fan-out across three instances: N detail screens of movie 1 with their streams on each of a, b and c, one PATCH
#      of the rating sent to a, the arrival of the new value timed on all 3N streams (a's from the writer itself, b's
#      and c's through NOTIFY); beside it, in the same alternating rounds, N screens on a alone and N on b alone (the
#      PATCH still to a: the NOTIFY hop without the other instances' fan-outs on the same cores), and the
#      single-instance SQLite fan-out of N (`screens.py fanout`, as Benchmarks/screens/run.sh runs it); then the hop
#      alone: one screen on a and one on b, a PATCH to a, --hops times;
#   2. pages per second: wrk on GET /movies/1 through nginx in front of one instance and in front of three, and
#      straight to one instance, all on PostgreSQL, and straight to one instance on SQLite, with every session kept
#      (--max-sessions 1000000), in alternating rounds: requests/s, latency, and where the two cores went.
# Every round starts its instances afresh on the one database; everything is stopped by pid at the end.
#
# Usage: Benchmarks/instances/run.sh [--rounds 5] [--streams 1000] [--hops 20] [--page-rounds 5] [--duration 10s]
#                                    [--connections 64] [--only fanout|pages] [--keep DIR]
#                                    [--page-targets "one three direct sqlite"] [--bin PATH]
#   --keep DIR: copy the raw records and logs (every round's screens.py output, wrk's, the instances') into DIR.
#   --page-targets: which of the page measurements to run in each round (`direct sqlite`: PostgreSQL against SQLite).
#   --bin PATH: run that `movies` (a release build of another revision) instead of building this one.
# Needs: PostgreSQL (Debian postgresql), wrk, nginx-light, python3, curl, cc. Builds in release mode first.
# Under Benchmarks/run.sh (`make bench`) the figures are also recorded for its JSON file (Benchmarks/figures.py).
set -euo pipefail

ROUNDS=5
STREAMS=1000
PAGE_ROUNDS=5
HOPS=20
DURATION=10s
CONNECTIONS=64
ONLY=""
KEEP=""
PAGE_TARGETS="one three direct sqlite"
BIN=""
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) ROUNDS=$2; shift 2 ;;
        --streams) STREAMS=$2; shift 2 ;;
        --page-rounds) PAGE_ROUNDS=$2; shift 2 ;;
        --hops) HOPS=$2; shift 2 ;;
        --duration) DURATION=$2; shift 2 ;;
        --connections) CONNECTIONS=$2; shift 2 ;;
        --only) ONLY=$2; shift 2 ;;
        --keep) KEEP=$2; shift 2 ;;
        --page-targets) PAGE_TARGETS=$2; shift 2 ;;
        --bin) BIN=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# The Python below records its figures through Benchmarks/figures.py (only when BENCH_FIGURES names a file).
export PYTHONPATH="$HERE/..${PYTHONPATH:+:$PYTHONPATH}"
SCREENS="$HERE/../screens/screens.py"
NGINX_ONE_PORT=18100    # nginx in front of a
NGINX_THREE_PORT=18104  # nginx in front of a, b and c
SQLITE_PORT=18105
NAMES=(a b c)
declare -A PORT_OF=([a]=18101 [b]=18102 [c]=18103)
declare -A PID_OF=()
SQLITE_PID=""
NGINX_DIRS=()
WORK=$(mktemp -d)
chmod 755 "$WORK"  # PostgreSQL runs as `postgres` (as root) and must reach its folder in here
POSTGRES_STARTED=0

stop_instances() {
    local name
    for name in "${!PID_OF[@]}"; do kill "${PID_OF[$name]}" 2>/dev/null || true; done
    for name in "${!PID_OF[@]}"; do wait "${PID_OF[$name]}" 2>/dev/null || true; done
    PID_OF=()
}
# nginx daemonizes: stopped by the pid in its folder, then waited for until that process is gone (10 s at most).
stop_nginx() {
    local dir=$1 pid
    [ -s "$dir/nginx.pid" ] || return 0
    pid=$(cat "$dir/nginx.pid")
    "$ROOT/Deployment/nginx.sh" stop "$dir"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    echo "nginx (pid $pid) did not stop" >&2
}
cleanup() {
    stop_instances
    [ -n "$SQLITE_PID" ] && kill "$SQLITE_PID" 2>/dev/null && wait "$SQLITE_PID" 2>/dev/null || true
    local dir
    for dir in "${NGINX_DIRS[@]}"; do stop_nginx "$dir"; done
    [ "$POSTGRES_STARTED" = 1 ] && "$ROOT/Deployment/postgres.sh" stop "$WORK/postgres" || true
    if [ -n "$KEEP" ]; then
        mkdir -p "$KEEP"
        cp "$WORK"/*.log "$WORK"/*.json "$WORK"/*.rec "$WORK"/pages "$KEEP"/ 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

for tool in wrk nginx python3 curl cc; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] ||
        { echo "missing $tool (apt-get install wrk nginx-light python3 curl gcc)" >&2; exit 1; }
done
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { echo "missing PostgreSQL (apt-get install postgresql)" >&2; exit 1; }

# Every stream needs a descriptor on both ends.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

for port in "$NGINX_ONE_PORT" "${PORT_OF[@]}" "$NGINX_THREE_PORT" "$SQLITE_PORT"; do
    ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "port $port is in use; stop what listens there" >&2; exit 1; }
done

if [ -z "$BIN" ]; then
    echo "== building movies (release)"
    # swift build prints its errors on standard output: shown only when the build fails.
    (cd "$ROOT" && swift build -c release --product movies -Xswiftc -warnings-as-errors >"$WORK/build.log" 2>&1) ||
        { tail -n 40 "$WORK/build.log" >&2; echo "the release build failed" >&2; exit 1; }
    BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)/movies
fi

echo "== PostgreSQL: a throwaway cluster on a Unix socket (Deployment/postgres.sh)"
POSTGRES_STARTED=1
URL=$("$ROOT/Deployment/postgres.sh" start "$WORK/postgres")
POSTMASTER=$(head -n 1 "$WORK/postgres/data/postmaster.pid")

# Starts the named instances on the database, each with every session kept; waits (20 s at most) for each /readyz.
start_instances() {
    local name
    for name in "$@"; do
        "$BIN" --root "$ROOT" --port "${PORT_OF[$name]}" --database "$URL" --instance "$name" \
            --max-sessions 1000000 --max-connections 30000 --log-level warning >>"$WORK/instance-$name.log" 2>&1 &
        PID_OF[$name]=$!
    done
    for name in "$@"; do
        for _ in $(seq 200); do
            curl -sf "http://127.0.0.1:${PORT_OF[$name]}/readyz" >/dev/null 2>&1 && continue 2
            kill -0 "${PID_OF[$name]}" 2>/dev/null || break
            sleep 0.1
        done
        echo "instance $name did not become ready" >&2
        tail -n 20 "$WORK/instance-$name.log" >&2
        exit 1
    done
}

# The CPU seconds (user + system, /proc/PID/stat) of the given processes and of their children, together.
cpu_seconds() {
    python3 - "$@" <<'PY'
import os, sys
roots = {int(p) for p in sys.argv[1:]}
ticks = 0
for name in os.listdir("/proc"):
    if not name.isdigit():
        continue
    try:
        with open(f"/proc/{name}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        continue
    if int(name) in roots or int(fields[1]) in roots:
        ticks += int(fields[11]) + int(fields[12])
print(ticks / os.sysconf("SC_CLK_TCK"))
PY
}

if [ "$ONLY" != pages ]; then
    echo "== fan-out: $STREAMS screens of movie 1 with streams on each of a, b and c, one rating PATCH to a;" \
        "beside it $STREAMS on a alone, $STREAMS on b alone (PATCH to a) and the SQLite instance's fan-out of" \
        "$STREAMS; $ROUNDS alternating rounds, fresh instances each"
    for round in $(seq "$ROUNDS"); do
        start_instances a b c
        python3 "$SCREENS" instances --write a --postgres-pid "$POSTMASTER" --record "$WORK/fanout.json" \
            --label three --timeout 30 --expect-all \
            --instance "a=${PORT_OF[a]}:${PID_OF[a]}:$STREAMS" --instance "b=${PORT_OF[b]}:${PID_OF[b]}:$STREAMS" \
            --instance "c=${PORT_OF[c]}:${PID_OF[c]}:$STREAMS" >>"$WORK/fanout.log"
        stop_instances
        start_instances a b c
        python3 "$SCREENS" instances --write a --postgres-pid "$POSTMASTER" --record "$WORK/fanout.json" \
            --label local --timeout 30 --expect-all \
            --instance "a=${PORT_OF[a]}:${PID_OF[a]}:$STREAMS" --instance "b=${PORT_OF[b]}:${PID_OF[b]}:0" \
            --instance "c=${PORT_OF[c]}:${PID_OF[c]}:0" >>"$WORK/fanout.log"
        stop_instances
        start_instances a b c
        python3 "$SCREENS" instances --write a --postgres-pid "$POSTMASTER" --record "$WORK/fanout.json" \
            --label remote --timeout 30 --expect-all \
            --instance "a=${PORT_OF[a]}:${PID_OF[a]}:0" --instance "b=${PORT_OF[b]}:${PID_OF[b]}:$STREAMS" \
            --instance "c=${PORT_OF[c]}:${PID_OF[c]}:0" >>"$WORK/fanout.log"
        stop_instances
        # The single instance on its embedded SQLite file, as Benchmarks/screens/run.sh runs its fan-out.
        "$BIN" --root "$ROOT" --port "$SQLITE_PORT" --database "$WORK/sqlite-$round.sqlite" --max-sessions 1000000 \
            --max-connections 30000 --log-level warning >>"$WORK/sqlite.log" 2>&1 &
        SQLITE_PID=$!
        for _ in $(seq 200); do curl -sf "http://127.0.0.1:$SQLITE_PORT/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
        python3 "$SCREENS" fanout --port "$SQLITE_PORT" --pid "$SQLITE_PID" --streams "$STREAMS" --expect-all \
            --record "$WORK/sqlite.rec" --label sqlite >>"$WORK/fanout.log"
        kill "$SQLITE_PID" 2>/dev/null && wait "$SQLITE_PID" 2>/dev/null || true
        SQLITE_PID=""
        echo "  round $round done"
    done
    # The hop alone: one screen on a and one on b, a PATCH to a; the fan-outs out of the way, the difference between
    # the two arrivals is what the NOTIFY path adds (commit, notification, b's read of the row, b's render).
    echo "  the hop alone: 1 screen on a and 1 on b, one PATCH to a, $HOPS times"
    start_instances a b c
    for _ in $(seq "$HOPS"); do
        python3 "$SCREENS" instances --write a --postgres-pid "$POSTMASTER" --record "$WORK/fanout.json" \
            --label hop --timeout 10 --expect-all \
            --instance "a=${PORT_OF[a]}:${PID_OF[a]}:1" --instance "b=${PORT_OF[b]}:${PID_OF[b]}:1" \
            --instance "c=${PORT_OF[c]}:${PID_OF[c]}:0" >>"$WORK/fanout.log"
    done
    stop_instances
    python3 - "$WORK/fanout.json" "$WORK/sqlite.rec" "$STREAMS" <<'PY'
import json, statistics, sys
from figures import record as figure
rows = {}
for line in open(sys.argv[1]):
    record = json.loads(line)
    rows.setdefault(record["label"], []).append(record)
sqlite = [line.split() for line in open(sys.argv[2])]
n = int(sys.argv[3])
med = statistics.median

def column(runs, group, key):
    return [r["instances"][group][key] for r in runs]

def line(title, runs, group, name, extra=""):
    received = min(column(runs, group, "received"))
    streams = runs[0]["instances"][group]["streams"]
    p50, p99 = column(runs, group, "p50"), column(runs, group, "p99")
    first = column(runs, group, "first")
    cpu = f"{med(column(runs, group, 'server_cpu_ms')):>7.1f}" if group != "all" else f"{'':>7}"
    delivery = [d for d in column(runs, group, "delivery_ms") if d is not None] if group != "all" else []
    delivered = f"{med(delivery):>9.2f}" if delivery else f"{'':>9}"
    print(f"{title:<46} {received:>5}/{streams:<5} {med(first):>6.1f} {med(p50):>6.1f} {med(p99):>6.1f} {cpu} {delivered}"
          f"   {', '.join(f'{a:.1f}/{b:.1f}' for a, b in zip(p50, p99))}{extra}")
    figure(f"{name}.screens", streams, "screens")
    figure(f"{name}.received", received, "screens")
    for key, values in (("first", first), ("p50", p50), ("p99", p99)):
        figure(f"{name}.{key}", med(values), "ms")
    if group != "all":
        figure(f"{name}.server_cpu", med(column(runs, group, "server_cpu_ms")), "ms")
    if delivery:
        figure(f"{name}.commit_to_screens", med(delivery), "ms")

print(f"{'':<46} {'received':>11} {'first':>6} {'p50':>6} {'p99':>6} {'CPU ms':>7} {'commit→':>9}   rounds: p50/p99 ms")
print(f"{'':<46} {'':>11} {'ms':>6} {'ms':>6} {'ms':>6} {'':>7} {'screens ms':>9}")
three = rows.get("three", [])
if three:
    line(f"3 × {n}: every stream", three, "all", "instances.three.all")
    for group, how in (("a", "the writer"), ("b", "through NOTIFY"), ("c", "through NOTIFY")):
        line(f"3 × {n}: instance {group}'s ({how})", three, group, f"instances.three.{group}")
for label, group, title in (("local", "a", f"{n} on a alone (the writer)"), ("remote", "b", f"{n} on b alone (NOTIFY)")):
    if rows.get(label):
        line(title, rows[label], group, f"instances.{group}_alone")
if sqlite:
    p50, p99 = [float(r[4]) for r in sqlite], [float(r[5]) for r in sqlite]
    cpu = med(float(r[7]) for r in sqlite) * n / 1000
    print(f"{f'{n} on one SQLite instance (screens.py fanout)':<46} {min(int(r[3]) for r in sqlite):>5}/{n:<5} {'':>6} "
          f"{med(p50):>6.1f} {med(p99):>6.1f} {cpu:>7.1f} {'':>9}   "
          + ", ".join(f"{a:.1f}/{b:.1f}" for a, b in zip(p50, p99)))
    figure("instances.sqlite.screens", n, "screens")
    figure("instances.sqlite.received", min(int(r[3]) for r in sqlite), "screens")
    figure("instances.sqlite.p50", med(p50), "ms")
    figure("instances.sqlite.p99", med(p99), "ms")
    figure("instances.sqlite.server_cpu", cpu, "ms")
if three:
    postgres = [r["postgres_cpu_ms"] for r in three]
    client = [r["client_cpu_ms"] for r in three]
    print(f"3 × {n}: PostgreSQL's CPU from the PATCH to the last arrival {med(postgres):.1f} ms (rounds "
          + ", ".join(f"{v:.1f}" for v in postgres) + f"); fanout_wait's {med(client):.1f} ms")
    figure("instances.three.postgres_cpu", med(postgres), "ms")
    figure("instances.three.client_cpu", med(client), "ms")
    a = med(column(three, "a", "p50"))
    for group in ("b", "c"):
        other = med(column(three, group, "p50"))
        print(f"NOTIFY hop, 3 × {n}: {group}'s p50 − a's p50 = {other - a:.1f} ms, {(other - a) / other:.0%} of {group}'s p50"
              f"; first arrival {med(column(three, group, 'first')) - med(column(three, 'a', 'first')):+.1f} ms")
hops = rows.get("hop", [])
if hops:
    a_first, b_first = column(hops, "a", "first"), column(hops, "b", "first")
    gaps = sorted(b - a for a, b in zip(a_first, b_first))
    a_delivery = [d for d in column(hops, "a", "delivery_ms") if d is not None]
    b_delivery = [d for d in column(hops, "b", "delivery_ms") if d is not None]
    print(f"the hop alone ({len(hops)} PATCHes, 1 screen on a and 1 on b): a's screen {med(a_first):.2f} ms, b's "
          f"{med(b_first):.2f} ms after the PATCH (medians); b − a {med(gaps):.2f} ms (range {gaps[0]:.2f} to "
          f"{gaps[-1]:.2f}); commit → screen handed the change: a {med(a_delivery):.2f} ms (from before its "
          f"transaction), b {med(b_delivery):.2f} ms")
    figure("instances.hop.a_first", med(a_first), "ms")
    figure("instances.hop.b_first", med(b_first), "ms")
    figure("instances.hop.b_after_a", med(gaps), "ms")
    if a_delivery:
        figure("instances.hop.a_commit_to_screen", med(a_delivery), "ms")
    if b_delivery:
        figure("instances.hop.b_commit_to_screen", med(b_delivery), "ms")
if rows.get("local") and rows.get("remote"):
    local, remote = med(column(rows["local"], "a", "p50")), med(column(rows["remote"], "b", "p50"))
    first = med(column(rows["remote"], "b", "first")) - med(column(rows["local"], "a", "first"))
    print(f"NOTIFY hop, {n} on one instance: b alone p50 − a alone p50 = {remote - local:.1f} ms, "
          f"{(remote - local) / remote:.0%} of b's p50; first arrival {first:+.1f} ms")
PY
fi

if [ "$ONLY" != fanout ]; then
    # The machine's idle and stolen CPU seconds so far (/proc/stat), all cores together.
    machine_idle() { awk -v tck="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%s %s\n", ($5 + $6) / tck, $9 / tck }' /proc/stat; }
    # wrk's figures as one line: target, requests/s, p50 ms, p99 ms, errors, then the CPU seconds over the run of
    # the `movies` processes, of nginx, of PostgreSQL, the machine's idle and stolen seconds, and each instance's
    # sessions at the end. Usage: measure TARGET URL NGINX_PID|- MOVIES_PID...
    measure() {
        local target=$1 url=$2 nginx_pid=$3 output movies nginx postgres idle sessions="" name
        shift 3
        [ "$nginx_pid" = - ] && nginx_pid=""
        movies=$(cpu_seconds "$@")
        nginx=0
        [ -n "$nginx_pid" ] && nginx=$(cpu_seconds "$nginx_pid")
        postgres=$(cpu_seconds "$POSTMASTER")
        idle=$(machine_idle)
        output=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "$url")
        movies="$movies $(cpu_seconds "$@")"
        [ -n "$nginx_pid" ] && nginx="$nginx $(cpu_seconds "$nginx_pid")" || nginx="0 0"
        postgres="$postgres $(cpu_seconds "$POSTMASTER")"
        idle="$idle $(machine_idle)"
        for name in "${NAMES[@]}"; do
            [ -n "${PID_OF[$name]:-}" ] || continue
            sessions+="$name=$(curl -sf "http://127.0.0.1:${PORT_OF[$name]}/metrics" |
                awk '$1 == "screenplay_sessions_open" { print $2 }'),"
        done
        echo "== $target $url" >>"$WORK/wrk.log"
        echo "$output" >>"$WORK/wrk.log"
        echo "$output" | awk -v target="$target" -v sessions="${sessions%,}" -v movies="$movies" -v nginx="$nginx" \
            -v postgres="$postgres" -v idle="$idle" '
            function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
            function spent(pair, parts) { split(pair, parts, " "); return parts[2] - parts[1] }
            /Requests\/sec/ { rps = $2 }
            $1 == "50%" { p50 = ms($2) }
            $1 == "99%" { p99 = ms($2) }
            /Non-2xx|Socket errors/ { errors = errors $0 " " }
            END {
                split(idle, i, " ")
                printf "%s %s %s %s %s %.2f %.2f %.2f %.2f %.2f %s\n", target, rps, p50, p99,
                    (errors == "" ? "-" : "\"" errors "\""), spent(movies), spent(nginx), spent(postgres),
                    i[3] - i[1], i[4] - i[2], (sessions == "" ? "-" : sessions)
            }' >>"$WORK/pages"
    }
    nginx_in_front() {  # DIR LISTEN NAME=PORT...: starts nginx (Deployment/nginx.sh), waits for the page through it
        local dir=$1 listen=$2
        shift 2
        NGINX_DIRS+=("$dir")
        "$ROOT/Deployment/nginx.sh" start "$dir" "$listen" "$@" >/dev/null
        for _ in $(seq 100); do curl -sf "http://127.0.0.1:$listen/movies/1" -o /dev/null && return; sleep 0.1; done
        echo "nginx on $listen does not serve the page" >&2
        exit 1
    }
    echo "== pages: wrk -t2 -c$CONNECTIONS -d$DURATION --latency on GET /movies/1, every session kept" \
        "(--max-sessions 1000000), on PostgreSQL (and one SQLite instance beside them); $PAGE_ROUNDS alternating" \
        "rounds, fresh instances each"
    wanted() { [[ " $PAGE_TARGETS " == *" $1 "* ]]; }
    for round in $(seq "$PAGE_ROUNDS"); do
        if wanted one; then
            start_instances a
            nginx_in_front "$WORK/nginx-one-$round" "$NGINX_ONE_PORT" "a=${PORT_OF[a]}"
            measure one "http://127.0.0.1:$NGINX_ONE_PORT/movies/1" "$(cat "$WORK/nginx-one-$round/nginx.pid")" \
                "${PID_OF[@]}"
            stop_nginx "$WORK/nginx-one-$round"
            stop_instances
        fi
        if wanted three; then
            start_instances a b c
            nginx_in_front "$WORK/nginx-three-$round" "$NGINX_THREE_PORT" \
                "a=${PORT_OF[a]}" "b=${PORT_OF[b]}" "c=${PORT_OF[c]}"
            measure three "http://127.0.0.1:$NGINX_THREE_PORT/movies/1" \
                "$(cat "$WORK/nginx-three-$round/nginx.pid")" "${PID_OF[@]}"
            stop_nginx "$WORK/nginx-three-$round"
            stop_instances
        fi
        if wanted direct; then
            start_instances a
            measure direct "http://127.0.0.1:${PORT_OF[a]}/movies/1" - "${PID_OF[@]}"
            stop_instances
        fi
        wanted sqlite || { echo "  round $round done"; continue; }
        # The same page from one instance on its embedded SQLite file, no nginx: the store's share of the above.
        "$BIN" --root "$ROOT" --port "$SQLITE_PORT" --database "$WORK/pages-$round.sqlite" --max-sessions 1000000 \
            --max-connections 30000 --log-level warning >>"$WORK/sqlite.log" 2>&1 &
        SQLITE_PID=$!
        for _ in $(seq 200); do curl -sf "http://127.0.0.1:$SQLITE_PORT/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
        measure sqlite "http://127.0.0.1:$SQLITE_PORT/movies/1" - "$SQLITE_PID"
        kill "$SQLITE_PID" 2>/dev/null && wait "$SQLITE_PID" 2>/dev/null || true
        SQLITE_PID=""
        echo "  round $round done"
    done
    python3 - "$WORK/pages" "$DURATION" <<'PY'
import shlex, statistics, sys
from figures import record
seconds = float(sys.argv[2].rstrip("s"))
rows = {}
for line in open(sys.argv[1]):
    target, rps, p50, p99, errors, movies, nginx, postgres, idle, steal, sessions = shlex.split(line)
    rows.setdefault(target, []).append((float(rps), float(p50), float(p99), errors, float(movies) / seconds,
                                        float(nginx) / seconds, float(postgres) / seconds, float(idle) / seconds,
                                        float(steal) / seconds, sessions))
labels = {"one": "nginx → 1 instance", "three": "nginx → 3 instances (a, b, c)", "direct": "1 instance, no nginx",
          "sqlite": "1 instance on SQLite, no nginx"}
med = statistics.median
print(f"{'':<31} {'requests/s':>10} {'p50 ms':>7} {'p99 ms':>7}   cores used: movies nginx postgres; idle"
      "   rounds (requests/s)")
for target in ("one", "three", "direct", "sqlite"):
    runs = rows.get(target)
    if not runs:
        continue
    errors = " ".join(r[3] for r in runs if r[3] != "-")
    cores = "  ".join(f"{med(r[i] for r in runs):.2f}" for i in (4, 5, 6, 7))
    print(f"{labels[target]:<31} {med(r[0] for r in runs):>10.0f} {med(r[1] for r in runs):>7.2f} "
          f"{med(r[2] for r in runs):>7.2f}   {cores:<38}   {' '.join(f'{r[0]:.0f}' for r in runs)} {errors}")
    for name, index, unit in (("rate", 0, "requests/s"), ("p50", 1, "ms"), ("p99", 2, "ms"), ("cores_movies", 4, "cores"),
                              ("cores_nginx", 5, "cores"), ("cores_postgres", 6, "cores"), ("idle", 7, "cores")):
        record(f"instances.pages.{target}.{name}", med(r[index] for r in runs), unit)
steal = max(r[8] for runs in rows.values() for r in runs)
print(f"(cores: CPU seconds per second of the run, /proc; the machine has 2; the rest is wrk's and the kernel's; "
      f"stolen by the hypervisor at most {steal:.2f})")
if rows.get("three"):
    print("sessions at the end of each three-instance round: " + "; ".join(r[9] for r in rows["three"]))
if rows.get("one") and rows.get("three"):
    print(f"three instances / one, through nginx: {med(r[0] for r in rows['three']) / med(r[0] for r in rows['one']):.2f}")
    record("instances.pages.three_over_one", med(r[0] for r in rows["three"]) / med(r[0] for r in rows["one"]), "ratio")
if rows.get("one") and rows.get("direct"):
    print(f"one instance through nginx / straight: {med(r[0] for r in rows['one']) / med(r[0] for r in rows['direct']):.2f}")
    record("instances.pages.nginx_over_direct", med(r[0] for r in rows["one"]) / med(r[0] for r in rows["direct"]), "ratio")
if rows.get("direct") and rows.get("sqlite"):
    print(f"one instance on PostgreSQL / on SQLite: {med(r[0] for r in rows['direct']) / med(r[0] for r in rows['sqlite']):.2f}")
    record("instances.pages.postgres_over_sqlite", med(r[0] for r in rows["direct"]) / med(r[0] for r in rows["sqlite"]), "ratio")
PY
fi
