#!/usr/bin/env bash
# vm-replay.sh HWC_TRACE HWC_REPLAY VM_RUN VM_CACHE FIXTURE
# A real device's layer trace, imported on the host, replayed on the vkms
# driver in the project's VM (hwc-replay --device): every entry becomes a
# presented frame with a writeback checksum.
set -euo pipefail
hwc_trace=$1 hwc_replay=$2 vm_run=$3 cache=$4 fixture=$5
dir=$(mktemp -d "${MESON_BUILD_ROOT:-/tmp}/winscope-vm.XXXXXX")
trap 'rm -rf "$dir"' EXIT

"$hwc_trace" import-winscope "$fixture" "$dir/t.zst" >/dev/null
frames=$("$hwc_trace" info "$dir/t.zst" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["counts"]["display_frames"])')
status=0
"$vm_run" --cache "$cache" --unavailable-status 77 -- \
	"$hwc_replay" "$dir/t.zst" --device /dev/dri/card0 --timing fast --quiet --results - >"$dir/results.json" || status=$?
[ "$status" -eq 0 ] || exit "$status"
python3 - "$dir/results.json" "$frames" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
frames = int(sys.argv[2])
assert r["target"]["kind"] == "kms", r["target"]
assert len(r["frames"]) == frames, "%d frames replayed of %d" % (len(r["frames"]), frames)
for f in r["frames"]:
    assert f["checksum_source"] == "writeback" and len(f["checksum"]) == 32, f
print("%d frames on vkms, checksums %s" % (frames, [f["checksum"][:8] for f in r["frames"]]))
PY
