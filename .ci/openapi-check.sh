#!/usr/bin/env bash
# `npm run openapi:check`: fails when openapi.json differs from what the code generates.
# better-sqlite3 can abort the generator on a native finaliser assertion (SIGABRT, no verdict
# printed); such a run says nothing about drift and is repeated, up to three attempts in all.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for attempt in 1 2 3; do
  out="$(node dist/apps/api/src/openapi/generate.js --check 2>/dev/null)"
  status=$?
  if grep -q '^openapi.json is up to date$' <<<"$out"; then
    echo "$out"
    exit 0
  fi
  if grep -q 'out of date' <<<"$out" || [ "$status" -ne 134 ]; then
    node dist/apps/api/src/openapi/generate.js --check
    exit 1
  fi
  echo "openapi check: generator aborted during teardown (attempt $attempt), retrying" >&2
done
exit 1
