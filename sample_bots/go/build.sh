#!/usr/bin/env bash
# Build a Go arena bot against Debian's Go gRPC packages, in GOPATH mode (no module proxy):
#
#   ./build.sh [MAIN_FOLDER [OUTPUT]]     # defaults: . and build/bot ($ARENA_BUILD/bot if set)
#
# Generates the protocol package arena/v1 from the .proto files (proto/ next to this script
# when it holds arena/v1, as in a starter kit from `arena new-bot --language go`; else arena's
# proto/ two folders up, for sample_bots/go), puts it, the SDK arena/arenabot (./arenabot) and
# the bot's package main (MAIN_FOLDER/*.go) into build/gopath, and builds OUTPUT. Paths are
# relative to this script's folder. Needs: golang-go protobuf-compiler protoc-gen-go
# protoc-gen-go-grpc golang-google-grpc-dev golang-google-protobuf-dev
# golang-github-golang-protobuf-1-5-dev (sample_bots/build.sh installs them). $GOCACHE, if set,
# replaces build/gocache (to share compiled dependencies between bots). $ARENA_BUILD, if set (a
# kit's [build] step, run by arena in its sandbox with this folder read-only), replaces build/.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"
BUILD="${ARENA_BUILD:-$HERE/build}"
MAIN=${1:-.}
OUTPUT=${2:-$BUILD/bot}
PROTO_ROOT="$HERE/proto"
[ -f "$PROTO_ROOT/arena/v1/bot.proto" ] || PROTO_ROOT=$(cd "$HERE/../../proto" && pwd)

GOPATH_DIR="$BUILD/gopath"
PACKAGE="$GOPATH_DIR/src/arena"
protos=("$PROTO_ROOT"/arena/v1/*.proto)
mappings=()
for proto in "${protos[@]}"; do
  relative=${proto#"$PROTO_ROOT/"}
  mappings+=("--go_opt=M$relative=arena/v1;arenav1" "--go-grpc_opt=M$relative=arena/v1;arenav1")
done
rm -rf "$PACKAGE"
mkdir -p "$PACKAGE/v1" "$PACKAGE/arenabot" "$PACKAGE/bot"
protoc --proto_path="$PROTO_ROOT" --go_out="$GOPATH_DIR/src" --go-grpc_out="$GOPATH_DIR/src" \
  "${mappings[@]}" "${protos[@]}"
cp arenabot/*.go "$PACKAGE/arenabot/"
cp "$MAIN"/*.go "$PACKAGE/bot/"
# Go's scratch space beside its cache: the sandbox's /tmp may not be the build's to write.
mkdir -p "$BUILD/gotmp"
env GO111MODULE=off GOFLAGS= GOPROXY=off GOPATH="$GOPATH_DIR:/usr/share/gocode" GOCACHE="${GOCACHE:-$BUILD/gocache}" \
  GOTMPDIR="$BUILD/gotmp" go build -o "$OUTPUT" arena/bot
rm -rf "$BUILD/gotmp"
echo "built $OUTPUT"
