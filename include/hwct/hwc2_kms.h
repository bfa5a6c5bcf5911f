/*
 * What hwcomposer.kms.so exports besides HMI, for tests: the last frame as
 * the writeback connector read it back (HWCT_KMS_READBACK=1). Look it up
 * with dlsym(handle, HWC2_KMS_LAST_FRAME_SYMBOL); other HWC2 modules do
 * not have it.
 */
#ifndef HWCT_HWC2_KMS_H
#define HWCT_HWC2_KMS_H

#include <stdint.h>

#include <hardware/hwcomposer2.h>

#define HWC2_KMS_LAST_FRAME_SYMBOL "hwct_hwc2_kms_last_frame"

struct hwct_hwc2_kms_frame {
	uint64_t frame;			/* presents so far (the frame is the last of them) */
	uint8_t checksum[16];		/* XXH3-128, big-endian (scene_frame_checksum) */
	uint32_t fourcc;		/* DRM_FORMAT_* of pixels */
	uint32_t width, height, stride;	/* pixels, pixels, bytes */
	uint8_t *pixels;		/* malloc'd copy (the caller frees it); NULL when not asked for */
};

/*
 * Fills *out with the last presented frame's readback; pixels copied only
 * when want_pixels. Returns 0, -EINVAL for a device that is not
 * hwcomposer.kms's, -ENODATA when readback is off or nothing was read back
 * yet, -ENOMEM.
 */
typedef int (*hwct_hwc2_kms_last_frame_fn)(hwc2_device_t *device, int want_pixels,
	struct hwct_hwc2_kms_frame *out);

int hwct_hwc2_kms_last_frame(hwc2_device_t *device, int want_pixels, struct hwct_hwc2_kms_frame *out);

#endif
