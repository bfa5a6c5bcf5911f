/*
 * IN_FENCE_FD (kms_vm_test in-fence): a fence the test holds, made with
 * vgem (vgem_fence.h), delays the flip until the test signals it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "fence_wait.h"
#include "vgem_fence.h"
#include "vm_cases.h"

/* How long the held fence must keep the flip back. */
#define HELD_MS 200

static bool make_fence(struct vgem_fence *v, const char *path)
{
	char why[256];

	return CHECK(vgem_fence_make(v, path, why, sizeof(why)) == 0, "vgem fence: %s", why);
}

static bool signal_fence(struct vgem_fence *v)
{
	int ret = vgem_fence_signal(v);

	return CHECK(ret == 0, "VGEM_FENCE_SIGNAL: %s", strerror(-ret));
}

/* Presents f while its layer waits on v; checks the flip waits for the signal. */
static bool held_flip(struct vt_ctx *ctx, struct vgem_fence *v, const struct vt_frame *f,
	const struct vt_layer *layer)
{
	struct kms_commit_args args = vt_frame_args(ctx, f, true);
	struct kms_readback_result res;
	uint8_t ref[VT_WIDTH * VT_HEIGHT * 4];
	int fence = -1, ret;
	double t0;
	bool ok;

	ret = kms_commit_present(ctx->dev, &args, &fence);
	if (!CHECK(ret == 0 && fence >= 0, "present with a held in-fence: %s", strerror(-ret))) {
		return false;
	}
	ok = CHECK(hwct_fence_wait(fence, HELD_MS) == -ETIME,
		"the present fence signalled while the in-fence was held");
	printf("in-fence: present fence unsignalled after %d ms while the vgem fence is held\n",
		HELD_MS);
	t0 = vt_now_ms();
	ok = signal_fence(v) && ok;
	ok = CHECK(hwct_fence_wait(fence, VT_FENCE_MS) == 0,
		"the present fence did not signal after the vgem fence") && ok;
	printf("in-fence: present fence signalled %.1f ms after the vgem signal\n", vt_now_ms() - t0);
	close(fence);
	ret = kms_readback_finish(ctx->rb, VT_FENCE_MS, true, &res);
	if (CHECK(ret == 0, "readback: %s", strerror(-ret))) {
		vt_reference(layer, 1, ref);
		ok = vt_compare(&res, ref, "in-fence: frame after the signal") && ok;
		kms_readback_result_finish(&res);
	}
	return ok;
}

bool vt_case_in_fence(struct vt_ctx *ctx, const char *vgem_path)
{
	struct vt_image a, b;
	struct vt_layer la, lb;
	struct vt_frame frame;
	struct vgem_fence v = { .fd = -1, .dmabuf = -1, .sync_file = -1 };
	bool ok;

	ok = CHECK(vt_image_make(&a, DRM_FORMAT_XRGB8888, VT_WIDTH, VT_HEIGHT, 50, true) &&
		vt_image_make(&b, DRM_FORMAT_XRGB8888, VT_WIDTH, VT_HEIGHT, 51, true), "out of memory");
	la = (struct vt_layer){ &a, ctx->primary, 0, 0, 0, 0, true, -1 };
	if (ok && vt_frame_build(ctx, &frame, &la, 1)) {
		ok = vt_present_and_check(ctx, &frame, &la, 1, "in-fence: frame before");
		vt_frame_finish(&frame);
	}
	ok = ok && make_fence(&v, vgem_path);
	if (ok) {
		ok = CHECK(hwct_fence_wait(v.sync_file, 0) == -ETIME, "the vgem fence is already signalled");
		lb = (struct vt_layer){ &b, ctx->primary, 0, 0, 0, 0, true, v.sync_file };
		if (ok && vt_frame_build(ctx, &frame, &lb, 1)) {
			ok = held_flip(ctx, &v, &frame, &lb);
			vt_frame_finish(&frame);
		}
	}
	vgem_fence_finish(&v);
	vt_image_free(&a);
	vt_image_free(&b);
	return ok;
}
