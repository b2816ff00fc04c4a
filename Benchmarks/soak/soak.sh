#!/usr/bin/env bash
# Soak: mixed load on a release `movies` server for SECONDS (default 300), then checks memory stayed flat and no
# acknowledged PATCH was lost. Usage: Benchmarks/soak/soak.sh [SECONDS] (from the repository root, after
# `make release`).
set -euo pipefail
seconds="${1:-300}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${MOVIES:-$root/.build/release/movies}"
[ -x "$binary" ] || { echo "build first: make release" >&2; exit 2; }
work="$(mktemp -d)"
port="${SOAK_PORT:-18181}"
"$binary" --root "$root" --port "$port" --database "$work/movies.sqlite" --log-level warning &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
python3 "$root/Benchmarks/soak/soak.py" --port "$port" --pid "$server" --seconds "$seconds" \
    --stream-clients "${SOAK_STREAM_CLIENTS:-4}"
