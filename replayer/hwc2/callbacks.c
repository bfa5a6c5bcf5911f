/*
 * Callbacks of hwcomposer.kms.so: registerCallback (HOTPLUG is delivered
 * at once for display 0, as SurfaceFlinger expects; REFRESH; VSYNC) and
 * setVsyncEnabled. One worker thread delivers VSYNC at the mode's refresh —
 * the CRTC's vblanks (drmWaitVBlank) while a frame is on screen, a
 * CLOCK_MONOTONIC timer otherwise — and pending REFRESH requests. The
 * client's callbacks are always called without the device lock held, so
 * they may call back into the device.
 */
#include <errno.h>
#include <time.h>

#include <xf86drm.h>

#include "device.h"
#include "hwc2_private.h"

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The next vblank of the CRTC, CLOCK_MONOTONIC ns, or -1 when it cannot be waited for. */
static int64_t wait_vblank(int fd, uint32_t crtc_index)
{
	drmVBlank vbl = { .request = { .type = DRM_VBLANK_RELATIVE, .sequence = 1 } };

	if (crtc_index == 1) {
		vbl.request.type |= DRM_VBLANK_SECONDARY;
	} else if (crtc_index > 1) {
		vbl.request.type |= (crtc_index << DRM_VBLANK_HIGH_CRTC_SHIFT) & DRM_VBLANK_HIGH_CRTC_MASK;
	}
	if (drmWaitVBlank(fd, &vbl) != 0) {
		return -1;
	}
	return (int64_t)vbl.reply.tval_sec * 1000000000 + (int64_t)vbl.reply.tval_usec * 1000;
}

/* Sleeps until the next tick of a period_ns timer after last (updated). Returns the tick. */
static int64_t wait_timer(int64_t *last, int64_t period_ns)
{
	int64_t now = now_ns(), next = *last + period_ns;
	struct timespec ts;

	if (next <= now) {
		next = now + period_ns - (now - *last) % period_ns;
	}
	ts.tv_sec = (time_t)(next / 1000000000);
	ts.tv_nsec = (long)(next % 1000000000);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
	}
	*last = next;
	return next;
}

static void *worker_main(void *arg)
{
	struct hwc2_kms_device *d = arg;
	int fd = kms_device_fd(d->kms);
	uint32_t crtc_index = d->board->crtc_index;
	int64_t last = now_ns();

	pthread_mutex_lock(&d->lock);
	while (!d->quit) {
		int64_t period = (int64_t)(1000000000000ull / d->refresh_mhz), ts = -1;
		HWC2_PFN_VSYNC vsync;
		HWC2_PFN_REFRESH refresh;
		hwc2_callback_data_t vdata, rdata;
		bool use_vblank;

		if (d->refresh_pending && d->refresh) {
			refresh = d->refresh;
			rdata = d->refresh_data;
			d->refresh_pending = false;
			pthread_mutex_unlock(&d->lock);
			refresh(rdata, HWC2_KMS_DISPLAY);
			pthread_mutex_lock(&d->lock);
			continue;
		}
		if (!d->vsync_enabled || !d->vsync) {
			pthread_cond_wait(&d->cond, &d->lock);
			last = now_ns();
			continue;
		}
		use_vblank = d->crtc_on && d->power_on;
		pthread_mutex_unlock(&d->lock);
		if (use_vblank) {
			ts = wait_vblank(fd, crtc_index);
			last = ts >= 0 ? ts : last;
		}
		if (ts < 0) {
			ts = wait_timer(&last, period);
		}
		pthread_mutex_lock(&d->lock);
		vsync = d->vsync;
		vdata = d->vsync_data;
		if (!d->quit && d->vsync_enabled && vsync) {
			pthread_mutex_unlock(&d->lock);
			vsync(vdata, HWC2_KMS_DISPLAY, ts);
			pthread_mutex_lock(&d->lock);
		}
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

int hwc2_kms_worker_start(struct hwc2_kms_device *d)
{
	int ret = pthread_create(&d->worker, NULL, worker_main, d);

	d->worker_started = ret == 0;
	return -ret;
}

void hwc2_kms_worker_stop(struct hwc2_kms_device *d)
{
	if (!d->worker_started) {
		return;
	}
	pthread_mutex_lock(&d->lock);
	d->quit = true;
	pthread_cond_signal(&d->cond);
	pthread_mutex_unlock(&d->lock);
	pthread_join(d->worker, NULL);
	d->worker_started = false;
}

void hwc2_kms_request_refresh(struct hwc2_kms_device *d)
{
	d->refresh_pending = true;
	pthread_cond_signal(&d->cond);
}

static int32_t register_callback(hwc2_device_t *device, int32_t descriptor,
	hwc2_callback_data_t callback_data, hwc2_function_pointer_t pointer)
{
	struct hwc2_kms_device *d = hwc2_kms_device_from(device);
	HWC2_PFN_HOTPLUG hotplug = NULL;

	if (!d) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	if (descriptor >= HWC2_CALLBACK_VSYNC_2_4 && descriptor <= HWC2_CALLBACK_SEAMLESS_POSSIBLE) {
		return HWC2_ERROR_UNSUPPORTED;	/* composer 2.4 callbacks: no 2.4 functions either */
	}
	if (descriptor < HWC2_CALLBACK_HOTPLUG || descriptor > HWC2_CALLBACK_VSYNC) {
		return HWC2_ERROR_BAD_PARAMETER;
	}
	pthread_mutex_lock(&d->lock);
	switch (descriptor) {
	case HWC2_CALLBACK_HOTPLUG:
		d->hotplug = (HWC2_PFN_HOTPLUG)pointer;
		d->hotplug_data = callback_data;
		hotplug = d->hotplug;
		break;
	case HWC2_CALLBACK_REFRESH:
		d->refresh = (HWC2_PFN_REFRESH)pointer;
		d->refresh_data = callback_data;
		pthread_cond_signal(&d->cond);
		break;
	default:
		d->vsync = (HWC2_PFN_VSYNC)pointer;
		d->vsync_data = callback_data;
		pthread_cond_signal(&d->cond);
		break;
	}
	pthread_mutex_unlock(&d->lock);
	/* SurfaceFlinger learns about the primary display from this call, synchronously */
	if (hotplug) {
		hotplug(callback_data, HWC2_KMS_DISPLAY, HWC2_CONNECTION_CONNECTED);
	}
	return HWC2_ERROR_NONE;
}

static int32_t set_vsync_enabled(hwc2_device_t *device, hwc2_display_t display, int32_t enabled)
{
	struct hwc2_kms_device *d;
	int32_t ret = hwc2_kms_enter(device, display, &d);

	if (ret != HWC2_ERROR_NONE) {
		return ret;
	}
	if (enabled != HWC2_VSYNC_ENABLE && enabled != HWC2_VSYNC_DISABLE) {
		return hwc2_kms_leave(d, HWC2_ERROR_BAD_PARAMETER);
	}
	d->vsync_enabled = enabled == HWC2_VSYNC_ENABLE;
	pthread_cond_signal(&d->cond);
	return hwc2_kms_leave(d, HWC2_ERROR_NONE);
}

const struct hwc2_kms_fn hwc2_kms_callback_fns[] = {
	HWC2_KMS_FN(HWC2_FUNCTION_REGISTER_CALLBACK, HWC2_PFN_REGISTER_CALLBACK, register_callback),
	HWC2_KMS_FN(HWC2_FUNCTION_SET_VSYNC_ENABLED, HWC2_PFN_SET_VSYNC_ENABLED, set_vsync_enabled),
	{ 0, NULL },
};
