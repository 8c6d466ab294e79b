#!/bin/sh
# excelize_patch.sh: regenerate third_party/excelize/registry-sidecar.patch, the unified diff of
# the patched copy against upstream excelize (see third_party/excelize/README.md, Updating).
# Files upstream has are diffed against it; files it lacks against /dev/null.
# Usage: sh scripts/excelize_patch.sh [--check]   (--check fails when the patch is stale)
set -eu
cd "$(dirname "$0")/../third_party/excelize"
version=$(sed -n 's/^# excelize \(v[0-9.]*\).*/\1/p' README.md)
upstream=$(go mod download -json "github.com/xuri/excelize/v2@$version" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
[ -d "$upstream" ] || { echo "excelize_patch.sh: upstream $version not found" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for f in $(ls *.go | LC_ALL=C sort); do
  if [ -f "$upstream/$f" ]; then
    diff -u --label "a/$f" --label "b/$f" "$upstream/$f" "$f" >>"$out" || true
  else
    diff -u --label /dev/null --label "b/$f" /dev/null "$f" >>"$out" || true
  fi
done
if [ "${1:-}" = "--check" ]; then
  cmp -s "$out" registry-sidecar.patch || { echo "registry-sidecar.patch is stale: run sh scripts/excelize_patch.sh" >&2; exit 1; }
else
  cp "$out" registry-sidecar.patch
fi
