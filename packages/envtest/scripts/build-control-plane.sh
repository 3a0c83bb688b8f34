#!/usr/bin/env bash
# Builds kube-apiserver and etcd from the Go module proxy into the setup-envtest store
# (${XDG_DATA_HOME:-$HOME/.local/share}/kubebuilder-envtest/k8s/<version>-<os>-<arch>/),
# so Go users of setup-envtest and capi-kit share one copy.
#
# Idempotent: when both binaries are already there (or KUBEBUILDER_ASSETS / TEST_ASSET_*
# name usable ones) it prints the directory and returns at once.
#
# Why a wrapper module: k8s.io/kubernetes requires its staging modules at v0.0.0 and maps
# them with replace lines that Go ignores for a dependency, so `go install …@v1.36.3` fails.
# The wrapper replaces each staging module with its published v0.<minor>.<patch> tag.
set -euo pipefail

K8S_VERSION="${CAPI_KIT_K8S_VERSION:-1.36.3}"
# The platform suffix of the store directory; found without Go so that a machine with
# cached binaries but no Go toolchain still takes the fast path below.
GOOS="$(uname -s | tr '[:upper:]' '[:lower:]')"
case "$(uname -m)" in
  x86_64 | amd64) GOARCH=amd64 ;;
  aarch64 | arm64) GOARCH=arm64 ;;
  *) GOARCH="$(uname -m)" ;;
esac
STORE="${XDG_DATA_HOME:-$HOME/.local/share}/kubebuilder-envtest/k8s"
DEST="$STORE/${K8S_VERSION}-${GOOS}-${GOARCH}"

log() { printf '[envtest-build] %s\n' "$*" >&2; }

have() { [[ -n "${1:-}" && -x "$1" ]]; }

if have "${TEST_ASSET_KUBE_APISERVER:-}" && have "${TEST_ASSET_ETCD:-}"; then
  log "using TEST_ASSET_KUBE_APISERVER / TEST_ASSET_ETCD"
  exit 0
fi
if [[ -n "${KUBEBUILDER_ASSETS:-}" ]] && have "$KUBEBUILDER_ASSETS/kube-apiserver" && have "$KUBEBUILDER_ASSETS/etcd"; then
  log "using KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS"
  exit 0
fi
if have "$DEST/kube-apiserver" && have "$DEST/etcd"; then
  echo "$DEST"
  exit 0
fi

command -v go >/dev/null || { log "Go is required to build the control plane (none on PATH)"; exit 1; }

minor="${K8S_VERSION#*.}"; minor="${minor%%.*}"
patch="${K8S_VERSION##*.}"
staging_version="v0.${minor}.${patch}"

# The staging modules of Kubernetes 1.36/1.37; replacing an unused one is harmless.
staging=(api apiextensions-apiserver apimachinery apiserver cli-runtime client-go
  cloud-provider cluster-bootstrap code-generator component-base component-helpers
  controller-manager cri-api cri-client cri-streaming csi-translation-lib
  dynamic-resource-allocation endpointslice externaljwt kms kube-aggregator
  kube-controller-manager kube-proxy kube-scheduler kubectl kubelet metrics mount-utils
  pod-security-admission sample-apiserver sample-cli-plugin sample-controller streaming)

work="$(mktemp -d "${TMPDIR:-/tmp}/capi-kit-envtest-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT

{
  echo "module capi-kit.invalid/envtest-binaries"
  echo
  echo "go 1.26.0"
  echo
  echo "require k8s.io/kubernetes v${K8S_VERSION}"
  echo
  echo "replace ("
  for m in "${staging[@]}"; do echo "	k8s.io/$m => k8s.io/$m $staging_version"; done
  echo ")"
} >"$work/go.mod"
cat >"$work/tools.go" <<'GO'
//go:build tools

package tools

import (
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
)
GO

export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0
cd "$work"
log "resolving Kubernetes v${K8S_VERSION} modules (first run downloads a few hundred modules)"
t0=$(date +%s)
go mod tidy -e >/dev/null 2>"$work/tidy.log" &
tidy=$!
# Module downloads print nothing; report elapsed time and the module cache's size meanwhile.
modcache="$(go env GOMODCACHE)/cache/download"
while kill -0 "$tidy" 2>/dev/null; do
  for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do kill -0 "$tidy" 2>/dev/null && sleep 1; done
  if kill -0 "$tidy" 2>/dev/null; then
    log "still resolving: $(($(date +%s) - t0))s, $(find "$modcache" -name '*.zip' 2>/dev/null | wc -l) module zips in the cache"
  fi
done
wait "$tidy" || { cat "$work/tidy.log" >&2; exit 1; }
log "modules resolved in $(($(date +%s) - t0))s"

build_date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
ver_flags=""
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ver_flags+=" -X $pkg.gitVersion=v${K8S_VERSION} -X $pkg.gitMajor=1 -X $pkg.gitMinor=${minor}"
  ver_flags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=${build_date}"
done

mkdir -p "$work/out"
log "building kube-apiserver v${K8S_VERSION} (about 6 min on 2 cores with empty Go caches, seconds with warm ones)"
start=$(date +%s)
go build -v -trimpath -pgo=off -tags=selinux,notest -ldflags "-s -w${ver_flags}" \
  -o "$work/out/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver 2>&1 |
  awk '{ n++ } n % 200 == 0 { printf "[envtest-build] %d packages compiled\n", n > "/dev/stderr" }'
[[ -x "$work/out/kube-apiserver" ]] || { log "kube-apiserver build failed"; exit 1; }
log "building etcd (version pinned by the Kubernetes module graph)"
go build -trimpath -ldflags "-s -w" -o "$work/out/etcd" go.etcd.io/etcd/server/v3
log "built in $(( $(date +%s) - start ))s (total $(( $(date +%s) - t0 ))s)"

# Move into place atomically so a half-built store directory is never seen.
mkdir -p "$STORE"
staged="$(mktemp -d "$STORE/.staging.XXXXXX")"
mv "$work/out/kube-apiserver" "$work/out/etcd" "$staged/"
rm -rf "$DEST"
mv "$staged" "$DEST"
chmod 755 "$DEST"
echo "$DEST"
