#!/usr/bin/env bash
# The replay on an arm64 kernel equals the replay on x86-64 (tests/README.md, "Cross builds";
# docs/vm-tests.md, "arm64").
#
#   tests/cross/vm-arm64.sh OUTDIR NATIVE-BUILD AARCH64-BUILD
#
# For each case, NATIVE-BUILD's hwc-replay replays the same trace and frames twice with writeback
# checksums: `--vm` (Debian's amd64 6.1 under qemu-system-x86_64, the x86-64 hwc-replay) and
# `--vm --arch arm64` (Debian's arm64 6.1 under qemu-system-aarch64, AARCH64-BUILD's
# hwc-replay). Cases:
#   home   traces/home.zst frames 0-9: four RGBA_8888 layers, all composed by pixman (vkms 6.1
#          scans out no ABGR8888), the arm64 program found by hwc-replay's default (the
#          build-aarch64 beside the native build), when AARCH64-BUILD is that folder
#   video  traces/video.zst frames 0-9: an NV12 video layer scaled and converted by pixman
#   planes a generated ARGB8888 trace (replay-gen, 5 layers, 10 frames): every layer on a vkms
#          plane, so vkms's own blending makes the checksum
# Checks, each case: both results are complete, every frame has a writeback checksum, the
# guests were what was asked (replay_environment: machine x86_64 and an -amd64 kernel, aarch64
# and an -arm64 kernel), and `hwc-trace diff` of the two says equal (same plans, reasons and
# checksums on every frame). Then two refusals that boot nothing: an x86-64 program given as
# the arm64 guest's (--vm-replay) and an unknown --arch.
# Prints "ok"/"FAIL" lines and each replay's wall time. Exit 0 when all pass.
set -u
[ $# -eq 3 ] || { echo "usage: $0 OUTDIR NATIVE-BUILD AARCH64-BUILD" >&2; exit 2; }
mkdir -p "$1" && out=$(realpath "$1") && native=$(realpath "$2") && a64=$(realpath "$3") || exit 2
cd "$(dirname "$0")/../.." || exit 2
replay=$native/replayer/hwc-replay
trace_tool=$native/analyzers/hwc-trace
a64_replay=$a64/replayer/hwc-replay
for f in "$replay" "$trace_tool" "$a64_replay" "$native/tests/replay/replay-gen"; do
	[ -x "$f" ] || { echo "FAIL: $f not built"; exit 1; }
done
rm -rf "${out:?}/"*
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

"$native/tests/replay/replay-gen" "$out/gen.zst" --layers 5 --frames 10 >/dev/null ||
	{ echo "FAIL: replay-gen"; exit 1; }

# check_results MACHINE KERNEL-SUFFIX FRAMES FILE [planes]: prints what is wrong with FILE,
# nothing when right; planes: every layer of every frame must be on a plane
check_results() {
	python3 - "$@" <<'PY'
import json, sys
machine, suffix, frames, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
planes = sys.argv[5:] == ["planes"]
d = json.load(open(path))
env = d.get("replay_environment") or {}
if env.get("machine") != machine:
    print("%s: replay_environment.machine %r, not %r" % (path, env.get("machine"), machine))
if suffix not in (env.get("kernel") or "").split(" ")[0]:
    print("%s: replay_environment.kernel %r, not a %s kernel" % (path, env.get("kernel"), suffix))
if d.get("complete") is not True:
    print("%s: not complete (error %r)" % (path, d.get("error")))
fs = d.get("frames") or []
if len(fs) != frames:
    print("%s: %d frames, not %d" % (path, len(fs), frames))
for f in fs:
    if f.get("checksum_source") != "writeback" or not f.get("checksum"):
        print("%s: frame %s has no writeback checksum (%r, %r)" % (path, f.get("frame"),
              f.get("checksum_source"), f.get("checksum")))
        break
    if planes and any(l.get("plane") is None for l in f.get("plan") or []):
        print("%s: frame %s has a layer on no plane: this case tests vkms's blending" % (path, f.get("frame")))
        break
PY
}

# A replay here takes 5-30 s (boot included); one that has not ended in VM_TIMEOUT has stopped
# (vm-run then prints the guest's account of where: docs/vm-tests.md) and is run once more,
# saying so: seen once in CI (home on arm64: nothing more after the command started, killed at
# 300 s; the same replay takes 6-14 s here, loaded or not, in 20 tries), which is how qemu's TCG
# standing still looks; twice in a row is a failure.
VM_TIMEOUT=150

# run NAME ARCH TRACE FRAMES [hwc-replay options...]: one replay, its results in OUTDIR/ARCH-NAME.json
run() {
	local name=$1 arch=$2 trace=$3 frames=$4 start=$SECONDS rc try
	shift 4
	for try in 1 2; do
		HWCT_VM_TIMEOUT=$VM_TIMEOUT "$replay" "$trace" --vm --frames "$frames" \
			--results "$out/$arch-$name.json" "$@" >"$out/$arch-$name.log" 2>&1
		rc=$?
		[ "$rc" -eq 124 ] && [ "$try" -eq 1 ] || break
		echo "note: $name $arch: timed out after $VM_TIMEOUT s; what vm-run said, then once more:"
		sed 's/^/    | /' "$out/$arch-$name.log" | tail -n 120
	done
	echo "$name $arch: hwc-replay exit $rc, $((SECONDS - start)) s"
	[ "$rc" -eq 0 ] || { fail "$name $arch: hwc-replay exit $rc"; tail -n 15 "$out/$arch-$name.log"; }
	return "$rc"
}

# case_ NAME TRACE FRAMES COUNT CHECK [arm64 options...]; CHECK: planes or -
case_() {
	local name=$1 trace=$2 frames=$3 count=$4 check=$5 problems
	shift 5
	run "$name" amd64 "$trace" "$frames" || return
	run "$name" arm64 "$trace" "$frames" --arch arm64 "$@" || return
	problems=$(check_results x86_64 -amd64 "$count" "$out/amd64-$name.json" "$check"
		check_results aarch64 -arm64 "$count" "$out/arm64-$name.json" "$check")
	[ -z "$problems" ] || { fail "$name: $problems"; return; }
	if "$trace_tool" diff "$out/amd64-$name.json" "$out/arm64-$name.json" >"$out/diff-$name.txt" 2>&1 &&
		grep -q 'are equal' "$out/diff-$name.txt"; then
		echo "ok $name: $(tail -n 1 "$out/diff-$name.txt")"
	else
		fail "$name: hwc-trace diff of the x86-64 and the arm64 replay:"
		sed -n '1,40p' "$out/diff-$name.txt"
	fi
}

# hwc-replay's own default finds the aarch64 program only in the build-aarch64 beside the
# native build
home_opts=(--vm-replay "$a64_replay")
if [ "$(realpath "$native/../build-aarch64/replayer/hwc-replay" 2>/dev/null)" = "$a64_replay" ]; then
	home_opts=()
fi
case_ home traces/home.zst 0-9 10 - "${home_opts[@]}"
case_ video traces/video.zst 0-9 10 - --vm-replay "$a64_replay"
case_ planes "$out/gen.zst" 0-9 10 planes --vm-replay "$a64_replay"

# refusals, before any boot
msg=$("$replay" traces/home.zst --vm --arch arm64 --vm-replay "$replay" --frames 0 2>&1)
rc=$?
if [ "$rc" -eq 4 ] && [[ "$msg" == *"not for the arm64 guest"* ]]; then
	echo "ok refusal: an x86-64 --vm-replay for the arm64 guest (exit 4)"
else
	fail "an x86-64 --vm-replay for the arm64 guest: exit $rc: $msg"
fi
msg=$("$replay" traces/home.zst --vm --arch sparc 2>&1)
rc=$?
if [ "$rc" -eq 2 ] && [[ "$msg" == *"--arch: 'sparc' is not amd64 or arm64"* ]]; then
	echo "ok refusal: --arch sparc (exit 2)"
else
	fail "--arch sparc: exit $rc: $msg"
fi
exit $status
