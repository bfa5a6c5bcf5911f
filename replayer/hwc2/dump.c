/*
 * dump (two-call pattern: the size call makes the text, the fill call
 * copies it) and the test helper of <hwct/hwc2_kms.h>. The text says how the last
 * validated frame was planned, per layer, with the planner's reasons, and
 * its writeback checksum when readback is on. Lines tests read:
 *   "plan: ..."       plan_format of the last plan
 *   "layer ID: ..."   one per layer, ascending z
 *   "readback: HEX"   the checksum of the last presented frame
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/hwc2_kms.h>

#include "hwc2_private.h"

struct text {
	char *buf;
	size_t len, cap;
	bool failed;
};

__attribute__((format(printf, 2, 3)))
static void put(struct text *t, const char *fmt, ...)
{
	va_list args;
	int n;

	if (t->failed) {
		return;
	}
	for (;;) {
		va_start(args, fmt);
		n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0, fmt, args);
		va_end(args);
		if (n < 0) {
			t->failed = true;
			return;
		}
		if (t->buf && t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = (t->cap ? t->cap * 2 : 4096) + (size_t)n;
		char *p = realloc(t->buf, cap);

		if (!p) {
			t->failed = true;
			return;
		}
		t->buf = p;
		t->cap = cap;
	}
}

/* The four characters of a fourcc ("AR24"), '?' for unprintable ones. */
static const char *fourcc_name(uint32_t fourcc, char buf[5])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)((fourcc >> (8 * i)) & 0xff);

		buf[i] = c >= 0x20 && c < 0x7f ? c : '?';
	}
	buf[4] = '\0';
	return buf;
}

static const char *composition_name(int32_t type)
{
	static const char *const names[] = { "INVALID", "CLIENT", "DEVICE", "SOLID_COLOR", "CURSOR",
		"SIDEBAND" };

	return type >= 0 && type < (int32_t)(sizeof(names) / sizeof(names[0])) ? names[type] : "?";
}

static void put_frame(struct hwc2_kms_device *d, struct text *t)
{
	char line[1024], reasons[256], fourcc[5], hex[HWCT_HASH_HEX];

	if (!d->plan) {
		put(t, "last frame: none validated\n");
		return;
	}
	put(t, "plan: %s\n", plan_format(d->plan, line, sizeof(line)));
	for (size_t i = 0; i < d->scene.layer_count && i < d->plan->layer_count; i++) {
		const struct scene_layer *sl = &d->scene_layers[i];
		const struct plan_layer *pl = &d->plan->layers[i];

		put(t, "layer %llu: z %d %s %s -> ", (unsigned long long)sl->id, sl->z,
			sl->image ? fourcc_name(sl->image->fourcc, fourcc) : "none",
			composition_name(sl->composition));
		if (pl->plane_id) {
			put(t, "plane %u\n", pl->plane_id);
		} else {
			put(t, "client (%s)\n", plan_reasons_format(pl->reasons, reasons, sizeof(reasons)));
		}
	}
	put(t, "client target: %s\n", d->last_target);
	if (d->has_checksum) {
		put(t, "readback: %s\n", hwct_hash_to_hex(&d->checksum, hex));
	}
}

static void make_text(struct hwc2_kms_device *d, struct text *t)
{
	const struct hwc2_kms_stats *s = &d->stats;
	struct backend_kms_stats b = backend_kms_get_stats(d->backend);

	put(t, "hwcomposer.kms: %s\n", d->name);
	put(t, "mode %ux%u@%.3f, planner %s, compositor %s, readback %s, power %s\n", d->width,
		d->height, d->refresh_mhz / 1000.0, d->planner->name, compositor_name(d->compositor),
		d->readback ? "on" : "off", d->power_on ? "on" : "off");
	put(t, "presents %llu, validates %llu, TEST_ONLY commits %llu, present errors %llu\n",
		(unsigned long long)s->presents, (unsigned long long)s->validates,
		(unsigned long long)s->test_commits, (unsigned long long)s->present_errors);
	put(t, "plan reuse: %llu untested, %llu re-tested, %llu refused re-tests\n",
		(unsigned long long)b.reused_untested, (unsigned long long)b.reused_retested,
		(unsigned long long)b.retests_refused);
	put(t, "client target frames %llu (composed here %llu), buffers: %llu zero-copy, %llu CPU only\n",
		(unsigned long long)s->client_frames, (unsigned long long)s->module_composed,
		(unsigned long long)s->zero_copy, (unsigned long long)s->cpu_imports);
	put_frame(d, t);
}

static void dump(hwc2_device_t *device, uint32_t *out_size, char *out_buffer)
{
	struct hwc2_kms_device *d = hwc2_kms_device_from(device);
	struct text t = { 0 };

	if (!d || !out_size) {
		return;
	}
	pthread_mutex_lock(&d->lock);
	if (!out_buffer) {
		make_text(d, &t);
		free(d->dump_text);
		d->dump_text = t.failed ? NULL : t.buf;
		d->dump_len = t.failed ? 0 : t.len;
		if (t.failed) {
			free(t.buf);
		}
		*out_size = (uint32_t)d->dump_len;
	} else {
		uint32_t n = d->dump_len < *out_size ? (uint32_t)d->dump_len : *out_size;

		if (d->dump_text) {
			memcpy(out_buffer, d->dump_text, n);
		}
		*out_size = n;
	}
	pthread_mutex_unlock(&d->lock);
}

__attribute__((visibility("default")))
int hwct_hwc2_kms_last_frame(hwc2_device_t *device, int want_pixels, struct hwct_hwc2_kms_frame *out)
{
	struct hwc2_kms_device *d = hwc2_kms_device_from(device);
	int ret = 0;

	if (!d || !out) {
		return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&d->lock);
	if (!d->has_checksum) {
		ret = -ENODATA;
	} else {
		out->frame = d->frame;
		hwct_hash_to_bytes(&d->checksum, out->checksum);
		out->fourcc = d->image.fourcc;
		out->width = d->image.width;
		out->height = d->image.height;
		out->stride = d->image.stride;
		if (want_pixels && d->image.data) {
			size_t size = (size_t)d->image.stride * d->image.height;

			out->pixels = malloc(size);
			if (out->pixels) {
				memcpy(out->pixels, d->image.data, size);
			} else {
				ret = -ENOMEM;
			}
		}
	}
	pthread_mutex_unlock(&d->lock);
	return ret;
}

const struct hwc2_kms_fn hwc2_kms_dump_fns[] = {
	HWC2_KMS_FN(HWC2_FUNCTION_DUMP, HWC2_PFN_DUMP, dump),
	{ 0, NULL },
};
