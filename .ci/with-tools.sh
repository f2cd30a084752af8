#!/usr/bin/env bash
# Runs a command with the project-local toolchain (Node 24, git >= 2.48) first on PATH.
set -euo pipefail
# shellcheck source=env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
exec "$@"
