/* The device tests' layer stacks and image comparison (vm_stack.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <drm_fourcc.h>
#include <hardware/hwcomposer2.h>

#include "vm_stack.h"

#define XR24 DRM_FORMAT_XRGB8888
#define AR24 DRM_FORMAT_ARGB8888
#define NV12 DRM_FORMAT_NV12
#define DEV HWC2_COMPOSITION_DEVICE
#define PRE HWC2_BLEND_MODE_PREMULTIPLIED
#define NONE HWC2_BLEND_MODE_NONE

/* x, y, w, h as a frame */
#define AT(x, y, w, h) { (x), (y), (x) + (w), (y) + (h) }

/* A full-screen opaque background, then four opaque ARGB8888 layers (overlapping). */
static const struct vs_stack rgba5 = {
	"rgba5", "5 opaque layers: XRGB8888 full screen + 4 ARGB8888 (primary + overlays)", 5, {
		{ XR24, VS_WIDTH, VS_HEIGHT, 1, false, AT(0, 0, VS_WIDTH, VS_HEIGHT), 0, NONE, 1.0f, DEV, 0 },
		{ AR24, 64, 48, 2, false, AT(10, 10, 64, 48), 0, PRE, 1.0f, DEV, 0 },
		{ AR24, 80, 60, 3, false, AT(50, 40, 80, 60), 0, PRE, 1.0f, DEV, 0 },
		{ AR24, 48, 48, 4, false, AT(150, 20, 48, 48), 0, PRE, 1.0f, DEV, 0 },
		{ AR24, 96, 64, 5, false, AT(120, 100, 96, 64), 0, PRE, 1.0f, DEV, 0 },
	},
};

/* What vkms 6.1 cannot scan out: a scaled, a rotated and an NV12 layer, plus a plain one. */
static const struct vs_stack refuse = {
	"refuse", "scaled (2x), rotated (90), NV12 and a plain ARGB8888 layer over a background", 5, {
		{ XR24, VS_WIDTH, VS_HEIGHT, 11, false, AT(0, 0, VS_WIDTH, VS_HEIGHT), 0, NONE, 1.0f, DEV, 0 },
		{ AR24, 48, 32, 12, false, AT(8, 8, 96, 64), 0, PRE, 1.0f, DEV, 0 },
		{ AR24, 64, 40, 13, false, AT(150, 10, 40, 64), HAL_TRANSFORM_ROT_90, PRE, 1.0f, DEV, 0 },
		{ NV12, 64, 48, 14, false, AT(30, 120, 64, 48), 0, NONE, 1.0f, DEV, 0 },
		{ AR24, 40, 40, 15, false, AT(200, 140, 40, 40), 0, PRE, 1.0f, DEV, 0 },
	},
};

/* Blending: translucent premultiplied layers on planes, plane alpha and coverage for the client. */
static const struct vs_stack translucent = {
	"translucent", "translucent ARGB8888 layers (planes), plane alpha 0.5 and a solid colour (client)", 5, {
		{ XR24, VS_WIDTH, VS_HEIGHT, 21, false, AT(0, 0, VS_WIDTH, VS_HEIGHT), 0, NONE, 1.0f, DEV, 0 },
		{ AR24, 96, 80, 22, true, AT(20, 20, 96, 80), 0, PRE, 1.0f, DEV, 0 },
		{ AR24, 96, 80, 23, true, AT(70, 60, 96, 80), 0, PRE, 0.5f, DEV, 0 },
		{ 0, 0, 0, 0, false, AT(140, 30, 60, 50), 0, PRE, 1.0f, HWC2_COMPOSITION_SOLID_COLOR, 0x80402000 },
		{ AR24, 64, 64, 25, true, AT(180, 110, 64, 64), 0, PRE, 1.0f, DEV, 0 },
	},
};

/* Planes and client composition in one frame: a CLIENT-requested layer and a solid colour on top. */
static const struct vs_stack mixed = {
	"mixed", "background + 2 opaque ARGB8888 (planes) + a CLIENT-requested translucent layer + a solid colour", 5, {
		{ XR24, VS_WIDTH, VS_HEIGHT, 31, false, AT(0, 0, VS_WIDTH, VS_HEIGHT), 0, NONE, 1.0f, DEV, 0 },
		{ AR24, 64, 48, 32, false, AT(16, 16, 64, 48), 0, PRE, 1.0f, DEV, 0 },
		{ AR24, 80, 60, 33, false, AT(140, 24, 80, 60), 0, PRE, 1.0f, DEV, 0 },
		{ AR24, 96, 64, 34, true, AT(60, 90, 96, 64), 0, PRE, 1.0f, HWC2_COMPOSITION_CLIENT, 0 },
		{ 0, 0, 0, 0, false, AT(170, 120, 50, 40), 0, PRE, 1.0f, HWC2_COMPOSITION_SOLID_COLOR, 0xff3060c0 },
	},
};

const struct vs_stack *const vs_stacks[] = { &rgba5, &refuse, &translucent, &mixed, NULL };

const struct vs_stack *vs_stack_find(const char *name)
{
	for (size_t i = 0; name && vs_stacks[i]; i++) {
		if (strcmp(vs_stacks[i]->name, name) == 0) {
			return vs_stacks[i];
		}
	}
	return NULL;
}

void vs_layout(const struct vs_layer *l, uint32_t pad, uint32_t stride[2], uint32_t offset[2],
	size_t *size)
{
	stride[1] = offset[1] = 0;
	if (l->fourcc == NV12) {
		stride[0] = (l->width + 1) / 2 * 2 + pad;
		stride[1] = stride[0];
		offset[0] = 0;
		offset[1] = stride[0] * l->height;
		*size = (size_t)offset[1] + (size_t)stride[1] * ((l->height + 1) / 2);
		return;
	}
	stride[0] = l->width * 4 + pad;
	offset[0] = 0;
	*size = (size_t)stride[0] * l->height;
}

static uint32_t mix(uint32_t seed, uint32_t x, uint32_t y)
{
	uint32_t h = x * 73856093u ^ y * 19349663u ^ seed * 83492791u;

	h ^= h >> 13;
	h *= 0x5bd1e995u;
	h ^= h >> 15;
	return h;
}

void vs_fill(const struct vs_layer *l, uint32_t frame, uint8_t *data, const uint32_t stride[2],
	const uint32_t offset[2])
{
	uint32_t seed = l->seed * 131u + frame * 7919u;
	bool bgr = l->fourcc == DRM_FORMAT_ABGR8888;

	if (l->fourcc == NV12) {
		for (uint32_t y = 0; y < l->height; y++) {
			for (uint32_t x = 0; x < l->width; x++) {
				data[offset[0] + (size_t)y * stride[0] + x] =
					(uint8_t)(16 + (mix(seed, x, y) & 0xff) * 219 / 255);
			}
		}
		for (uint32_t y = 0; y < (l->height + 1) / 2; y++) {
			for (uint32_t x = 0; x < (l->width + 1) / 2; x++) {
				uint32_t h = mix(seed + 1, x, y);
				uint8_t *p = data + offset[1] + (size_t)y * stride[1] + x * 2;

				p[0] = (uint8_t)(16 + (h & 0xff) * 224 / 255);
				p[1] = (uint8_t)(16 + ((h >> 8) & 0xff) * 224 / 255);
			}
		}
		return;
	}
	for (uint32_t y = 0; y < l->height; y++) {
		for (uint32_t x = 0; x < l->width; x++) {
			uint8_t *p = data + offset[0] + (size_t)y * stride[0] + x * 4;
			uint32_t h = mix(seed, x / 2, y / 2);	/* 2x2 blocks: scaling stays readable */
			uint32_t a = l->translucent ? (h & 0xff) : 255;
			uint8_t r = (uint8_t)(((h >> 8) & 0xff) * a / 255);
			uint8_t g = (uint8_t)(((h >> 16) & 0xff) * a / 255);
			uint8_t b = (uint8_t)(((h >> 24) & 0xff) * a / 255);

			p[0] = bgr ? r : b;
			p[1] = g;
			p[2] = bgr ? b : r;
			p[3] = l->fourcc == XR24 ? 0x5a : (uint8_t)a;
		}
	}
}

bool vs_image_make(const struct vs_layer *l, uint32_t frame, struct scene_image *img)
{
	uint32_t stride[2], offset[2];
	size_t size;
	uint8_t *data;

	vs_layout(l, 12, stride, offset, &size);
	data = malloc(size);
	if (!data) {
		return false;
	}
	memset(data, 0xee, size);
	vs_fill(l, frame, data, stride, offset);
	*img = (struct scene_image){ .fourcc = l->fourcc, .modifier = DRM_FORMAT_MOD_LINEAR,
		.width = l->width, .height = l->height, .plane_count = l->fourcc == NV12 ? 2 : 1,
		.offset = { offset[0], offset[1] }, .stride = { stride[0], stride[1] },
		.data = data, .size = size };
	img->hash = hwct_hash_compute(data, size);
	return true;
}

struct scene_layer vs_scene_layer(const struct vs_layer *l, size_t index,
	const struct scene_image *img, int acquire_fence)
{
	bool solid = l->composition == HWC2_COMPOSITION_SOLID_COLOR;

	return (struct scene_layer){ .id = index + 1, .z = (int32_t)index,
		.composition = l->composition, .image = solid ? NULL : img,
		.crop = { 0, 0, (float)l->width, (float)l->height }, .frame = l->frame,
		.transform = l->transform, .blend = l->blend, .alpha = l->alpha, .color = l->color,
		.acquire_fence = solid ? -1 : acquire_fence };
}

int vs_reference(const struct scene *scene, struct comp_target *out)
{
	const struct scene_layer *all[VS_MAX_LAYERS * 4];
	struct compositor *c;
	int ret;

	*out = (struct comp_target){ .fourcc = DRM_FORMAT_XRGB8888, .width = scene->width,
		.height = scene->height, .stride = scene->width * 4 };
	if (scene->layer_count > sizeof(all) / sizeof(all[0])) {
		return -E2BIG;
	}
	out->data = malloc((size_t)out->stride * out->height);
	c = compositor_create("pixman");
	if (!out->data || !c) {
		compositor_destroy(c);
		free(out->data);
		out->data = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < scene->layer_count; i++) {
		all[i] = &scene->layers[i];
	}
	ret = compositor_compose(c, scene, all, scene->layer_count, 0xff000000u, out);
	compositor_destroy(c);
	return ret;
}

struct vs_diff vs_compare(const struct comp_target *a, const struct comp_target *b)
{
	struct vs_diff d = { 0 };
	uint64_t over1 = 0, any = 0;

	for (uint32_t y = 0; y < a->height && y < b->height; y++) {
		for (uint32_t x = 0; x < a->width && x < b->width; x++) {
			const uint8_t *p = a->data + (size_t)y * a->stride + x * 4;
			const uint8_t *q = b->data + (size_t)y * b->stride + x * 4;
			unsigned m = 0;

			for (int c = 0; c < 3; c++) {
				unsigned diff = p[c] > q[c] ? p[c] - q[c] : q[c] - p[c];

				m = diff > m ? diff : m;
			}
			any += m > 0;
			over1 += m > 1;
			if (m > d.max) {
				d.max = m;
				d.x = x;
				d.y = y;
			}
		}
	}
	d.over1 = (double)over1 / ((double)a->width * a->height);
	d.any = (double)any / ((double)a->width * a->height);
	return d;
}
