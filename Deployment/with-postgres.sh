#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster (Deployment/postgres.sh) that is stopped and removed after it,
# whatever the command's outcome. The command finds the cluster in SCREENPLAY_TEST_POSTGRES (its URL) and
# SCREENPLAY_TEST_POSTGRES_DIR (its folder); SCREENPLAY_REQUIRE_POSTGRES=1 makes the tests insist on it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/screenplay-postgres.XXXXXX)
cleanup() { "$here/postgres.sh" stop "$dir" || true; rm -rf "$dir"; }
trap cleanup EXIT
url=$("$here/postgres.sh" start "$dir")
export SCREENPLAY_TEST_POSTGRES="$url" SCREENPLAY_TEST_POSTGRES_DIR="$dir" SCREENPLAY_REQUIRE_POSTGRES=1
status=0
"$@" || status=$?
exit $status
