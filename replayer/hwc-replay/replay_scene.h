/*
 * The scene of one frame as hwc-replay shows it: frame_scene's layers
 * (images decoded only when pixels are wanted; otherwise images carry the
 * buffer's format and size with no data, which is all a planner reads),
 * layers without captured content replaced by a placeholder, and display
 * frames mapped into the target's mode (replay_map.h).
 *
 * Placeholder (docs/hwc-replay.1.scd, "MISSING CONTENT"): a layer whose
 * content was not captured (or whose blob is absent or too short) keeps its
 * buffer's format and size and is filled with opaque magenta (#ff00ff) when
 * the format is one the compositors read (RGBA/BGRA/RGBX/BGRX 8888, RGB565,
 * NV12, P010); otherwise, or without a Buffer record, it becomes a SOLID_COLOR
 * layer of that colour. Either way its id is listed as missing content.
 */
#ifndef HWCT_REPLAY_SCENE_H
#define HWCT_REPLAY_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/frame.h>
#include <hwct/reader.h>

#include "replay_fallback.h"
#include "replay_map.h"
#include "scene.h"

#define REPLAY_PLACEHOLDER_RGBA 0xffff00ffu	/* r | g << 8 | b << 16 | a << 24: opaque magenta */

struct replay_scene;

/*
 * Creates a builder reading blobs through r (borrowed; must outlive it).
 * pixels: decode content (else images have no data). NULL with errno.
 */
struct replay_scene *replay_scene_create(struct hwct_reader *r, bool pixels);

/* Frees rs. rs may be NULL. */
void replay_scene_destroy(struct replay_scene *rs);

/*
 * Builds frame f's scene, mapped by m, into *out. The ids of layers
 * without content go into *missing (count *missing_count). Everything
 * stays valid until the next call. Returns 0 or -errno (blob decoding:
 * the reader's error says what and where).
 */
int replay_scene_build(struct replay_scene *rs, const struct hwct_frame *f, const struct replay_map *m,
	struct scene *out, const uint64_t **missing, size_t *missing_count);

/*
 * Every later build substitutes formats with fb (borrowed, must outlive
 * rs; NULL: none, the default), after placeholders are made.
 */
void replay_scene_set_fallback(struct replay_scene *rs, struct replay_fallback *fb);

/* The substitutions of the last build into *subs (count *count; valid until the next build). */
void replay_scene_substitutions(const struct replay_scene *rs, const struct replay_substitution **subs,
	size_t *count);

#endif
