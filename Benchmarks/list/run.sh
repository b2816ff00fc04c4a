#!/usr/bin/env bash
# The movie list over a large catalog (issue 37's numbers): builds the release `movies` and runs list.py against it.
# Usage: Benchmarks/list/run.sh [--count 100000] [--fetches 500] [--bin PATH]
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ " $* " != *" --bin "* ]]; then
    swift build -c release --product movies -Xswiftc -warnings-as-errors >&2
fi
exec python3 Benchmarks/list/list.py "$@"
