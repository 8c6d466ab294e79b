#!/bin/sh
# goos_packages.sh: the packages of this module (third_party aside) whose Go files, tests
# included, differ between the host's GOOS/GOARCH and the target's, so that a linter run
# for the target checks only what the host's run could not (every other package is the same
# source as on the host, where `make lint` checks it already).
# Usage: sh scripts/goos_packages.sh GOOS/GOARCH   (prints import paths, one a line)
set -eu
cd "$(dirname "$0")/.."
target=$1
fmt='{{.ImportPath}} {{.GoFiles}} {{.CgoFiles}} {{.TestGoFiles}} {{.XTestGoFiles}}'
host=$(mktemp)
trap 'rm -f "$host"' EXIT
go list -f "$fmt" ./... | grep -v /third_party/ >"$host"
GOOS=${target%/*} GOARCH=${target#*/} go list -f "$fmt" ./... | grep -v /third_party/ \
  | grep -v -x -F -f "$host" | cut -d' ' -f1
