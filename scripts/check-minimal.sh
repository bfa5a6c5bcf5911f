#!/usr/bin/env bash
# The minimal build: every optional feature disabled (meson.options) on a
# machine where the optional libraries are not there. scripts/test.sh runs
# it; by hand: bash scripts/check-minimal.sh [BUILD_DIR] (default
# build-minimal, made afresh each time, with build-minimal.aux beside it).
#
# The optional libraries (libdrm, gbm, EGL/GLES2, libpng, lttng-ust, libzip) are hidden
# from pkg-config: PKG_CONFIG_LIBDIR lists only the .pc files of the required
# ones (libzstd, libxxhash, libprotobuf-c, json-c, pixman-1 and what they
# require). It then
#   1. configures with -Dtests=enabled and every other feature disabled;
#   2. builds everything, the tests included;
#   3. checks with ninja's record of included headers that no object read a
#      header of an optional library (a header under /usr/include, such as
#      png.h, compiles without its pkg-config file: step 1 alone would miss
#      it);
#   4. runs hwc-replay's tests of a build without libpng and libdrm, and
#      hwc-trace extract's refusal.
# Exits 0 when all hold, else 1 with what failed.
set -u
cd "$(dirname "$0")/.."
root=$PWD
dir=${1:-build-minimal}
required="libzstd libxxhash libprotobuf-c json-c pixman-1"
optional_headers='(^|/)(png|pngconf|zip|zipconf|drm_fourcc|drm|drm_mode|xf86drm|xf86drmMode|gbm)[.]h$|/(EGL|GLES2|KHR|lttng)/'

fail() {
	echo "check-minimal: $*" >&2
	exit 1
}

aux=$dir.aux	# the .pc links and the logs
rm -rf "$dir" "$aux"
mkdir -p "$aux/pc"
# each required .pc file and, recursively, those it requires
todo=($required)
seen=" "
while [ ${#todo[@]} -gt 0 ]; do
	name=${todo[0]}
	todo=("${todo[@]:1}")
	case "$seen" in *" $name "*) continue ;; esac
	seen="$seen$name "
	pc=
	for d in $(pkg-config --variable pc_path pkg-config | tr : ' '); do
		[ -f "$d/$name.pc" ] && { pc=$d/$name.pc; break; }
	done
	[ -n "$pc" ] || fail "required $name.pc not found"
	ln -s "$pc" "$aux/pc/"
	todo+=($(pkg-config --print-requires --print-requires-private "$name" | awk '{print $1}'))
done
export PKG_CONFIG_LIBDIR="$(cd "$aux/pc" && pwd)" PKG_CONFIG_PATH=

features="kms gl gbm png lttng zip vm_tests man fuzz"
opts=-Dtests=enabled
for f in $features; do
	opts="$opts -D$f=disabled"
done
meson setup "$dir" $opts >"$aux/setup.log" 2>&1 || { tail -n 30 "$aux/setup.log"; fail "meson setup $opts failed"; }

ninja -C "$dir" >"$aux/build.log" 2>&1 || { grep -E -B2 -A8 'error|FAILED' "$aux/build.log" | head -n 60; fail "the build failed"; }

used=$(ninja -C "$dir" -t deps | awk -v re="$optional_headers" '
	/^[^ ]/ { obj = $1 }
	/^    / && $1 ~ re { print "  " obj " " $1 }')
[ -z "$used" ] || fail "objects include headers of optional libraries:
$used"

meson test -C "$dir" --no-rebuild --print-errorlogs replay-dump-images-no-png replay-targets replay-reference-home \
	|| fail "hwc-replay's tests of a minimal build failed"
out=$("$dir/analyzers/hwc-trace" extract traces/home.zst "$dir/extract" --frame 0 2>&1)
status=$?
[ "$status" != 0 ] && printf '%s' "$out" | grep -q 'built without libpng' \
	|| fail "hwc-trace extract without libpng: exit $status, '$out'"
echo "check-minimal: $(ninja -C "$dir" -t targets all | grep -c ': \(c_LINKER\|STATIC_LINKER\)') programs and libraries built with every optional feature disabled; no optional header included"
