#!/usr/bin/env bash
# Session flood: GET /movies/1 from wrk until at least GETS page loads (default 1,000,000) have been answered by a
# release `movies` with its default session cap, sampling the server's resident memory and the session gauges after
# every slice. Every GET opens a screen session, so the cap (10,000 unless MAX_SESSIONS says otherwise) is reached
# within seconds and from then on each new session evicts the least recently active one. Fails if a response other
# than 200 was seen, if the open sessions ever exceed the cap, or if memory in the last third of the run grew more
# than 10% over its middle third.
# Usage: Benchmarks/soak/flood.sh [GETS] (from anywhere, after `make release`; MOVIES=path picks another build).
set -euo pipefail
gets="${1:-1000000}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${MOVIES:-$root/.build/release/movies}"
cap="${MAX_SESSIONS:-10000}"
port="${FLOOD_PORT:-18182}"
slice="${SLICE:-20s}"
[ -x "$binary" ] || { echo "build first: make release" >&2; exit 2; }
command -v wrk >/dev/null || { echo "missing wrk (apt-get install wrk)" >&2; exit 2; }
work="$(mktemp -d)"
"$binary" --root "$root" --port "$port" --database "$work/movies.sqlite" --max-sessions "$cap" --no-access-log \
    --log-level warning 2>"$work/server.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$server/status"; }
metric() { curl -fs "http://127.0.0.1:$port/metrics" | awk -v name="$1" '$1 == name { print $2 }'; }
# wrk's summary: "N requests in ..." and, when any, "Non-2xx or 3xx responses: M".
total=0
started=$(date +%s)
printf '%10s %10s %12s %10s %10s %8s\n' seconds GETs "RSS (MiB)" sessions evicted "req/s"
samples=()
while [ "$total" -lt "$gets" ]; do
    # A generous timeout: on a busy machine a page can wait seconds for a core, which is slow, not lost.
    out="$(wrk -t2 -c32 -d"$slice" --timeout 30s "http://127.0.0.1:$port/movies/1")"
    count="$(echo "$out" | awk '/requests in/ { print $1 }')"
    bad="$(echo "$out" | awk '/Non-2xx or 3xx responses:/ { print $5 }')"
    errors="$(echo "$out" | awk '/Socket errors:/ { print }')"
    if [ -n "$bad" ] || [ -n "$errors" ]; then
        echo "$out" >&2
        echo "FAIL: a GET was not answered with 200" >&2
        exit 1
    fi
    total=$((total + count))
    kib="$(rss)"
    open="$(metric screenplay_sessions_open)"
    evicted="$(metric screenplay_sessions_evicted_total)"
    rate="$(echo "$out" | awk '/Requests\/sec:/ { printf "%d", $2 }')"
    printf '%10d %10d %12.1f %10d %10d %8d\n' "$(($(date +%s) - started))" "$total" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" \
        "$open" "$evicted" "$rate"
    if [ "$open" -gt "$cap" ]; then
        echo "FAIL: $open sessions open, over the cap of $cap" >&2
        exit 1
    fi
    [ "$open" -ge "$cap" ] && samples+=("$kib")
done
# Flat once the cap is reached: the peak of the last third of the samples taken at the cap against the peak of the
# middle third (a step while the process's thread pool and allocator arenas settle is not growth; a climb is).
n=${#samples[@]}
if [ "$n" -ge 3 ]; then
    first="${samples[0]}"
    middle=0
    for kib in "${samples[@]:$((n / 3)):$((2 * n / 3 - n / 3))}"; do [ "$kib" -gt "$middle" ] && middle="$kib"; done
    last=0
    for kib in "${samples[@]:$((2 * n / 3))}"; do [ "$kib" -gt "$last" ] && last="$kib"; done
    growth="$(awk -v a="$middle" -v b="$last" 'BEGIN { print 100 * (b - a) / a }')"
    mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
    printf 'memory at the cap: first sample %s MiB, middle third peak %s MiB, last third peak %s MiB (%+.1f%%)\n' \
        "$(mib "$first")" "$(mib "$middle")" "$(mib "$last")" "$growth"
    if awk -v g="$growth" 'BEGIN { exit !(g > 10) }'; then
        echo "FAIL: memory grew more than 10% from the middle to the last third of the run" >&2
        exit 1
    fi
fi
echo "$total GETs, every one 200; sessions never above the cap of $cap"
