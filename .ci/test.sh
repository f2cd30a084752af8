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
# Two workers: on a two-core machine jest would run one file at a time, while most of a file's time
# is spent waiting on the database, the network or a child process. No more than two: every e2e file
# starts a whole app with its Postgres pools, and Postgres allows 100 connections by default.
npx jest --ci --maxWorkers=2 --json --outputFile="$work/report.json" "$@" || true
# The console's component tests (Vitest, jsdom) report in the same JSON shape, counted in the same line.
(cd apps/web && VITE_CONFIG_NATIVE_IGNORE_WARNING=true npx vitest run --reporter=default --reporter=json \
  --outputFile.json="$work/web-report.json") || true
node .ci/jest-report.js "$work/report.json" "$work/web-report.json"
