/* The KMS replay backend (backend_kms.c): a real atomic-KMS device. */
#ifndef HWCT_BACKEND_KMS_H
#define HWCT_BACKEND_KMS_H

#include <stdbool.h>
#include <stdint.h>

#include <hwct/error.h>

#include "backend.h"

struct backend_kms_options {
	const char *path;		/* /dev/dri/cardN; NULL: the first usable node */
	uint32_t width, height;		/* mode to set; 0: keep the connector's preferred mode */
	uint32_t refresh_hz;		/* 0: 60 */
	const struct planner_impl *planner;
	const struct planner_options *planner_opts;	/* NULL: defaults; copied */
	struct compositor *compositor;	/* composes client layers; borrowed, must outlive the backend */
	bool readback;			/* checksum every frame through the writeback connector */
};

/*
 * Opens the device and prepares planning, importing, composing and
 * readback. Returns the backend (backend_destroy), or NULL with err filled
 * (the node, the step and why; err may be NULL).
 */
struct backend *backend_kms_create(const struct backend_kms_options *opts, struct hwct_error *err);

/* The device's board (its planes and mode), owned by b; NULL for another backend. */
const struct board *backend_kms_board(struct backend *b);

#endif
