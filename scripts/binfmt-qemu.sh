#!/usr/bin/env bash
# Lets this machine run aarch64 and armhf programs as if native: registers Debian's
# qemu-user-static interpreters (qemu-user-static, scripts/install-deps.sh cross) with the
# kernel's binfmt_misc, mounting it first if nothing did. Without it only the test programs
# themselves run under qemu (meson's exe_wrapper, cross/*.txt); a test script that starts a
# cross-built program (hwc-trace, hwc-replay) needs the kernel to know the format.
# Idempotent; needs root when something is missing. Usage: scripts/binfmt-qemu.sh [arch...]
# (qemu names: aarch64 arm; default both). Exit 0 when every one is registered, else 1.
set -u
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(aarch64 arm)
dir=/proc/sys/fs/binfmt_misc
if [ ! -e "$dir/register" ]; then
	mount -t binfmt_misc binfmt_misc "$dir" 2>/dev/null ||
		{ echo "binfmt-qemu: cannot mount binfmt_misc on $dir (not root?)" >&2; exit 1; }
fi
status=0
for a in "${arches[@]}"; do
	[ -e "$dir/qemu-$a" ] && continue
	conf=/usr/lib/binfmt.d/qemu-$a.conf
	if [ ! -f "$conf" ]; then
		echo "binfmt-qemu: no $conf (install qemu-user-static)" >&2
		status=1
		continue
	fi
	# one line ':name:type:offset:magic:mask:interpreter:flags', as the kernel reads it
	grep -v '^#' "$conf" | head -n 1 >"$dir/register" 2>/dev/null ||
		{ echo "binfmt-qemu: the kernel refused $conf" >&2; status=1; }
done
exit $status
