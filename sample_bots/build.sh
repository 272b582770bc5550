#!/usr/bin/env bash
# Build the sample bots that need building: Node.js (npm ci), C++ (CMake) and Go.
#
#   sample_bots/build.sh              # every language
#   sample_bots/build.sh node cpp     # only these (node, cpp, go)
#
# Idempotent and quick when nothing changed: Debian packages are installed only when
# missing (apt-get needs root; otherwise the command to run is printed), npm ci runs only
# when package-lock.json changed, CMake and Go rebuild only what changed. The C++ and Go
# code for the protocol is generated from proto/arena/v1/*.proto on every build (Go by
# go/build.sh, which starter kits from `arena new-bot --language go` carry too).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
LOG_DIR=$(mktemp -d)
trap 'rm -rf "$LOG_DIR"' EXIT

CPP_PACKAGES=(g++ make cmake pkg-config libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc)
# Debian 12's Go gRPC stack; golang/protobuf 1.5 (not 1.3) is the one that understands the
# code protoc-gen-go 1.28 generates (installing it replaces the 1.3 package).
GO_PACKAGES=(golang-go protobuf-compiler protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev
             golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev)
NODE_PACKAGES=(nodejs npm)

say() { echo "build.sh: $*"; }
seconds_since() { echo $(( $(date +%s) - $1 ))s; }

# Run a step with its output in a log; show the log only if it fails.
quietly() {
  local log="$LOG_DIR/step.log"
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    say "FAILED: $*" >&2
    exit 1
  fi
}

missing_packages() {
  local package
  for package in "$@"; do
    if [ "$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null)" != installed ]; then
      echo "$package"
    fi
  done
}

ensure_packages() {
  local missing
  mapfile -t missing < <(missing_packages "$@")
  if [ ${#missing[@]} -eq 0 ]; then
    [ $# -eq 0 ] || say "apt: the $# Debian packages needed are installed"
    return
  fi
  local install=(apt-get install -y --no-install-recommends "${missing[@]}")
  if [ "$(id -u)" != 0 ]; then
    say "missing Debian packages; run as root: apt-get update && ${install[*]}" >&2
    exit 1
  fi
  local start
  start=$(date +%s)
  say "apt: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  quietly apt-get update
  quietly "${install[@]}"
  say "apt: done in $(seconds_since "$start")"
}

build_node() {
  local dir="$HERE/node" stamp="$HERE/node/node_modules/.arena-lock-sha256" sum
  sum=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
    say "node: node_modules up to date ($(node --version))"
    return
  fi
  local start
  start=$(date +%s)
  say "node: npm ci in sample_bots/node ($(node --version))"
  # --ignore-scripts: the dependencies need no install scripts.
  (cd "$dir" && quietly npm ci --ignore-scripts --no-audit --no-fund)
  echo "$sum" >"$stamp"
  say "node: done in $(seconds_since "$start")"
}

build_cpp() {
  local src="$HERE/cpp" build="$HERE/cpp/build" start
  start=$(date +%s)
  if [ ! -f "$build/CMakeCache.txt" ]; then
    say "cpp: cmake -S sample_bots/cpp -B sample_bots/cpp/build -DCMAKE_BUILD_TYPE=Release"
    quietly cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release
  fi
  say "cpp: cmake --build sample_bots/cpp/build -j$(nproc)"
  quietly cmake --build "$build" -j"$(nproc)"
  say "cpp: built sample_bots/cpp/build/random_bot in $(seconds_since "$start")"
}

build_go() {
  local start
  start=$(date +%s)
  say "go: sample_bots/go/build.sh random_bot build/random_bot (protoc, go build)"
  quietly "$HERE/go/build.sh" random_bot build/random_bot
  say "go: built sample_bots/go/build/random_bot in $(seconds_since "$start")"
}

languages=("$@")
if [ ${#languages[@]} -eq 0 ]; then
  languages=(node cpp go)
fi
needed=()
for language in "${languages[@]}"; do
  case "$language" in
    node) if ! command -v node >/dev/null || ! command -v npm >/dev/null; then needed+=("${NODE_PACKAGES[@]}"); fi ;;
    cpp) needed+=("${CPP_PACKAGES[@]}") ;;
    go) needed+=("${GO_PACKAGES[@]}") ;;
    *) say "unknown language $language (node, cpp, go)" >&2; exit 2 ;;
  esac
done
mapfile -t needed < <(printf '%s\n' "${needed[@]}" | sed '/^$/d' | sort -u)
ensure_packages "${needed[@]}"
for language in "${languages[@]}"; do
  "build_$language"
done
