#!/usr/bin/env bash
# `npm test`: the full suite — unit, integration (SQLite and Postgres) and e2e — with jest's summary,
# then one closing line "N passed, N failed".
#
# better-sqlite3 can abort a jest worker while it finalises statements after the test file's context
# is gone (a native assertion, not a test failure). A test file whose worker died that way is run
# again, up to three times; assertion failures are never retried. A re-run always includes one small
# companion spec: with two or more files jest uses worker processes, so an abort at teardown is
# reported as a crashed worker instead of killing jest itself before it writes its report.
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
companion=libs/domain/src/errors/error-codes.spec.ts
for attempt in 1 2 3; do
  last="${reports[${#reports[@]}-1]}"
  mapfile -t crashed < <(node .ci/jest-report.js crashed "$last")
  if [ "${#crashed[@]}" -eq 0 ] || [ -z "${crashed[0]}" ]; then
    break
  fi
  echo "re-running ${#crashed[@]} test file(s) whose worker crashed (attempt $attempt): ${crashed[*]}" >&2
  next="$work/run-$attempt.json"
  npx jest --ci --json --outputFile="$next" "${crashed[@]}" "$companion" || true
  reports+=("$next")
done
node .ci/jest-report.js summary "${reports[@]}"
