/*
 * The bare atomic commit the KMS benchmarks measure against
 * (bench_kms_bare.c): a plan's configuration committed with
 * kms_commit_present as it is, its framebuffers imported once, no planning,
 * no composition, no readback (unless asked for). Shared by bench-kms and
 * bench-kms-replay.
 */
#ifndef HWCT_BENCH_KMS_H
#define HWCT_BENCH_KMS_H

#include <stdbool.h>
#include <stddef.h>

#include "backend_kms.h"
#include "planner.h"

struct bench_bare {
	struct kms_device *dev;		/* the backend's, borrowed */
	struct plan *plan;		/* owned: the configuration to commit */
	struct plan_candidate cand;
	struct kms_fb **fbs;		/* owned references, one per cand.planes entry */
	size_t count;			/* imported so far */
	struct kms_fb *client_target;	/* owned reference when cand.has_client_target, else NULL */
	struct kms_readback *readback;	/* owned; NULL: none (bench_bare_readback) */
};

/*
 * Plans scene on the backend b (backend_kms_plan, so that its TEST_ONLY
 * commits decide; a plan with no accepted configuration shows the client
 * target alone, as backend_kms_show does) and imports the plan's
 * framebuffers into bare. A client target, when the plan has one, is a
 * framebuffer of its size and format that is not composed (the commit's
 * cost does not depend on the pixels). planes_only: refuse (-EINVAL, said
 * on stderr) a plan with a client target. bare borrows b's device: destroy
 * b after bench_bare_finish. Returns 0 or -errno.
 */
int bench_bare_setup(struct bench_bare *bare, struct backend *b, const struct scene *scene, bool planes_only);

/*
 * From now on every bare frame also reads the frame back through the
 * writeback connector (readback.h), as hwc-replay --device does. Returns 0
 * or -errno (-ENOTSUP: no writeback connector).
 */
int bench_bare_readback(struct bench_bare *bare);

/*
 * One bare frame: kms_commit_present of the configuration, then the wait
 * for its present fence (and, after bench_bare_readback, for the writeback
 * and its checksum). *commit_ms gets the commit call's time, *wall_ms the
 * whole frame's. Returns 0 or -errno (said on stderr).
 */
int bench_bare_commit(struct bench_bare *bare, const struct scene *scene, double *commit_ms, double *wall_ms);

/* Releases what bare holds (after a failed setup too). */
void bench_bare_finish(struct bench_bare *bare);

#endif
