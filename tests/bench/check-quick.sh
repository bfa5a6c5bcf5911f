#!/bin/bash
# The 'bench-format-quick' unit test: bench-format --quick runs and prints
# its four metric lines (their figures are not checked).
#   check-quick.sh BENCH [ARGS...]
set -euo pipefail

out=$("$@" --quick)
printf '%s\n' "$out"
metric='^[^ ][^:]*: [0-9.e+-]+ [^,]+, baseline [0-9.e+-]+ [^,]+, ratio [0-9.]+ \(goal (≥|≤) [0-9.]+\): (PASS|MISS)$'
n=$(grep -cE "$metric" <<<"$out" || true)
if [ "$n" -ne 4 ]; then
	echo "check-quick.sh: expected 4 metric lines, got $n" >&2
	exit 1
fi
