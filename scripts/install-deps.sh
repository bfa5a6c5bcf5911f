#!/usr/bin/env bash
# Installs the Debian 12 packages hwctrace needs to build and to run every test.
# Idempotent: packages already present are skipped; apt-get runs only when something is missing.
# Usage: scripts/install-deps.sh [group...]   (groups: build kms lttng vm docs browser lava cross; default: all)
set -eu

declare -A groups=(
	[build]="meson ninja-build pkg-config gcc clang libclang-rt-14-dev protobuf-c-compiler
		libprotobuf-c-dev protobuf-compiler libzstd-dev zstd libxxhash-dev libjson-c-dev"
	[kms]="libdrm-dev libgbm-dev libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri
		libpixman-1-dev libpng-dev drm-info"
	[lttng]="liblttng-ust-dev lttng-tools babeltrace2"
	[vm]="qemu-system-x86 busybox-static linux-source-6.1 linux-headers-amd64 xz-utils kmod cpio
		make gcc debootstrap"
	[docs]="scdoc"
	# the browser tests of hwc-trace report (tests/report): headless chromium driven from Node
	[browser]="chromium nodejs"
	# hwc-suite's LAVA jobs (docs/fleet.md): LAVA's dispatcher (lava-run), its job schema
	# and lavacli, all of Debian's python3, as hwc-suite is
	[lava]="lava-dispatcher lava-common lavacli python3-yaml"
	# the cross configurations (cross/*.txt, tests/README.md): Debian's cross compilers and
	# their C libraries, qemu-user to run aarch64/armhf programs, the arm64 libraries by
	# multiarch (the architecture is added first, below); the i386 and armhf libraries are
	# unpacked into a sysroot by scripts/cross-sysroot.sh instead (that script says why)
	[cross]="gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-i686-linux-gnu qemu-user-static
		libc6-dev-i386-cross libc6-dev-armhf-cross libzstd-dev:arm64 libxxhash-dev:arm64
		libprotobuf-c-dev:arm64 libjson-c-dev:arm64 libdrm-dev:arm64 libgbm-dev:arm64
		libpixman-1-dev:arm64 libpng-dev:arm64"
)
# the architectures whose packages the groups name (pkg:arch), added to dpkg when missing
cross_arches="arm64"

wanted=("$@")
[ ${#wanted[@]} -gt 0 ] || wanted=(build kms lttng vm docs browser lava cross)

missing=()
for g in "${wanted[@]}"; do
	[ -n "${groups[$g]+x}" ] || { echo "install-deps: unknown group '$g'" >&2; exit 2; }
	for p in ${groups[$g]}; do
		status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
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
for a in $cross_arches; do
	case " ${missing[*]}" in
	*":$a "*|*":$a") dpkg --print-foreign-architectures | grep -qx "$a" || dpkg --add-architecture "$a" ;;
	esac
done
# an index that fails to download (a mirror mid-sync) is left out, not fatal: the install
# below says by name what it then cannot find
apt-get -o DPkg::Lock::Timeout=600 update -q || echo "install-deps: apt-get update failed in part, going on" >&2
apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
sysroots
