#!/usr/bin/env bash
# `npm test`: the full suite — unit, integration (SQLite and Postgres) and e2e — with jest's summary,
# then one closing line "N passed, N failed".
#
# better-sqlite3 can abort a jest worker while it finalises statements after the test file's context
# is gone (a native assertion, not a test failure). A test file whose worker died that way is run
# again, up to twice; assertion failures are never retried.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. .ci/postgres.sh
ensure_postgres
npm run --silent build
export NODE_OPTIONS="--experimental-vm-modules ${NODE_OPTIONS:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
reports=("$work/run-0.json")
npx jest --ci --json --outputFile="${reports[0]}" "$@" || true
for attempt in 1 2; do
  last="${reports[${#reports[@]}-1]}"
  mapfile -t crashed < <(node .ci/jest-report.js crashed "$last")
  if [ "${#crashed[@]}" -eq 0 ] || [ -z "${crashed[0]}" ]; then
    break
  fi
  echo "re-running ${#crashed[@]} test file(s) whose worker crashed (attempt $attempt): ${crashed[*]}" >&2
  next="$work/run-$attempt.json"
  npx jest --ci --json --outputFile="$next" "${crashed[@]}" || true
  reports+=("$next")
done
node .ci/jest-report.js summary "${reports[@]}"
