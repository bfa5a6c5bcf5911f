#!/usr/bin/env bash
# Runs each libFuzzer target (build-fuzz/, clang with ASan+UBSan, set up as
# scripts/test.sh step 4 does) once over every input it keeps: its seeds
# (tests/fuzz/seeds.txt) and its kept corpus (tests/fuzz/corpus/TARGET).
# -runs=0 executes each input once and fuzzes nothing; no -max_len, so
# every input runs whole. With the sanitizer options of every run
# (scripts/sanitizer-env.sh) the first report stops the target, and its
# input stays in build-fuzz/findings/TARGET/ (crash-*, leak-*, timeout-*,
# oom-*). Prints one line per target; exits 1 if any failed.
# Usage: scripts/fuzz-replay.sh [TARGET...]
set -u
cd "$(dirname "$0")/.."
. scripts/sanitizer-env.sh
if [ ! -f build-fuzz/build.ninja ]; then
	CC=clang meson setup build-fuzz -Dfuzz=enabled -Dtests=enabled -Db_sanitize=address,undefined \
		-Db_lundef=false >/dev/null || exit 1
fi
targets=("$@")
if [ ${#targets[@]} = 0 ]; then
	# the targets this build defines (fuzz-results-json needs hwc-replay)
	targets=($(ninja -C build-fuzz -t targets all | sed -n 's|^tests/fuzz/\(fuzz-[a-z-]*\): .*|\1|p'))
fi
ninja -C build-fuzz $(for t in "${targets[@]}"; do echo "tests/fuzz/$t"; done) >/dev/null || exit 1
status=0
for name in "${targets[@]}"; do
	bin=build-fuzz/tests/fuzz/$name
	work=build-fuzz/replay/$name findings=build-fuzz/findings/$name
	rm -rf "$work"
	mkdir -p "$work/seeds" "$findings"
	for seed in $(awk -v t="$name" '$1 == t { $1 = ""; print }' tests/fuzz/seeds.txt); do
		cp $seed "$work/seeds"/ 2>/dev/null || true
	done
	kept=tests/fuzz/corpus/$name
	[ -d "$kept" ] || kept=
	inputs=$(find "$work/seeds" $kept -type f | wc -l)
	if "$bin" -runs=0 -timeout=60 -rss_limit_mb=4096 -artifact_prefix="$findings/" \
		"$work/seeds" $kept >"$work/run.log" 2>&1; then
		echo "$name: $inputs inputs, ok"
	else
		echo "$name: $inputs inputs, FAILED (see $work/run.log; the input is in $findings/)"
		grep -m3 -E 'runtime error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' "$work/run.log"
		status=1
	fi
done
exit $status
