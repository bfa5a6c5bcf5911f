#!/usr/bin/env bash
# install-test.sh BUILD_DIR SOURCE_ROOT SANITIZE
# `meson install` into a temporary DESTDIR, then: a program outside the project
# (frames.c) compiled with `pkg-config --cflags --libs hwctrace` of the installed
# .pc file and run on traces/home.zst agrees with `hwc-trace info`; the installed
# hwc-trace, hwc-replay, hwc-bisect and public headers are there and run; hwc-replay --vm
# looks for the vm-run installed in libexecdir/hwctrace, and no installed program names the
# source or build tree; the installed hwc-suite bundles the installed hwc-replay, of the
# build's architecture (a cross build's too). Skipped (77) in
# sanitizer builds, whose library needs the sanitizer runtime to link.
set -euo pipefail
build=$1 root=$2 sanitize=$3
[ "$sanitize" = none ] || { echo "install-test: skipped in a -Db_sanitize=$sanitize build"; exit 77; }
command -v pkg-config >/dev/null || { echo "install-test: pkg-config not found"; exit 1; }
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --no-rebuild --destdir "$dest" --quiet >"$dest.log" 2>&1 ||
	{ cat "$dest.log"; rm -f "$dest.log"; exit 1; }
rm -f "$dest.log"
pc=$(find "$dest" -name hwctrace.pc | head -n 1)
[ -n "$pc" ] || { echo "install-test: no hwctrace.pc installed"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")
prefix=${libdir%/lib*}
for f in "$prefix/include/hwct/reader.h" "$prefix/include/hwct/hwctrace.pb-c.h" \
	"$prefix/include/hwct/format_enums.h" "$prefix/bin/hwc-trace" \
	"$prefix/bin/hwc-replay" "$prefix/bin/hwc-bisect" "$prefix/bin/hwc-suite"; do
	[ -e "$f" ] || { echo "install-test: $f not installed"; exit 1; }
done
# the .pc file names the prefix; the sysroot puts it under DESTDIR
export PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
flags=$(pkg-config --cflags --libs hwctrace)
# HWCT_CC: the build's compiler and link options (tests/install/meson.build)
# shellcheck disable=SC2086
${HWCT_CC:-cc} -std=c11 -Wall -Werror -o "$dest/frames" "$root/tests/install/frames.c" $flags
got=$(LD_LIBRARY_PATH=$libdir "$dest/frames" "$root/traces/home.zst")
info=$("$prefix/bin/hwc-trace" info "$root/traces/home.zst")
frames=$(sed -n 's/^ *display frames *\([0-9]*\).*/\1/p' <<<"$info")
echo "install-test: installed library: frames layers = $got; installed hwc-trace: $frames frames"
[ "${got%% *}" = "$frames" ] && [ "${got#* }" -gt 0 ] || { echo "install-test: they disagree"; exit 1; }
"$prefix/bin/hwc-replay" --version
"$prefix/bin/hwc-bisect" --version
# hwc-replay --vm: its VM harness is installed, and the program looks for it there (the
# configured prefix, not DESTDIR's), not in the source tree
for f in vm-run vm-prepare vm-init vm-userland; do
	[ -x "$prefix/libexec/hwctrace/$f" ] || { echo "install-test: libexec/hwctrace/$f not installed"; exit 1; }
done
configured=$(PKG_CONFIG_SYSROOT_DIR='' pkg-config --variable=prefix hwctrace)
if [ ! -e "$configured/libexec/hwctrace/vm-run" ]; then
	status=0
	msg=$(env -u HWCT_VM_RUN -u HWCT_VM_CACHE "$prefix/bin/hwc-replay" "$root/traces/home.zst" --vm \
		--quiet 2>&1 >/dev/null) || status=$?
	[ "$status" = 4 ] && [[ "$msg" == *"($configured/libexec/hwctrace/vm-run)"* ]] ||
		{ echo "install-test: hwc-replay --vm without HWCT_VM_RUN: exit $status, $msg"; exit 1; }
	echo "install-test: hwc-replay --vm looks for $configured/libexec/hwctrace/vm-run"
fi
if command -v readelf >/dev/null; then
	for f in "$prefix"/bin/*; do
		if readelf -p .rodata "$f" 2>/dev/null | grep -aqF -e "$root/" -e "$build/"; then
			echo "install-test: $f names the source or build tree:"
			readelf -p .rodata "$f" | grep -aF -e "$root/" -e "$build/"
			exit 1
		fi
	done
fi
# hwc-suite finds its package and guest files under <prefix>/share/hwctrace/suite
"$prefix/bin/hwc-suite" --help >/dev/null
# the installed hwc-suite bundles the installed hwc-replay of any architecture (its libraries
# read from its ELF file, not by ldd): the program, the C library and the loader are in it
"$prefix/bin/hwc-suite" bundle "$prefix/bin/hwc-replay" -L "$libdir" -o "$dest/bundle.tar" >/dev/null
bundled=$(tar tf "$dest/bundle.tar")
for f in usr/bin/hwc-replay usr/lib/hwct/libc.so.6; do
	grep -qxF "$f" <<<"$bundled" || { echo "install-test: $f not in the bundle:"; echo "$bundled"; exit 1; }
done
grep -qE '^(usr/)?lib[^/]*/ld-linux[^/]*\.so\.[0-9]+$' <<<"$bundled" ||
	{ echo "install-test: no dynamic loader in the bundle:"; echo "$bundled"; exit 1; }
echo "install-test: hwc-suite bundle: $(grep -c '^usr/lib/hwct/.' <<<"$bundled") libraries and the loader"
