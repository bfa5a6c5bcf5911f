/*
 * Buffer-info plug-ins: what a gralloc's buffer_handle_t says about the
 * buffer (size, format, modifier, planes). One implementation per allocator
 * behind struct rec_bufinfo_impl; each checks magic, numFds/numInts and the
 * sanity of every field before it claims a handle, because the ints of a
 * handle are the allocator's private layout and differ between forks.
 */
#ifndef REC_BUFINFO_H
#define REC_BUFINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"

#define REC_MAX_PLANES 4
#define REC_MAX_DIMENSION 16384

struct rec_buffer_layout {
	const char *allocator;		/* Buffer.allocator: "gbm_gralloc", "cros_gralloc", "hwct-test" */
	uint32_t width, height;		/* pixels */
	bool has_hal_format, has_modifier, has_usage;
	int32_t hal_format;		/* HAL_PIXEL_FORMAT_* */
	uint32_t drm_format;		/* DRM fourcc, 0 unknown */
	uint64_t modifier;		/* DRM format modifier */
	uint64_t usage;			/* gralloc usage bits */
	uint32_t plane_count;
	struct {
		uint32_t offset;	/* bytes from the start of the fd */
		uint32_t stride;	/* bytes per row */
	} planes[REC_MAX_PLANES];
};

struct rec_bufinfo_impl {
	const char *name;
	/* Fills out and returns true when the handle is one of this allocator's. */
	bool (*parse)(const struct rec_handle *h, struct rec_buffer_layout *out);
};

extern const struct rec_bufinfo_impl rec_bufinfo_test;		/* bufinfo_test.c */
extern const struct rec_bufinfo_impl rec_bufinfo_gbm_gralloc;	/* bufinfo_gralloc.c */
extern const struct rec_bufinfo_impl rec_bufinfo_cros;		/* bufinfo_cros.c */

/* Asks each plug-in in turn; false when none recognizes the handle. */
bool rec_bufinfo_parse(const struct rec_handle *h, struct rec_buffer_layout *out);

/*
 * Bytes per pixel of a single-plane RGB DRM format, 0 for others (bufinfo.c):
 * gbm_gralloc's stride check. What a capture reads of a format is
 * <hwct/picture.h>'s.
 */
uint32_t rec_drm_format_bpp(uint32_t fourcc);

/* DRM fourcc of a HAL_PIXEL_FORMAT_* (as gbm_gralloc maps them), 0 unknown. */
uint32_t rec_hal_to_drm_format(int32_t hal_format);

/* Whether fourcc looks like a DRM fourcc (four printable characters). */
bool rec_is_fourcc(uint32_t v);

/* The int at data[index] of a handle snapshot, false when it was not copied. */
bool rec_handle_int(const struct rec_handle *h, int32_t index, uint32_t *out);

#define REC_FOURCC(a, b, c, d) \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) | ((uint32_t)(d) << 24))

#define REC_DRM_FORMAT_MOD_LINEAR 0ull
#define REC_DRM_FORMAT_MOD_INVALID 0x00ffffffffffffffull

#endif
