/* The bare atomic commit of the KMS benchmarks (bench_kms.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>

#include "bench.h"
#include "bench_kms.h"
#include "commit.h"
#include "device.h"
#include "fb.h"
#include "fence_wait.h"
#include "readback.h"

#define FENCE_MS 3000

int bench_bare_setup(struct bench_bare *bare, struct backend *b, const struct scene *scene, bool planes_only)
{
	const struct board *board = backend_kms_board(b);
	int ret;

	memset(bare, 0, sizeof(*bare));
	bare->dev = backend_kms_device(b);
	ret = backend_kms_plan(b, scene, &bare->plan);
	if (ret < 0) {
		return ret;
	}
	if (!plan_get_candidate(bare->plan, &bare->cand)) {
		/* no accepted configuration: the client target alone, as backend_kms_show does */
		struct planner_options opts;

		planner_options_init(&opts);
		bare->cand = (struct plan_candidate){ .has_client_target = true };
		ret = plan_client_only_candidate(board, scene, &opts, &bare->cand.client_target);
		if (ret < 0) {
			return ret;
		}
	}
	if (planes_only && bare->cand.has_client_target) {
		fprintf(stderr, "bench: the scene is not all on planes here\n");
		return -EINVAL;
	}
	bare->fbs = calloc(bare->cand.count + 1, sizeof(*bare->fbs));
	if (!bare->fbs) {
		return -ENOMEM;
	}
	for (size_t i = 0; i < bare->cand.count; i++) {
		const struct plan_plane_state *s = &bare->cand.planes[i];
		const struct scene_layer *l = &scene->layers[s->layer];
		struct kms_import imp;

		if (!l->image) {
			fprintf(stderr, "bench: layer %zu is a solid fill on a plane\n", s->layer);
			return -EINVAL;
		}
		ret = kms_fb_import(bare->dev, NULL, l->image, board_find_plane(board, s->plane_id),
			l->blend == HWC2_BLEND_MODE_NONE, &imp);
		if (ret < 0) {
			return ret;
		}
		bare->fbs[bare->count++] = imp.fb;
	}
	if (bare->cand.has_client_target) {
		const struct plan_plane_state *ct = &bare->cand.client_target;

		ret = kms_fb_create(bare->dev, ct->fb_width, ct->fb_height, ct->fourcc, &bare->client_target);
	}
	return ret;
}

int bench_bare_readback(struct bench_bare *bare)
{
	struct hwct_error err;

	bare->readback = kms_readback_create(bare->dev, &err);
	if (!bare->readback) {
		fprintf(stderr, "bench: %s\n", err.message);
		return err.code ? err.code : -ENOTSUP;
	}
	return 0;
}

int bench_bare_commit(struct bench_bare *bare, const struct scene *scene, double *commit_ms, double *wall_ms)
{
	struct kms_commit_args args = { .cand = &bare->cand, .fbs = bare->fbs, .scene = scene,
		.client_target = bare->client_target, .client_target_fence = -1, .readback = bare->readback };
	struct kms_readback_result rb;
	double t0 = bench_now(), t1;
	int fence = -1;
	int ret = kms_commit_present(bare->dev, &args, &fence);

	t1 = bench_now();
	if (ret < 0 || fence < 0) {
		fprintf(stderr, "bench: kms_commit_present: %s\n", strerror(ret < 0 ? -ret : EIO));
		return ret < 0 ? ret : -EIO;
	}
	hwct_fence_wait(fence, FENCE_MS);
	close(fence);
	if (bare->readback) {
		ret = kms_readback_finish(bare->readback, FENCE_MS, false, &rb);
		if (ret < 0) {
			fprintf(stderr, "bench: kms_readback_finish: %s\n", strerror(-ret));
			return ret;
		}
		kms_readback_result_finish(&rb);
	}
	*commit_ms = (t1 - t0) * 1e3;
	*wall_ms = (bench_now() - t0) * 1e3;
	return 0;
}

void bench_bare_finish(struct bench_bare *bare)
{
	kms_readback_destroy(bare->readback);
	for (size_t i = 0; i < bare->count; i++) {
		kms_fb_unref(bare->fbs[i]);
	}
	kms_fb_unref(bare->client_target);
	free(bare->fbs);
	plan_destroy(bare->plan);
	memset(bare, 0, sizeof(*bare));
}
