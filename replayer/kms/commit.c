/*
 * Atomic requests from plan candidates (commit.h): every plane's
 * properties, the planes turned off, the mode and connector routing; and
 * the TEST_ONLY commit. Presenting is present.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "commit.h"
#include "format.h"
#include "kms_private.h"

#define RETRIES 16

int kms_request_add(struct kms_request *r, uint32_t obj, uint32_t prop, uint64_t value)
{
	if (!prop) {
		return -EINVAL;
	}
	return drmModeAtomicAddProperty(r->req, obj, prop, value) < 0 ? -ENOMEM : 0;
}

static int add_fence(struct kms_request *r, const struct kms_plane *kp, int fence)
{
	int fd;

	if (fence < 0) {
		return 0;
	}
	if (!kp->prop.in_fence_fd || r->fence_count == sizeof(r->fences) / sizeof(r->fences[0])) {
		return -EINVAL;
	}
	/* The kernel takes no ownership; the dup keeps the fence valid for the call. */
	fd = fcntl(fence, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		return -errno;
	}
	r->fences[r->fence_count++] = fd;
	return kms_request_add(r, kp->id, kp->prop.in_fence_fd, (uint64_t)fd);
}

/* Whether s asks for a property value kp cannot hold (the caller refuses it). */
static bool unsupported(const struct kms_plane *kp, const struct board_plane *bp,
	const struct plan_plane_state *s)
{
	uint64_t alpha_max = bp->has_alpha ? bp->alpha_max : 0xffff;

	return (s->rotation != BOARD_ROTATE_0 && !kp->prop.rotation) ||
		(s->alpha != alpha_max && !kp->prop.alpha) ||
		/* pre-multiplied is what planes without the property do */
		(s->blend && !(kp->blend_mask & s->blend) &&
			(kp->prop.blend || s->blend != BOARD_BLEND_PREMULTI)) ||
		(s->set_zpos && !kp->prop.zpos);
}

static int add_plane(struct kms_request *r, const struct plan_plane_state *s,
	const struct kms_fb *fb, int fence)
{
	struct kms_device *dev = r->dev;
	const struct kms_plane *kp = kms_device_plane(dev, s->plane_id);
	const struct board_plane *bp = board_find_plane(dev->board, s->plane_id);
	const struct kms_plane_props *p;
	uint32_t id;
	int ret = 0;

	if (!kp || !bp || !fb || s->solid_fill || !board_plane_usable(dev->board, bp) ||
		unsupported(kp, bp, s)) {
		return -EINVAL;
	}
	p = &kp->prop;
	id = kp->id;
	if ((ret = kms_request_add(r, id, p->fb_id, fb->id)) ||
		(ret = kms_request_add(r, id, p->crtc_id, dev->crtc_id)) ||
		(ret = kms_request_add(r, id, p->src_x, s->src_x)) ||
		(ret = kms_request_add(r, id, p->src_y, s->src_y)) ||
		(ret = kms_request_add(r, id, p->src_w, s->src_w)) ||
		(ret = kms_request_add(r, id, p->src_h, s->src_h)) ||
		(ret = kms_request_add(r, id, p->crtc_x, (uint64_t)(int64_t)s->crtc_x)) ||
		(ret = kms_request_add(r, id, p->crtc_y, (uint64_t)(int64_t)s->crtc_y)) ||
		(ret = kms_request_add(r, id, p->crtc_w, s->crtc_w)) ||
		(ret = kms_request_add(r, id, p->crtc_h, s->crtc_h))) {
		return ret;
	}
	if (p->rotation && (ret = kms_request_add(r, id, p->rotation, s->rotation))) {
		return ret;
	}
	if (p->alpha && (ret = kms_request_add(r, id, p->alpha, s->alpha))) {
		return ret;
	}
	if (p->blend && s->blend) {
		uint32_t bit = 0;

		while ((1u << bit) != s->blend) {
			bit++;
		}
		if ((ret = kms_request_add(r, id, p->blend, kp->blend_values[bit]))) {
			return ret;
		}
	}
	if (s->set_zpos && (ret = kms_request_add(r, id, p->zpos, (uint64_t)s->zpos))) {
		return ret;
	}
	/*
	 * A YUV buffer is BT.601 limited range, as the compositors read it
	 * (compositor.h): said to the plane, whose default may be another
	 * (vkms: BT.601 full range).
	 */
	if (kp->yuv_601_limited && kms_format_is_yuv(fb->fourcc) &&
			((ret = kms_request_add(r, id, p->color_encoding, kp->encoding_bt601)) ||
			(ret = kms_request_add(r, id, p->color_range, kp->range_limited)))) {
		return ret;
	}
	return add_fence(r, kp, fence);
}

/* The acquire fence of the layer state s shows. */
static int layer_fence(const struct kms_commit_args *args, const struct plan_plane_state *s)
{
	if (s->layer == PLAN_LAYER_CLIENT_TARGET) {
		return args->client_target_fence;
	}
	if (!args->scene || s->layer >= args->scene->layer_count) {
		return -1;
	}
	return args->scene->layers[s->layer].acquire_fence;
}

static bool in_candidate(const struct plan_candidate *cand, uint32_t plane_id)
{
	for (size_t i = 0; i < cand->count; i++) {
		if (cand->planes[i].plane_id == plane_id) {
			return true;
		}
	}
	return cand->has_client_target && cand->client_target.plane_id == plane_id;
}

int kms_device_route(struct kms_device *dev, drmModeAtomicReq *req, bool with_writeback)
{
	uint32_t crtc = with_writeback && dev->writeback_exclusive ? 0 : dev->crtc_id;

	return drmModeAtomicAddProperty(req, dev->connector_id, dev->connector_crtc_id, crtc) < 0 ?
		-ENOMEM : 0;
}

/* Whether a plane is given twice (the request would keep the last values). */
static bool has_duplicate(const struct plan_candidate *cand)
{
	for (size_t i = 0; i < cand->count; i++) {
		for (size_t j = i + 1; j < cand->count; j++) {
			if (cand->planes[i].plane_id == cand->planes[j].plane_id) {
				return true;
			}
		}
		if (cand->has_client_target && cand->client_target.plane_id == cand->planes[i].plane_id) {
			return true;
		}
	}
	return false;
}

int kms_request_build(struct kms_request *r, const struct kms_commit_args *args, bool modeset)
{
	struct kms_device *dev = r->dev;
	const struct plan_candidate *cand = args->cand;
	uint32_t blob = 0;
	int ret;

	if (has_duplicate(cand)) {
		return -EINVAL;
	}
	for (size_t i = 0; i < cand->count; i++) {
		const struct plan_plane_state *s = &cand->planes[i];

		if ((ret = add_plane(r, s, args->fbs ? args->fbs[i] : NULL, layer_fence(args, s)))) {
			return ret;
		}
	}
	if (cand->has_client_target && (ret = add_plane(r, &cand->client_target, args->client_target,
		args->client_target_fence))) {
		return ret;
	}
	for (size_t i = 0; i < dev->plane_count; i++) {
		const struct kms_plane *kp = &dev->planes[i];

		if ((kp->possible_crtcs & (1u << dev->crtc_index)) && !in_candidate(cand, kp->id) &&
			((ret = kms_request_add(r, kp->id, kp->prop.fb_id, 0)) ||
				(ret = kms_request_add(r, kp->id, kp->prop.crtc_id, 0)))) {
			return ret;
		}
	}
	if (!modeset) {
		return 0;
	}
	if ((ret = kms_device_mode_blob(dev, &blob)) ||
		(ret = kms_request_add(r, dev->crtc_id, dev->crtc_mode_id, blob)) ||
		(ret = kms_request_add(r, dev->crtc_id, dev->crtc_active, 1)) ||
		(ret = kms_device_route(dev, r->req, dev->writeback_attached || args->readback))) {
		return ret;
	}
	return 0;
}

void kms_request_finish(struct kms_request *r)
{
	for (size_t i = 0; i < r->fence_count; i++) {
		close(r->fences[i]);
	}
	drmModeAtomicFree(r->req);
}

int kms_request_commit(struct kms_request *r, uint32_t flags)
{
	int ret = -EAGAIN;

	for (int i = 0; i < RETRIES && (ret == -EINTR || ret == -EAGAIN); i++) {
		ret = drmModeAtomicCommit(r->dev->fd, r->req, flags, NULL) == 0 ? 0 :
			(errno ? -errno : -EIO);
	}
	return ret;
}

int kms_commit_test(struct kms_device *dev, const struct kms_commit_args *args)
{
	struct kms_request r = { .dev = dev, .req = drmModeAtomicAlloc() };
	uint32_t flags = DRM_MODE_ATOMIC_TEST_ONLY;
	int ret;

	if (!r.req) {
		return -ENOMEM;
	}
	if (dev->modeset_pending) {
		flags |= DRM_MODE_ATOMIC_ALLOW_MODESET;
	}
	if (!(ret = kms_request_build(&r, args, dev->modeset_pending))) {
		ret = kms_request_commit(&r, flags);
	}
	kms_request_finish(&r);
	return ret;
}
