#!/usr/bin/env bash
# The libraries of the i686 and armhf cross configurations (cross/i686-linux-gnu.txt,
# cross/arm-linux-gnueabihf.txt), unpacked from Debian's packages of that architecture into
# /opt/hwctrace-sysroot/ARCH (the cross files name that folder).
#
# Why not multiarch, as for arm64: a -dev package of a foreign architecture must have the very
# version of the same package installed for amd64 (Multi-Arch: same), and a Debian 12 machine
# takes its amd64 libraries from bookworm-security while a mirror may not serve that suite's
# i386/armhf index (seen here: "File has unexpected size ... Mirror sync in progress"); adding
# those architectures to dpkg also makes every later `apt-get update` fail on the missing index.
# So the packages are fetched with apt-get through a private apt state of their own (nothing in
# the machine's dpkg or apt configuration changes) and unpacked with dpkg-deb: no version
# coupling with the amd64 libraries, and nothing installed system-wide but the folder.
#
# Idempotent: a sysroot whose stamp names the same package list is kept.
# Usage: scripts/cross-sysroot.sh [i386|armhf ...]   (default: both). Needs root (writes /opt).
set -eu
root=${HWCT_SYSROOT_BASE:-/opt/hwctrace-sysroot}
# what hwctrace links (meson.build's dependencies) and what those link in turn
pkgs="libzstd1 libzstd-dev libxxhash0 libxxhash-dev libprotobuf-c1 libprotobuf-c-dev libjson-c5
	libjson-c-dev libpixman-1-0 libpixman-1-dev libpng16-16 libpng-dev zlib1g zlib1g-dev"
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(i386 armhf)

for arch in "${arches[@]}"; do
	dest=$root/$arch
	stamp="$arch: $(echo $pkgs)"
	if [ -f "$dest/.hwctrace-sysroot" ] && [ "$(cat "$dest/.hwctrace-sysroot")" = "$stamp" ]; then
		echo "cross-sysroot: $dest is ready"
		continue
	fi
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs"
	: >"$work/status"
	apt=(apt-get -q -o Dir::State::Lists="$work/lists" -o Dir::State::status="$work/status"
		-o Dir::Cache="$work/cache" -o APT::Architecture="$arch" -o APT::Architectures::="$arch"
		-o Debug::NoLocking=1)
	# a suite whose index fails (a mirror mid-sync) is left out; the download names what is missing
	"${apt[@]}" update >"$work/update.log" 2>&1 || grep -E '^(E|W):' "$work/update.log" >&2 || true
	(cd "$work/debs" && "${apt[@]}" download $(for p in $pkgs; do printf '%s:%s ' "$p" "$arch"; done))
	rm -rf "$dest"
	mkdir -p "$dest"
	for deb in "$work/debs"/*.deb; do
		dpkg-deb -x "$deb" "$dest"
	done
	# .pc files name their prefix /usr: meson's sys_root (the cross files) puts $dest before it
	echo "$stamp" >"$dest/.hwctrace-sysroot"
	rm -rf "$work"
	trap - EXIT
	echo "cross-sysroot: $dest: $(ls "$dest"/usr/lib/*/ | grep -c '\.so') libraries"
done

# An armhf program asks for its loader at /lib/ld-linux-armhf.so.3 (as on a board); Debian's
# cross C library (libc6-armhf-cross) has it in /usr/arm-linux-gnueabihf/lib, and qemu's -L
# (QEMU_LD_PREFIX) would also move "/" itself for every path the program opens. The link is
# the file libc6:armhf would install; an existing file is left alone.
loader=/usr/arm-linux-gnueabihf/lib/ld-linux-armhf.so.3
if [[ " ${arches[*]} " == *" armhf "* ]] && [ -e "$loader" ] && [ ! -e /lib/ld-linux-armhf.so.3 ]; then
	ln -s "$loader" /lib/ld-linux-armhf.so.3
	echo "cross-sysroot: /lib/ld-linux-armhf.so.3 -> $loader"
fi
