#!/usr/bin/env bash
# `npm test`: the full suite — unit, integration (SQLite and Postgres) and e2e — with jest's summary,
# then one closing line "N passed, N failed" (a test file that fails to run counts as failed).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. .ci/postgres.sh
ensure_postgres
npm run --silent build
export NODE_OPTIONS="--experimental-vm-modules ${NODE_OPTIONS:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npx jest --ci --json --outputFile="$work/report.json" "$@" || true
node .ci/jest-report.js "$work/report.json"
