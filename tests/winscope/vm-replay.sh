#!/usr/bin/env bash
# vm-replay.sh HWC_TRACE HWC_REPLAY VM_RUN VM_CACHE FIXTURE
# A real device's layer trace of two displays (a panel and a virtual display
# hotplugged mid-trace), imported on the host, replayed on the vkms driver
# in the project's VM (hwc-replay --device), in one boot: vkms has one CRTC,
# so the whole trace replays the first display (every frame presented, with
# a writeback checksum) and reports the second, its frames skipped, never
# merged onto the first display's CRTC; `--display 1` replays the second
# alone on that CRTC.
set -euo pipefail
hwc_trace=$1 hwc_replay=$2 vm_run=$3 cache=$4 fixture=$5
dir=$(mktemp -d "${MESON_BUILD_ROOT:-/tmp}/winscope-vm.XXXXXX")
trap 'rm -rf "$dir"' EXIT

"$hwc_trace" import-winscope "$fixture" "$dir/t.zst" >/dev/null
"$hwc_trace" stats "$dir/t.zst" --json >"$dir/stats.json"
cat >"$dir/run.sh" <<SH
set -e
"$hwc_replay" "$dir/t.zst" --device /dev/dri/card0 --timing fast --results - 2>&1 >"\$1/all.json" | tee "\$1/all.err" >&2
"$hwc_replay" "$dir/t.zst" --device /dev/dri/card0 --timing fast --quiet --display 1 --results -
SH
status=0
# The guest's /tmp is its own: the first run's files go to the guest's /tmp and travel back on stdout.
"$vm_run" --cache "$cache" --unavailable-status 77 -- bash -c \
	'd=$(mktemp -d); bash "$1" "$d" >"$d/one.json"; cat "$d/all.json"; echo "@@"; cat "$d/all.err"; echo "@@"; cat "$d/one.json"' \
	vm "$dir/run.sh" >"$dir/out" || status=$?
[ "$status" -eq 0 ] || exit "$status"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
frames = {s["id"]: s["frames"] for s in json.load(open(d + "/stats.json"))["displays"]}
assert sorted(frames) == [0, 1], "the fixture should import as displays 0 and 1: %s" % frames
whole, err, only = open(d + "/out").read().split("@@\n")
whole, only = json.loads(whole), json.loads(only)
assert whole["target"]["kind"] == "kms", whole["target"]
shown = [f["display"] for f in whole["frames"]]
assert shown == [0] * frames[0], "whole trace on vkms: displays of the replayed frames %s, stats %s" % (shown, frames)
for f in whole["frames"] + only["frames"]:
    assert f["checksum_source"] == "writeback" and len(f["checksum"]) == 32, f
totals = {t["display"]: t for t in whole["totals"]["displays"]}
assert totals[0]["crtc"] is not None and totals[0]["frames"] == frames[0], totals
assert totals[1]["crtc"] is None and totals[1]["skipped_frames"] == frames[1], totals
assert "driven by an earlier display" in totals[1]["skipped_reason"], totals
assert "display 1: %d frame(s) skipped" % frames[1] in err, err
assert [f["display"] for f in only["frames"]] == [1] * frames[1], only["frames"]
print("vkms: display 0's %d frames presented with checksums %s; display 1 reported (%s), "
      "its %d frames replayed alone with --display 1" % (frames[0], [f["checksum"][:8] for f in whole["frames"]],
      totals[1]["skipped_reason"], frames[1]))
PY
