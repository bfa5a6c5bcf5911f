#!/bin/bash
# The 'bench-recorder-quick' unit test: bench-recorder --quick runs and
# prints its result lines, the UI session's too (their figures are not
# checked).
#   check-recorder-quick.sh BENCH --quick [ARGS...]
set -euo pipefail

out=$("$@")
printf '%s\n' "$out"
num='[0-9.e+-]+'
for re in \
	"^direct per call: mean $num ns p99 $num ns$" \
	"^tracepoint disabled per call: " \
	"^tracepoint enabled per call: " \
	"^wrapper pixels-off per call: mean $num ns p99 $num ns; ÷ direct: mean $num p99 $num; .*÷ tracepoint: mean " \
	"^wrapper pixels-on per call: mean $num ns p99 $num ns; ÷ direct: mean $num p99 $num; .*÷ tracepoint: mean " \
	"^calls at tracepoint cost, per class" \
	"^  pixels-off +no-fd calls +$num calls: overhead mean +$num ns .*: (PASS|MISS)$" \
	"^  pixels-off +fence-fd calls +$num calls: overhead mean +$num ns .*: (PASS|MISS)$" \
	"^  setLayerBuffer \(" \
	"^  presentDisplay \(" \
	"^ui session per layer, captured / late / dropped: wallpaper $num / $num / $num; shade $num / $num / $num; status $num / $num / $num$" \
	"^ui session recorder CPU: $num core " \
	"^ui session goal: .*: (PASS|MISS)$"; do
	if ! grep -qE "$re" <<<"$out"; then
		echo "check-recorder-quick.sh: no line matching: $re" >&2
		exit 1
	fi
done
