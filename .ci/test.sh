#!/usr/bin/env bash
# `npm test`: the full suite — unit, integration (SQLite and Postgres) and e2e — with jest's summary,
# then one closing line "N passed, N failed".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. .ci/postgres.sh
ensure_postgres
npm run --silent build
export NODE_OPTIONS="--experimental-vm-modules ${NODE_OPTIONS:-}"
report="$(mktemp)"
status=0
npx jest --ci --json --outputFile="$report" "$@" || status=$?
node -e '
  const r = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report" || true
rm -f "$report"
exit "$status"
