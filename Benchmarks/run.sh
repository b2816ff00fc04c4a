#!/usr/bin/env bash
# Every benchmark in one command (`make bench`): the end-to-end screen benchmark of the movie app and the input round
# trip (Benchmarks/input/run.sh), then, with --all, the HTTP server benchmark, the many-instances benchmark on
# PostgreSQL (Benchmarks/instances/run.sh) and the Reactive and ViewKit micro-benchmarks. Options after the first are
# passed to Benchmarks/screens/run.sh (see Benchmarks/README.md).
#
# The figures the scripts print are also written as JSON (Benchmarks/figures.py) to
# Benchmarks/results/<date>-<revision>.json and Benchmarks/results/latest.json ($BENCH_RESULTS for another folder),
# once every benchmark has finished; Benchmarks/compare.py OLD.json NEW.json prints the change of each figure.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ARGUMENTS=("$@")
ALL=0
if [ "${1:-}" = "--all" ]; then
    ALL=1
    shift
fi
RESULTS=${BENCH_RESULTS:-$HERE/results}
BENCH_FIGURES=$(mktemp)
export BENCH_FIGURES
trap 'rm -f "$BENCH_FIGURES"' EXIT
python3 "$HERE/figures.py" begin ${ARGUMENTS[@]+"${ARGUMENTS[@]}"} || echo "figures: the record could not start" >&2

"$HERE/screens/run.sh" "$@"
"$HERE/input/run.sh"
if [ "$ALL" = 1 ]; then
    "$HERE/http/run.sh"
    "$HERE/instances/run.sh"
    (cd "$HERE/.." && swift build -c release --product ReactiveBenchmarks --product ViewKitBenchmarks >/dev/null &&
        "$(swift build -c release --show-bin-path)/ReactiveBenchmarks" | python3 "$HERE/figures.py" scan reactive &&
        "$(swift build -c release --show-bin-path)/ViewKitBenchmarks" | python3 "$HERE/figures.py" scan viewkit)
fi
python3 "$HERE/figures.py" write "$RESULTS"
