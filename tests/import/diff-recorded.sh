#!/usr/bin/env bash
# The transaction trace rebuilt at the three snapshot times of the layer
# trace of the same session, against that layer trace, both imported and
# compared with `hwc-trace diff` on the physical display: the layers, their
# geometry, the decisions and the pixels must agree; the only difference
# allowed is the one a transaction trace cannot carry, the dataspace
# (docs/import.md, section 4).
# Usage: diff-recorded.sh HWC_TRACE LAYER_TRACE TRANSACTION_TRACE
set -eu
hwc_trace=$1 layers=$2 transactions=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

panel=$("$hwc_trace" import "$layers" "$dir/x.zst" | sed -n "s/^  display 0: DisplayProto \([0-9]*\) .*/\1/p")
"$hwc_trace" import "$layers" "$dir/recorded.zst" --display "$panel" >/dev/null
# the snapshot times, as the layer trace records them (elapsed_realtime_nanos of each entry)
times=$(python3 - "$layers" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
def varint(i):
    v = s = 0
    while True:
        c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return v, i
i, out = 0, []
while i < len(b):
    k, i = varint(i)
    if k & 7 == 1:
        i += 8
    elif k & 7 == 2:
        n, i = varint(i)
        if k >> 3 == 2 and b[i] == 0x09:  # an entry starting with elapsed_realtime_nanos (sfixed64)
            out.append(str(struct.unpack("<q", b[i + 1:i + 9])[0]))
        i += n
    else:
        raise SystemExit("unexpected wire type %d" % (k & 7))
print(",".join(out))
PY
)
echo "snapshot times: $times"
"$hwc_trace" import "$transactions" "$dir/rebuilt.zst" --at "$times" --display 0 >/dev/null
status=0
"$hwc_trace" diff "$dir/recorded.zst" "$dir/rebuilt.zst" >"$dir/diff.txt" || status=$?
cat "$dir/diff.txt"
[ "$status" -le 1 ] || { echo "FAIL: hwc-trace diff failed ($status)"; exit 1; }
for row in display layers geometry decisions pixels "only in A" "only in B"; do
	n=$(sed -n "s/^  $row  *\([0-9]*\)$/\1/p" "$dir/diff.txt")
	[ "$n" = 0 ] || { echo "FAIL: $row: ${n:-no count} frames differ"; exit 1; }
done
compared=$(sed -n 's/^  compared  *\([0-9]*\)$/\1/p' "$dir/diff.txt")
[ "$compared" = 3 ] || { echo "FAIL: $compared frames compared, not the 3 snapshots"; exit 1; }
if grep -E '^frame [0-9]+ ' "$dir/diff.txt" | grep -vE ': properties: (layer [0-9]+ dataspace [0-9]+ vs 0(, )?)+$'; then
	echo "FAIL: a difference other than the dataspace (not in transaction traces)"
	exit 1
fi
echo "ok: $compared frames, geometry, decisions and pixels equal; differences: dataspace only"
