#!/usr/bin/env bash
# A long fuzz campaign, outside CI: runs each libFuzzer target (build-fuzz/,
# clang with ASan+UBSan, set up as scripts/test.sh step 4 does) for SECONDS
# (default 3600), JOBS targets at a time (default 1; one process each, so that
# every execution is counted in its run's log), starting from its seeds
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
# With --runs N a target runs until the runs kept in build-fuzz/campaign/TARGET
# count N executions (or for SECONDS, whichever comes first). Each run keeps
# its log there (run-TIME.log); a run cut short counts to its last status
# line, so a campaign stopped goes on where it was. An input is a hang after
# 600 s: libFuzzer's limit is wall-clock time and a campaign shares its
# machine (a run paused while a benchmark measures must not report its input).
# --merge-only runs nothing: it merges what the campaign's runs found into the
# kept corpus and prints the counts (after a campaign was stopped).
# Usage: scripts/fuzz-campaign.sh [--merge-only] [--runs N] [SECONDS] [JOBS] [TARGET...]
set -u
cd "$(dirname "$0")/.." || exit 2
. scripts/sanitizer-env.sh
runs=
merge_only=0
if [ "${1:-}" = --merge-only ]; then
	merge_only=1
	shift
fi
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
# executions of the runs whose logs are kept in $1 (a run cut short: its last status line)
kept_executions() {
	local run n total=0
	for run in "$1"/run-*.log; do
		[ -f "$run" ] || continue
		n=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$run" | grep -o '[0-9]*$' | awk '{ s += $1 } END { print s + 0 }')
		[ "$n" != 0 ] || n=$(grep -ao '^#[0-9]*' "$run" | tail -n 1 | tr -d '#')
		total=$((total + ${n:-0}))
	done
	echo "$total"
}

# campaign NAME: one target's run and merge; its status is its exit status
campaign() {
	local name=$1 bin work kept seed log left dict execs cov total findings status=0
	bin=build-fuzz/tests/fuzz/$name
	work=build-fuzz/campaign/$name
	kept=tests/fuzz/corpus/$name
	mkdir -p "$work/corpus" "$kept"
	for seed in $(awk -v t="$name" '$1 == t { $1 = ""; print }' tests/fuzz/seeds.txt); do
		cp -n $seed "$work/corpus"/ 2>/dev/null || true
	done
	log=$work/run-$(date +%Y%m%d-%H%M%S).log
	left=
	if [ -n "$runs" ] && [ "$merge_only" = 0 ]; then
		left=$((runs - $(kept_executions "$work")))
		if [ "$left" -le 0 ]; then
			echo "$name: $(kept_executions "$work") executions in the runs kept in $work: done"
			return 0
		fi
	fi
	dict=tests/fuzz/$name.dict
	[ "$merge_only" = 1 ] || "$bin" -max_total_time="$seconds" $([ -n "$left" ] && echo "-runs=$left") -timeout=600 -rss_limit_mb=2048 \
		-max_len=262144 -print_final_stats=1 -artifact_prefix="$work/" \
		$([ -f "$dict" ] && echo "-dict=$dict") "$work/corpus" "$kept" >"$log" 2>&1 || status=1
	execs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$log" 2>/dev/null | grep -o '[0-9]*$' |
		awk '{ s += $1 } END { print s + 0 }')
	cov=$(grep -ao 'cov: [0-9]*' "$log" 2>/dev/null | tail -1)
	total=$(kept_executions "$work")
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
	echo "$name: $execs executions ($total in the runs kept in $work), $cov, $(ls "$kept" | wc -l) inputs kept ($(du -sh "$kept" | cut -f1)), $findings findings"
	[ "$findings" = 0 ] || status=1
	return "$status"
}

# JOBS targets at a time
status=0
running=0
for name in "${targets[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n || status=1
		running=$((running - 1))
	fi
	campaign "$name" &
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	wait -n || status=1
	running=$((running - 1))
done
exit $status
