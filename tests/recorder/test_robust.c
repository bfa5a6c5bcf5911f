/*
 * The recorder's robustness tests, deviceless: long sessions, a low fd limit, a stalled
 * trace reader, a misbehaving module, sanitizers, captures that never
 * complete. Each drives the test client (hwc2_client.c) on the fake module
 * (fake_hwc2.c) through libhwc-record.so; one meson test per case. Paths come from the
 * environment: HWCT_TEST_CLIENT, HWCT_TEST_FAKE, HWCT_TEST_RECORDER.
 */
#include "robust.h"
#include "testlib.h"

static const struct test_case cases[] = {
	{ "fd-leak", case_fd_leak },
	{ "fd-bound", case_fd_bound },
	{ "stall-no-reader", case_stall_no_reader },
	{ "stall-unread", case_stall_unread },
	{ "passthrough-errors", case_passthrough_errors },
	{ "passthrough-null-functions", case_passthrough_null },
	{ "sanitized", case_sanitized },
	{ "capture-late", case_capture_late },
	{ "capture-released", case_capture_released },
	{ "capture-acquire-late", case_capture_acquire_late },
	{ "background", case_background },
	{ "map-destroyed-layer", case_map_destroyed_layer },
	{ "fork-stacks", case_fork_stacks },
	{ "present-wakes", case_present_wakes },
	{ "present-wakes-sparse", case_present_wakes_sparse },
};

int main(int argc, char **argv)
{
	return test_main(argc, argv, cases, sizeof(cases) / sizeof(cases[0]));
}
