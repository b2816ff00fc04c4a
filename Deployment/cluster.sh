#!/usr/bin/env bash
# `make cluster`: a throwaway PostgreSQL in .data/postgres, three `movies` instances (a, b, c) on it, and nginx in
# front of them on 127.0.0.1:$PORT (default 8080). Ctrl-C stops them all, by pid.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-8080}
binary=${MOVIES_BINARY:-.build/release/movies}
data=.data
mkdir -p "$data/nginx"
pids=()
stop() {
    trap - INT TERM EXIT
    echo
    echo "Stopping the instances, nginx and PostgreSQL"
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    Deployment/nginx.sh stop "$data/nginx"
    Deployment/postgres.sh stop "$data/postgres"
}
trap stop INT TERM EXIT
url=$(Deployment/postgres.sh start "$data/postgres")
upstreams=()
for name in a b c; do
    instance_port=$((port + ${#upstreams[@]} + 1))
    "$binary" --port "$instance_port" --database "$url" --instance "$name" --root . \
        > "$data/instance-$name.log" 2>&1 &
    pids+=($!)
    upstreams+=("$name=$instance_port")
done
for pair in "${upstreams[@]}"; do
    for _ in $(seq 100); do curl -fs "http://127.0.0.1:${pair#*=}/readyz" >/dev/null && break; sleep 0.1; done
done
Deployment/nginx.sh start "$data/nginx" "$port" "${upstreams[@]}" >/dev/null
echo "Screenplay movies on three instances: http://localhost:$port/ (instances ${upstreams[*]}; logs in $data/)"
echo "Ctrl-C to stop."
wait "${pids[@]}"
