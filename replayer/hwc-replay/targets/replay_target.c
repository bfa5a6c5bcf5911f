/* The target table and the default target (replay_target.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwct_config.h"
#include "board.h"
#include "replay_target.h"

#define PROFILE_SEARCH_BUDGET_NS 1000000000	/* 1 s per frame */

static void profile_finish(struct replay_target *t)
{
	board_destroy(t->priv);
}

/*
 * Moves board to its crtc_slot-th CRTC other than its own: its mode is not
 * known (the dump gives the mode of one CRTC), and the planes that CRTCs of
 * cfg->crtc_taken can use are left to them. -ENOSPC when there is no such CRTC.
 */
static int other_crtc(struct replay_target *t, struct board *board, const struct replay_target_config *cfg,
	const char *arg, struct hwct_error *err)
{
	uint32_t seen = 0, index = UINT32_MAX;

	for (uint32_t i = 0; i < board->crtc_count && i < 32; i++) {
		if (i != board->crtc_index && ++seen == cfg->crtc_slot) {
			index = i;
			break;
		}
	}
	if (index == UINT32_MAX) {
		return hwct_error_set(err, -ENOSPC, arg, UINT64_MAX, "%zu CRTC%s, none left after the %" PRIu32
			" earlier display%s", board->crtc_count, board->crtc_count == 1 ? "" : "s", cfg->crtc_slot,
			cfg->crtc_slot == 1 ? "" : "s");
	}
	board->crtc_index = index;
	board->crtc_id = board->crtc_ids[index];
	board->width = board->height = 0;
	for (size_t p = 0; p < board->plane_count; p++) {
		struct board_plane *plane = &board->planes[p];

		if ((plane->possible_crtcs & (1u << index)) && (plane->possible_crtcs & cfg->crtc_taken)) {
			plane->possible_crtcs &= ~(1u << index);
			t->planes_ceded++;
		}
	}
	return 0;
}

/*
 * --profile BOARD.json: the planner on a drm_info dump, output by the
 * compositor. The search planner's time budget is PROFILE_SEARCH_BUDGET_NS
 * here, not libliftoff's millisecond: the profile's simulated check is
 * instant, and plans must not depend on how fast (or how loaded) the
 * machine replaying them is (--expect compares them); the budget is only
 * there to end pathological searches.
 */
static int profile_open(struct replay_target *t, const char *arg, const struct replay_target_config *cfg,
	struct hwct_error *err)
{
	struct board *board = board_from_file(arg, cfg->profile_device, err);
	struct planner_options opts = *cfg->planner_options;

	if (!board) {
		return err && err->code ? err->code : -EINVAL;
	}
	opts.budget_ns = PROFILE_SEARCH_BUDGET_NS;
	opts.flags |= PLANNER_DRMHWC_NO_CLIENT_TARGET;	/* a display given no client target yet */
	if (cfg->crtc_slot) {
		int ret = other_crtc(t, board, cfg, arg, err);

		if (ret < 0) {
			board_destroy(board);
			return ret;
		}
	}
	if (cfg->mode_width && cfg->mode_height) {	/* --mode: the board is assumed to drive it */
		board->width = cfg->mode_width;
		board->height = cfg->mode_height;
		board->mode_from_crtc_only = false;
	}
	t->backend = backend_profile_create(board, cfg->planner, &opts, cfg->compositor);
	if (!t->backend) {
		board_destroy(board);
		return hwct_error_set(err, -ENOMEM, arg, UINT64_MAX, "out of memory");
	}
	t->priv = board;
	t->finish = profile_finish;
	t->board = board;
	t->width = board->width;
	t->height = board->height;
	t->default_timing = REPLAY_TIMING_FAST;
	return 0;
}

/*
 * One entry per kind. kms needs the KMS device library; vm is not opened
 * here (replay_vm.c re-runs hwc-replay in the VM before any target opens).
 */
static const struct replay_target_impl targets[] = {
	{ REPLAY_TARGET_PROFILE, "profile", "--profile", profile_open },
#if HWCT_HAVE_KMS
	{ REPLAY_TARGET_DEVICE, "kms", "--device", replay_target_kms_open },
#else
	{ REPLAY_TARGET_DEVICE, "kms", "--device", NULL },
#endif
	{ REPLAY_TARGET_HWC2, "hwc2", "--hwc2", replay_target_hwc2_open },
	{ REPLAY_TARGET_VM, "vm", "--vm", NULL },
};

const struct replay_target_impl *replay_target_impl_at(size_t i)
{
	return i < sizeof(targets) / sizeof(targets[0]) ? &targets[i] : NULL;
}

const struct replay_target_impl *replay_target_impl_find(enum replay_target_kind kind)
{
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		if (targets[i].kind == kind) {
			return &targets[i];
		}
	}
	return NULL;
}

/* "cardN" with N decimal: N, else -1. */
static long card_number(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "card", 4) != 0 || name[4] < '0' || name[4] > '9') {
		return -1;
	}
	n = strtol(name + 4, &end, 10);
	return *end ? -1 : n;
}

enum replay_target_kind replay_target_default(enum replay_target_kind kind, const char **arg)
{
	static char path[64];
	long best = -1;
	struct dirent *e;
	DIR *dir;

	if (kind != REPLAY_TARGET_DEFAULT) {
		return kind;
	}
	dir = opendir("/dev/dri");
	while (dir && (e = readdir(dir))) {
		long n = card_number(e->d_name);
		char candidate[64];
		int fd;

		if (n < 0 || (best >= 0 && n >= best)) {
			continue;
		}
		snprintf(candidate, sizeof(candidate), "/dev/dri/card%ld", n);
		fd = open(candidate, O_RDWR | O_CLOEXEC | O_NOCTTY);
		if (fd >= 0) {
			close(fd);
			best = n;
			memcpy(path, candidate, sizeof(path));
		}
	}
	if (dir) {
		closedir(dir);
	}
	if (best >= 0) {
		*arg = path;
		return REPLAY_TARGET_DEVICE;
	}
	*arg = NULL;
	return REPLAY_TARGET_VM;
}

int replay_target_open(struct replay_target *t, enum replay_target_kind kind, const char *arg,
	const struct replay_target_config *cfg, struct hwct_error *err)
{
	const struct replay_target_impl *impl = replay_target_impl_find(kind);
	int ret;

	*t = (struct replay_target){ .name = impl ? impl->name : "?" };
	if (!impl || !impl->open) {
		if (err) {
			err->code = -ENOTSUP;
			err->offset = UINT64_MAX;
			snprintf(err->message, sizeof(err->message),
				"target %s (%s%s%s) is not available in this build", t->name, impl ? impl->option : "?",
				arg ? " " : "", arg ? arg : "");
		}
		return -ENOTSUP;
	}
	if (arg) {
		t->arg = strdup(arg);
		if (!t->arg) {
			return hwct_error_set(err, -ENOMEM, impl->name, UINT64_MAX, "out of memory");
		}
	}
	ret = impl->open(t, arg, cfg, err);
	if (ret < 0) {
		replay_target_close(t);
	}
	return ret;
}

void replay_target_close(struct replay_target *t)
{
	if (t->report) {
		t->report(t);
	}
	backend_destroy(t->backend);
	if (t->finish) {
		t->finish(t);
	}
	free(t->arg);
	*t = (struct replay_target){ 0 };
}
