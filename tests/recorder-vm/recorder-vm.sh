#!/usr/bin/env bash
# recorder-vm.sh VM_RUN CACHE UNAVAILABLE_STATUS CLIENT RECORDER MODULE CHECK HWC_TRACE FRAMES EXTRACT
#
# The recorder on the real vkms driver (docs/vm-tests.md): boots the VM once
# and runs this script again inside it ("guest"), which records
# `hwc2_client record` on hwcomposer.kms.so through libhwc-record.so both
# ways in: (1) as the HAL-wrapper module (HWCT_REAL_MODULE), (2) under
# LD_PRELOAD with the client loading the module itself. Each trace is
# checked in the guest against the client's log by rec_vm_check; then
# hwc-trace reads the first one (info, extract). Only stdout, stderr and the
# exit status come back from the guest.
set -euo pipefail

if [ "${1:-}" != guest ]; then
	vm_run=$1 cache=$2 unavailable=$3
	shift 3
	# the cache may be a symbolic link (a build dir sharing another's): the guest
	# bind-mounts the run folder by its path, so hand vm-run the real one
	cache=$(mkdir -p "$cache" && cd "$cache" && pwd -P)
	exec "$vm_run" --cache "$cache" --unavailable-status "$unavailable" \
		--vkms-params "enable_overlay=1 enable_writeback=1" -- "$(readlink -f "$0")" guest "$@"
fi

shift
client=$1 recorder=$2 module=$3 check=$4 hwc_trace=$5 frames=$6 extract=$7
# capture before release: under TCG a 256x192 copy and hash can take longer than
# the default 4 ms; every capture must finish for the pixel checks
# (the recorder also gives an acquire fence this long: a first present that lights
# the CRTC can take seconds under TCG, and the fences signal after it returns)
export HWCT_CAPTURE_WAIT_MS=10000	# TCG: the first frame's captures can take seconds
status=0
checked=

# way, then the command; the client's stderr without Mesa's harmless loader lines
record() {
	local way=$1 t0 t1 rc=0 crc=0
	shift
	t0=$(date +%s%N)
	"$@" --log "/tmp/rec-$way.log" --frames "$frames" record 2>"/tmp/rec-$way.err" || rc=$?
	t1=$(date +%s%N)
	grep -v -e '^MESA-LOADER: failed to open vkms' -e '^failed to load driver: vkms' \
		-e '^kmsro: driver missing' "/tmp/rec-$way.err" >&2 || true
	echo "$way: client exit $rc, $(( (t1 - t0) / 1000000 )) ms, trace $(stat -c %s "/tmp/rec-$way.zst" 2>/dev/null || echo none) bytes"
	[ "$rc" -eq 0 ] || status=1
	t0=$(date +%s%N)
	"$check" --way "$way" --module "$module" "/tmp/rec-$way.zst" "/tmp/rec-$way.log" || crc=$?
	t1=$(date +%s%N)
	echo "$way: checked in $(( (t1 - t0) / 1000000 )) ms"
	[ "$crc" -eq 0 ] || status=1
	[ "$rc" -ne 0 ] || [ "$crc" -ne 0 ] || checked="$checked $way"
}

record hal env HWCT_REAL_MODULE="$module" HWCT_OUTPUT=/tmp/rec-hal.zst "$client" --module "$recorder"
record preload env LD_PRELOAD="$recorder" HWCT_OUTPUT=/tmp/rec-preload.zst "$client" --module "$module"

# hwc-trace on a real recording: the frame count, and a frame extracted as PNGs of the
# buffers' sizes, the client target and a preview (EXTRACT 0: hwc-trace has no extract)
if [[ " $checked " == *" hal "* ]] && [ "$extract" = 1 ]; then
	"$hwc_trace" info /tmp/rec-hal.zst --json >/tmp/rec-info.json &&
		"$hwc_trace" extract /tmp/rec-hal.zst --frame $(( frames / 2 )) /tmp/rec-extract --json \
			>/tmp/rec-extract.json &&
		python3 - "$frames" /tmp/rec-info.json /tmp/rec-extract.json /tmp/rec-extract <<'PY' || status=1
import json, struct, sys
frames, info, frame, out = int(sys.argv[1]), json.load(open(sys.argv[2])), json.load(open(sys.argv[3])), sys.argv[4]
def size(name):
    with open(out + "/" + name, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", name
    return struct.unpack(">II", head[16:24])
assert info["counts"]["display_frames"] == frames, info["counts"]
files = 0
for l in frame["layers"]:
    if l["requested"] == "SOLID_COLOR":
        assert l["file"] is None, l
        continue
    assert l["capture"] == "OK" and l["file"], l
    assert size(l["file"]) == (l["width"], l["height"]), (l["file"], size(l["file"]), l)
    files += 1
ct = frame["client_target"]
assert ct["file"] and size(ct["file"]) == (256, 192), ct
assert frame["preview"]["file"] and size("preview.png") == (256, 192), frame["preview"]
print("hwc-trace: info: %d frames; extract frame %d: %d layer PNGs, client target, preview"
      % (frames, frame["frame"], files))
PY
fi
exit "$status"
