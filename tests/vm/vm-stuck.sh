#!/usr/bin/env bash
# A command that outlives vm-run's --timeout: vm-run exits 124 and prints the guest's account
# of where the command's threads were before qemu was killed (vm-init, HWCT-VM-STUCK).
#
#   tests/vm/vm-stuck.sh VM-RUN [vm-run options...]
#
# The command is a shell that spins in user space beside a `sleep` child. Checks: exit 124;
# the account is there twice (the first look and the one 5 s later); it names both
# processes; the spinning shell is running (state R) with more CPU time at the second look;
# the sleeper waits in the kernel (state S, wchan hrtimer_nanosleep, its kernel stack).
# Exit 0 when all hold, 1 otherwise, vm-run's unavailable status (77) passed on.
set -u
[ $# -ge 1 ] || { echo "usage: $0 VM-RUN [vm-run options...]" >&2; exit 2; }
out=$("$@" --timeout 40 -- sh -c 'sleep 600 & while :; do :; done' 2>&1)
rc=$?
[ "$rc" -ne 77 ] || { echo "$out"; exit 77; }
status=0
check() {	# check WHAT CONDITION...
	local what=$1
	shift
	if "$@"; then
		echo "ok: $what"
	else
		echo "FAIL: $what"
		status=1
	fi
}
check "vm-run exit 124 (was $rc)" [ "$rc" -eq 124 ]
check "two looks at the command's threads" [ "$(grep -c '^HWCT-VM-STUCK' <<<"$out")" -eq 2 ]
check "the sleeper waits in the kernel" grep -qE 'thread [0-9]+ \(sleep\): state S, .*wchan hrtimer_nanosleep' <<<"$out"
check "the sleeper's kernel stack" grep -qE '^ +\[<[0-9a-f]+>\] .*nanosleep' <<<"$out"
check "the shell's command line" grep -qF 'process ' <<<"$(grep -F 'while :; do :; done' <<<"$out")"
# CPU time (ticks) of the spinning shell at each look: it grows
ticks=$(sed -nE 's/^ +thread [0-9]+ \(sh\): state R, cpu ([0-9]+)\+([0-9]+) ticks.*/\1 \2/p' <<<"$out" |
	awk '{ print $1 + $2 }')
check "the shell spins: state R at both looks, more CPU time at the second ($(echo $ticks))" \
	awk -v t="$ticks" 'BEGIN { n = split(t, a, "\n"); exit !(n == 2 && a[2] > a[1]) }'
[ "$status" -eq 0 ] || echo "$out"
exit "$status"
