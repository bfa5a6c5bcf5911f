#!/bin/bash
# The 'bench-format-quick' unit test: bench-format --quick runs and prints
# its metric lines (their figures are not checked).
#   check-quick.sh [--lines N] BENCH [ARGS...]   (N metric lines, default 4)
set -euo pipefail

lines=4
if [ "${1-}" = --lines ]; then
	lines=$2
	shift 2
fi
out=$("$@" --quick)
printf '%s\n' "$out"
metric='^[^ ][^:]*: [0-9.e+-]+ [^,]+, baseline [0-9.e+-]+ [^,]+, ratio [0-9.]+ \(goal (≥|≤) [0-9.]+\): (PASS|MISS)$'
n=$(grep -cE "$metric" <<<"$out" || true)
if [ "$n" -ne "$lines" ]; then
	echo "check-quick.sh: expected $lines metric lines, got $n" >&2
	exit 1
fi
