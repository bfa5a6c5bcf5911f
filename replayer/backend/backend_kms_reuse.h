/*
 * Plan reuse of the KMS backend (backend_kms_options.reuse_plans), as
 * libliftoff's reuse_previous_alloc: the previous frame's plan for a scene
 * with the same layers, re-checked with one TEST_ONLY commit when buffer
 * content changed, taken as it is (with the previous frame's framebuffers)
 * when nothing did. Private to backend_kms*.c.
 */
#ifndef HWCT_BACKEND_KMS_REUSE_H
#define HWCT_BACKEND_KMS_REUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend_kms.h"
#include "fb.h"
#include "planner.h"

struct backend_kms_layer_sig;

struct backend_kms_reuse {
	bool enabled;
	struct plan *plan;		/* owned copy of the last plan made or reused; NULL none */
	struct backend_kms_layer_sig *sig;	/* the scene it was made for, one per layer */
	size_t count, sig_cap;
	uint32_t width, height;
	bool same_frame;		/* the last plan was reused because nothing changed */
	struct kms_fb **kept;		/* references: the last frame's layer framebuffers */
	uint64_t *kept_keys;		/* their plane id << 32 | layer index */
	size_t kept_count, kept_cap;
	unsigned kept_fallbacks;
	struct backend_kms_stats stats;
};

/*
 * The last plan, for scene, when it still holds: *out a copy (plan_destroy)
 * whose test_count is this frame's (0, or 1 for a passing re-check), or
 * NULL when planning afresh is needed (then *refused counts a refused
 * re-check). Returns 0, -ENOMEM, or the tester's hard failure.
 */
int backend_kms_reuse_plan(struct backend_kms_reuse *r, const struct scene *scene,
	const struct board_tester *tester, struct plan **out, unsigned *refused);

/* Keeps scene's layers and a copy of plan for the next frame. Returns 0 or -ENOMEM. */
int backend_kms_reuse_remember(struct backend_kms_reuse *r, const struct scene *scene,
	const struct plan *plan);

/*
 * When the last plan was reused because nothing changed and cand is that
 * plan's configuration: the last frame's framebuffers into fbs (new
 * references) and their format fallbacks into *fallbacks. Returns whether
 * it filled fbs.
 */
bool backend_kms_reuse_take_fbs(struct backend_kms_reuse *r, const struct plan_candidate *cand,
	struct kms_fb **fbs, unsigned *fallbacks);

/* Keeps references on this frame's framebuffers (one per cand plane; NULL allowed). */
void backend_kms_reuse_keep_fbs(struct backend_kms_reuse *r, const struct plan_candidate *cand,
	struct kms_fb *const *fbs, unsigned fallbacks);

/* Forgets the last plan and drops the kept framebuffers (a refused commit, power off). */
void backend_kms_reuse_forget(struct backend_kms_reuse *r);

/* Frees what r holds. */
void backend_kms_reuse_finish(struct backend_kms_reuse *r);

#endif
