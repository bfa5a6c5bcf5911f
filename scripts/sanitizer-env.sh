# The sanitizer runtime options of every sanitized run, in one place: the
# unit suite under ASan+UBSan and the fuzz stage (scripts/test.sh), fuzz
# campaigns (scripts/fuzz-campaign.sh), corpus replays
# (scripts/fuzz-replay.sh) and the check that they make a report fatal
# (tests/sanitizers/ub-fatal.sh). Sourced: `. scripts/sanitizer-env.sh`
# exports ASAN_OPTIONS and UBSAN_OPTIONS (tests/README.md says why these).
#
# A sanitizer report is a finding: the first one stops the process.
#   halt_on_error=1   UBSan stops after its report instead of going on (its
#                     checks recover by default; the build's
#                     -fno-sanitize-recover=all stops them too, meson.build).
#                     ASan stops anyway; for ASan it only matters in a build
#                     with -fsanitize-recover=address.
#   abort_on_error=1  the stop is SIGABRT, not exit(1): a halted child cannot
#                     pass for a command that refused its input with status 1,
#                     and libFuzzer keeps the input (crash-*) as for any
#                     deadly signal. LeakSanitizer's report at exit aborts too.
#   detect_leaks=1    LeakSanitizer at exit (the x86-64 default, said).
# ASan and UBSan in one binary share their common flags (abort_on_error,
# detect_leaks, ...), UBSAN_OPTIONS read last: both lists set
# abort_on_error alike, and only ASAN_OPTIONS sets detect_leaks, so that a
# test can append detect_leaks=0 to ASAN_OPTIONS for one child
# (tests/recorder/test_lttng.sh, displays.py).
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
