/* The cases of test-robust (test_robust.c), one file each. */
#ifndef HWCT_TEST_RECORDER_ROBUST_H
#define HWCT_TEST_RECORDER_ROBUST_H

int case_fd_leak(void);			/* test_fd_leak.c */
int case_fd_bound(void);		/* test_fd_bound.c */
int case_stall_no_reader(void);		/* test_stall.c */
int case_stall_unread(void);
int case_passthrough_errors(void);	/* test_passthrough.c */
int case_passthrough_null(void);
int case_sanitized(void);		/* test_sanitized.c */
int case_capture_late(void);		/* test_late.c */
int case_capture_released(void);	/* test_late.c */
int case_capture_acquire_late(void);	/* test_late.c */
int case_background(void);		/* test_background.c */
int case_map_destroyed_layer(void);	/* test_map_layer.c */
int case_fork_stacks(void);		/* test_fork_stacks.c */
int case_present_wakes(void);		/* test_wakes.c */
int case_present_wakes_sparse(void);

#endif
