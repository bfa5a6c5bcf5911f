#!/usr/bin/env bash
# Writes the small trace seeds of fuzz-reader into tests/fuzz/corpus/fuzz-reader/
# (seed-*.zst, a few KB each): traces of 1 to 3 layers, 2 to 8 frames, 4x4
# to 16x16 pixels, rotated or not, made by replay-gen (tests/replay). The
# reference traces decode ~70 MB of pixels each, which held the reader
# target to a few hundred executions a minute; these decode a few KB.
# Usage: scripts/fuzz-seeds.sh [BUILD_DIR]   (default build/, with -Dtests=enabled)
set -eu
cd "$(dirname "$0")/.."
gen=${1:-build}/tests/replay/replay-gen
[ -x "$gen" ] || { echo "$gen missing: build with -Dtests=enabled first" >&2; exit 2; }
out=tests/fuzz/corpus/fuzz-reader
mkdir -p "$out"
n=0
for spec in "1 2 8x8" "1 8 4x4" "2 4 16x8" "3 6 16x16" "3 3 8x16" "2 5 4x4 --rotate" "3 8 16x8 --rotate"; do
	set -- $spec
	"$gen" "$out/seed-$n.zst" --layers "$1" --frames "$2" --size "$3" ${4:-} >/dev/null
	n=$((n + 1))
done
du -sh "$out"
