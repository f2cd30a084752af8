#!/usr/bin/env bash
# `npm start`: build if the sources changed, then run the server on the embedded SQLite database by default.
# For a one-command local start, a signing secret is generated once into data/.jwt-secret (mode 0600)
# when none is configured. Production (SYNTHORG_ENV=production) and the container never do this:
# they must be given SYNTHORG_JWT_SECRET or SYNTHORG_JWT_SECRET_FILE explicitly.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ -z "${SYNTHORG_JWT_SECRET:-}" ] && [ -z "${SYNTHORG_JWT_SECRET_FILE:-}" ] && [ "${SYNTHORG_ENV:-development}" != "production" ]; then
  secret_file="data/.jwt-secret"
  if [ ! -s "$secret_file" ]; then
    mkdir -p data
    (umask 077 && node -e "process.stdout.write(require('node:crypto').randomBytes(48).toString('base64url'))" > "$secret_file")
    echo "[start] generated a local signing secret in $secret_file (development only)" >&2
  fi
  export SYNTHORG_JWT_SECRET_FILE="$secret_file"
fi
# Build only when the sources changed since the last build (its stamp; see build.sh): a restart
# on unchanged sources goes straight to the server.
if [ ! -f dist/apps/api/src/main.js ] || [ "$(node .ci/source-stamp.js)" != "$(cat dist/.source-stamp 2>/dev/null)" ]; then
  npm run --silent build
fi
exec node --max-semi-space-size=16 dist/apps/api/src/main.js
