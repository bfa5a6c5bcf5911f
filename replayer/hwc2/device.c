/*
 * The composer device of hwcomposer.kms.so: its configuration from the
 * environment (README.md) and the KMS backend it drives.
 *
 *   HWCT_KMS_DEVICE      card node (default: the first usable /dev/dri/card*)
 *   HWCT_KMS_MODE        WxH@Hz (or WxH, 60 Hz): the one config; default the connector's mode
 *   HWCT_KMS_PLANNER     drmhwc (default) | search
 *   HWCT_KMS_BUDGET_MS   the search planner's TEST_ONLY budget, ms; 0 = none (default 1)
 *   HWCT_KMS_REUSE       0: plan every frame afresh (default 1: reuse, backend_kms.h)
 *   HWCT_KMS_COMPOSITOR  pixman (default) | gl: composes only when the client gave no
 *                        usable client target (the client composes CLIENT layers)
 *   HWCT_KMS_READBACK    1: writeback checksum (and image) of every frame, for tests
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/log.h>

#include "compositor.h"
#include "device.h"
#include "hwc2_private.h"

static bool env_flag(const char *name, bool def)
{
	const char *v = getenv(name);

	if (!v || !*v) {
		return def;
	}
	return strcmp(v, "0") != 0 && strcmp(v, "false") != 0 && strcmp(v, "no") != 0;
}

/* "WxH@Hz" or "WxH". Returns whether it parsed. */
static bool parse_mode(const char *s, uint32_t *w, uint32_t *h, uint32_t *hz)
{
	unsigned a = 0, b = 0, c = 60;
	char tail = 0;
	int n = sscanf(s, "%ux%u@%u%c", &a, &b, &c, &tail);

	if (n == 2 || n == 3) {
		*w = a;
		*h = b;
		*hz = c;
		return a > 0 && b > 0 && c > 0;
	}
	return false;
}

static int configure(struct hwc2_kms_device *d, struct backend_kms_options *o,
	struct planner_options *popts)
{
	const char *planner = getenv("HWCT_KMS_PLANNER");
	const char *budget = getenv("HWCT_KMS_BUDGET_MS");
	const char *mode = getenv("HWCT_KMS_MODE");
	const char *comp = getenv("HWCT_KMS_COMPOSITOR");
	const char *yuv = getenv("HWCT_KMS_YUV_MODEL");
	enum comp_yuv_model model;

	planner_options_init(popts);
	d->planner = planner_find(planner && *planner ? planner : "drmhwc");
	if (!d->planner) {
		hwct_log(HWCT_LOG_ERROR, "hwcomposer.kms: HWCT_KMS_PLANNER=%s: unknown planner", planner);
		return -EINVAL;
	}
	if (budget && *budget) {
		long ms = strtol(budget, NULL, 10);

		popts->budget_ns = ms <= 0 ? INT64_MAX : (int64_t)ms * 1000000;
	}
	if (mode && *mode && !parse_mode(mode, &o->width, &o->height, &o->refresh_hz)) {
		hwct_log(HWCT_LOG_ERROR, "hwcomposer.kms: HWCT_KMS_MODE=%s: expected WxH@Hz", mode);
		return -EINVAL;
	}
	d->compositor = compositor_create(comp && *comp ? comp : "pixman");
	if (!d->compositor) {
		hwct_log(HWCT_LOG_ERROR, "hwcomposer.kms: compositor %s: %s", comp ? comp : "pixman",
			strerror(errno));
		return errno ? -errno : -ENODEV;
	}
	if (yuv && *yuv) {
		if (comp_yuv_model_parse(yuv, &model) < 0 || compositor_set_yuv_model(d->compositor, model) < 0) {
			hwct_log(HWCT_LOG_ERROR, "hwcomposer.kms: HWCT_KMS_YUV_MODEL=%s: not a model of the %s "
				"compositor (bilinear, vkms)", yuv, compositor_name(d->compositor));
			return -EINVAL;
		}
		o->yuv_model_asked = true;
	}
	d->readback = env_flag("HWCT_KMS_READBACK", false);
	o->path = getenv("HWCT_KMS_DEVICE");
	if (o->path && !*o->path) {
		o->path = NULL;
	}
	o->planner = d->planner;
	o->planner_opts = popts;
	o->compositor = d->compositor;
	o->readback = d->readback;
	o->reuse_plans = env_flag("HWCT_KMS_REUSE", true);
	return 0;
}

struct hwc2_kms_device *hwc2_kms_device_create(const struct hw_module_t *module)
{
	struct hwc2_kms_device *d = calloc(1, sizeof(*d));
	struct backend_kms_options o = { 0 };
	struct planner_options popts;
	struct hwct_error err;
	int ret;

	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->cond, NULL);
	d->target_fence = -1;
	d->present_fence = -1;
	d->next_id = 1;
	d->power_on = true;
	d->ctm_identity = true;
	d->color_mode = HAL_COLOR_MODE_NATIVE;
	snprintf(d->last_target, sizeof(d->last_target), "none");
	ret = configure(d, &o, &popts);
	if (ret < 0) {
		goto error;
	}
	d->backend = backend_kms_create(&o, &err);
	if (!d->backend) {
		hwct_log(HWCT_LOG_ERROR, "hwcomposer.kms: %s", err.message);
		ret = err.code < 0 ? err.code : -ENODEV;
		goto error;
	}
	d->kms = backend_kms_device(d->backend);
	d->board = backend_kms_board(d->backend);
	d->cache = backend_kms_fb_cache(d->backend);
	kms_device_mode_size(d->kms, &d->width, &d->height);
	d->refresh_mhz = kms_device_mode_refresh_mhz(d->kms);
	if (d->refresh_mhz == 0) {
		d->refresh_mhz = 60000;
	}
	snprintf(d->name, sizeof(d->name), "hwctrace-kms %s (%s)", kms_device_path(d->kms),
		kms_device_driver(d->kms));
	return d;

error:
	compositor_destroy(d->compositor);
	pthread_cond_destroy(&d->cond);
	pthread_mutex_destroy(&d->lock);
	free(d);
	errno = -ret;
	return NULL;
}
