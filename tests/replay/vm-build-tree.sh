#!/bin/sh
# vm-build-tree.sh HWC_REPLAY TRACE INSTALLED_VM_RUN: an uninstalled hwc-replay finds its VM
# harness with no HWCT_VM_RUN set, as the README's --vm examples are typed from the build
# folder: the vm-run link beside it (replayer/meson.build) runs, here up to vm-prepare's
# refusal of a kernel image that does not exist (no VM is booted). Exit 77 when an installed
# harness exists (that one would run instead, and this test could not tell them apart).
replay=$1 trace=$2 installed=$3
[ ! -x "$installed" ] || { echo "an installed $installed takes precedence: skipped"; exit 77; }
err=$(env -u HWCT_VM_RUN -u HWCT_VM_CACHE "$replay" "$trace" --vm --kernel-image /nonexistent-kernel \
	--frames 0 2>&1 >/dev/null)
status=$?
echo "$err"
case "$err" in
*"no VM harness"*) echo "FAIL: the build tree's harness was not found"; exit 1 ;;
*"vm-prepare: cannot prepare the VM: --kernel-image /nonexistent-kernel: no such file"*) ;;
*) echo "FAIL: vm-prepare did not answer (status $status)"; exit 1 ;;
esac
[ "$status" = 125 ] || { echo "FAIL: status $status, expected 125 (cannot test)"; exit 1; }
echo "ok: the build tree's vm-run ran"
