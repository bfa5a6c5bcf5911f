/* The frame model iterator (include/hwct/frame.h). */
#include <errno.h>
#include <stdlib.h>

#include <hwct/frame.h>

#include "state.h"

struct hwct_frame_iter {
	struct hwct_reader *reader;	/* borrowed */
	struct state *state;
	uint64_t display;		/* filter, UINT64_MAX = all */
	uint64_t skip_before;		/* frames below this are applied, not returned */
	struct hwct_frame frame;
	struct hwct_layer *layers;	/* owned storage of frame.layers */
	size_t layers_cap;
};

struct hwct_frame_iter *hwct_frame_iter_create(struct hwct_reader *r)
{
	struct hwct_frame_iter *it = calloc(1, sizeof(*it));

	if (!it) {
		return NULL;
	}
	it->state = state_create(true);
	if (!it->state) {
		free(it);
		errno = ENOMEM;
		return NULL;
	}
	it->reader = r;
	it->display = UINT64_MAX;
	return it;
}

void hwct_frame_iter_destroy(struct hwct_frame_iter *it)
{
	if (!it) {
		return;
	}
	state_destroy(it->state);
	free(it->layers);
	free(it);
}

void hwct_frame_iter_set_display(struct hwct_frame_iter *it, uint64_t display)
{
	it->display = display;
}

int hwct_frame_iter_next(struct hwct_frame_iter *it, const struct hwct_frame **out)
{
	for (;;) {
		const Hwct__Record *rec;
		const Hwct__FrameEnd *fe;
		int ret = hwct_reader_next(it->reader, &rec);

		if (ret <= 0) {
			return ret;
		}
		ret = state_apply(it->state, rec);
		if (ret < 0) {
			return ret;
		}
		if (rec->kind_case != HWCT__RECORD__KIND_FRAME_END) {
			continue;
		}
		fe = rec->frame_end;
		if (fe->frame < it->skip_before || (it->display != UINT64_MAX && fe->display != it->display)) {
			continue;
		}
		ret = state_frame(it->state, fe, &it->frame, &it->layers, &it->layers_cap);
		if (ret == -ENOENT) {
			continue;	/* a FrameEnd for a display never seen: nothing to model */
		}
		if (ret < 0) {
			return ret;
		}
		*out = &it->frame;
		return 1;
	}
}

int hwct_frame_iter_seek(struct hwct_frame_iter *it, uint64_t frame)
{
	int ret = hwct_reader_seek(it->reader, frame);

	if (ret < 0) {
		return ret;
	}
	/* the record frame starts with a Keyframe, which replaces the state */
	it->skip_before = frame;
	return 0;
}

bool hwct_frame_iter_fence(struct hwct_frame_iter *it, uint64_t id, struct hwct_fence_time *out)
{
	return state_fence(it->state, id, out);
}

const Hwct__Display *hwct_frame_iter_display(struct hwct_frame_iter *it, uint64_t display)
{
	return state_display_info(it->state, display);
}

const Hwct__Environment *hwct_frame_iter_environment(struct hwct_frame_iter *it)
{
	return state_environment(it->state);
}
