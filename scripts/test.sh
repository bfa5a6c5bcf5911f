#!/usr/bin/env bash
# The README's second command, and what .ci/run calls: installs what is
# missing, then runs every test suite:
#   1. unit tests (no device), build/ with the default compiler;
#   1b. the minimal build: every optional feature disabled, the optional
#      libraries hidden (scripts/check-minimal.sh, build-minimal/);
#   2. device tests on vkms in a qemu VM (suite "vm");
#   3. unit tests again under ASan+UBSan (clang), build-asan/;
#   4. each libFuzzer target for HWCT_FUZZ_SECONDS (default 60), HWCT_FUZZ_JOBS (default 2)
#      at once, over its seeds
#      (tests/fuzz/seeds.txt) and kept corpus (tests/fuzz/corpus), build-fuzz/,
#      after checking that a sanitizer report stops a run (fuzz-ub-fatal).
# Steps 3 and 4 run with scripts/sanitizer-env.sh's options: the first
# sanitizer report stops the process and fails its test or fuzz run.
# Ends with one line "N passed, N failed, N skipped" over all of them.
#   5. the cross builds (scripts/test-cross.sh): aarch64, armhf, i686, their unit
#      tests (aarch64 and armhf under qemu-user) and cross/cross-trace.sh.
# Environment: HWCT_SKIP_VM=1 skips step 2; HWCT_FUZZ_SECONDS=0 skips step 4;
# HWCT_SKIP_CROSS=1 skips step 5.
set -u
cd "$(dirname "$0")/.."
root=$PWD
logs=$root/build/test-logs
fuzz_seconds=${HWCT_FUZZ_SECONDS:-60}
status=0

# every group; a build folder configured before a group was installed (the first
# command installs the main job's only) is configured again, so that it finds them
deps_log=$(mktemp)
bash scripts/install-deps.sh 2>&1 | tee "$deps_log"
[ "${PIPESTATUS[0]}" = 0 ] || { rm -f "$deps_log"; exit 1; }
if grep -q '^install-deps: installing' "$deps_log"; then
	for dir in build build-asan build-fuzz build-minimal; do
		[ ! -f "$dir/build.ninja" ] || meson setup --reconfigure "$dir" >/dev/null || exit 1
	done
fi
rm -f "$deps_log"

step() {
	echo
	echo "==== $*"
}

setup() {	# setup DIR [meson options...]
	local dir=$1
	shift
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$@" >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log"; return 1; }
	fi
	ninja -C "$dir" || return 1
}

run_suite() {	# run_suite DIR LOGNAME [meson test options...]
	local dir=$1 name=$2
	shift 2
	meson test -C "$dir" --print-errorlogs --logbase "$name" "$@" || status=1
	cp "$dir/meson-logs/$name.json" "$logs/$name.json" 2>/dev/null || true
}

# fuzz_one TARGET: one libFuzzer target for fuzz_seconds over its seeds and kept corpus;
# its verdict in $logs/fuzz-NAME.json, its lines printed at once when it ends.
fuzz_one() {
	local target=$1 name corpus kept findings seed out
	name=$(basename "$target")
	corpus=build-fuzz/corpus/$name
	mkdir -p "$corpus"
	for seed in $(awk -v t="$name" '$1 == t { $1 = ""; print }' tests/fuzz/seeds.txt); do
		cp -n $seed "$corpus"/ 2>/dev/null || true
	done
	# the kept corpus (tests/fuzz/corpus, scripts/fuzz-campaign.sh) is replayed first, read only;
	# the input of a finding is kept in build-fuzz/findings/$name/ (crash-*, leak-*, ...)
	kept=tests/fuzz/corpus/$name
	[ -d "$kept" ] || kept=
	findings=build-fuzz/findings/$name
	mkdir -p "$findings"
	if "$target" -max_total_time="$fuzz_seconds" -timeout=60 -rss_limit_mb=4096 -max_len=262144 \
		-print_final_stats=1 -artifact_prefix="$findings/" \
		$([ -f "tests/fuzz/$name.dict" ] && echo "-dict=tests/fuzz/$name.dict") \
		"$corpus" $kept >"$logs/$name.log" 2>&1; then
		echo "$name: ok ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$logs/$name.log" | grep -o '[0-9]*$') runs)"
		echo "{\"name\": \"$name\", \"result\": \"OK\"}" >"$logs/fuzz-$name.json"
	else
		out="$name: FAILED, see $logs/$name.log; the input: $(ls -t "$findings" | head -n 1 | sed "s|^|$findings/|")"
		out+=$'\n'$(tail -n 30 "$logs/$name.log")
		echo "$out"
		echo "{\"name\": \"$name\", \"result\": \"FAIL\"}" >"$logs/fuzz-$name.json"
	fi
}

mkdir -p build
rm -rf "$logs"
mkdir -p "$logs"

step "build (default compiler) and unit tests"
setup build -Dtests=enabled || exit 1
run_suite build unit --suite unit

step "minimal build: every optional feature disabled (scripts/check-minimal.sh)"
if bash scripts/check-minimal.sh build-minimal >"$logs/check-minimal.log" 2>&1; then
	minimal=OK
else
	minimal=FAIL
	status=1
fi
tail -n 25 "$logs/check-minimal.log"
python3 -c 'import json, sys; print(json.dumps({"name": "check-minimal", "result": sys.argv[1],
    "stdout": open(sys.argv[2], errors="replace").read()[-4000:]}))' "$minimal" "$logs/check-minimal.log" \
	>"$logs/check-minimal.json"

if [ "${HWCT_SKIP_VM:-0}" != 1 ] && [ -d tests/vm ]; then
	step "device tests: vkms under qemu (suite vm)"
	run_suite build vm --suite vm
fi

# Every sanitized run below stops at its first report (the runtime options,
# exported; the builds add -fno-sanitize-recover=all: tests/README.md).
. scripts/sanitizer-env.sh
sanitize=address,undefined

step "unit tests under ASan+UBSan (clang)"
if CC=clang setup build-asan -Dtests=enabled -Db_sanitize=$sanitize -Db_lundef=false; then
	run_suite build-asan asan --suite unit
else
	status=1
fi

if [ "$fuzz_seconds" != 0 ]; then
	step "fuzz targets, ${fuzz_seconds}s each"
	if CC=clang setup build-fuzz -Dfuzz=enabled -Dtests=enabled -Db_sanitize=$sanitize -Db_lundef=false; then
		# first, that these settings make a report fatal in this build: else a
		# run could print a finding and pass (tests/sanitizers/ub-fatal.sh; a skip fails here)
		if bash tests/sanitizers/ub-fatal.sh build-fuzz/tests/sanitizers/ub-fatal \
			build-fuzz/tests/sanitizers/ub-fatal-recover "$sanitize" scripts/sanitizer-env.sh \
			>"$logs/fuzz-ub-fatal.log" 2>&1; then
			echo "fuzz-ub-fatal: ok (every deliberate error stopped its process)"
			echo '{"name": "fuzz-ub-fatal", "result": "OK"}' >"$logs/fuzz-ub-fatal.json"
		else
			echo "fuzz-ub-fatal: FAILED, a sanitizer report may not stop a fuzz run:"
			tail -n 30 "$logs/fuzz-ub-fatal.log"
			echo '{"name": "fuzz-ub-fatal", "result": "FAIL"}' >"$logs/fuzz-ub-fatal.json"
			status=1
		fi
		# HWCT_FUZZ_JOBS targets at once (default 2, this machine's cores): each runs
		# single-threaded for its fuzz_seconds, so the step takes about
		# targets x seconds / jobs; fuzz_one prints its lines in one piece
		fuzz_jobs=${HWCT_FUZZ_JOBS:-2}
		for target in build-fuzz/tests/fuzz/fuzz-*; do
			[ -f "$target" ] && [ -x "$target" ] || continue
			fuzz_one "$target" &
			while [ "$(jobs -rp | wc -l)" -ge "$fuzz_jobs" ]; do
				wait -n
			done
		done
		wait
		! grep -qs '"result": "FAIL"' "$logs"/fuzz-fuzz-*.json || status=1
	else
		status=1
	fi
fi

if [ "${HWCT_SKIP_CROSS:-0}" != 1 ]; then
	step "cross builds: aarch64 and armhf under qemu-user, i686 (scripts/test-cross.sh)"
	bash scripts/test-cross.sh "$logs" || status=1
fi

step "summary"
# Failures are named again here, with the end of their output, because a CI
# log is often read from its tail only.
python3 - "$logs" <<'PY'
import json, os, sys
counts = {"passed": 0, "failed": 0, "skipped": 0}
failed = []
for name in sorted(os.listdir(sys.argv[1])):
    if not name.endswith(".json"):
        continue
    for line in open(os.path.join(sys.argv[1], name)):
        line = line.strip()
        if not line:
            continue
        test = json.loads(line)
        result = test.get("result")
        if result in ("OK", "EXPECTEDFAIL"):
            counts["passed"] += 1
        elif result == "SKIP":
            counts["skipped"] += 1
        else:
            counts["failed"] += 1
            failed.append((name[:-len(".json")], test))
for log, test in failed:
    print("FAILED %s: %s (%s, %.0f s)" % (log, test.get("name"), test.get("result"),
                                        test.get("duration") or 0))
    out = ((test.get("stdout") or "") + (test.get("stderr") or "")).rstrip("\n").split("\n")
    for line in out[-25:]:
        print("    | " + line[:300])
print("%d passed, %d failed, %d skipped" % (counts["passed"], counts["failed"], counts["skipped"]))
PY
exit $status
