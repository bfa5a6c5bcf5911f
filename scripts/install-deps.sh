#!/usr/bin/env bash
# Installs the Debian 12 packages hwctrace needs to build and to run every test.
# Idempotent: packages already present are skipped; apt-get runs only when something is missing.
# Usage: scripts/install-deps.sh [group...]   (groups: build kms lttng vm docs browser lava cross; default: all)
# The README's first command (scripts/bootstrap.sh) installs the main job's groups (main_groups:
# build kms vm), the second (scripts/test.sh) every group; README.md's table "What each
# command installs" gives each group's purpose and size on a fresh Debian 12.
set -eu

declare -A groups=(
	[build]="meson ninja-build pkg-config gcc clang libclang-rt-14-dev protobuf-c-compiler
		libprotobuf-c-dev protobuf-compiler libzstd-dev zstd libxxhash-dev libjson-c-dev
		libzip-dev"
	[kms]="libdrm-dev libgbm-dev libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri
		libpixman-1-dev libpng-dev drm-info"
	[lttng]="liblttng-ust-dev lttng-tools babeltrace2"
	[vm]="qemu-system-x86 busybox-static linux-source-6.1 linux-headers-amd64 xz-utils kmod cpio
		make gcc debootstrap"
	[docs]="scdoc"
	# the browser tests of hwc-trace report (tests/report): headless chromium driven from Node
	[browser]="chromium nodejs"
	# hwc-suite's LAVA jobs (docs/fleet.md): LAVA's dispatcher (lava-run), its job schema
	# and lavacli, all of Debian's python3, as hwc-suite is; lava-server and PostgreSQL for
	# the local instance scripts/lava-local.sh starts (their services are never started
	# by the install: see policy-rc.d below; it also uses curl and ps)
	[lava]="lava-dispatcher lava-common lavacli python3-yaml lava-server postgresql curl procps"
	# the cross configurations (cross/*.txt, tests/README.md): Debian's cross compilers and
	# their C libraries, qemu-user to run aarch64/armhf programs, the arm64 libraries by
	# multiarch (the architecture is added first, below); the i386 and armhf libraries are
	# unpacked into a sysroot by scripts/cross-sysroot.sh instead (that script says why);
	# qemu-system-arm boots the arm64 kernel the aarch64 hwc-replay runs on (vm-run --arch
	# arm64, which also needs the vm group: linux-source-6.1, the amd64 headers' ABI)
	[cross]="gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-i686-linux-gnu qemu-user-static qemu-system-arm
		libc6-dev-i386-cross libc6-dev-armhf-cross libzstd-dev:arm64 libxxhash-dev:arm64
		libprotobuf-c-dev:arm64 libjson-c-dev:arm64 libdrm-dev:arm64 libgbm-dev:arm64
		libpixman-1-dev:arm64 libpng-dev:arm64"
)
# the architectures whose packages the groups name (pkg:arch), added to dpkg when missing
cross_arches="arm64"

# the groups of the main job (scripts/bootstrap.sh): build it, replay on KMS or vkms in the VM
main_groups=(build kms vm)
wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(build kms lttng vm docs browser lava cross)
[ "${wanted[*]}" != main ] || wanted=("${main_groups[@]}")

native=$(dpkg --print-architecture)
missing=()
for g in "${wanted[@]}"; do
	[ -n "${groups[$g]+x}" ] || { echo "install-deps: unknown group '$g' (groups: ${!groups[*]}, main)" >&2; exit 2; }
	for p in ${groups[$g]}; do
		# the native (or Architecture: all) package by name: with a foreign architecture
		# added, "libzstd-dev" alone would list both architectures' statuses
		case $p in *:*) q=$p ;; *) q="$p:$native $p:all" ;; esac
		status=$(dpkg-query -W -f='${Status}\n' $q 2>/dev/null | grep -m1 -x 'install ok installed' || true)
		[ "$status" = "install ok installed" ] || missing+=("$p")
	done
done

# not packages: the i386 and armhf sysroots of the cross group (idempotent, quiet when ready)
sysroots() {
	case " ${wanted[*]} " in
	*" cross "*) bash "$(dirname "$0")/cross-sysroot.sh" ;;
	esac
}

if [ ${#missing[@]} -eq 0 ]; then
	echo "install-deps: all packages present"
	sysroots
	exit
fi

echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: need root to install packages (run with sudo)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# Packages must not start services (postgresql, lava-server's): without systemd as PID 1
# their scripts would start a system-wide PostgreSQL and lava-server's postinst would then
# create and migrate a database in it. The project starts what it needs itself
# (scripts/lava-local.sh). A policy-rc.d that says 101 ("action forbidden") stops them,
# unless the machine has its own.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' > "$policy"
	chmod 755 "$policy"
	trap 'rm -f "$policy"' EXIT
fi
for a in $cross_arches; do
	case " ${missing[*]}" in
	*":$a "*|*":$a") dpkg --print-foreign-architectures | grep -qx "$a" || dpkg --add-architecture "$a" ;;
	esac
done
# a mirror caught mid-sync fails some index files; the lists already here still serve
apt-get -o DPkg::Lock::Timeout=600 update -q || echo "install-deps: apt-get update failed; using the package lists already here" >&2
apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
sysroots
