#!/usr/bin/env bash
# `npm run openapi:check`: fails when openapi.json differs from what the code generates.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node dist/apps/api/src/openapi/generate.js --check
