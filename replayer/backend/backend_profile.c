/*
 * The profile backend: no device. The planner decides against a board
 * profile; the output is the whole stack composed by the reference
 * compositor, which is what a correct board shows whatever its plan.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "fourcc.h"

#include "backend.h"

struct profile_backend {
	struct backend base;
	const struct board *board;
	const struct planner_impl *planner;
	struct planner_options opts;
	struct compositor *reference;
	struct board_tester tester;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static struct profile_backend *profile_from_backend(struct backend *b);

static int compose(struct profile_backend *p, const struct scene *scene, struct backend_result *out)
{
	const struct scene_layer **layers = calloc(scene->layer_count ? scene->layer_count : 1, sizeof(*layers));
	struct comp_target *img = &out->image;
	int64_t t0 = now_ns();
	int ret;

	if (!layers) {
		return -ENOMEM;
	}
	*img = (struct comp_target){ .fourcc = DRM_FORMAT_XRGB8888, .width = scene->width,
		.height = scene->height, .stride = scene->width * 4 };
	img->data = malloc((size_t)img->stride * img->height + 1);
	if (!img->data) {
		free(layers);
		return -ENOMEM;
	}
	for (size_t i = 0; i < scene->layer_count; i++) {
		layers[i] = &scene->layers[i];
	}
	ret = compositor_compose(p->reference, scene, layers, scene->layer_count, 0xff000000u, img);
	free(layers);
	out->compose_ns = now_ns() - t0;
	if (ret == 0) {
		out->has_checksum = true;
		out->checksum = backend_checksum(img);
		out->checksum_source = "reference";
	}
	return ret;
}

static int profile_present(struct backend *b, const struct scene *scene, bool want_image,
	struct backend_result *out)
{
	struct profile_backend *p = profile_from_backend(b);
	int64_t t0 = now_ns();
	int ret = planner_run(p->planner, &p->opts, p->board, scene, &p->tester, &out->plan);

	out->plan_ns = now_ns() - t0;
	if (ret < 0) {
		return ret;
	}
	if (out->plan->needs_client_target) {
		p->opts.flags &= ~PLANNER_DRMHWC_NO_CLIENT_TARGET;	/* it has one from now on */
	}
	out->efficiency = backend_efficiency(scene, out->plan);
	if (p->reference && scene->width && scene->height) {
		ret = compose(p, scene, out);
		if (!want_image) {
			free(out->image.data);
			out->image.data = NULL;
		}
	}
	return ret;
}

static void profile_destroy(struct backend *b)
{
	free(profile_from_backend(b));
}

static const struct backend_impl profile_impl = {
	.name = "profile",
	.present = profile_present,
	.destroy = profile_destroy,
};

static struct profile_backend *profile_from_backend(struct backend *b)
{
	/* checked downcast: only our impl's backends are profile backends */
	return b->impl == &profile_impl ? (struct profile_backend *)b : NULL;
}

struct backend *backend_profile_create(const struct board *board, const struct planner_impl *planner,
	const struct planner_options *opts, struct compositor *reference)
{
	struct profile_backend *p = calloc(1, sizeof(*p));

	if (!p) {
		return NULL;
	}
	p->base.impl = &profile_impl;
	p->board = board;
	p->planner = planner;
	if (opts) {
		p->opts = *opts;
	} else {
		planner_options_init(&p->opts);
	}
	p->reference = reference;
	p->tester = profile_tester(board);
	return &p->base;
}
