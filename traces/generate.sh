#!/bin/bash
# Regenerates the reference traces of traces/ with the built hwct-scenario.
#
#   traces/generate.sh BUILDDIR [NAME...]
#       rewrites traces/NAME.zst (default: every reference trace)
#   traces/generate.sh --check OUTDIR BUILDDIR [NAME...]
#       writes OUTDIR/NAME.zst and fails unless it decodes to the same
#       content as the committed traces/NAME.zst (the header's creation time
#       aside) -- the 'traces-regenerate-NAME' tests
#
# BUILDDIR is the meson build directory (or its traces/ subdirectory).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
usage="usage: $0 [--check OUTDIR] BUILDDIR [NAME...]"
check=
if [ "${1:-}" = --check ]; then
	[ $# -ge 3 ] || { echo "$usage" >&2; exit 2; }
	check=$2
	shift 2
fi
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
build=$1
shift
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(home video)

tools=$build/traces
[ -x "$tools/hwct-scenario" ] || tools=$build
scenario=$tools/hwct-scenario
compare=$tools/trace-compare
for tool in "$scenario" "$compare"; do
	[ -x "$tool" ] || { echo "$0: $tool not built (ninja -C $build)" >&2; exit 2; }
done

for name in "${names[@]}"; do
	if [ -n "$check" ]; then
		mkdir -p "$check"
		"$scenario" "$name" "$check/$name.zst"
		if ! "$compare" "$here/$name.zst" "$check/$name.zst"; then
			echo "$0: traces/$name.zst no longer matches what scenario '$name' writes;" \
				"if the change is intended, run traces/generate.sh BUILDDIR and commit the trace" >&2
			exit 1
		fi
	else
		"$scenario" "$name" "$here/$name.zst.tmp"
		mv "$here/$name.zst.tmp" "$here/$name.zst"
		echo "traces/$name.zst: $(stat -c %s "$here/$name.zst") bytes"
	fi
done
