#!/usr/bin/env bash
# The README's first command: installs what is missing (Debian 12), builds
# hwctrace into build/, and runs the main job on a bundled reference trace:
# what the trace holds, then a replay on a real KMS driver (the first
# /dev/dri/card* that opens, else vkms in the project's qemu VM) with a short
# per-frame plan summary and the frames' checksums.
set -eu
cd "$(dirname "$0")/.."

# only what the main job needs (build kms vm); scripts/test.sh installs the test groups
bash scripts/install-deps.sh main
# The build's own output goes to a log, shown whole only when it fails.
mkdir -p build
log=build/bootstrap-build.log
echo "== build (meson, ninja): log in $log"
if ! { [ -f build/build.ninja ] || meson setup build; } >"$log" 2>&1 || ! ninja -C build >>"$log" 2>&1; then
	cat "$log"
	echo "bootstrap: the build failed (log above, also in $log)" >&2
	exit 1
fi
grep -m1 -A200 '^hwctrace ' "$log" | sed -n '/^  Programs/,/^$/p' || true

trace=traces/home.zst
echo
echo "== hwc-trace info $trace"
build/analyzers/hwc-trace info "$trace"
echo
echo "== hwc-trace dump $trace --frames 0 --records call,frame_end (the first frame's HWC2 calls)"
build/analyzers/hwc-trace dump "$trace" --frames 0 --records call,frame_end >build/bootstrap-dump.txt
sed -n '1,14p' build/bootstrap-dump.txt
echo "   ... $(($(wc -l <build/bootstrap-dump.txt) - 14)) more lines in build/bootstrap-dump.txt"

# The replay: the first /dev/dri/card* this user can open, else vkms in the project's VM, on
# Debian's 7.3 kernel: its vkms scans out Android's own formats (RGBA_8888 is DRM ABGR8888,
# NV12) as they are. On vkms the recording's 540x1200 is set as the mode (no plane of vkms
# scales). Where 7.3 cannot be prepared (no Debian 13 archive, no debootstrap), the default
# 6.1 kernel, whose planes lack ABGR8888: its layers are then shown as ARGB8888 with their
# pixels converted (--format-fallback equivalent), else every layer would be composed.
results=build/bootstrap-results.json
device=
for card in /dev/dri/card*; do
	if [ -r "$card" ] && [ -w "$card" ]; then
		device=$card
		break
	fi
done
# hwc-replay of the build tree finds the source tree's VM harness and the build's cache by
# itself (build/replayer/vm-run, build/vm-cache), as a user's next command from the build
# folder does; an installed hwc-replay has its own in libexecdir/hwctrace
unset HWCT_VM_RUN HWCT_VM_CACHE
echo
if [ -n "$device" ]; then
	echo "== hwc-replay $trace --frames 0-4 --device $device --format-fallback equivalent"
	build/replayer/hwc-replay "$trace" --frames 0-4 --device "$device" --format-fallback equivalent \
		--results "$results"
else
	echo "== hwc-replay $trace --frames 0-4 --vm --kernel 7.3 --mode 540x1200"
	echo "   (no usable /dev/dri/card*: vkms of Linux 7.3 in the project's qemu VM; the first run"
	echo "   downloads that kernel and builds its vkms, about 2 minutes)"
	status=0
	build/replayer/hwc-replay "$trace" --frames 0-4 --vm --kernel 7.3 --mode 540x1200 \
		--results "$results" || status=$?
	if [ "$status" = 4 ]; then
		echo "== 7.3 cannot be had here (above); the default 6.1 kernel instead, whose planes lack"
		echo "   ABGR8888: hwc-replay $trace --frames 0-4 --vm --mode 540x1200 --format-fallback equivalent"
		build/replayer/hwc-replay "$trace" --frames 0-4 --vm --mode 540x1200 \
			--format-fallback equivalent --results "$results"
	elif [ "$status" != 0 ]; then
		exit "$status"
	fi
fi
# A short per-frame plan summary of a results file.
summary() {
	python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = r.get("target")
t = "%s %s" % (t.get("kind"), t.get("path") or "") if isinstance(t, dict) else t
print("target %s, planner %s" % (t, r.get("planner")))
subs = 0
for f in r["frames"]:
    swapped = {s["layer"]: s for s in f.get("format_substitutions", [])}
    subs += len(swapped)
    plan = " ".join("%s:%s%s" % (l["layer"], "plane %d" % l["plane"] if l["plane"] is not None else
                                 "client(" + ",".join(l["reasons"]) + ")",
                                 "*" if l["layer"] in swapped else "") for l in f["plan"])
    print("frame %-3d %s  checksum %s (%s)" % (f["frame"], plan, f.get("checksum"), f.get("checksum_source")))
if subs:
    s = next(s for f in r["frames"] for s in f.get("format_substitutions", []))
    print("* shown as %s instead of %s (--format-fallback equivalent, same picture)" % (s["to"], s["from"]))
PY
}
summary "$results"

board=tests/data/boards/real/i915-display-top.txt
echo
echo "== the same trace planned on a real board: $board (pasted drm_info text of an Intel"
echo "   laptop, 3 pipes), no device, in the recording's 540x1200 mode as above. Frame 0 is all"
echo "   client: like drm_hwcomposer, drmhwc fails a frame that needs a client target before the"
echo "   display was given one (docs/drmhwc.md); the checksums are the reference compositor's"
profile_results=build/bootstrap-profile.json
build/replayer/hwc-replay "$trace" --frames 0-4 --profile "$board" --mode 540x1200 \
	--results "$profile_results"
summary "$profile_results"
if [ -z "$device" ] && [ "${status:-0}" = 0 ]; then
	echo
	echo "== the kernel's word on that board: hwc-replay $trace --frames 0-4 --vm --kernel 7.3"
	echo "   --board $board --mode 540x1200: vkms built through configfs with the dump's 3 CRTCs"
	echo "   and 9 planes; what vkms cannot copy of the board is listed"
	build/replayer/hwc-replay "$trace" --frames 0-4 --vm --kernel 7.3 --board "$board" \
		--mode 540x1200 --results "$results"
	summary "$results"
	echo
	echo "== the profile's prediction against the kernel's verdict: hwc-trace diff (plans, then"
	echo "   the kernel's writeback checksums against the profile's reference pictures)"
	build/analyzers/hwc-trace diff "$profile_results" "$results" | grep -E '^placement|are equal|differ in [0-9]' || true
fi
