/* Reason names (scene.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fourcc.h"

#include "scene.h"

#define PLAN_REASON_NAME(name, bit, str) [bit] = str,
static const char *const reason_names[] = { PLAN_REASONS(PLAN_REASON_NAME) };
#undef PLAN_REASON_NAME

const char *plan_reason_name(uint32_t bit)
{
	for (size_t i = 0; i < sizeof(reason_names) / sizeof(reason_names[0]); i++) {
		if (bit == 1u << i) {
			return reason_names[i];
		}
	}
	return NULL;
}

char *plan_reasons_format(uint32_t reasons, char *buf, size_t size)
{
	size_t len = 0;

	if (size) {
		buf[0] = '\0';
	}
	for (size_t i = 0; i < sizeof(reason_names) / sizeof(reason_names[0]) && len < size; i++) {
		if (reasons & (1u << i)) {
			int n = snprintf(buf + len, size - len, "%s%s", len ? "," : "", reason_names[i]);

			len += n > 0 ? (size_t)n : 0;
		}
	}
	return buf;
}

struct hwct_hash scene_frame_checksum(uint32_t fourcc, uint32_t width, uint32_t height,
	uint32_t stride, const uint8_t *data)
{
	bool x_format = fourcc == DRM_FORMAT_XRGB8888 || fourcc == DRM_FORMAT_XBGR8888;
	size_t row = (size_t)width * 4;
	struct hwct_hash hash = { 0, 0 };
	uint8_t *packed;

	if ((!x_format && fourcc != DRM_FORMAT_ARGB8888 && fourcc != DRM_FORMAT_ABGR8888) || stride < row) {
		return hash;
	}
	packed = malloc(row * height + 1);
	if (!packed) {
		return hash;
	}
	for (uint32_t y = 0; y < height; y++) {
		uint8_t *dst = packed + row * y;

		memcpy(dst, data + (size_t)stride * y, row);
		/* X is the last byte in memory of both X formats */
		for (size_t x = 3; x_format && x < row; x += 4) {
			dst[x] = 0xff;
		}
	}
	hash = hwct_hash_compute(packed, row * height);
	free(packed);
	return hash;
}
