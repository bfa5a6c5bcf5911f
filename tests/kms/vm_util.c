/* Helpers of the KMS device tests (vm_util.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <hardware/hwcomposer2.h>

#include "fence_wait.h"
#include "vm_util.h"

struct check_tally check_tally;

/* Byte of R, G, B, A in the test formats (little-endian DRM layouts); A -1 for X. */
static void layout(uint32_t fourcc, int *r, int *g, int *b, int *a)
{
	bool bgr = fourcc == DRM_FORMAT_ABGR8888 || fourcc == DRM_FORMAT_XBGR8888;

	*r = bgr ? 0 : 2;
	*g = 1;
	*b = bgr ? 2 : 0;
	*a = fourcc == DRM_FORMAT_ARGB8888 || fourcc == DRM_FORMAT_ABGR8888 ? 3 : -1;
}

static uint32_t mix(uint32_t seed, uint32_t x, uint32_t y)
{
	uint32_t h = x * 73856093u ^ y * 19349663u ^ seed * 83492791u;

	h ^= h >> 13;
	h *= 0x5bd1e995u;
	h ^= h >> 15;
	return h;
}

bool vt_image_make(struct vt_image *t, uint32_t fourcc, uint32_t width, uint32_t height,
	uint32_t seed, bool opaque)
{
	uint32_t stride = width * 4 + 20;	/* padded, to test stride handling */
	int r, g, b, a;

	memset(t, 0, sizeof(*t));
	t->pixels = malloc((size_t)stride * height);
	if (!t->pixels) {
		return false;
	}
	layout(fourcc, &r, &g, &b, &a);
	for (uint32_t y = 0; y < height; y++) {
		memset(t->pixels + (size_t)y * stride + width * 4, 0xee, stride - width * 4);
		for (uint32_t x = 0; x < width; x++) {
			uint8_t *p = t->pixels + (size_t)y * stride + x * 4;
			uint32_t h = mix(seed, x, y);
			uint32_t alpha = opaque || a < 0 ? 255 : h & 0xff;

			/* premultiplied: colour <= alpha */
			p[r] = (uint8_t)(((h >> 8) & 0xff) * alpha / 255);
			p[g] = (uint8_t)(((h >> 16) & 0xff) * alpha / 255);
			p[b] = (uint8_t)(((h >> 24) & 0xff) * alpha / 255);
			p[a >= 0 ? a : 3] = a >= 0 ? (uint8_t)alpha : 0x5a;	/* X: garbage */
		}
	}
	t->img = (struct scene_image){ .fourcc = fourcc, .modifier = DRM_FORMAT_MOD_LINEAR,
		.width = width, .height = height, .plane_count = 1, .stride = { stride },
		.data = t->pixels, .size = (size_t)stride * height };
	t->img.hash = hwct_hash_compute(t->pixels, t->img.size);
	return true;
}

void vt_image_free(struct vt_image *t)
{
	free(t->pixels);
	memset(t, 0, sizeof(*t));
}

/* Pixel (x, y) of t as premultiplied 8-bit channels. */
static void read_pixel(const struct vt_image *t, uint32_t x, uint32_t y, uint32_t c[4])
{
	const uint8_t *p = t->img.data + (size_t)y * t->img.stride[0] + x * 4;
	int r, g, b, a;

	layout(t->img.fourcc, &r, &g, &b, &a);
	c[0] = a >= 0 ? p[a] : 255;
	c[1] = p[r];
	c[2] = p[g];
	c[3] = p[b];
}

static uint32_t div_round(uint32_t x, uint32_t d)
{
	return (x + d / 2) / d;
}

void vt_reference(const struct vt_layer *layers, size_t count, uint8_t *out)
{
	for (uint32_t y = 0; y < VT_HEIGHT; y++) {
		for (uint32_t x = 0; x < VT_WIDTH; x++) {
			uint32_t acc[4] = { 0xffff, 0, 0, 0 };	/* a, r, g, b */
			uint8_t *o = out + ((size_t)y * VT_WIDTH + x) * 4;

			for (size_t i = 0; i < count; i++) {
				const struct vt_layer *l = &layers[i];
				int64_t lx = (int64_t)x - l->x, ly = (int64_t)y - l->y;
				uint32_t src[4];

				if (lx < 0 || ly < 0 || lx >= l->image->img.width ||
					ly >= l->image->img.height) {
					continue;
				}
				read_pixel(l->image, (uint32_t)lx, (uint32_t)ly, src);
				for (int c = 1; c < 4; c++) {
					acc[c] = div_round(src[c] * 257 * 0xffff +
						acc[c] * (0xffff - src[0] * 257), 0xffff);
				}
			}
			o[0] = (uint8_t)div_round(acc[3], 257);
			o[1] = (uint8_t)div_round(acc[2], 257);
			o[2] = (uint8_t)div_round(acc[1], 257);
			o[3] = 0xff;
		}
	}
}

bool vt_compare(const struct kms_readback_result *res, const uint8_t *ref, const char *what)
{
	struct hwct_hash want = hwct_hash_compute(ref, (size_t)VT_WIDTH * VT_HEIGHT * 4);
	char got_hex[HWCT_HASH_HEX], want_hex[HWCT_HASH_HEX];

	if (hwct_hash_equal(&res->checksum, &want)) {
		printf("%s: checksum %s matches the CPU reference\n", what,
			hwct_hash_to_hex(&want, want_hex));
		return true;
	}
	CHECK(false, "%s: checksum %s, CPU reference %s", what,
		hwct_hash_to_hex(&res->checksum, got_hex), hwct_hash_to_hex(&want, want_hex));
	for (size_t i = 0; res->pixels && i < (size_t)VT_WIDTH * VT_HEIGHT; i++) {
		if (memcmp(res->pixels + i * 4, ref + i * 4, 4) != 0) {
			const uint8_t *g = res->pixels + i * 4, *w = ref + i * 4;

			fprintf(stderr, "  first difference at (%zu,%zu): read %02x%02x%02x%02x, "
				"reference %02x%02x%02x%02x (XRGB)\n", i % VT_WIDTH, i / VT_WIDTH,
				g[3], g[2], g[1], g[0], w[3], w[2], w[1], w[0]);
			break;
		}
	}
	return false;
}

double vt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

bool vt_setup(struct vt_ctx *ctx, const char *path)
{
	const struct board *board;
	struct hwct_error err;

	memset(ctx, 0, sizeof(*ctx));
	ctx->dev = kms_device_open(path, &err);
	if (!CHECK(ctx->dev != NULL, "kms_device_open: %s", err.message) ||
		!CHECK(kms_device_set_mode(ctx->dev, VT_WIDTH, VT_HEIGHT, 60, &err) == 0,
			"kms_device_set_mode: %s", err.message)) {
		return false;
	}
	board = kms_device_board(ctx->dev);
	for (size_t i = 0; i < board->plane_count; i++) {
		const struct board_plane *p = &board->planes[i];

		if (p->type == BOARD_PLANE_PRIMARY && !ctx->primary) {
			ctx->primary = p->id;
		} else if (p->type == BOARD_PLANE_CURSOR && !ctx->cursor) {
			ctx->cursor = p->id;
		} else if (p->type == BOARD_PLANE_OVERLAY && ctx->overlay_count < 8) {
			ctx->overlays[ctx->overlay_count++] = p->id;
		}
	}
	ctx->cache = kms_fb_cache_create(16);
	ctx->rb = kms_readback_create(ctx->dev, &err);
	printf("device %s (%s), mode %dx%d, primary %u, %zu overlays, cursor %u\n",
		kms_device_path(ctx->dev), kms_device_driver(ctx->dev), VT_WIDTH, VT_HEIGHT,
		ctx->primary, ctx->overlay_count, ctx->cursor);
	return CHECK(ctx->cache != NULL, "out of memory") &&
		CHECK(ctx->rb != NULL, "kms_readback_create: %s", err.message) &&
		CHECK(ctx->primary && ctx->overlay_count >= 2, "need a primary and 2 overlays");
}

void vt_teardown(struct vt_ctx *ctx)
{
	kms_readback_destroy(ctx->rb);
	kms_fb_cache_destroy(ctx->cache);
	kms_device_destroy(ctx->dev);
	memset(ctx, 0, sizeof(*ctx));
}

bool vt_frame_build(struct vt_ctx *ctx, struct vt_frame *f, const struct vt_layer *layers,
	size_t count)
{
	const struct board *board = kms_device_board(ctx->dev);

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < count && i < VT_MAX_LAYERS; i++) {
		const struct vt_layer *l = &layers[i];
		const struct scene_image *img = &l->image->img;
		uint32_t w = l->w ? l->w : img->width, h = l->h ? l->h : img->height;
		int ret = kms_fb_import(ctx->dev, ctx->cache, img, board_find_plane(board, l->plane_id),
			l->opaque, &f->imports[i]);

		if (!CHECK(ret == 0, "import of layer %zu for plane %u: %s", i, l->plane_id,
			strerror(-ret))) {
			vt_frame_finish(f);
			return false;
		}
		f->fbs[i] = f->imports[i].fb;
		f->count++;
		f->layers[i] = (struct scene_layer){ .id = i + 1, .z = (int32_t)i,
			.composition = HWC2_COMPOSITION_DEVICE, .image = img,
			.crop = { 0, 0, (float)img->width, (float)img->height },
			.frame = { l->x, l->y, l->x + (int32_t)w, l->y + (int32_t)h },
			.blend = l->opaque ? HWC2_BLEND_MODE_NONE : HWC2_BLEND_MODE_PREMULTIPLIED,
			.alpha = 1.0f, .acquire_fence = l->acquire_fence };
		f->states[i] = (struct plan_plane_state){ .plane_id = l->plane_id, .layer = i,
			.fourcc = f->imports[i].fourcc, .modifier = DRM_FORMAT_MOD_LINEAR,
			.fb_width = img->width, .fb_height = img->height,
			.src_w = img->width << 16, .src_h = img->height << 16,
			.crtc_x = l->x, .crtc_y = l->y, .crtc_w = w, .crtc_h = h,
			.rotation = BOARD_ROTATE_0, .alpha = 0xffff };
	}
	f->scene = (struct scene){ .width = VT_WIDTH, .height = VT_HEIGHT, .layers = f->layers,
		.layer_count = f->count };
	f->cand = (struct plan_candidate){ .count = f->count, .planes = f->states };
	return true;
}

void vt_frame_finish(struct vt_frame *f)
{
	for (size_t i = 0; i < f->count; i++) {
		kms_fb_unref(f->fbs[i]);
	}
	f->count = 0;
}

struct kms_commit_args vt_frame_args(struct vt_ctx *ctx, const struct vt_frame *f, bool readback)
{
	return (struct kms_commit_args){ .cand = &f->cand, .fbs = f->fbs, .scene = &f->scene,
		.client_target_fence = -1, .readback = readback ? ctx->rb : NULL };
}

bool vt_present_and_check(struct vt_ctx *ctx, const struct vt_frame *f,
	const struct vt_layer *layers, size_t count, const char *what)
{
	struct kms_commit_args args = vt_frame_args(ctx, f, true);
	struct kms_readback_result res;
	uint8_t *ref = malloc((size_t)VT_WIDTH * VT_HEIGHT * 4);
	int fence = -1, ret;
	bool ok;

	ret = kms_commit_present(ctx->dev, &args, &fence);
	ok = CHECK(ref != NULL, "out of memory") &&
		CHECK(ret == 0, "%s: present: %s", what, strerror(-ret)) &&
		CHECK(fence >= 0, "%s: no present fence", what) &&
		CHECK(hwct_fence_wait(fence, VT_FENCE_MS) == 0, "%s: present fence did not signal",
			what);
	if (fence >= 0) {
		close(fence);
	}
	if (ok) {
		ret = kms_readback_finish(ctx->rb, VT_FENCE_MS, true, &res);
		ok = CHECK(ret == 0, "%s: readback: %s", what, strerror(-ret));
	}
	if (ok) {
		vt_reference(layers, count, ref);
		ok = vt_compare(&res, ref, what);
		kms_readback_result_finish(&res);
	}
	free(ref);
	return ok;
}
