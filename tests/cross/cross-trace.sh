#!/usr/bin/env bash
# A trace means the same on every architecture (tests/README.md, "Cross builds").
#
#   tests/cross/cross-trace.sh OUTDIR BUILD...
#
# Each BUILD (a meson build folder: the native one first, then cross ones:
# build-aarch64, build-armhf, build-i686) writes the reference scenarios
# (traces/hwct-scenario home, video) with its own hwctrace; then every BUILD's
# hwc-trace reads every BUILD's trace, and
#   - `hwc-trace dump --json` of each must equal the first BUILD's dump of its
#     own trace, environment records left out (they name the machine) and the
#     blob's `predictor` field too: which predictor a writer picks is decided
#     by the size libzstd compresses a sample to, and libzstd's 32-bit builds
#     do not always compress to the same size (docs/format.md, section 4);
#     every other field, hashes, sizes and geometry included, must be equal;
#   - `hwc-trace extract --frame N` (the layer buffers decoded and written as
#     PNG, and the composed preview) must give the same files, byte for byte,
#     for the first and the last frame: the pixels decode the same whatever
#     predictor wrote them.
# A BUILD whose programs cannot run here (no qemu-user) fails the test.
# Prints one line per pair and the number of blobs whose predictor differs.
set -u
[ $# -ge 2 ] || { echo "usage: $0 OUTDIR BUILD..." >&2; exit 2; }
out=$1
shift
builds=("$@")
rm -rf "$out"
mkdir -p "$out"
status=0

name_of() { basename "$1"; }

# dump --json less the environment, predictor masked
dump() {	# dump TOOL TRACE
	"$1" dump "$2" --json --no-blob-data | grep -v '^{"kind":"environment"' |
		sed 's/"predictor":[0-9]*/"predictor":"-"/'
}

for b in "${builds[@]}"; do
	w=$(name_of "$b")
	for t in home video; do
		if ! "$b/traces/hwct-scenario" "$t" "$out/$w.$t.zst" >"$out/$w.$t.log" 2>&1; then
			echo "FAIL: $w cannot write $t: $(tail -n 3 "$out/$w.$t.log")"
			exit 1
		fi
	done
done

ref=$(name_of "${builds[0]}")
for t in home video; do
	frames=$("${builds[0]}/analyzers/hwc-trace" dump "$out/$ref.$t.zst" --json --records frame_end | wc -l)
	[ "$frames" -gt 0 ] || { echo "FAIL: $ref's $t has no frames"; exit 1; }
	dump "${builds[0]}/analyzers/hwc-trace" "$out/$ref.$t.zst" >"$out/ref.$t.json" || exit 1
	for f in 0 $((frames - 1)); do
		"${builds[0]}/analyzers/hwc-trace" extract "$out/$ref.$t.zst" --frame "$f" "$out/ref.$t.$f" >/dev/null ||
			{ echo "FAIL: $ref cannot extract frame $f of $t"; exit 1; }
	done
	for rb in "${builds[@]}"; do
		r=$(name_of "$rb")
		for wb in "${builds[@]}"; do
			w=$(name_of "$wb")
			what="$t written by $w, read by $r"
			bad=0
			if ! dump "$rb/analyzers/hwc-trace" "$out/$w.$t.zst" >"$out/$r.reads.$w.$t.json" 2>"$out/err"; then
				echo "FAIL: $what: dump failed: $(head -c 300 "$out/err")"
				status=1
				continue
			fi
			if ! cmp -s "$out/ref.$t.json" "$out/$r.reads.$w.$t.json"; then
				echo "FAIL: $what: dump --json differs from $ref's:"
				diff "$out/ref.$t.json" "$out/$r.reads.$w.$t.json" | head -n 6 | cut -c1-300
				status=1
				continue
			fi
			for f in 0 $((frames - 1)); do
				dir=$out/$r.reads.$w.$t.$f
				if ! "$rb/analyzers/hwc-trace" extract "$out/$w.$t.zst" --frame "$f" "$dir" >/dev/null 2>"$out/err"; then
					echo "FAIL: $what: extract --frame $f failed: $(head -c 300 "$out/err")"
					bad=1
				elif ! diff -r "$out/ref.$t.$f" "$dir" >/dev/null; then
					echo "FAIL: $what: extract --frame $f differs: $(diff -rq "$out/ref.$t.$f" "$dir" | head -n 3)"
					bad=1
				fi
			done
			[ $bad -eq 0 ] || { status=1; continue; }
			echo "ok: $what ($(wc -l <"$out/ref.$t.json") records, frames 0 and $((frames - 1)) extracted)"
		done
		# the writer's own choices, said not judged
		if [ "$r" != "$ref" ]; then
			n=$(diff <("${builds[0]}/analyzers/hwc-trace" dump "$out/$ref.$t.zst" --json --records blob --no-blob-data) \
				<("${builds[0]}/analyzers/hwc-trace" dump "$out/$r.$t.zst" --json --records blob --no-blob-data) | grep -c '^<')
			echo "note: $t: $n blob(s) of $r's trace have another predictor than $ref's"
		fi
	done
done
exit $status
