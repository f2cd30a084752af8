# Sourced by npm scripts and CI: puts the project-local tools (Node 24, git >= 2.48) first on PATH.
# Harmless when nothing was provisioned.
_synthorg_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
if [ -x "$_synthorg_root/.tools/node/bin/node" ]; then
  export PATH="$_synthorg_root/.tools/node/bin:$PATH"
fi
if [ -x "$_synthorg_root/.tools/git/bin/git" ]; then
  export PATH="$_synthorg_root/.tools/git/bin:$PATH"
fi
export SCARF_ANALYTICS=false
unset _synthorg_root
