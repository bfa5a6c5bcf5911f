#!/usr/bin/env bash
# record-replay.sh VM_RUN CACHE UNAVAILABLE_STATUS HWC_REPLAY RECORDER MODULE HWC_TRACE SOURCE_ROOT FRAMES
#
# The README's "record a replay" workflow on the real vkms driver
# (docs/vm-tests.md, test 'vm-record-replay'): one boot replays frames
# FRAMES of traces/home.zst and video.zst with `hwc-replay --hwc2` into
# libhwc-record.so wrapping hwcomposer.kms.so (HAL wrapper). The module
# allocates the layers as gbm buffers, whose rows are padded (a 540-pixel
# RGBA row of 2160 bytes gets a 2304-byte stride on vkms), so the recorder
# reads buffers of another layout than the scenario wrote. The guest prints
# each recording base64-encoded between marker lines (only stdout comes
# back); on the host `hwc-trace diff` compares each with the same frames of
# its source (`hwc-trace trim`). The module runs the traces' 540x1200 mode
# (HWCT_KMS_MODE), so displays and geometry compare 1:1. The test fails
# when a layer's picture differs in any frame: equal pictures must be equal
# content whatever the stride. A client target may differ only in a frame
# whose decisions differ (the module, on vkms, composes layers the source's
# device scanned out, so its client target is another picture). Each diff's
# summary is printed.
set -euo pipefail

if [ "${1:-}" = guest ]; then
	shift
	replay=$1 recorder=$2 module=$3 root=$4 frames=$5
	for name in home video; do
		status=0
		# --hwc2-end close: the source has no end of session (docs/hwc2-sequence.md)
		HWCT_REAL_MODULE="$module" HWCT_OUTPUT="/tmp/rec-$name.zst" HWCT_CAPTURE_WAIT_MS=10000 \
			HWCT_KMS_MODE=540x1200 \
			"$replay" "$root/traces/$name.zst" --hwc2 "$recorder" --frames "$frames" --timing fast \
			--hwc2-end close --quiet 2>"/tmp/rec-$name.err" || status=$?
		printf '@@hwct-recording %s %d\n' "$name" "$status"
		base64 "/tmp/rec-$name.zst" 2>/dev/null || true
		printf '@@hwct-stderr\n'
		grep -v -e '^MESA-LOADER: failed to open vkms' -e '^failed to load driver: vkms' \
			-e '^kmsro: driver missing' "/tmp/rec-$name.err" || true
		printf '@@hwct-end\n'
	done
	exit 0
fi

[ $# -eq 9 ] || { echo "usage: record-replay.sh VM_RUN CACHE UNAVAILABLE_STATUS HWC_REPLAY RECORDER MODULE" \
	"HWC_TRACE SOURCE_ROOT FRAMES" >&2; exit 2; }
vm_run=$1 cache=$2 unavailable=$3
replay=$(realpath "$4") recorder=$(realpath "$5") module=$(realpath "$6") tool=$(realpath "$7")
root=$(realpath "$8") frames=$9
# the guest bind-mounts the run folder by its path: hand vm-run the cache's real one
cache=$(mkdir -p "$cache" && cd "$cache" && pwd -P)
dir=$(mktemp -d "${MESON_BUILD_ROOT:-/tmp}/vm-record-replay.XXXXXX")
trap 'rm -rf "$dir"' EXIT

status=0
start=$SECONDS
"$vm_run" --cache "$cache" --unavailable-status "$unavailable" --timeout 900 \
	--vkms-params "enable_overlay=1 enable_writeback=1" -- \
	"$(readlink -f "$0")" guest "$replay" "$recorder" "$module" "$root" "$frames" >"$dir/guest.out" || status=$?
echo "vm-record-replay: boot: $((SECONDS - start)) s, status $status"
[ "$status" -eq 0 ] || exit "$status"

# split what the guest printed: NAME.b64, NAME.err, NAME.status
awk -v dir="$dir" '
	/^@@hwct-recording / { name = $2; print $3 > (dir "/" name ".status"); out = dir "/" name ".b64"; next }
	/^@@hwct-stderr$/ { out = dir "/" name ".err"; next }
	/^@@hwct-end$/ { out = ""; next }
	out != "" { print > out }
' "$dir/guest.out"

failed=0
for name in home video; do
	if [ ! -s "$dir/$name.status" ] || [ "$(cat "$dir/$name.status")" != 0 ]; then
		echo "FAIL: $name: hwc-replay through the recorder exited $(cat "$dir/$name.status" 2>/dev/null || echo '(none)')"
		cat "$dir/$name.err" 2>/dev/null || true
		failed=1
		continue
	fi
	base64 -d "$dir/$name.b64" >"$dir/rec-$name.zst"
	"$tool" trim "$root/traces/$name.zst" --frames "$frames" "$dir/src-$name.zst" >/dev/null
	diff_status=0
	"$tool" diff "$dir/src-$name.zst" "$dir/rec-$name.zst" --json >"$dir/diff-$name.json" || diff_status=$?
	if ! python3 - "$name" "$dir/diff-$name.json" "$diff_status" <<'PY'
import json, sys

name, path, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
if status not in (0, 1):
    print("FAIL: %s: hwc-trace diff exited %d" % (name, status))
    sys.exit(1)
res = json.load(open(path))
s = res["summary"]
cats = s["categories"]
print("%s: %d frames compared; differing frames per category: %s" % (
    name, s["compared"], ", ".join("%s %d" % kv for kv in sorted(cats.items()))))
by_frame = {}
for e in res["differences"]:
    by_frame.setdefault(e["frame"], {})[e["category"]] = e["message"]
layers = sorted(f for f, c in by_frame.items() if "pixels" in c and not c["pixels"].startswith("client target "))
targets = sorted(f for f, c in by_frame.items() if "pixels" in c and c["pixels"].startswith("client target "))
unexplained = [f for f in targets if "decisions" not in by_frame[f]]
print("%s: pixels: a layer differs in %d frames, the client target in %d (all with other decisions: %s)" % (
    name, len(layers), len(targets), "yes" if not unexplained else "no"))
if targets:
    print("%s: e.g. frame %d: %s; %s" % (name, targets[0], by_frame[targets[0]]["decisions"] if
                                         "decisions" in by_frame[targets[0]] else "(same decisions)",
                                         by_frame[targets[0]]["pixels"]))
ok = s["compared"] > 0
if s["compared"] == 0:
    print("FAIL: %s: no frame compared" % name)
if layers:
    print("FAIL: %s: a layer's content differs in %d of %d frames, e.g. frame %d: %s" % (
        name, len(layers), s["compared"], layers[0], by_frame[layers[0]]["pixels"]))
    ok = False
if unexplained:
    print("FAIL: %s: the client target differs in frames %s whose decisions are the same" % (name, unexplained[:10]))
    ok = False
sys.exit(0 if ok else 1)
PY
	then
		failed=1
	fi
done
if [ "$failed" -ne 0 ]; then
	trap - EXIT
	echo "vm-record-replay: the recordings and diffs are kept in $dir" >&2
fi
exit "$failed"
