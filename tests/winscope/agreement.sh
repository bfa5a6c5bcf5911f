#!/usr/bin/env bash
# agreement.sh HWC_TRACE HWC_REPLAY FIXTURE BOARD...
# A real device's layer trace, imported, replayed on each board; then
# `hwc-trace diff` of the imported trace against each replay's results must
# account for every decision the device recorded (each validated layer's
# final composition type, counted from `hwc-trace stats --json`), and
# explain every disagreement with at least one reason code.
set -euo pipefail
hwc_trace=$1 hwc_replay=$2 fixture=$3
shift 3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$hwc_trace" import-winscope "$fixture" "$dir/t.zst" >/dev/null
"$hwc_trace" stats "$dir/t.zst" --json >"$dir/stats.json"
for board in "$@"; do
	name=$(basename "$board" .json)
	"$hwc_replay" "$dir/t.zst" --profile "$board" --quiet --no-pixels --results "$dir/$name.json"
	status=0
	"$hwc_trace" diff "$dir/t.zst" "$dir/$name.json" --json >"$dir/$name.diff.json" || status=$?
	python3 - "$dir/stats.json" "$dir/$name.diff.json" "$status" "$name" "$dir/$name.json" <<'PY'
import json, sys
stats, diff, status, name, results = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
# the displays the board replayed (one CRTC: the others are skipped, hwc-replay says so)
replayed = {f["display"] for f in json.load(open(results))["frames"]}
decisions = sum(sum(d["composition"].values()) for d in json.load(open(stats))["displays"] if d["id"] in replayed)
d = json.load(open(diff))
assert d["kind"] == "agreement", d["kind"]
assert decisions > 0, "the fixture recorded no decisions"
assert d["counted"] == decisions, "%s: %d decisions counted, the trace records %d" % (name, d["counted"], decisions)
assert d["agree"] + d["device_to_client"] + d["client_to_device"] == d["counted"], name
for layer in d["layers"]:
    if layer["device_to_client"] + layer["client_to_device"]:
        assert layer["reasons"], "%s: layer %s disagrees without a reason" % (name, layer["layer"])
# diff's exit status: 0 when every decision agrees, 1 otherwise
assert status == (0 if d["agree"] == d["counted"] else 1), (name, status)
print("%s: %d of %d recorded decisions agree (ratio %.3f); reasons: %s" % (name, d["agree"], d["counted"],
      d["ratio"], sorted({r for l in d["layers"] for r in l["reasons"]})))
PY
done
