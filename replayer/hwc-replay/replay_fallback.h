/*
 * --format-fallback equivalent: a layer whose buffer format no plane of the
 * board scans out is given the byte-order-equivalent format (ABGR8888 <->
 * ARGB8888, XBGR8888 <-> XRGB8888, and the same for the 2101010 formats)
 * when some plane takes that one. The same bits in another channel order:
 * the pixels are converted (red and blue exchanged) so that the layer looks
 * the same, and every substitution is reported per layer. What a real HWC2
 * does instead is send the layer to the client (reason "format"), which is
 * the default (--format-fallback none). docs/hwc-replay.1.scd, "FORMAT
 * FALLBACK".
 */
#ifndef HWCT_REPLAY_FALLBACK_H
#define HWCT_REPLAY_FALLBACK_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "scene.h"

/* One layer given another format. */
struct replay_substitution {
	uint64_t layer;			/* hwc2_layer_t */
	uint32_t from, to;		/* DRM_FORMAT_* */
};

struct replay_fallback;

/*
 * The byte-order-equivalent of fourcc (ABGR8888 -> ARGB8888, ...), or 0
 * when it has none.
 */
uint32_t replay_fallback_equivalent(uint32_t fourcc);

/*
 * Writes src's pixels in format to (replay_fallback_equivalent of
 * src->fourcc) into dst, which has src->size bytes and src's layout.
 * Returns 0, or -EINVAL when to is not src's equivalent.
 */
int replay_fallback_convert(const struct scene_image *src, uint32_t to, uint8_t *dst);

/*
 * Creates the fallback for board (borrowed; must outlive it). NULL with
 * errno ENOMEM.
 */
struct replay_fallback *replay_fallback_create(const struct board *board);

/* Frees fb and the converted images it holds. fb may be NULL. */
void replay_fallback_destroy(struct replay_fallback *fb);

/*
 * Substitutes formats in layers (count entries, a scene's layers under
 * construction): a layer with an image whose format no usable plane of the
 * board has, and whose equivalent one has, gets an image in the equivalent
 * format (converted pixels when the image has data, else the shape only).
 * The images stay valid until the next call. *subs (count *sub_count,
 * owned by fb, valid until the next call) lists what was changed. Returns
 * 0 or -ENOMEM (layers then unchanged from the failing one on).
 */
int replay_fallback_apply(struct replay_fallback *fb, struct scene_layer *layers, size_t count,
	const struct replay_substitution **subs, size_t *sub_count);

#endif
