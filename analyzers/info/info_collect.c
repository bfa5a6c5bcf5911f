/* Collecting the facts of `hwc-trace info` by reading a trace whole (info.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/hash.h>

#include "info.h"
#include "pb.h"

/* A growable array of fixed-size keys, deduplicated at the end. */
struct keyset {
	uint8_t *keys;
	size_t size;		/* bytes per key */
	int (*compare)(const void *a, const void *b);
	size_t count, cap;
};

static int keyset_add(struct keyset *s, const void *key)
{
	if (s->count == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		uint8_t *keys = realloc(s->keys, cap * s->size);

		if (!keys) {
			return -ENOMEM;
		}
		s->keys = keys;
		s->cap = cap;
	}
	memcpy(s->keys + s->count++ * s->size, key, s->size);
	return 0;
}

static int compare_ids(const void *a, const void *b)
{
	uint64_t x, y;

	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	return x < y ? -1 : x > y;
}

static int compare_hashes(const void *a, const void *b)
{
	return memcmp(a, b, HWCT_HASH_BYTES);
}

/* Number of distinct keys; frees s. */
static uint64_t keyset_distinct(struct keyset *s)
{
	uint64_t distinct = 0;

	if (s->count) {
		qsort(s->keys, s->count, s->size, s->compare);
	}
	for (size_t i = 0; i < s->count; i++) {
		if (i == 0 || memcmp(s->keys + i * s->size, s->keys + (i - 1) * s->size, s->size) != 0) {
			distinct++;
		}
	}
	free(s->keys);
	*s = (struct keyset){ 0 };
	return distinct;
}

struct collector {
	struct info_facts *facts;
	struct keyset buffers, blobs, fences;
};

static struct info_display *display_entry(struct info_facts *facts, uint64_t id)
{
	struct info_display *d;

	for (size_t i = 0; i < facts->display_count; i++) {
		if (facts->displays[i].id == id) {
			return &facts->displays[i];
		}
	}
	d = realloc(facts->displays, (facts->display_count + 1) * sizeof(*d));
	if (!d) {
		return NULL;
	}
	facts->displays = d;
	d = &d[facts->display_count++];
	*d = (struct info_display){ .id = id };
	return d;
}

static int note_display(struct info_facts *facts, const Hwct__Display *display)
{
	struct info_display *d = display_entry(facts, display->id);
	ProtobufCMessage *copy;

	if (!d || !(copy = pb_clone(&display->base))) {
		return -ENOMEM;
	}
	if (d->display) {
		protobuf_c_message_free_unpacked(&d->display->base, NULL);
	}
	d->display = (Hwct__Display *)copy;
	return 0;
}

static int note_call(struct info_facts *facts, const Hwct__Call *c)
{
	struct info_function *f;

	facts->calls++;
	for (size_t i = 0; i < facts->function_count; i++) {
		if (facts->functions[i].function == c->function) {
			facts->functions[i].calls++;
			return 0;
		}
	}
	f = realloc(facts->functions, (facts->function_count + 1) * sizeof(*f));
	if (!f) {
		return -ENOMEM;
	}
	facts->functions = f;
	f[facts->function_count++] = (struct info_function){ c->function, 1 };
	return 0;
}

static void note_time(struct info_facts *facts, bool has, uint64_t t)
{
	if (!has || t == 0) {
		return;
	}
	if (!facts->has_time || t < facts->t_first) {
		facts->t_first = t;
	}
	if (!facts->has_time || t > facts->t_last) {
		facts->t_last = t;
	}
	facts->has_time = true;
}

static int note_keyframe(struct collector *c, const Hwct__Keyframe *k)
{
	int ret = 0;

	c->facts->keyframes++;
	c->facts->seek_keyframes += !k->mid_frame;
	note_time(c->facts, k->has_t_ns, k->t_ns);
	for (size_t i = 0; i < k->n_displays && ret == 0; i++) {
		ret = note_display(c->facts, k->displays[i]);
	}
	for (size_t i = 0; i < k->n_buffers && ret == 0; i++) {
		ret = keyset_add(&c->buffers, &k->buffers[i]->id);
	}
	return ret;
}

static int note_frame_end(struct info_facts *facts, const Hwct__FrameEnd *fe)
{
	struct info_display *d = display_entry(facts, fe->display);

	if (!d) {
		return -ENOMEM;
	}
	d->frames++;
	facts->frame_ends++;
	note_time(facts, fe->has_t_ns, fe->t_ns);
	return 0;
}

static int note_record(struct collector *c, const Hwct__Record *rec)
{
	struct info_facts *facts = c->facts;
	const ProtobufCFieldDescriptor *kind;
	const ProtobufCMessage *msg;

	if (pb_record_kind(rec, &kind, &msg)) {
		facts->records_by_kind[kind - hwct__record__descriptor.fields]++;
	}
	facts->records++;
	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_ENVIRONMENT:
		if (!facts->environment) {
			facts->environment = (Hwct__Environment *)pb_clone(&rec->environment->base);
			return facts->environment ? 0 : -ENOMEM;
		}
		return 0;
	case HWCT__RECORD__KIND_DISPLAY:
		return note_display(facts, rec->display);
	case HWCT__RECORD__KIND_CALL:
		note_time(facts, rec->call->has_t_enter_ns, rec->call->t_enter_ns);
		note_time(facts, rec->call->has_t_exit_ns, rec->call->t_exit_ns);
		return note_call(facts, rec->call);
	case HWCT__RECORD__KIND_BUFFER:
		return keyset_add(&c->buffers, &rec->buffer->id);
	case HWCT__RECORD__KIND_BLOB:
		facts->blob_payload += rec->blob->size;
		facts->blob_data += rec->blob->data.len;
		return rec->blob->hash.len == HWCT_HASH_BYTES ? keyset_add(&c->blobs, rec->blob->hash.data) : 0;
	case HWCT__RECORD__KIND_FENCE:
		note_time(facts, rec->fence->has_created_ns, rec->fence->created_ns);
		note_time(facts, rec->fence->has_signal_ns, rec->fence->signal_ns);
		return keyset_add(&c->fences, &rec->fence->id);
	case HWCT__RECORD__KIND_CALLBACK:
		note_time(facts, rec->callback->has_t_ns, rec->callback->t_ns);
		return 0;
	case HWCT__RECORD__KIND_KEYFRAME:
		return note_keyframe(c, rec->keyframe);
	case HWCT__RECORD__KIND_FRAME_END:
		return note_frame_end(facts, rec->frame_end);
	case HWCT__RECORD__KIND_CAPTURE_STATS:
		note_time(facts, rec->capture_stats->has_t_ns, rec->capture_stats->t_ns);
		return 0;
	default:
		return 0;
	}
}

static int by_calls(const void *a, const void *b)
{
	const struct info_function *x = a, *y = b;

	if (x->calls != y->calls) {
		return x->calls < y->calls ? 1 : -1;
	}
	return x->function < y->function ? -1 : x->function > y->function;
}

static int by_id(const void *a, const void *b)
{
	const struct info_display *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int info_collect(struct hwct_reader *r, struct info_facts *facts)
{
	struct collector c = {
		.facts = facts,
		.buffers = { .size = sizeof(uint64_t), .compare = compare_ids },
		.blobs = { .size = HWCT_HASH_BYTES, .compare = compare_hashes },
		.fences = { .size = sizeof(uint64_t), .compare = compare_ids },
	};
	const Hwct__Record *rec;
	int ret;

	facts->trace = hwct_reader_info(r);
	hwct_reader_frame_counts(r, &facts->frames);
	facts->records_by_kind = calloc(hwct__record__descriptor.n_fields, sizeof(*facts->records_by_kind));
	ret = facts->records_by_kind ? 0 : -ENOMEM;
	while (ret == 0 && (ret = hwct_reader_next(r, &rec)) > 0) {
		ret = note_record(&c, rec);
	}
	facts->complete = ret == 0;
	if (ret < 0 && hwct_reader_error(r)) {
		facts->error = *hwct_reader_error(r);
	} else if (ret < 0) {
		hwct_error_set(&facts->error, ret, hwct_reader_name(r), UINT64_MAX, "out of memory");
	}
	facts->buffers = keyset_distinct(&c.buffers);
	facts->blobs = keyset_distinct(&c.blobs);
	facts->fences = keyset_distinct(&c.fences);
	if (facts->function_count) {
		qsort(facts->functions, facts->function_count, sizeof(*facts->functions), by_calls);
	}
	if (facts->display_count) {
		qsort(facts->displays, facts->display_count, sizeof(*facts->displays), by_id);
	}
	return ret;
}

void info_facts_finish(struct info_facts *facts)
{
	if (facts->environment) {
		protobuf_c_message_free_unpacked(&facts->environment->base, NULL);
	}
	for (size_t i = 0; i < facts->display_count; i++) {
		if (facts->displays[i].display) {
			protobuf_c_message_free_unpacked(&facts->displays[i].display->base, NULL);
		}
	}
	free(facts->displays);
	free(facts->functions);
	free(facts->records_by_kind);
	*facts = (struct info_facts){ 0 };
}
