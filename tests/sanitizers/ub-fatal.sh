#!/usr/bin/env bash
# The sanitizer settings make every report fatal: each deliberate error of
# ub_fatal.c stops the process at its report.
#   ub-fatal.sh UB_FATAL UB_FATAL_RECOVER B_SANITIZE SANITIZER_ENV
# UB_FATAL is ub_fatal.c built with the build's flags (under UBSan,
# -fno-sanitize-recover=all: meson.build); UB_FATAL_RECOVER the same with
# -fsanitize-recover=undefined, as a build without that flag would be;
# SANITIZER_ENV is scripts/sanitizer-env.sh, the options of every sanitized
# run (the unit suite under ASan+UBSan, the fuzz stage, campaigns, replays).
# Checks, each must hold or the test fails:
#   1. with the options: every kind stops by SIGABRT (abort_on_error=1)
#      with its report, the line after the error never printed;
#   2. without any options: UB_FATAL still stops on every kind (the build alone);
#   3. UB_FATAL_RECOVER with the options stops on every UBSan kind (the
#      options alone), and without them goes on past its report (so what
#      stopped it was the options, and the error is really made and reported).
# Skipped (77) in a build without UBSan: nothing to check there. scripts/test.sh's
# fuzz stage runs it on build-fuzz's programs and fails on anything but 0.
set -u
if [ $# != 4 ]; then
	echo "usage: $0 UB_FATAL UB_FATAL_RECOVER B_SANITIZE SANITIZER_ENV" >&2
	exit 2
fi
fatal=$1 recover=$2 sanitize=$3 envfile=$4
case ",$sanitize," in
*,undefined,*) ;;
*)
	echo "not a UBSan build (b_sanitize=$sanitize): skipped"
	exit 77
	;;
esac
asan=false
case ",$sanitize," in *,address,*) asan=true ;; esac
ubsan_kinds="signed-overflow null-memcpy shift misaligned index"
kinds=$ubsan_kinds
$asan && kinds="$kinds heap-overflow leak"
failed=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

fail() {
	echo "FAIL: $*"
	sed 's/^/    | /' "$err" | head -n 12
	failed=1
}

report_of() {	# the text a report of KIND carries
	case $1 in
	heap-overflow) echo "ERROR: AddressSanitizer: heap-buffer-overflow" ;;
	leak) echo "ERROR: LeakSanitizer" ;;
	*) echo "runtime error:" ;;
	esac
}

# run PROGRAM KIND [env arguments, e.g. -u NAME]: its status in $status
run() {
	local prog=$1 kind=$2
	shift 2
	{ env "$@" "$prog" "$kind" >"$out" 2>"$err"; } 2>/dev/null	# no "Aborted" notice of bash's
	status=$?
}

# stopped WHAT KIND [STATUS]: the last run stopped at KIND's report (with STATUS when given)
stopped() {
	local what=$1 kind=$2 want=${3:-}
	if [ "$status" = 0 ]; then
		fail "$what: $kind exited 0"
	elif [ -n "$want" ] && [ "$status" != "$want" ]; then
		fail "$what: $kind exited $status, not $want"
	elif ! grep -q "$(report_of "$kind")" "$err"; then
		fail "$what: $kind exited $status without a report ('$(report_of "$kind")')"
	elif [ "$kind" != leak ] && grep -q "survived" "$out"; then
		fail "$what: $kind went on after its report (exit $status)"
	else
		echo "ok: $what: $kind stopped at its report (exit $status)"
	fi
}

. "$envfile"
echo "ASAN_OPTIONS=$ASAN_OPTIONS"
echo "UBSAN_OPTIONS=$UBSAN_OPTIONS"
run "$fatal" none
if [ "$status" != 0 ] || ! grep -q "survived none" "$out"; then
	fail "with the options: none (no error) exited $status"
fi
for kind in $kinds; do
	run "$fatal" "$kind"
	stopped "with the options" "$kind" 134	# 128 + SIGABRT
done
for kind in $kinds; do
	run "$fatal" "$kind" -u ASAN_OPTIONS -u UBSAN_OPTIONS
	stopped "the build alone, no options" "$kind"
done
for kind in $ubsan_kinds; do
	run "$recover" "$kind"
	stopped "the options alone, recoverable build" "$kind" 134
	run "$recover" "$kind" -u ASAN_OPTIONS -u UBSAN_OPTIONS
	if [ "$status" != 0 ] || ! grep -q "survived $kind" "$out" || ! grep -q "runtime error:" "$err"; then
		fail "recoverable build, no options: $kind exited $status (expected: a report, then on to exit 0)"
	fi
done
[ "$failed" = 0 ] && echo "every report stopped the process"
exit $failed
