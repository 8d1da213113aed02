#!/usr/bin/env bash
# Install the independent oracles (kubeconform, kubectl-validate, and helm and kustomize for
# `validate --helm` / `validate --kustomize`, docs/decisions.md D51) at pinned versions with `go install`
# into a cache folder, reused when the pinned version is already there (a second run builds nothing),
# and yaml-language-server (`npm install`, pinned) for the editor-schema test (docs/decisions.md D46).
# Prints the bin directory to put on PATH (stdout, last line); progress goes to stderr.
# Versions and reasons: docs/decisions.md ("Independent oracles").
set -euo pipefail

KUBECONFORM_VERSION="${KUBECONFORM_VERSION:-v0.7.0}"
KUBECTL_VALIDATE_VERSION="${KUBECTL_VALIDATE_VERSION:-v0.0.4}"
HELM_VERSION="${HELM_VERSION:-v3.22.0}"
# v5.8.1: builds with this machine's Go (v5.8.3's kustomize/api v0.21.3 needs a newer Go)
KUSTOMIZE_VERSION="${KUSTOMIZE_VERSION:-v5.8.1}"
# 1.25.0: the last release that runs on Node 20 (2.0.0 needs Node >= 22.13)
YAML_LANGUAGE_SERVER_VERSION="${YAML_LANGUAGE_SERVER_VERSION:-1.25.0}"

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

install_npm() {  # name package version: npm install into $root/npm/NAME, its bin linked into $bin
    local name="$1" package="$2" version="$3"
    local stamp="$root/stamps/$name"
    if [[ -x "$bin/$name" && -f "$stamp" && "$(cat "$stamp")" == "$package@$version" ]]; then
        echo "install-oracles: $name $version already in $bin" >&2
        return 0
    fi
    if ! command -v npm >/dev/null 2>&1; then
        echo "install-oracles: npm not found (PATH)" >&2
        return 1
    fi
    echo "install-oracles: installing $name $version (npm install $package@$version)" >&2
    rm -f "$stamp"
    rm -rf "$root/npm/$name"
    mkdir -p "$root/npm/$name"
    npm install --prefix "$root/npm/$name" --no-audit --no-fund --loglevel=error "$package@$version" >&2
    ln -sf "$root/npm/$name/node_modules/.bin/$name" "$bin/$name"
    printf '%s' "$package@$version" >"$stamp"
}

install_one kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$KUBECONFORM_VERSION"
install_one kubectl-validate sigs.k8s.io/kubectl-validate "$KUBECTL_VALIDATE_VERSION"
install_one kustomize sigs.k8s.io/kustomize/kustomize/v5 "$KUSTOMIZE_VERSION"
install_one helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION"
install_npm yaml-language-server yaml-language-server "$YAML_LANGUAGE_SERVER_VERSION"

echo "$bin"
