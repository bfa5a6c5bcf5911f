/*
 * The cases of kms_vm_test, each run on a device set up by vt_setup (all
 * but snapshot). Each returns whether it passed, reporting failures with
 * CHECK (check.h, counted).
 */
#ifndef HWCT_TESTS_KMS_VM_CASES_H
#define HWCT_TESTS_KMS_VM_CASES_H

#include <stdbool.h>
#include <stddef.h>

#include "vm_util.h"

/* vm_present.c */
bool vt_case_blend(struct vt_ctx *ctx);
bool vt_case_fallback(struct vt_ctx *ctx);
bool vt_case_test_only(struct vt_ctx *ctx);

/* vm_fence.c: an IN_FENCE_FD from vgem (card_path) holds the flip back. */
bool vt_case_in_fence(struct vt_ctx *ctx, const char *vgem_path);

/*
 * vm_backend.c: the KMS backend through backend_present, each case on its
 * own backend (no vt_ctx: one DRM master at a time).
 * backend_stack expects every layer on a plane with overlays, every layer
 * client ("no-plane") without (expect_overlays 0).
 */
bool vt_case_backend_stack(size_t expect_overlays);
bool vt_case_backend_refuse(void);
bool vt_case_backend_reference(void);
bool vt_case_backend_gl(void);

/*
 * vm_snapshot.c: the snapshot of path equals drm_info_json (a `drm_info -j`
 * file of the same boot; NULL: not compared) and the boards from the device,
 * the snapshot and the dump agree and hold vkms's facts with
 * expect_overlays overlay planes and, when expect_writeback, a writeback
 * connector (else readback must report "no readback").
 */
bool vt_case_snapshot(const char *path, const char *drm_info_json, size_t expect_overlays,
	bool expect_writeback);

#endif
