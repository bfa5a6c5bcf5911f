#!/usr/bin/env bash
# A long fuzz campaign, outside CI: runs each libFuzzer target (build-fuzz/,
# clang with ASan+UBSan, set up as scripts/test.sh step 4 does) for SECONDS
# (default 3600) on JOBS processes (default 1), starting from its seeds
# (tests/fuzz/seeds.txt) and the kept corpus (tests/fuzz/corpus/TARGET),
# then merges what gained coverage back into tests/fuzz/corpus/TARGET
# (libFuzzer -merge=1 keeps the smallest inputs that cover the same).
# Prints, per target, the executions run and the coverage reached; crashes
# and hangs stay in build-fuzz/campaign/TARGET/ (crash-*, timeout-*, oom-*):
# each becomes a regression test before the next commit. Runs with the
# sanitizer options of every sanitized run (scripts/sanitizer-env.sh): the
# first report stops a run and its input is a crash-* like any other.
# Inputs a test names (by file name, in a tests/*/meson.build) stay in the
# kept corpus whatever the merge keeps.
# With --runs N a target stops after N executions (or SECONDS, whichever
# comes first).
# Usage: scripts/fuzz-campaign.sh [--runs N] [SECONDS] [JOBS] [TARGET...]
set -u
cd "$(dirname "$0")/.."
. scripts/sanitizer-env.sh
runs=
if [ "${1:-}" = --runs ]; then
	runs=${2:?--runs needs a number}
	shift 2
fi
seconds=${1:-3600}
jobs=${2:-1}
shift $(( $# > 2 ? 2 : $# ))
if [ ! -f build-fuzz/build.ninja ]; then
	CC=clang meson setup build-fuzz -Dfuzz=enabled -Dtests=enabled -Db_sanitize=address,undefined \
		-Db_lundef=false >/dev/null || exit 1
fi
ninja -C build-fuzz $(for t in "${@:-}"; do [ -n "$t" ] && echo "tests/fuzz/$t"; done) >/dev/null || exit 1
targets=("$@")
if [ ${#targets[@]} = 0 ]; then
	for t in build-fuzz/tests/fuzz/fuzz-*; do
		[ -f "$t" ] && [ -x "$t" ] && targets+=("$(basename "$t")")
	done
fi
status=0
for name in "${targets[@]}"; do
	bin=build-fuzz/tests/fuzz/$name
	work=build-fuzz/campaign/$name
	kept=tests/fuzz/corpus/$name
	mkdir -p "$work/corpus" "$kept"
	for seed in $(awk -v t="$name" '$1 == t { $1 = ""; print }' tests/fuzz/seeds.txt); do
		cp -n $seed "$work/corpus"/ 2>/dev/null || true
	done
	dict=tests/fuzz/$name.dict
	"$bin" -max_total_time="$seconds" $([ -n "$runs" ] && echo "-runs=$runs") $([ "$jobs" -gt 1 ] && echo "-jobs=$jobs -workers=$jobs") -timeout=30 -rss_limit_mb=2048 \
		-max_len=262144 -print_final_stats=1 -artifact_prefix="$work/" \
		$([ -f "$dict" ] && echo "-dict=$dict") "$work/corpus" "$kept" >"$work/run.log" 2>&1 || status=1
	# with -jobs the statistics are in fuzz-N.log
	execs=$(cat "$work/run.log" fuzz-*.log 2>/dev/null | grep -o 'stat::number_of_executed_units: *[0-9]*' |
		grep -o '[0-9]*$' | awk '{ s += $1 } END { print s + 0 }')
	cov=$(cat "$work/run.log" fuzz-*.log 2>/dev/null | grep -o 'cov: [0-9]*' | tail -1)
	mv fuzz-*.log "$work/" 2>/dev/null || true
	rm -rf "$kept.new" && mkdir -p "$kept.new"
	if "$bin" -merge=1 "$kept.new" "$kept" "$work/corpus" >"$work/merge.log" 2>&1 &&
			[ -n "$(ls -A "$kept.new")" ]; then
		# the regression inputs unit tests import (tests/winscope/meson.build) stay
		for f in $(grep -rhoE "'[0-9a-f]{40}'" tests --include=meson.build | tr -d "'" | sort -u); do
			[ -f "$kept/$f" ] && cp -n "$kept/$f" "$kept.new/"
		done
		rm -rf "$kept" && mv "$kept.new" "$kept"
		# inputs past 64 KB are the seeds themselves (kept by seeds.txt): not copied again
		find "$kept" -type f -size +64k -delete
	else
		rm -rf "$kept.new"
		echo "$name: merge failed, corpus left as it was (see $work/merge.log)"
	fi
	findings=$(ls "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$work"/leak-* 2>/dev/null | wc -l)
	echo "$name: $execs executions, $cov, $(ls "$kept" | wc -l) inputs kept ($(du -sh "$kept" | cut -f1)), $findings findings"
	[ "$findings" = 0 ] || status=1
done
exit $status
