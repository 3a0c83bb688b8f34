# shellcheck shell=bash
# Puts a Node >= 22.19 and pnpm on PATH for this shell.
#
#   source scripts/bootstrap.sh
#
# Uses the system Node when it is new enough. Otherwise installs Node 24 (the npm
# registry's `node` package) and pnpm into a cache outside the repository, once, saying
# what and where; later runs only set PATH. Both versions are pinned below, so a fresh
# machine gets the toolchain CI ran, not whatever the registry lists newest that day. Quiet
# when there is nothing to do. Works in bash and zsh, sourced (`. scripts/bootstrap.sh`).

capi_kit_bootstrap() {
  local min_major=22 min_minor=19
  local cache="${CAPI_KIT_TOOLCHAIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/capi-kit/toolchain}"
  local node_version="24.21.0" pnpm_version="12.21.0"
  local -a installed=()

  node_ok() {
    command -v node >/dev/null 2>&1 || return 1
    local v major minor
    v="$(node -p 'process.versions.node' 2>/dev/null)" || return 1
    major="${v%%.*}"; minor="${v#*.}"; minor="${minor%%.*}"
    (( major > min_major || (major == min_major && minor >= min_minor) ))
  }

  # A Node or pnpm the machine already has is used as it is; the cached ones come second.
  if ! node_ok && [[ -x "$cache/node/node_modules/.bin/node" ]]; then
    PATH="$cache/node/node_modules/.bin:$PATH"
  fi
  if ! node_ok; then
    command -v npm >/dev/null 2>&1 || { echo "bootstrap: npm is needed to install Node 24" >&2; return 1; }
    echo "bootstrap: Node >= 22.19 not found (have: $(node --version 2>/dev/null || echo none)); installing Node $node_version from the npm registry into $cache/node (once)" >&2
    mkdir -p "$cache/node"
    npm install --silent --no-audit --no-fund --prefix "$cache/node" "node@$node_version" >&2 || return 1
    PATH="$cache/node/node_modules/.bin:$PATH"
    node_ok || { echo "bootstrap: Node 24 install did not yield a working node" >&2; return 1; }
    installed+=("node $(node --version)")
  fi

  if ! command -v pnpm >/dev/null 2>&1 && [[ -x "$cache/pnpm/node_modules/.bin/pnpm" ]]; then
    PATH="$cache/pnpm/node_modules/.bin:$PATH"
  fi
  if ! command -v pnpm >/dev/null 2>&1; then
    echo "bootstrap: pnpm not found; installing pnpm $pnpm_version from the npm registry into $cache/pnpm (once)" >&2
    mkdir -p "$cache/pnpm"
    npm install --silent --no-audit --no-fund --prefix "$cache/pnpm" "pnpm@$pnpm_version" >&2 || return 1
    PATH="$cache/pnpm/node_modules/.bin:$PATH"
    installed+=("pnpm $(pnpm --version)")
  fi
  if ((${#installed[@]} > 0)); then
    echo "bootstrap: ${installed[*]} now on PATH for this shell; in a new shell, run '. scripts/bootstrap.sh' again (it is quiet from now on)" >&2
  fi
  export PATH
}

capi_kit_bootstrap
