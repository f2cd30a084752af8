#!/usr/bin/env bash
# `npm run fuzz`: the schema fuzz (test/attack/schema-fuzz.e2e-spec.ts) with many more generated
# requests per operation and a random seed, printed so that a finding can be replayed:
#   SYNTHORG_FUZZ_SEED=<seed> npm run fuzz
# SYNTHORG_FUZZ_RUNS sets the generated requests per operation (default 300; `npm test` draws 30).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. .ci/postgres.sh
ensure_postgres
export SYNTHORG_FUZZ_SEED="${SYNTHORG_FUZZ_SEED:-$(node -e 'process.stdout.write(String(require("node:crypto").randomInt(2 ** 31)))')}"
export SYNTHORG_FUZZ_RUNS="${SYNTHORG_FUZZ_RUNS:-300}"
echo "schema fuzz: seed ${SYNTHORG_FUZZ_SEED}, ${SYNTHORG_FUZZ_RUNS} generated requests per operation"
echo "replay: SYNTHORG_FUZZ_SEED=${SYNTHORG_FUZZ_SEED} SYNTHORG_FUZZ_RUNS=${SYNTHORG_FUZZ_RUNS} npm run fuzz"
export NODE_OPTIONS="--experimental-vm-modules ${NODE_OPTIONS:-}"
npx jest test/attack/schema-fuzz "$@"
