/*
 * gbm_create_device without Mesa's loader chatter (kms_private.h). On a
 * display-only driver such as vkms, Mesa's loader looks for a
 * "<driver>_dri.so" that does not exist and prints "MESA-LOADER: failed to
 * open vkms ...", "failed to load driver: vkms", "kmsro: driver missing"
 * on stderr before falling back to its software path, which works. Those
 * lines are noise to a hwc-replay user; they are captured while the device
 * is created and passed on at debug level.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <gbm.h>
#include <hwct/log.h>

#include "kms_private.h"

#define CHATTER_MAX 4096	/* bytes of captured text passed on */

/* Passes the lines of the temporary file f (captured stderr) to the log at debug level. */
static void pass_on(FILE *f)
{
	char line[512];
	size_t total = 0;

	rewind(f);
	while (total < CHATTER_MAX && fgets(line, sizeof(line), f)) {
		total += strlen(line);
		line[strcspn(line, "\n")] = '\0';
		hwct_log(HWCT_LOG_DEBUG, "gbm: %s", line);
	}
}

struct gbm_device *kms_gbm_create_quiet(int fd)
{
	struct gbm_device *gbm;
	FILE *capture = tmpfile();
	int saved = -1, saved_errno;

	fflush(stderr);
	if (capture) {
		saved = dup(STDERR_FILENO);
	}
	if (saved >= 0 && dup2(fileno(capture), STDERR_FILENO) < 0) {
		close(saved);
		saved = -1;
	}
	gbm = gbm_create_device(fd);
	saved_errno = errno;
	if (saved >= 0) {
		fflush(stderr);
		dup2(saved, STDERR_FILENO);
		close(saved);
		pass_on(capture);
	}
	if (capture) {
		fclose(capture);
	}
	errno = saved_errno;
	return gbm;
}
