#!/bin/bash
# The 'bench-recorder-quick' unit test: bench-recorder --quick runs and
# prints its result lines, the UI session's too (their figures are not
# checked).
# Without LTTng here (bench-recorder built without LTTng-UST, or no
# lttng-sessiond that runs, or no user nobody to run it as) the per-class
# lines cannot be made: every other line is still checked, then the test is
# skipped (exit 77) saying why. A session that ran but left the child
# untraced (no enabled-tracepoint figures), or any missing line, fails.
#   check-recorder-quick.sh BENCH --quick [ARGS...]
set -euo pipefail

out=$("$@")
printf '%s\n' "$out"
num='[0-9.e+-]+'

# check RE...: fails naming the first RE no line of the output matches
check() {
	local re
	for re in "$@"; do
		if ! grep -qE "$re" <<<"$out"; then
			echo "check-recorder-quick.sh: no line matching: $re" >&2
			exit 1
		fi
	done
}

check \
	"^direct per call: mean $num ns p99 $num ns$" \
	"^tracepoint disabled per call: " \
	"^tracepoint enabled per call: " \
	"^wrapper pixels-off per call: mean $num ns p99 $num ns; ÷ direct: mean $num p99 $num; .*÷ tracepoint: mean " \
	"^wrapper pixels-on per call: mean $num ns p99 $num ns; ÷ direct: mean $num p99 $num; .*÷ tracepoint: mean " \
	"^calls at tracepoint cost, per class" \
	"^  setLayerBuffer \(" \
	"^  presentDisplay \(" \
	"^ui session per layer, captured / late / dropped: wallpaper $num / $num / $num; shade $num / $num / $num; status $num / $num / $num$" \
	"^ui session recorder CPU: $num core " \
	"^ui session goal: .*: (PASS|MISS)$"
no_lttng=$(sed -nE 's/^tracepoint enabled per call: n\/a \((built without LTTng-UST|lttng-sessiond .*|no user nobody .*)\)$/\1/p' \
	<<<"$out")
if [ -n "$no_lttng" ]; then
	echo "check-recorder-quick.sh: SKIP: no LTTng session here ($no_lttng), so no per-class lines to check" >&2
	exit 77
fi
check \
	"^tracepoint enabled per call: mean $num ns p99 $num ns " \
	"^  pixels-off +no-fd calls +$num calls: overhead mean +$num ns .*: (PASS|MISS)$" \
	"^  pixels-off +fence-fd calls +$num calls: overhead mean +$num ns .*: (PASS|MISS)$" \
	"^  paired-dup +fence-fd calls +$num pairs: one dup \+ close inside each call: trimmed mean +$num ± +$num ns" \
	"^    with the dup where the calls pay it \(paired-dup, $num ns\): goal ≤ +$num, ratio $num ± $num$" \
	"^  paired-ref +no-fd calls +$num pairs: the tracepoint inside each call: trimmed mean +$num ± +$num ns" \
	"^  paired-ref +fence-fd calls +$num pairs: the tracepoint \+ one dup \+ close inside each call: trimmed mean " \
	"^    against the reference in the same calls \(paired-ref $num ± $num ns\): goal ≤ +$num, ratio $num ± $num: (PASS|MISS)$" \
	"^      first of its function in the frame +$num pairs: trimmed mean +$num ± +$num ns, paired-ref +$num ± +$num ns: ratio to 1.5 × it $num ± $num$" \
	"^      repeated in the frame \(warm\) +$num pairs: trimmed mean +$num ± +$num ns, paired-ref +$num ± +$num ns: ratio to 1.5 × it $num ± $num$" \
	"^  paired-off +$num frames: +$num ± $num µs \(mean +$num ± $num µs\); against paired-ref: goal ≤ $num µs, ratio $num ± $num: (PASS|MISS)$" \
	"^  paired-on +$num frames: "
