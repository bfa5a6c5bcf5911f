#!/usr/bin/env bash
# vm-replay.sh HWC_REPLAY REPLAY_GEN SOURCE_ROOT VM_RUN VM_CACHE UNAVAILABLE_STATUS
#	HWC2_MODULE RECORDER HWC_TRACE
#
# The 'vm-replay' test: hwc-replay on the real vkms driver in the project's
# VM (docs/vm-tests.md), in two boots, every replay of a boot in one guest
# command (a boot costs 10-50 s under TCG):
#   overlays     vkms with 8 overlay planes and writeback: the reference
#                traces (traces/home.zst, video.zst) in full; frames 20-29
#                of home, twice, the second time with --expect against the
#                full replay; frames 0-9 of home with --format-fallback
#                equivalent at --mode 540x1200 and their pixman reference (the
#                profile, no fallback); the device cases (target_cases) on a
#                generated ARGB8888 trace (replay-gen) that vkms can put on
#                planes; --expect with a missing device; the same through
#                --hwc2 hwcomposer.kms.so (hwc2_cases), and a recording of
#                it through libhwc-record.so;
#   no-overlays  vkms with its primary and cursor planes only: the
#                generated trace again, in full and frames 20-29, and
#                through --hwc2.
# vm-replay-check.py then asserts on what both boots printed: a writeback
# checksum on every frame, identical runs, --expect's 0/1/125 agreeing with
# the frames, plans that differ between the boots while the pixels do not,
# ranged replays equal to the full ones.
#
# `vm-replay.sh guest overlays|no-overlays HWC_REPLAY GEN_TRACE SOURCE_ROOT
# HWC2_MODULE RECORDER HWC_TRACE`
# is what runs in the guest; it prints each replay's status, results and
# stderr (the guest hands back nothing else).
set -euo pipefail

# --- in the guest ---------------------------------------------------------

out=/tmp/vm-replay	# the guest's /tmp: writable, thrown away after the boot

# run_case NAME ARGS...: hwc-replay ARGS with results in $out/NAME.json, then
# on stdout a line "@@hwct-case NAME STATUS MILLISECONDS", the results file, a
# line "@@hwct-stderr", the replay's stderr and a line "@@hwct-end".
run_case() {
	local name=$1 status=0 start=${EPOCHREALTIME//[!0-9]/}
	shift
	"$replay" "$@" --quiet --results "$out/$name.json" 2>"$out/$name.err" || status=$?
	printf '@@hwct-case %s %d %d\n' "$name" "$status" $(((${EPOCHREALTIME//[!0-9]/} - start) / 1000))
	cat "$out/$name.json" 2>/dev/null || true
	printf '\n@@hwct-stderr\n'
	cat "$out/$name.err"
	printf '@@hwct-end\n'
}

# target_cases PREFIX TARGET_ARGS...: the cases every device target runs on
# the generated trace: a replay, the same replay with --expect against it,
# a plan perturbation (--planner search) with --expect against it, frames
# 20-29.
target_cases() {
	local p=$1
	shift
	run_case "$p-gen" "$gen" "$@" --timing fast
	run_case "$p-gen-again" "$gen" "$@" --timing fast --expect "$out/$p-gen.json"
	run_case "$p-gen-search" "$gen" "$@" --timing fast --planner search --expect "$out/$p-gen.json"
	run_case "$p-gen-20-29" "$gen" "$@" --timing fast --frames 20-29
}

# hwc2_cases: --hwc2 hwcomposer.kms.so on the same device (the module decides;
# its writeback readback gives the checksums): the reference traces (frames
# 0-49: each frame is composed in software under TCG) and the
# generated one; the same again with --expect; a module planner change
# (HWCT_KMS_PLANNER=search, which composes the background) with --expect;
# frames 20-29; then the generated trace recorded through libhwc-record.so
# (HAL wrapper) with gbm dma-bufs and the module's fences, and `hwc-trace
# diff` of the recording against the trace.
hwc2_cases() {
	local h=(--hwc2 "$module")
	run_case hwc2-home "$traces/home.zst" "${h[@]}" --timing fast --frames 0-49
	run_case hwc2-video "$traces/video.zst" "${h[@]}" --timing fast --frames 0-49
	run_case hwc2-gen "$gen" "${h[@]}" --timing fast
	run_case hwc2-gen-again "$gen" "${h[@]}" --timing fast --expect "$out/hwc2-gen.json"
	HWCT_KMS_PLANNER=search HWCT_KMS_BUDGET_MS=0 \
		run_case hwc2-gen-search "$gen" "${h[@]}" --timing fast --expect "$out/hwc2-gen.json"
	run_case hwc2-gen-20-29 "$gen" "${h[@]}" --timing fast --frames 20-29
	# --hwc2-end close: the generated trace has no end of session, Android's end would add an empty
	# frame to the recording (docs/hwc2-sequence.md)
	HWCT_REAL_MODULE="$module" HWCT_OUTPUT="$out/recorded.zst" HWCT_CAPTURE_WAIT_MS=10000 \
		run_case hwc2-gen-recorded "$gen" --hwc2 "$recorder" --timing fast --hwc2-end close
	local status=0 start=${EPOCHREALTIME//[!0-9]/}
	"$tool" diff "$gen" "$out/recorded.zst" --json >"$out/diff.json" 2>"$out/diff.err" || status=$?
	printf '@@hwct-case %s %d %d\n' hwc2-gen-recorded-diff "$status" $(((${EPOCHREALTIME//[!0-9]/} - start) / 1000))
	cat "$out/diff.json"
	printf '\n@@hwct-stderr\n'
	cat "$out/diff.err"
	printf '@@hwct-end\n'
}

guest() {
	local vkms=$1 kms=(--device /dev/dri/card0)
	replay=$2 gen=$3 module=$5 recorder=$6 tool=$7
	traces=$4/traces
	mkdir -p "$out"
	if [ "$vkms" = overlays ]; then
		run_case home "$traces/home.zst" "${kms[@]}" --timing fast
		run_case video "$traces/video.zst" "${kms[@]}" --timing fast
		run_case home-20-29 "$traces/home.zst" "${kms[@]}" --timing fast --frames 20-29
		run_case home-20-29-again "$traces/home.zst" "${kms[@]}" --timing fast --frames 20-29 \
			--expect "$out/home.json"
		# --format-fallback: home's ABGR8888 layers as ARGB8888 on vkms's planes, at the
		# recorded size; the pixman reference of the recorded (unconverted) content to compare
		run_case home-fallback "$traces/home.zst" "${kms[@]}" --timing fast --frames 0-9 \
			--mode 540x1200 --format-fallback equivalent
		run_case home-reference "$traces/home.zst" --profile "$4/tests/data/boards/vkms-6.1-overlays.json" \
			--frames 0-9 --mode 540x1200
		target_cases kms "${kms[@]}"
		run_case kms-missing-device "$gen" --device /dev/dri/card9 --expect "$out/kms-gen.json"
		hwc2_cases
	else
		run_case kms-gen "$gen" "${kms[@]}" --timing fast
		run_case kms-gen-20-29 "$gen" "${kms[@]}" --timing fast --frames 20-29
		run_case hwc2-gen "$gen" --hwc2 "$module" --timing fast
	fi
}


if [ "${1-}" = guest ]; then
	shift
	guest "$@"
	exit 0
fi

# --- on the host ----------------------------------------------------------

[ $# -eq 9 ] || { echo "usage: vm-replay.sh HWC_REPLAY REPLAY_GEN SOURCE_ROOT VM_RUN VM_CACHE UNAVAILABLE_STATUS" \
	"HWC2_MODULE RECORDER HWC_TRACE" >&2; exit 2; }
replay=$(realpath "$1") replay_gen=$2 root=$3 vm_run=$4 cache=$5 unavailable=$6
module=$(realpath "$7") recorder=$(realpath "$8") tool=$(realpath "$9")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The guest mounts the run folder at its host path: that path must not go through a symlink.
if [ -d "$cache" ]; then
	cache=$(cd "$cache" && pwd -P)
fi
dir=$(mktemp -d "${MESON_BUILD_ROOT:-/tmp}/vm-replay.XXXXXX")
trap 'rm -rf "$dir"' EXIT

"$replay_gen" "$dir/gen.zst" --layers 5 --frames 40
for vkms in overlays no-overlays; do
	params="enable_overlay=$([ "$vkms" = overlays ] && echo 1 || echo 0) enable_writeback=1"
	start=$SECONDS
	status=0
	"$vm_run" --cache "$cache" --unavailable-status "$unavailable" --timeout 1200 --vkms-params "$params" -- \
		bash "$here/vm-replay.sh" guest "$vkms" "$replay" "$dir/gen.zst" "$root" "$module" "$recorder" "$tool" \
		>"$dir/$vkms.out" || status=$?
	echo "vm-replay: $vkms boot: $((SECONDS - start)) s, status $status"
	[ "$status" -eq 0 ] || exit "$status"
done
status=0
python3 "$here/vm-replay-check.py" "$dir/overlays.out" "$dir/no-overlays.out" || status=$?
if [ "$status" -ne 0 ]; then
	trap - EXIT
	echo "vm-replay: what the boots printed is kept in $dir" >&2
fi
exit "$status"
