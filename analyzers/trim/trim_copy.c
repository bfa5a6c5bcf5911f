/*
 * The passes of `hwc-trace trim` (trim.h):
 *  1. Environment and Note records before the keyframe at or before A are
 *     collected (the state does not carry them);
 *  2. from that keyframe up to FrameEnd A-1, records are seeded into the
 *     writer's state (hwct_writer_seed), not written; the contents the state
 *     ends with are stored as blobs;
 *  3. the records after FrameEnd A-1 up to FrameEnd B are written (Keyframe
 *     and Blob records are the writer's own), FrameEnd frame and
 *     display_frame renumbered from 0, blobs stored before the call that
 *     refers to them, Fence records kept for the fences of those frames;
 *  4. after B, the Fence records still missing are looked for within
 *     TRIM_FENCE_LOOKAHEAD display frames.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/picture.h>

#include "hwct_config.h"
#include "pb.h"
#include "trim.h"

struct trim {
	struct hwct_reader *in;
	struct hwct_writer *w;
	struct trim_blobs *blobs;
	struct trim_report *rep;
	struct hwct_error *err;
	struct trim_fences fences;
	ProtobufCMessage **kept;	/* Environment and Note records of passes 1 and 2, owned */
	size_t kept_count;
	uint64_t *display_ids, *display_frames;	/* per display: FrameEnds written */
	size_t display_count;
};

static int keep_record(struct trim *t, const Hwct__Record *rec)
{
	ProtobufCMessage **kept = realloc(t->kept, (t->kept_count + 1) * sizeof(*kept));

	if (!kept) {
		return -ENOMEM;
	}
	t->kept = kept;
	kept[t->kept_count] = pb_clone(&rec->base);
	return kept[t->kept_count++] ? 0 : -ENOMEM;
}

/* The reader's error (file and offset), or what ret says. Returns ret. */
static int fail(struct trim *t, int ret, const char *what)
{
	const struct hwct_error *e = hwct_reader_error(t->in);

	if (e && e->code) {
		*t->err = *e;
	} else {
		hwct_error_set(t->err, ret, hwct_reader_name(t->in), UINT64_MAX, "%s: %s", what, strerror(-ret));
	}
	return ret;
}

static int ended_early(struct trim *t)
{
	return hwct_error_set(t->err, -EINVAL, hwct_reader_name(t->in), UINT64_MAX,
		"the records end before FrameEnd %" PRIu64 " (the index promised it)", t->rep->last);
}

static const struct hwct_hash *content_of(const Hwct__LayerBufferArgs *a, struct hwct_hash *h)
{
	return a && a->has_content && hwct_hash_from_bytes(h, a->content.data, a->content.len) ? h : NULL;
}

/* The contents a call shows from now on; stored right away when writing. */
static int note_call_content(struct trim *t, const Hwct__Call *c, bool store)
{
	struct hwct_hash h;
	enum trim_slot slot;

	if (c->function == HWC2_FUNCTION_DESTROY_LAYER) {
		trim_blobs_forget(t->blobs, c->display, c->layer);
		return 0;
	}
	if (c->args_case != HWCT__CALL__ARGS_BUFFER) {
		return 0;
	}
	switch (c->function) {
	case HWC2_FUNCTION_SET_LAYER_BUFFER:
		slot = TRIM_SLOT_LAYER;
		break;
	case HWC2_FUNCTION_SET_CLIENT_TARGET:
		slot = TRIM_SLOT_CLIENT_TARGET;
		break;
	case HWC2_FUNCTION_SET_OUTPUT_BUFFER:
		slot = TRIM_SLOT_OUTPUT;
		break;
	case HWC2_FUNCTION_SET_READBACK_BUFFER:
		slot = TRIM_SLOT_READBACK;
		break;
	default:
		return 0;
	}
	return trim_blobs_note(t->blobs, c->display, slot == TRIM_SLOT_LAYER ? c->layer : 0, slot,
		content_of(c->buffer, &h), store);
}

static int note_keyframe_content(struct trim *t, const Hwct__Keyframe *k)
{
	struct hwct_hash h;
	int ret = 0;

	trim_blobs_reset(t->blobs);
	for (size_t i = 0; i < k->n_states && ret == 0; i++) {
		const Hwct__DisplayState *d = k->states[i];

		for (size_t j = 0; j < d->n_layers && ret == 0; j++) {
			const Hwct__LayerState *l = d->layers[j];
			bool has = l->has_content && hwct_hash_from_bytes(&h, l->content.data, l->content.len);

			ret = trim_blobs_note(t->blobs, d->id, l->id, TRIM_SLOT_LAYER, has ? &h : NULL, false);
		}
		if (ret == 0 && d->client_target) {
			ret = trim_blobs_note(t->blobs, d->id, 0, TRIM_SLOT_CLIENT_TARGET, content_of(d->client_target, &h),
				false);
		}
		if (ret == 0 && d->output_buffer) {
			ret = trim_blobs_note(t->blobs, d->id, 0, TRIM_SLOT_OUTPUT, content_of(d->output_buffer, &h), false);
		}
	}
	return ret;
}

/* The fences a kept call passes or returns. */
static int refer_call_fences(struct trim *t, const Hwct__Call *c)
{
	int ret = 0;

	switch (c->args_case) {
	case HWCT__CALL__ARGS_BUFFER:
		return trim_fences_refer(&t->fences, c->buffer->fence);
	case HWCT__CALL__ARGS_PRESENT:
		return trim_fences_refer(&t->fences, c->present->present_fence);
	case HWCT__CALL__ARGS_READBACK:
		return trim_fences_refer(&t->fences, c->readback->fence);
	case HWCT__CALL__ARGS_RELEASE_FENCES:
		for (size_t i = 0; i < c->release_fences->n_fences && ret == 0; i++) {
			ret = trim_fences_refer(&t->fences, c->release_fences->fences[i]);
		}
		return ret;
	default:
		return 0;
	}
}

static int put_record(struct trim *t, const Hwct__Record *rec)
{
	int ret = hwct_writer_write(t->w, rec);

	if (ret < 0) {
		hwct_error_set(t->err, ret, hwct_reader_name(t->in), UINT64_MAX, "writing the trimmed trace: %s",
			strerror(-ret));
		return ret;
	}
	t->rep->records++;
	t->rep->environments += rec->kind_case == HWCT__RECORD__KIND_ENVIRONMENT;
	t->rep->notes += rec->kind_case == HWCT__RECORD__KIND_NOTE;
	return 0;
}

/* A Fence record whose frame is renumbered (or dropped when outside the kept ones). */
static int write_fence(struct trim *t, const Hwct__Record *rec)
{
	Hwct__Record copy = *rec;
	Hwct__Fence fence = *rec->fence;

	if (fence.has_frame) {
		fence.has_frame = fence.frame >= t->rep->first && fence.frame <= t->rep->last;
		fence.frame = fence.has_frame ? fence.frame - t->rep->first : 0;
	}
	copy.fence = &fence;
	t->rep->fences++;
	return put_record(t, &copy);
}

static int write_frame_end(struct trim *t, const Hwct__Record *rec)
{
	Hwct__Record copy = *rec;
	Hwct__FrameEnd fe = *rec->frame_end;
	size_t i = 0;
	int ret;

	while (i < t->display_count && t->display_ids[i] != fe.display) {
		i++;
	}
	if (i == t->display_count) {
		uint64_t *ids = realloc(t->display_ids, (i + 1) * sizeof(*ids));
		uint64_t *frames = ids ? realloc(t->display_frames, (i + 1) * sizeof(*frames)) : NULL;

		t->display_ids = ids ? ids : t->display_ids;
		t->display_frames = frames ? frames : t->display_frames;
		if (!frames) {
			return -ENOMEM;
		}
		ids[i] = fe.display;
		frames[i] = 0;
		t->display_count++;
	}
	fe.frame -= t->rep->first;
	fe.has_display_frame = true;
	fe.display_frame = t->display_frames[i]++;
	copy.frame_end = &fe;
	ret = trim_fences_refer(&t->fences, fe.present_fence);
	if (ret == 0) {
		ret = put_record(t, &copy);
	}
	t->rep->frames += ret == 0;
	return ret;
}

/* Pass 1: Environment and Note records before the record frame at `offset`. */
static int collect_prefix(struct trim *t, uint64_t offset)
{
	const Hwct__Record *rec;
	int ret;

	ret = hwct_reader_rewind(t->in);
	while (ret == 0 && (ret = hwct_reader_next(t->in, &rec)) > 0) {
		if (hwct_reader_frame_offset(t->in) >= offset) {
			return 0;
		}
		if (rec->kind_case == HWCT__RECORD__KIND_ENVIRONMENT || rec->kind_case == HWCT__RECORD__KIND_NOTE) {
			ret = keep_record(t, rec);
		} else if (rec->kind_case == HWCT__RECORD__KIND_BLOB) {
			ret = trim_blobs_learn(t->blobs, rec->blob);
		} else {
			ret = 0;
		}
	}
	return ret < 0 ? fail(t, ret, "reading") : 0;
}

/* Pass 2: from the keyframe before A up to FrameEnd A-1 into the writer's state. */
static int seed(struct trim *t)
{
	const Hwct__Record *rec;
	int ret;

	ret = hwct_reader_seek(t->in, t->rep->first);
	if (ret == 0 && (ret = hwct_reader_next(t->in, &rec)) == 0) {
		ret = -EINVAL;
	}
	if (ret < 0) {
		return fail(t, ret, "seeking");
	}
	if (rec->kind_case != HWCT__RECORD__KIND_KEYFRAME) {
		return hwct_error_set(t->err, -EINVAL, hwct_reader_name(t->in), hwct_reader_frame_offset(t->in),
			"record frame does not start with a Keyframe (docs/format.md 1.2)");
	}
	if (rec->keyframe->frame > 0 || t->rep->first > 0) {
		uint64_t offset = hwct_reader_frame_offset(t->in);

		t->rep->keyframe_frame = rec->keyframe->frame;
		if (rec->keyframe->frame > 0 && (ret = collect_prefix(t, offset)) < 0) {
			return ret;
		}
		ret = hwct_reader_seek(t->in, t->rep->first);
		if (ret == 0 && (ret = hwct_reader_next(t->in, &rec)) == 0) {
			ret = -EINVAL;
		}
		if (ret < 0) {
			return fail(t, ret, "seeking");
		}
	}
	for (;;) {
		switch (rec->kind_case) {
		case HWCT__RECORD__KIND_KEYFRAME:
			ret = note_keyframe_content(t, rec->keyframe);
			break;
		case HWCT__RECORD__KIND_CALL:
			ret = note_call_content(t, rec->call, false);
			break;
		case HWCT__RECORD__KIND_ENVIRONMENT:
		case HWCT__RECORD__KIND_NOTE:
			ret = keep_record(t, rec);
			break;
		case HWCT__RECORD__KIND_BLOB:
			ret = trim_blobs_learn(t->blobs, rec->blob);
			break;
		default:
			ret = 0;
			break;
		}
		if (ret == 0 && rec->kind_case != HWCT__RECORD__KIND_BLOB) {
			ret = hwct_writer_seed(t->w, rec);
			t->rep->seeded++;
		}
		if (ret < 0) {
			return fail(t, ret, "seeding the state");
		}
		/* up to FrameEnd A-1, or only the keyframe when it already is at A */
		if ((rec->kind_case == HWCT__RECORD__KIND_KEYFRAME && rec->keyframe->frame >= t->rep->first) ||
			(rec->kind_case == HWCT__RECORD__KIND_FRAME_END && rec->frame_end->frame + 1 >= t->rep->first)) {
			return 0;
		}
		ret = hwct_reader_next(t->in, &rec);
		if (ret <= 0) {
			return ret ? fail(t, ret, "seeding the state") : ended_early(t);
		}
	}
}

/* Pass 3: the records of frames A..B. */
static int copy_frames(struct trim *t)
{
	const Hwct__Record *rec;
	int ret;

	while ((ret = hwct_reader_next(t->in, &rec)) > 0) {
		switch (rec->kind_case) {
		case HWCT__RECORD__KIND_KEYFRAME:
			continue;	/* the writer's own */
		case HWCT__RECORD__KIND_BLOB:
			ret = trim_blobs_learn(t->blobs, rec->blob);	/* stored again when referred to */
			break;
		case HWCT__RECORD__KIND_CALL:
			ret = note_call_content(t, rec->call, true);
			if (ret == 0) {
				ret = refer_call_fences(t, rec->call);
			}
			if (ret == 0) {
				ret = put_record(t, rec);
			}
			break;
		case HWCT__RECORD__KIND_FENCE:
			ret = trim_fences_take(&t->fences, rec->fence->id) ? write_fence(t, rec) : 0;
			break;
		case HWCT__RECORD__KIND_FRAME_END:
			ret = write_frame_end(t, rec);
			if (ret == 0 && rec->frame_end->frame >= t->rep->last) {
				return 0;
			}
			break;
		default:
			ret = put_record(t, rec);
			break;
		}
		if (ret < 0) {
			return t->err->code ? ret : fail(t, ret, "copying");
		}
	}
	return ret ? fail(t, ret, "copying") : ended_early(t);
}

/* Pass 4: Fence records of the kept frames that come after B. */
static int copy_late_fences(struct trim *t)
{
	const Hwct__Record *rec;
	unsigned frames = 0;
	int ret = 0;

	while (t->fences.pending && frames <= TRIM_FENCE_LOOKAHEAD && (ret = hwct_reader_next(t->in, &rec)) > 0) {
		if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
			frames++;
		} else if (rec->kind_case == HWCT__RECORD__KIND_FENCE && trim_fences_take(&t->fences, rec->fence->id)) {
			ret = write_fence(t, rec);
			if (ret < 0) {
				return ret;
			}
		}
	}
	t->rep->fences_missing = t->fences.pending;
	return ret < 0 ? fail(t, ret, "reading fences") : 0;
}

static struct hwct_writer *create_writer(struct trim *t, int fd, const char *in_path)
{
	const Hwct__FileHeader *h = hwct_reader_info(t->in)->header;
	struct hwct_writer_options opts;
	const char **keys = calloc(h->n_options + 2, sizeof(*keys));
	const char **values = calloc(h->n_options + 2, sizeof(*values));
	struct hwct_writer *w = NULL;
	char range[64];

	if (keys && values) {
		for (size_t i = 0; i < h->n_options; i++) {
			keys[i] = h->options[i]->key ? h->options[i]->key : "";
			values[i] = h->options[i]->value ? h->options[i]->value : "";
		}
		snprintf(range, sizeof(range), "%" PRIu64 "-%" PRIu64, t->rep->first, t->rep->last);
		keys[h->n_options] = "trim.source";
		values[h->n_options] = in_path;
		keys[h->n_options + 1] = "trim.frames";
		values[h->n_options + 1] = range;
		hwct_writer_options_init(&opts);
		opts.writer_name = "hwc-trace trim " HWCT_VERSION;
		opts.pixels = h->pixels;
		opts.keyframe_interval = h->keyframe_interval ? h->keyframe_interval : opts.keyframe_interval;
		opts.record_level = h->has_record_level ? h->record_level : opts.record_level;
		opts.pixel_level = h->has_pixel_level ? h->pixel_level : opts.pixel_level;
		/* blob frames of several images: similar contents compress together */
		opts.frame_target = TRIM_FRAME_TARGET;
		opts.option_keys = keys;
		opts.option_values = values;
		opts.option_count = h->n_options + 2;
		w = hwct_writer_create_fd(fd, &opts);
	} else {
		close(fd);
		errno = ENOMEM;
	}
	free(keys);
	free(values);
	return w;
}

static int run_passes(struct trim *t)
{
	int ret = seed(t);

	if (ret == 0 && (ret = trim_blobs_store_all(t->blobs)) < 0) {
		fail(t, ret, "storing the blobs of the first keyframe");
	}
	for (size_t i = 0; i < t->kept_count && ret == 0; i++) {
		ret = put_record(t, (const Hwct__Record *)t->kept[i]);
	}
	if (ret == 0) {
		ret = copy_frames(t);
	}
	if (ret == 0) {
		ret = copy_late_fences(t);
	}
	return ret;
}

/* Buffer b's rows are padded or its planes apart (content before 1.3 then holds more than the picture). */
static bool padded(const Hwct__Buffer *b, uint64_t *id)
{
	struct hwct_picture p;

	*id = b->id;
	return hwct_picture_of_buffer(&p, b) && !hwct_picture_is_packed(&p);
}

/*
 * Refuses a trace before format 1.3 that holds a buffer of padded layout:
 * its content is the buffer's bytes with their padding, which OUT, written
 * as the current version, would declare a picture (docs/format.md section
 * 3.3). Traces whose buffers are all packed hold pictures already. Leaves
 * in rewound.
 */
static int check_layouts(struct hwct_reader *in, struct hwct_error *err)
{
	const Hwct__Record *rec;
	uint64_t id = 0;
	bool found = false;
	int ret;

	if (hwct_reader_packed_content(in)) {
		return 0;
	}
	while (!found && (ret = hwct_reader_next(in, &rec)) == 1) {
		if (rec->kind_case == HWCT__RECORD__KIND_BUFFER) {
			found = padded(rec->buffer, &id);
		} else if (rec->kind_case == HWCT__RECORD__KIND_KEYFRAME) {
			for (size_t i = 0; i < rec->keyframe->n_buffers && !found; i++) {
				found = padded(rec->keyframe->buffers[i], &id);
			}
		}
	}
	ret = hwct_reader_rewind(in);
	if (found) {
		const struct hwct_trace_info *info = hwct_reader_info(in);

		return hwct_error_set(err, -ENOTSUP, hwct_reader_name(in), UINT64_MAX,
			"format %u.%u with padded buffer rows (buffer %" PRIu64 "): its content holds the padding, "
			"which a trace of format %d.%d cannot; trimming it is not supported", info->major, info->minor, id,
			HWCT_FORMAT_MAJOR, HWCT_FORMAT_MINOR);
	}
	return ret < 0 ? hwct_error_set(err, ret, hwct_reader_name(in), UINT64_MAX, "rewind: %s", strerror(-ret)) : 0;
}

int trim_run(struct hwct_reader *in, const char *out, uint64_t first, uint64_t last, struct trim_report *rep,
	struct hwct_error *err)
{
	const struct hwct_trace_info *info = hwct_reader_info(in);
	struct trim t = { .in = in, .rep = rep, .err = err };
	struct stat in_st, out_st;
	size_t len = strlen(out);
	char *tmp = malloc(len + sizeof(".trim-XXXXXX"));
	int fd, ret;

	*rep = (struct trim_report){ .first = first, .last = last };
	hwct_error_clear(err);
	if (!tmp) {
		return hwct_error_set(err, -ENOMEM, out, UINT64_MAX, "out of memory");
	}
	if (first > last || last >= info->frame_count) {
		free(tmp);
		return hwct_error_set(err, -ERANGE, hwct_reader_name(in), UINT64_MAX,
			"no frames %" PRIu64 "-%" PRIu64 " (the trace has frames 0-%" PRIu64 ")", first, last,
			info->frame_count ? info->frame_count - 1 : 0);
	}
	if (stat(hwct_reader_name(in), &in_st) == 0 && stat(out, &out_st) == 0 && in_st.st_dev == out_st.st_dev &&
		in_st.st_ino == out_st.st_ino) {
		free(tmp);
		return hwct_error_set(err, -EEXIST, out, UINT64_MAX, "is the input trace (refused)");
	}
	ret = check_layouts(in, err);
	if (ret < 0) {
		free(tmp);
		return ret;
	}
	memcpy(tmp, out, len);
	memcpy(tmp + len, ".trim-XXXXXX", sizeof(".trim-XXXXXX"));
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		free(tmp);
		return hwct_error_set(err, ret, out, UINT64_MAX, "cannot create a file beside it: %s", strerror(-ret));
	}
	fchmod(fd, 0644);
	t.w = create_writer(&t, fd, hwct_reader_name(in));
	t.blobs = t.w ? trim_blobs_create(in, t.w, rep) : NULL;
	if (!t.blobs) {
		ret = hwct_error_set(err, t.w ? -ENOMEM : -errno, out, UINT64_MAX, "cannot start writing: %s",
			strerror(t.w ? ENOMEM : errno));
	} else {
		ret = run_passes(&t);
	}
	trim_blobs_destroy(t.blobs);
	if (t.w) {
		int close_ret = hwct_writer_close(t.w);

		if (ret == 0 && close_ret < 0) {
			ret = hwct_error_set(err, close_ret, out, UINT64_MAX, "writing: %s", strerror(-close_ret));
		}
	}
	if (ret == 0 && rename(tmp, out) != 0) {
		ret = -errno;
		hwct_error_set(err, ret, out, UINT64_MAX, "cannot rename %s to it: %s", tmp, strerror(-ret));
	}
	if (ret < 0) {
		unlink(tmp);
	} else if (stat(out, &out_st) == 0) {
		rep->out_size = (uint64_t)out_st.st_size;
	}
	for (size_t i = 0; i < t.kept_count; i++) {
		if (t.kept[i]) {
			protobuf_c_message_free_unpacked(t.kept[i], NULL);
		}
	}
	free(t.kept);
	trim_fences_finish(&t.fences);
	free(t.display_ids);
	free(t.display_frames);
	free(tmp);
	return ret;
}
