#!/usr/bin/env bash
# `npm run build`: a clean build of dist/ (the service, then the console in dist/web; nothing of an
# earlier build lingers), then a stamp of the
# sources it was built from, which `npm start` compares to decide whether to build again. The
# stamp is taken before compiling, so a file changed during the build makes the next start rebuild.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
stamp="$(node .ci/source-stamp.js)"
rm -rf dist
tsc -p tsconfig.build.json
tsc-alias -p tsconfig.build.json
# The command line is the package's `synthorg` bin: executable, like an installed one.
chmod +x dist/apps/cli/src/main.js
# The console: static files in dist/web, served by the API process at /.
VITE_CONFIG_NATIVE_IGNORE_WARNING=true vite build --config apps/web/vite.config.mts --logLevel warn
printf '%s\n' "$stamp" > dist/.source-stamp
