/*
 * --device with --board: a device shaped like a board dump (replay_board.h).
 */
#include <errno.h>

#include "board.h"
#include "replay_board.h"

int replay_board_load(struct replay_board *rb, const char *path, const char *device, struct hwct_error *err)
{
	int ret;

	*rb = (struct replay_board){ .path = path };
	rb->dump = board_from_file(path, device, err);
	if (!rb->dump) {
		return err && err->code ? err->code : -EINVAL;
	}
	ret = board_vkms_dump_ids(rb->dump, rb->dump_ids, BOARD_VKMS_MAX_PLANES);
	if (ret < 0) {
		replay_board_finish(rb);
		return hwct_error_set(err, ret, path, UINT64_MAX, "cannot shape a vkms device like it");
	}
	rb->count = (size_t)ret;
	return 0;
}

void replay_board_bind(struct replay_board *rb, struct board *live)
{
	board_constrain(live, rb->dump, rb->dump_ids, rb->count);
	rb->bound = live->plane_count < rb->count ? live->plane_count : rb->count;
	for (size_t i = 0; i < rb->bound; i++) {
		rb->kms_ids[i] = live->planes[i].id;
	}
}

uint32_t replay_board_plane(const struct replay_board *rb, uint32_t kms_id)
{
	for (size_t i = 0; kms_id && i < rb->bound; i++) {
		if (rb->kms_ids[i] == kms_id) {
			return rb->dump_ids[i] ? rb->dump_ids[i] : kms_id;
		}
	}
	return kms_id;
}

void replay_board_finish(struct replay_board *rb)
{
	board_destroy(rb->dump);
	rb->dump = NULL;
	rb->count = rb->bound = 0;
}
