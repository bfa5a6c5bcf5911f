/* Transaction trace -> layer trace bytes (tnx_import.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tnx_import.h"

#define LYRTRACE 0x454341525452594cull

struct out {
	uint8_t *data;
	size_t size, cap;
};

static int reserve(struct out *o, size_t more)
{
	if (o->cap - o->size < more) {
		size_t n = o->cap ? o->cap : 1u << 20;
		uint8_t *p;

		while (n - o->size < more) {
			n *= 2;
		}
		p = realloc(o->data, n);
		if (!p) {
			return -ENOMEM;
		}
		o->data = p;
		o->cap = n;
	}
	return 0;
}

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

static int write_entry(struct out *o, const struct tnx_state *s, uint32_t w, uint32_t h)
{
	Winscope__LayersTraceProto *e;
	size_t len;
	int ret = tnx_entry_make(s, w, h, &e);

	if (ret < 0) {
		return ret;
	}
	len = winscope__layers_trace_proto__get_packed_size(e);
	ret = reserve(o, len + 11);
	if (ret == 0) {
		o->data[o->size++] = 2 << 3 | 2;
		o->size += put_varint(o->data + o->size, len);
		o->size += winscope__layers_trace_proto__pack(e, o->data + o->size);
	}
	tnx_entry_free(e);
	return ret;
}

/* The largest buffer of the trace: the display size when none is given (the trace records none). */
static void largest_buffer(const struct tnx_trace *t, uint32_t *w, uint32_t *h)
{
	uint64_t best = 0;

	for (size_t i = 0; i < t->count; i++) {
		for (size_t k = 0; k < t->entries[i]->n_transactions; k++) {
			const Tnx__TransactionState *ts = t->entries[i]->transactions[k];

			for (size_t c = 0; c < ts->n_layer_changes; c++) {
				const Tnx__LayerState__BufferData *b = ts->layer_changes[c]->buffer_data;

				if (b && b->width <= 8192 && b->height <= 8192 && (uint64_t)b->width * b->height > best) {
					best = (uint64_t)b->width * b->height;
					*w = b->width;
					*h = b->height;
				}
			}
		}
	}
}

int tnx_import(const uint8_t *data, size_t size, const char *name, const struct tnx_options *opts,
	uint8_t **out_data, size_t *out_size, struct tnx_report *rep, struct hwct_error *err)
{
	struct tnx_report local;
	struct tnx_trace t;
	struct tnx_state s;
	struct out o = { 0 };
	size_t next = 0;
	int ret;

	rep = rep ? rep : &local;
	*rep = (struct tnx_report){ 0 };
	*out_data = NULL;
	*out_size = 0;
	ret = tnx_trace_read(&t, data, size, name, err);
	if (ret < 0) {
		return ret;
	}
	rep->entries = t.count;
	rep->perfetto = t.perfetto;
	rep->packets = t.packets;
	rep->first_ns = t.entries[0]->elapsed_realtime_nanos;
	rep->last_ns = t.entries[t.count - 1]->elapsed_realtime_nanos;
	rep->width = opts->width;
	rep->height = opts->height;
	if (!rep->width || !rep->height) {
		rep->width = rep->height = 0;
		largest_buffer(&t, &rep->width, &rep->height);
		rep->size_inferred = true;
		if (!rep->width) {
			tnx_trace_finish(&t);
			return hwct_error_set(err, -EINVAL, name, UINT64_MAX, "the transaction trace records no display "
				"and no buffer to take the display size from: give it with --size");
		}
	}
	tnx_state_init(&s, opts->max_layers);
	ret = reserve(&o, 9);
	if (ret == 0) {
		o.data[o.size++] = 1 << 3 | 1;
		for (unsigned i = 0; i < 8; i++) {
			o.data[o.size++] = (uint8_t)(LYRTRACE >> (8 * i));
		}
	}
	for (size_t i = 0; i < t.count && ret == 0; i++) {
		const Tnx__TransactionTraceEntry *e = t.entries[i];

		/* the state at each chosen time before this entry: what was committed by then */
		while (opts->at && next < opts->at_count && opts->at[next] < e->elapsed_realtime_nanos && i > 0 &&
			ret == 0) {
			s.time_ns = opts->at[next++];
			ret = write_entry(&o, &s, rep->width, rep->height);
			rep->written++;
		}
		if (ret < 0) {
			break;
		}
		ret = tnx_state_apply(&s, e);
		if (ret == -E2BIG) {
			ret = hwct_error_set(err, ret, name, UINT64_MAX, "transaction entry %zu: more than %" PRIu32
				" layers alive at once: not a plausible transaction trace", i, opts->max_layers);
			break;
		}
		rep->transactions += e->n_transactions;
		if (!opts->at && ret == 0) {
			ret = write_entry(&o, &s, rep->width, rep->height);
			rep->written++;
		}
	}
	while (ret == 0 && opts->at && next < opts->at_count) {
		s.time_ns = opts->at[next++];
		ret = write_entry(&o, &s, rep->width, rep->height);
		rep->written++;
	}
	rep->gaps = s.gaps;
	tnx_state_finish(&s);
	tnx_trace_finish(&t);
	if (ret == -ENOMEM) {
		ret = hwct_error_set(err, ret, name, UINT64_MAX, "out of memory");
	}
	if (ret < 0) {
		free(o.data);
		return ret;
	}
	*out_data = o.data;
	*out_size = o.size;
	return 0;
}
