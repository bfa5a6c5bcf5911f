/* Pixel capture of a buffer call (capture.h). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>
/* Debian's libxxhash dispatches to AVX2/AVX-512 through this header (see format/hash.c) */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__has_include)
#if __has_include(<xxh_x86dispatch.h>)
#include <xxh_x86dispatch.h>
#endif
#endif

#include <hwct/format.h>
#include <hwct/writer.h>

#include "buffers.h"
#include "capture.h"
#include "config.h"
#include "fds.h"
#include "handle_cache.h"
#include "payload.h"
#include "recorder.h"
#include "sync_uapi.h"

#define MAX_WAIT_NS 2000000000ull	/* an acquire fence not signalled by then: late (or the wait, if longer) */
#define MAX_ARM_NS 1000000000ull	/* armed anyway after this long */
#define MAX_DAMAGE_RECTS 4096
#define FRAME_GUESS_NS 16666667u	/* a layer's first buffer: as if new every 60 Hz frame */

struct rec_capture *rec_capture_create(struct rec_event *ev, struct rec_handle *h, int fence_fd,
	struct rec_display_slot *slot, const struct rec_config *cfg)
{
	struct rec_capture *cap = calloc(1, sizeof(*cap));
	struct stat st;

	if (!cap) {
		return NULL;
	}
	cap->fd = -1;
	cap->release_fd = -1;
	cap->fence_fd = fence_fd;
	cap->slot = slot;
	cap->ticket = ev->ticket;
	cap->display = ev->display;
	cap->layer = ev->layer;
	cap->created_ns = rec_now_ns();
	cap->acquire_limit_ns = (uint64_t)cfg->capture_wait_ms * 1000000u;
	if (cap->acquire_limit_ns < MAX_WAIT_NS) {
		cap->acquire_limit_ns = MAX_WAIT_NS;
	}
	cap->client_target = ev->function == HWC2_FUNCTION_SET_CLIENT_TARGET;
	if (h) {
		cap->has_buffer = true;
		rec_handle_resolve(h);
		cap->fd = h->fd;
		h->fd = -1;
		if (cap->fd >= 0 && fstat(cap->fd, &st) == 0) {
			cap->buffer_id = (uint64_t)st.st_ino;
			cap->buffer_dev = (uint64_t)st.st_dev;
			cap->has_inode = true;
		} else if (h->ino) {
			cap->buffer_id = h->ino;
		} else {
			/* no fd to name it by: the handle's address, marked by the top bit */
			cap->buffer_id = h->ident | (1ull << 63);
		}
		cap->has_layout = rec_bufinfo_parse(h, &cap->layout);
		if (cap->has_layout) {
			cap->bytes = (uint64_t)cap->layout.planes[0].stride * cap->layout.height;
		}
	}
	if (!cap->ticket || !cap->has_buffer) {
		/* pixels off, budget 0, or a buffer the device writes (output, readback) */
		bool capturable = ev->function == HWC2_FUNCTION_SET_LAYER_BUFFER ||
			ev->function == HWC2_FUNCTION_SET_CLIENT_TARGET;

		cap->state = REC_CAPTURE_DONE;
		cap->status = capturable && cfg->pixels && cfg->budget_zero ? HWCT_CAPTURE_DROPPED :
			HWCT_CAPTURE_OFF;
	}
	return cap;
}

void rec_capture_free(struct rec_capture *cap)
{
	if (!cap) {
		return;
	}
	rec_fds_close(cap->fd);
	free(cap->damage);
	free(cap);
}

void rec_capture_arm(struct rec_capture *cap, const hwc_rect_t *damage, uint32_t count, bool has_damage)
{
	if (cap->state != REC_CAPTURE_WAIT_ARM) {
		return;
	}
	cap->state = REC_CAPTURE_ARMED;
	cap->armed_ns = rec_now_ns();
	cap->has_damage = has_damage;
	if (has_damage && count) {
		count = count < MAX_DAMAGE_RECTS ? count : MAX_DAMAGE_RECTS;
		cap->damage = malloc(count * sizeof(*damage));
		if (cap->damage) {
			memcpy(cap->damage, damage, count * sizeof(*damage));
			cap->damage_count = count;
		} else {
			cap->has_damage = false;
		}
	}
}

static bool fence_signalled(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return fd < 0 || (poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLERR | POLLHUP)));
}

static uint64_t fd_size(int fd)
{
	struct stat st;
	off_t cur, end;

	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		return (uint64_t)st.st_size;
	}
	/* dma-buf sizes come from lseek; the offset is shared with the owner's fd: put it back */
	cur = lseek(fd, 0, SEEK_CUR);
	end = lseek(fd, 0, SEEK_END);
	if (cur >= 0) {
		lseek(fd, cur, SEEK_SET);
	}
	return end > 0 ? (uint64_t)end : 0;
}

static void dma_buf_sync(int fd, uint64_t flags)
{
	struct rec_dma_buf_sync s = { .flags = flags | REC_DMA_BUF_SYNC_READ };

	/* memfds and other non-dma-buf fds answer ENOTTY: nothing to synchronize */
	while (ioctl(fd, REC_DMA_BUF_IOCTL_SYNC, &s) < 0 && (errno == EINTR || errno == EAGAIN)) {
	}
}

/*
 * One pass over the image (the packed payload: stride is its row): the hash
 * of every 64x64 tile (NULL when out of memory) and the content hash of the
 * whole payload, fed row by row.
 */
static uint64_t *tile_hashes(const uint8_t *data, uint32_t width, uint32_t height, uint32_t stride,
	uint32_t bpp, uint32_t *tx, uint32_t *ty, struct hwct_hash *full)
{
	XXH3_state_t *state = XXH3_createState();
	uint64_t *tiles;

	*tx = (width + REC_TILE - 1) / REC_TILE;
	*ty = (height + REC_TILE - 1) / REC_TILE;
	tiles = calloc((size_t)*tx * *ty, sizeof(*tiles));
	if (state) {
		XXH3_128bits_reset(state);
	}
	for (uint32_t y = 0; y < height; y++) {
		const uint8_t *row = data + (size_t)y * stride;
		uint64_t *t = tiles ? tiles + (size_t)(y / REC_TILE) * *tx : NULL;

		for (uint32_t x = 0; t && x < *tx; x++) {
			uint32_t x0 = x * REC_TILE, w = width - x0 < REC_TILE ? width - x0 : REC_TILE;

			/* unseeded (a seed re-derives the secret on every long input); rows mixed in order */
			t[x] = (t[x] << 31 | t[x] >> 33) * 0x9E3779B97F4A7C15ull ^
				XXH3_64bits(row + (size_t)x0 * bpp, (size_t)w * bpp);
		}
		if (state) {
			XXH3_128bits_update(state, row, stride);
		}
	}
	if (state) {
		XXH128_hash_t h = XXH3_128bits_digest(state);

		*full = (struct hwct_hash){ .high = h.high64, .low = h.low64 };
		XXH3_freeState(state);
	} else {
		*full = hwct_hash_compute(data, (size_t)stride * height);
	}
	return tiles;
}

static bool covered(const struct hwct_rect *t, const hwc_rect_t *rects, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (rects[i].left <= t->left && rects[i].top <= t->top && rects[i].right >= t->right &&
				rects[i].bottom >= t->bottom) {
			return true;
		}
	}
	return false;
}

/*
 * The rects of a delta against the buffer's stored content: the damage hint,
 * plus every changed tile the hint does not cover. NULL (no delta) when
 * there is no usable base or hint.
 */
static struct hwct_rect *delta_rects(const struct rec_capture *cap, const struct rec_buffer_state *bs,
	const uint64_t *tiles, uint32_t tx, uint32_t ty, uint32_t stride, uint32_t bpp, size_t *count)
{
	struct hwct_rect *rects;
	size_t n = 0;

	*count = 0;
	if (!cap->has_damage || !bs->has_content || !bs->tiles || !tiles || bs->tiles_x != tx ||
			bs->tiles_y != ty || bs->tile_stride != stride || bs->tile_bpp != bpp) {
		return NULL;
	}
	rects = calloc((size_t)cap->damage_count + (size_t)tx * ty + 1, sizeof(*rects));
	if (!rects) {
		return NULL;
	}
	for (uint32_t i = 0; i < cap->damage_count; i++) {
		const hwc_rect_t *d = &cap->damage[i];

		if (d->right > d->left && d->bottom > d->top) {
			rects[n++] = (struct hwct_rect){ d->left, d->top, d->right, d->bottom };
		}
	}
	for (uint32_t y = 0; y < ty; y++) {
		for (uint32_t x = 0; x < tx; x++) {
			struct hwct_rect t = {
				(int32_t)(x * REC_TILE), (int32_t)(y * REC_TILE),
				(int32_t)((x + 1) * REC_TILE), (int32_t)((y + 1) * REC_TILE),
			};

			if (t.right > (int32_t)cap->layout.width) {
				t.right = (int32_t)cap->layout.width;
			}
			if (t.bottom > (int32_t)cap->layout.height) {
				t.bottom = (int32_t)cap->layout.height;
			}
			if (tiles[(size_t)y * tx + x] == bs->tiles[(size_t)y * tx + x] ||
					covered(&t, cap->damage, cap->damage_count)) {
				continue;
			}
			/* extend the previous rect when it is the tile to the left */
			if (n && rects[n - 1].top == t.top && rects[n - 1].bottom == t.bottom &&
					rects[n - 1].right == t.left && x > 0) {
				rects[n - 1].right = t.right;
			} else {
				rects[n++] = t;
			}
		}
	}
	*count = n;
	return rects;
}

/* The hot path gave up waiting, or the buffer went back to its producer: its pixels may change. */
static bool given_up(const struct rec_capture *cap)
{
	return (cap->slot && cap->ticket <= atomic_load(&cap->slot->late)) || cap->released ||
		(cap->release_fd >= 0 && fence_signalled(cap->release_fd));
}

/*
 * The capture copy buffer, kept between captures: a fresh 10 MB allocation
 * per frame costs more in page faults than the copy itself.
 */
static uint8_t *scratch(struct rec_capture_ctx *ctx, size_t size)
{
	if (size > ctx->scratch_size) {
		rec_pages_free(ctx->scratch, ctx->scratch_size);
		ctx->scratch = rec_pages_alloc(size);
		ctx->scratch_size = ctx->scratch ? size : 0;
	}
	return ctx->scratch;
}

void rec_capture_ctx_release(struct rec_capture_ctx *ctx)
{
	rec_pages_free(ctx->scratch, ctx->scratch_size);
	ctx->scratch = NULL;
	ctx->scratch_size = 0;
	rec_map_cache_clear(&ctx->maps);
}

/*
 * Copies the buffer's content out of its mapping (one read of every plane,
 * all between one DMA_BUF_IOCTL_SYNC START and END: write-combined mappings
 * are slow to read twice, and everything after works on a copy no producer
 * can touch). Returns the copy (ctx's scratch buffer) or NULL with
 * cap->status set.
 */
static uint8_t *snapshot(struct rec_capture *cap, struct rec_capture_ctx *ctx, const struct rec_payload *pl)
{
	uint64_t map_len = pl->start + pl->span;
	const uint8_t *map;
	uint8_t *copy;

	cap->status = HWCT_CAPTURE_UNMAPPABLE;
	/* no inode to key a kept mapping by (fstat failed, as it never does on a buffer's fd): not read */
	if (!pl->size || map_len > fd_size(cap->fd) || map_len > SIZE_MAX / 2 || !cap->has_inode) {
		return NULL;
	}
	map = rec_map_cache_get(&ctx->maps, cap->fd, cap->buffer_dev, cap->buffer_id, (size_t)map_len, rec_now_ns());
	if (!map) {
		return NULL;
	}
	copy = scratch(ctx, (size_t)pl->size);
	if (copy) {
		dma_buf_sync(cap->fd, REC_DMA_BUF_SYNC_START);
		rec_payload_copy(pl, map, copy);
		dma_buf_sync(cap->fd, REC_DMA_BUF_SYNC_END);
	} else {
		cap->status = HWCT_CAPTURE_DROPPED;
		cap->dropped_bytes = pl->size;
	}
	return copy;
}

/*
 * Reads and stores the buffer; sets cap->status (and hash). Single-plane
 * content may be stored as a delta; multi-plane content (YUV) is stored
 * whole each time it changes (tiles and rects are plane-0 geometry), and,
 * as every blob, once per distinct hash.
 */
static void capture(struct rec_capture *cap, struct rec_capture_ctx *ctx)
{
	const struct rec_buffer_layout *l = &cap->layout;
	struct rec_payload pl;
	struct rec_buffer_state *bs;
	struct hwct_blob_desc desc;
	struct hwct_rect *rects = NULL;
	uint64_t *tiles = NULL;
	uint32_t tx = 0, ty = 0;
	size_t rect_count = 0;
	struct hwct_hash hash;
	uint8_t *data;
	int ret;

	cap->status = HWCT_CAPTURE_UNMAPPABLE;
	if (cap->fd < 0 || !cap->has_layout || !rec_payload_init(&pl, l)) {
		return;
	}
	data = snapshot(cap, ctx, &pl);
	if (!data) {
		return;
	}
	if (given_up(cap)) {
		return;	/* released while we read: maybe torn; the caller marks it late */
	}
	bs = rec_buffers_get(ctx->buffers, cap->buffer_id);
	if (pl.plane_count == 1) {
		tiles = tile_hashes(data, l->width, l->height, pl.stride, pl.bpp, &tx, &ty, &hash);
		rects = delta_rects(cap, bs, tiles, tx, ty, pl.stride, pl.bpp, &rect_count);
	} else {
		hash = hwct_hash_compute(data, (size_t)pl.size);
	}
	/* width, height, stride and bpp describe plane 0 (docs/format.md section 3.3) */
	desc = (struct hwct_blob_desc){
		.data = data,
		.size = (size_t)pl.size,
		.kind = HWCT_BLOB_PIXELS,
		.width = l->width,
		.height = l->height,
		.stride = pl.stride,
		.bpp = pl.bpp,
		.hash = &hash,
		.base = rects ? &bs->content : NULL,
		.damage = rects,
		.damage_count = rect_count,
	};
	ret = hwct_writer_add_blob(ctx->writer, &desc, 0, &hash);
	free(rects);
	if (ret < 0) {
		/* refused for the budget or the writer failed (counted when the call is written) */
		cap->status = HWCT_CAPTURE_DROPPED;
		cap->dropped_bytes = pl.size;
		bs->has_content = false;
		free(tiles);
		return;
	}
	cap->status = HWCT_CAPTURE_OK;
	cap->has_hash = true;
	cap->hash = hash;
	if (!bs->has_first_content) {
		bs->has_first_content = true;
		bs->first_content = hash;
	}
	bs->has_content = true;
	bs->content = hash;
	free(bs->tiles);
	bs->tiles = tiles;
	bs->tiles_x = tx;
	bs->tiles_y = ty;
	bs->tile_stride = pl.stride;
	bs->tile_bpp = pl.bpp;
}

static unsigned interval_class(const struct rec_capture *c)
{
	uint64_t ms = (c->interval_ns ? c->interval_ns : FRAME_GUESS_NS) / 1000000u;
	unsigned k = 0;

	while (ms > 1) {
		ms >>= 1;
		k++;
	}
	return k;
}

bool rec_capture_more_urgent(const struct rec_capture *a, const struct rec_capture *b)
{
	bool ra = a->release_fd >= 0, rb = b->release_fd >= 0;
	unsigned ca = interval_class(a), cb = interval_class(b);

	if (ra != rb) {
		return ra;
	}
	if (ca != cb) {
		return ca < cb;
	}
	return a->bytes < b->bytes;
}

static void make_late(struct rec_capture *cap, struct rec_capture_ctx *ctx)
{
	cap->state = REC_CAPTURE_DONE;
	cap->status = HWCT_CAPTURE_LATE;
	cap->has_hash = false;
	ctx->late++;
}

bool rec_capture_step(struct rec_capture *cap, struct rec_capture_ctx *ctx, bool force)
{
	uint64_t now;

	if (cap->state == REC_CAPTURE_DONE) {
		return true;
	}
	if (given_up(cap)) {
		make_late(cap, ctx);
		return true;
	}
	now = rec_now_ns();
	if (cap->state == REC_CAPTURE_WAIT_ARM && (force || now - cap->created_ns > MAX_ARM_NS)) {
		rec_capture_arm(cap, NULL, 0, false);
	}
	if (cap->state != REC_CAPTURE_ARMED) {
		return false;
	}
	if (!fence_signalled(cap->fence_fd)) {
		if (force || now - cap->armed_ns > cap->acquire_limit_ns) {
			make_late(cap, ctx);
			return true;
		}
		return false;
	}
	if (cap->fence_fd >= 0) {
		cap->fence_seen_ns = now;
	}
	capture(cap, ctx);
	cap->state = REC_CAPTURE_DONE;
	/* the hot path gave up while we read: the pixels may be torn */
	if (given_up(cap) && cap->status != HWCT_CAPTURE_OK) {
		make_late(cap, ctx);
	}
	return true;
}
