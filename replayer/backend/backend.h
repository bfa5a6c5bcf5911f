/*
 * Replay backends: where a scene is shown. One interface, three impls:
 *   "profile"  no device: the planner against a board profile, output by the
 *              software reference compositor (backend_profile.c);
 *   "kms"      an atomic-KMS device: planner with TEST_ONLY commits, client
 *              composition, commit with fences, writeback readback;
 *   "hwc2"     an HWC2 module driven the way SurfaceFlinger does.
 * Every present fills a backend_result: the plan with reasons, the output
 * checksum, timings.
 */
#ifndef HWCT_BACKEND_H
#define HWCT_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/hash.h>

#include "compositor.h"
#include "planner.h"
#include "scene.h"

struct backend;

#define BACKEND_NOTE_MAX 256

struct backend_result {
	struct plan *plan;		/* owned (plan_destroy); NULL when the backend has none */
	bool has_checksum;
	struct hwct_hash checksum;	/* backend_checksum() of the output image */
	const char *checksum_source;	/* "writeback", "reference", "client-target"; static */
	double efficiency;		/* 1 - client-composited pixels / all layer pixels */
	int64_t plan_ns, compose_ns, commit_ns, present_ns;	/* -1 unknown */
	unsigned format_fallbacks;	/* layers imported through a format conversion */
	struct comp_target image;	/* output image when asked for (data owned, free()), else data NULL */
	/*
	 * hwc2: layers whose composition after validate differs from the
	 * recorded decision, calls that returned an error, and the first of
	 * these in words ("" none). Reported, never fatal.
	 */
	uint32_t decisions_differ;
	uint32_t call_errors;
	char note[BACKEND_NOTE_MAX];
};

struct backend_impl {
	const char *name;
	/* Shows scene; fills out. Returns 0 or -errno. */
	int (*present)(struct backend *b, const struct scene *scene, bool want_image,
		struct backend_result *out);
	void (*destroy)(struct backend *b);
};

struct backend {
	const struct backend_impl *impl;
};

/* Shows scene through b. out is zeroed first. Returns 0 or -errno. */
int backend_present(struct backend *b, const struct scene *scene, bool want_image,
	struct backend_result *out);

/* Frees b. b may be NULL. */
void backend_destroy(struct backend *b);

/* Frees what r owns and zeroes it. */
void backend_result_finish(struct backend_result *r);

/* The output checksum of img: scene_frame_checksum (scene.h). */
struct hwct_hash backend_checksum(const struct comp_target *img);

/* 1 - (client-composited layer area) / (all layer area), clipped to the display. */
double backend_efficiency(const struct scene *scene, const struct plan *plan);

/*
 * The profile backend: plans on board (borrowed, must outlive it) with
 * planner, output composed by `reference` (a compositor, borrowed).
 * Returns NULL with errno on failure.
 */
struct backend *backend_profile_create(const struct board *board, const struct planner_impl *planner,
	const struct planner_options *opts, struct compositor *reference);

#endif
