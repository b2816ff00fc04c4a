#!/usr/bin/env bash
# The Examples package's checks, from the repository root or anywhere: builds it with warnings as errors (the
# framework through its public products only), checks that the doc snippets are current and compile, runs its Swift
# tests, runs the README's Counter program over HTTP, and drives the to-do app in headless Chromium.
set -euo pipefail

EXAMPLES="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$EXAMPLES")"
SWIFT="${SWIFT:-swift}"
PYTEST="${PYTEST:-$ROOT/.venv/bin/pytest}"
FLAGS=(--package-path "$EXAMPLES" -Xswiftc -warnings-as-errors)
started=$SECONDS

step() { printf '\n== %s (%ss)\n' "$1" $((SECONDS - started)); }

step "doc snippets are current"
python3 "$EXAMPLES/Scripts/extract-snippets.py" --check

step "format"
"$SWIFT" format lint --strict --configuration "$ROOT/.swift-format" --recursive \
    "$EXAMPLES/Package.swift" "$EXAMPLES/Sources" "$EXAMPLES/Tests" "$EXAMPLES/DocSnippets/Context"

# Building every target builds DocSnippets too: a snippet that stops compiling fails here.
step "build (warnings as errors)"
"$SWIFT" build "${FLAGS[@]}" --build-tests

step "Swift tests"
SNAPSHOT_TESTING_RECORD=never "$SWIFT" test "${FLAGS[@]}" --skip-build

step "the README's Counter, run and fetched"
python3 "$EXAMPLES/Scripts/check-counter.py" "$("$SWIFT" build "${FLAGS[@]}" --show-bin-path)/Counter"

step "the to-do app in Chromium"
TODOS_BINARY="$("$SWIFT" build "${FLAGS[@]}" --show-bin-path)/todos" "$PYTEST" -q "$EXAMPLES/BrowserTests"

step "Examples passed"
