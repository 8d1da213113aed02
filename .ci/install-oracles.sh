#!/usr/bin/env bash
# Install the independent oracles (kubeconform, kubectl-validate) at pinned versions with `go install`
# into a cache folder, reused when the pinned version is already there (a second run builds nothing).
# Prints the bin directory to put on PATH (stdout, last line); progress goes to stderr.
# Versions and reasons: docs/decisions.md ("Independent oracles").
set -euo pipefail

KUBECONFORM_VERSION="${KUBECONFORM_VERSION:-v0.7.0}"
KUBECTL_VALIDATE_VERSION="${KUBECTL_VALIDATE_VERSION:-v0.0.4}"

root="${DYNAMO_SCHEMA_TOOLS:-$HOME/.cache/dynamo-schema/tools}"
bin="$root/bin"
mkdir -p "$bin" "$root/stamps"

find_go() {
    if command -v go >/dev/null 2>&1; then
        command -v go
    elif [[ -x /usr/local/go/bin/go ]]; then
        echo /usr/local/go/bin/go
    else
        echo "install-oracles: go not found (PATH, /usr/local/go/bin)" >&2
        return 1
    fi
}

install_one() {  # name module version
    local name="$1" module="$2" version="$3"
    local stamp="$root/stamps/$name"
    if [[ -x "$bin/$name" && -f "$stamp" && "$(cat "$stamp")" == "$module@$version" ]]; then
        echo "install-oracles: $name $version already in $bin" >&2
        return 0
    fi
    echo "install-oracles: building $name $version (go install $module@$version)" >&2
    local go
    go="$(find_go)"
    rm -f "$stamp"
    GOBIN="$bin" GOFLAGS="${GOFLAGS:--mod=mod}" CGO_ENABLED=0 "$go" install "$module@$version" >&2
    printf '%s' "$module@$version" >"$stamp"
}

install_one kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"
install_one kubectl-validate sigs.k8s.io/kubectl-validate "$KUBECTL_VALIDATE_VERSION"

echo "$bin"
