#!/usr/bin/env bash
# Every benchmark in one command (`make bench`): the end-to-end screen benchmark of the movie app, then, with
# --all, the HTTP server benchmark, the many-instances benchmark on PostgreSQL (Benchmarks/instances/run.sh) and the
# Reactive and ViewKit micro-benchmarks. Options after the first are passed to Benchmarks/screens/run.sh (see
# Benchmarks/README.md).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ALL=0
if [ "${1:-}" = "--all" ]; then
    ALL=1
    shift
fi
"$HERE/screens/run.sh" "$@"
if [ "$ALL" = 1 ]; then
    "$HERE/http/run.sh"
    "$HERE/instances/run.sh"
    (cd "$HERE/.." && swift build -c release --product ReactiveBenchmarks --product ViewKitBenchmarks >/dev/null &&
        "$(swift build -c release --show-bin-path)/ReactiveBenchmarks" &&
        "$(swift build -c release --show-bin-path)/ViewKitBenchmarks")
fi
