#!/usr/bin/env bash
# The cross configurations' step of scripts/test.sh (tests/README.md, "Cross builds"):
#   1. builds build-aarch64, build-armhf and build-i686 from cross/*.txt;
#   2. runs unit tests on each: aarch64 and armhf under qemu-user, i686 natively
#      (which tests on which architecture, and why: tests/README.md);
#   3. tests/cross/cross-trace.sh: every build's traces read the same by every build;
#   4. tests/cross/vm-arm64.sh: replays on an arm64 kernel under qemu-system-aarch64 (the
#      aarch64 hwc-replay) equal the x86-64 VM's, plans and writeback checksums (skipped
#      with HWCT_SKIP_VM=1, as test.sh's VM step).
# Usage: scripts/test-cross.sh LOGDIR [--full]
#   LOGDIR gets one meson JSON log per suite (cross-ARCH.json) and cross-trace.json, which
#   test.sh's summary counts. aarch64 runs the whole unit suite; --full runs it on armhf and
#   i686 too.
# Needs scripts/install-deps.sh cross (packages and sysroots) and root for binfmt_misc.
set -u
cd "$(dirname "$0")/.."
logs=${1:?usage: $0 LOGDIR [--full]}
full=${2:-}
status=0
mkdir -p "$logs"

# script tests start cross-built programs (hwc-trace, hwc-replay) by themselves
bash scripts/binfmt-qemu.sh aarch64 arm || exit 1

build() {	# build DIR CROSSFILE
	if [ ! -f "$1/build.ninja" ]; then
		meson setup "$1" --cross-file "$2" -Dtests=enabled >"$logs/$1.setup.log" 2>&1 ||
			{ tail -n 30 "$logs/$1.setup.log"; return 1; }
	fi
	ninja -C "$1" >"$logs/$1.build.log" 2>&1 || { grep -A 12 FAILED "$logs/$1.build.log" | head -n 40; return 1; }
	echo "$1: built for $(sed -n 's/^Host machine cpu: //p' "$1/meson-logs/meson-log.txt" | head -n 1)"
}

# the names of DIR's tests in suite unit ('meson test --list' may print ninja's lines too)
unit_names() {
	meson test -C "$1" --suite unit --list 2>/dev/null | grep -E '^[^ ]*:[^ ]*unit[^ ]* / ' | sed 's/^.* \/ //'
}

# unit tests of DIR but those named in SKIP (space separated; empty: all)
suite() {	# suite DIR ARCH SKIP [meson test options...]
	local dir=$1 arch=$2 skip=" $3 " left=$3 names=() n
	shift 3
	for n in $(unit_names "$dir"); do
		case "$skip" in *" $n "*) ;; *) names+=("$n") ;; esac
	done
	n=$(echo $left | wc -w)
	if [ "$n" -gt 8 ]; then
		echo "$arch: ${#names[@]} unit tests ($n left out: tests/README.md)"
	else
		echo "$arch: ${#names[@]} unit tests${left:+, left out: $left}"
	fi
	meson test -C "$dir" --print-errorlogs --logbase "cross-$arch" "$@" "${names[@]}" || status=1
	cp "$dir/meson-logs/cross-$arch.json" "$logs/cross-$arch.json" 2>/dev/null || true
}

# the 32-bit subsets: the format, the analyzers, the recorder, the ABI (tests/README.md);
# armhf leaves out the recorder's longest runs, which i686 (natively) has
subset() {	# subset DIR i686|armhf
	unit_names "$1" | grep -E '^(abi|format|traces|analyzers|recorder)-' |
		if [ "$2" = armhf ]; then grep -vE '^recorder-(roundtrip-.*|displays|fd-leak)$'; else cat; fi
}

# suite over a subset: every unit test of DIR not in it is left out
suite_subset() {	# suite_subset DIR ARCH [meson test options...]
	local dir=$1 arch=$2
	shift 2
	if [ "$full" = --full ]; then
		suite "$dir" "$arch" "" "$@"
	else
		suite "$dir" "$arch" "$(comm -23 <(unit_names "$dir" | sort) <(subset "$dir" "$arch" | sort) | tr '\n' ' ')" "$@"
	fi
}

built=()
build build-aarch64 cross/aarch64-linux-gnu.txt && built+=(build-aarch64) || status=1
build build-armhf cross/arm-linux-gnueabihf.txt && built+=(build-armhf) || status=1
build build-i686 cross/i686-linux-gnu.txt && built+=(build-i686) || status=1

# aarch64, the boards' architecture: the whole unit suite, under qemu-user (tests/README.md
# says what the tests that replay many frames do lighter there, HWCT_TEST_EMULATED)
if [ -d build-aarch64 ] && [[ " ${built[*]} " == *" build-aarch64 "* ]]; then
	suite build-aarch64 aarch64 "" --timeout-multiplier 4
fi
if [[ " ${built[*]} " == *" build-i686 "* ]]; then
	suite_subset build-i686 i686
fi
if [[ " ${built[*]} " == *" build-armhf "* ]]; then
	suite_subset build-armhf armhf --timeout-multiplier 4
fi

# tests/suite/arch-suite.py: an amd64 and an arm64 qemu board of one hwc-suite suite, run by
# LAVA's dispatcher with build's and build-aarch64's hwc-replay: here, where both builds are
# (tests/README.md says why not in the vm suite); the VMs' cache is the vm suite's; not with
# HWCT_SKIP_VM=1
if [[ " ${built[*]} " == *" build-aarch64 "* ]] && [ -x build/replayer/hwc-replay ] &&
	[ -x build/analyzers/hwc-trace ]; then
	start=$SECONDS
	if [ "${HWCT_SKIP_VM:-0}" = 1 ]; then
		result=SKIP
		echo "HWCT_SKIP_VM=1: no VM" >"$logs/arch-suite.log"
	else
		tests/suite/arch-suite.py replayer/suite/hwc-suite "$PWD/build/replayer/hwc-replay" \
			"$PWD/build-aarch64/replayer/hwc-replay" "$PWD/build/analyzers/hwc-trace" tests/vm/vm-prepare \
			"$PWD/build/vm-cache" "$PWD" >"$logs/arch-suite.log" 2>&1
		case $? in
		0) result=OK ;;
		77) result=SKIP ;;
		*) result=FAIL status=1 ;;
		esac
	fi
	grep -E '^(FAIL|arch-suite: )' "$logs/arch-suite.log" | head -n 20
	echo "arch-suite: $result ($(grep -c '^ok' "$logs/arch-suite.log") checks passed, $((SECONDS - start)) s)"
	python3 -c 'import json, sys; print(json.dumps({"name": "arch-suite", "result": sys.argv[1],
	    "duration": int(sys.argv[3]), "stdout": open(sys.argv[2], errors="replace").read()[-4000:]}))' \
		"$result" "$logs/arch-suite.log" "$((SECONDS - start))" >"$logs/arch-suite.json"
fi

if [ ${#built[@]} -gt 0 ] && [ -x build/traces/hwct-scenario ]; then
	out=build/cross-trace
	if bash tests/cross/cross-trace.sh "$out" build "${built[@]}" >"$logs/cross-trace.log" 2>&1; then
		result=OK
	else
		result=FAIL
		status=1
	fi
	grep -E '^(FAIL|note)' "$logs/cross-trace.log" | head -n 20
	echo "cross-trace: $result ($(grep -c '^ok' "$logs/cross-trace.log") pairs equal)"
	python3 -c 'import json, sys; print(json.dumps({"name": "cross-trace", "result": sys.argv[1],
	    "stdout": open(sys.argv[2], errors="replace").read()[-4000:]}))' "$result" "$logs/cross-trace.log" \
		>"$logs/cross-trace.json"
fi
if [[ " ${built[*]} " == *" build-aarch64 "* ]] && [ -x build/replayer/hwc-replay ]; then
	start=$SECONDS
	if [ "${HWCT_SKIP_VM:-0}" = 1 ]; then
		result=SKIP
		echo "HWCT_SKIP_VM=1: no VM" >"$logs/vm-arm64.log"
	elif bash tests/cross/vm-arm64.sh build/vm-arm64 build build-aarch64 >"$logs/vm-arm64.log" 2>&1; then
		result=OK
	else
		result=FAIL
		status=1
	fi
	grep -E '^(FAIL|ok)' "$logs/vm-arm64.log" | head -n 20
	echo "vm-arm64: $result ($((SECONDS - start)) s)"
	python3 -c 'import json, sys; print(json.dumps({"name": "vm-arm64", "result": sys.argv[1],
	    "duration": int(sys.argv[3]), "stdout": open(sys.argv[2], errors="replace").read()[-4000:]}))' \
		"$result" "$logs/vm-arm64.log" "$((SECONDS - start))" >"$logs/vm-arm64.json"
fi
exit $status
