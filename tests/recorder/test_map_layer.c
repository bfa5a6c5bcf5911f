/*
 * The recorder lets a destroyed layer's buffers go (capture_map.h): the
 * client records with pixels on, destroys its layers, then frees their
 * buffers as a producer does (unmapped, closed) and presents no frame
 * more. The recorder's kept mappings held some of those buffers (else the
 * case proves nothing); once the worker has written the destroyLayer calls
 * none may stay mapped. Without the rule they stayed until the next
 * capture, or the session's end.
 */
#include <stdio.h>

#include "robust.h"
#include "testlib.h"

int case_map_destroyed_layer(void)
{
	char out[600];
	/* presents wait for their captures: some of them certainly ran, whatever the load */
	const char *env[] = { out, "HWCT_PIXELS=1", "HWCT_CAPTURE_WAIT_MS=5000", NULL };
	const char *args[] = { "--small", "--frames", "8", "--map-check", NULL };
	struct test_client c;
	struct test_log log;
	const char *fact;
	int kept = -1, left = -1;

	test_output_env(out, sizeof(out));
	if (!test_client_run_log(&c, &log, env, args, true)) {
		return 0;
	}
	fact = test_log_fact(&log, "maps");
	CHECK(fact && sscanf(fact, "%d %d", &kept, &left) == 2, "no maps line in the log");
	fprintf(stderr, "destroyed layers' buffers: %d kept mapped by the recorder, %d left\n", kept, left);
	CHECK(kept > 0, "the recorder kept no mapping of the layers' buffers (%d): nothing to let go", kept);
	/* the client waits for them without a limit (a loaded worker may be slow): a recorder
	 * that keeps them makes this case time out in meson */
	CHECK(left == 0, "%d of the destroyed layers' freed buffers still mapped after destroyLayer", left);
	test_log_finish(&log);
	test_client_finish(&c);
	return 0;
}
