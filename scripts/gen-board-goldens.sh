#!/bin/sh
# Writes tests/data/boards/golden/NAME.json: `hwc-trace board --json` of every
# board dump in tests/data/boards (JSON and text), tests/data/boards/real and
# tests/data/boards/fixtures.
# Usage: scripts/gen-board-goldens.sh [BUILD_DIR]   (default build)
# With --check, compares instead of writing and exits 1 on any difference.
set -eu
check=0
if [ "${1:-}" = "--check" ]; then
	check=1
	shift
fi
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
hwc_trace=${HWC_TRACE:-$build/analyzers/hwc-trace}
data=$src/tests/data/boards
out=$data/golden
mkdir -p "$out"
status=0
for f in "$data"/*.json "$data"/*.txt "$data"/real/*.txt "$data"/fixtures/*.txt; do
	name=$(basename "$f")
	golden=$out/$name.json
	if [ $check = 1 ]; then
		if ! "$hwc_trace" board --json "$f" | cmp -s - "$golden"; then
			echo "board golden differs: $golden (input $f)" >&2
			"$hwc_trace" board --json "$f" | diff -u "$golden" - >&2 || true
			status=1
		fi
	else
		"$hwc_trace" board --json "$f" >"$golden"
		echo "wrote $golden (from ${f#$src/})"
	fi
done
exit $status
