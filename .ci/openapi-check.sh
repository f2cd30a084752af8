#!/usr/bin/env bash
# `npm run openapi:check`: fails when openapi.json differs from what the code generates.
# better-sqlite3 12 on Node 24 can abort a process on a native finaliser assertion (SIGABRT) that
# has nothing to do with the document. The verdict is the generator's own line, read from a file
# (written synchronously, so an abort after the comparison keeps it); a run that aborted before
# giving one is repeated, up to five attempts in all.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
for attempt in 1 2 3 4 5; do
  node dist/apps/api/src/openapi/generate.js --check >"$out" 2>/dev/null
  status=$?
  if grep -q '^openapi.json is up to date$' "$out"; then
    cat "$out"
    exit 0
  fi
  if [ "$status" -ne 134 ]; then
    break
  fi
  echo "openapi check: the generator aborted before its verdict (attempt $attempt), repeating" >&2
done
# Drift (or a failure that is not the abort): run once more with the diagnostics visible.
node dist/apps/api/src/openapi/generate.js --check
exit 1
