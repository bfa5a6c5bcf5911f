#!/usr/bin/env bash
# The README's first command: installs what is missing (Debian 12), builds
# hwctrace into build/, and runs the main job on a bundled reference trace:
# what the trace holds, then a replay on a real KMS driver (the first
# /dev/dri/card* that opens, else vkms in the project's qemu VM) with a short
# per-frame plan summary and the frames' checksums.
set -eu
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
[ -f build/build.ninja ] || meson setup build
ninja -C build

trace=traces/home.zst
echo
echo "== hwc-trace info $trace"
build/analyzers/hwc-trace info "$trace"
echo
echo "== hwc-trace dump $trace --frames 0-1 (first lines)"
build/analyzers/hwc-trace dump "$trace" --frames 0-1 | head -n 40

results=build/bootstrap-results.json
echo
echo "== hwc-replay $trace --frames 0-4 (a KMS device, else vkms in the VM)"
build/replayer/hwc-replay "$trace" --frames 0-4 --results "$results"
# A short per-frame plan summary of a results file.
summary() {
	python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = r.get("target")
t = "%s %s" % (t.get("kind"), t.get("path") or "") if isinstance(t, dict) else t
print("target %s, planner %s" % (t, r.get("planner")))
for f in r["frames"]:
    plan = " ".join("%s:%s" % (l["layer"], l["plane"] if l["plane"] is not None else
                                "client(" + ",".join(l["reasons"]) + ")") for l in f["plan"])
    print("frame %-3d %s  checksum %s (%s)" % (f["frame"], plan, f.get("checksum"), f.get("checksum_source")))
PY
}
summary "$results"

board=tests/data/boards/real/i915-display-top.txt
echo
echo "== the same trace planned on a real board: $board (pasted drm_info text of an Intel"
echo "   laptop, 3 pipes), no device, frames as recorded (--mode-map none: the dump cannot tell"
echo "   whether its planes scale, so none is assumed to)"
build/replayer/hwc-replay "$trace" --frames 0-4 --profile "$board" --mode-map none \
	--results "$results"
summary "$results"
