/*
 * Reading a transaction trace (tnx_trace_read()): the container is walked
 * by hand (winscope_wire.h) so that errors name the offset and the entry;
 * each entry is unpacked by protobuf-c (transactions.proto).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tnx.h"
#include "winscope_wire.h"

#define MAGIC 0x4543415254584e54ull	/* "TNXTRACE" as a little-endian fixed64 */
#define PERFETTO_PACKET 1
#define PERFETTO_TRANSACTIONS 94
#define MAX_ENTRIES 1000000u

static int add(struct tnx_trace *t, size_t *cap, const uint8_t *data, const struct ws_field *f, const char *name,
	struct hwct_error *err)
{
	Tnx__TransactionTraceEntry *e;

	if (t->count == *cap) {
		size_t n = *cap ? *cap * 2 : 256;
		Tnx__TransactionTraceEntry **v;

		if (t->count >= MAX_ENTRIES) {
			return hwct_error_set(err, -EINVAL, name, f->offset, "more than %u entries: not a plausible "
				"transaction trace", MAX_ENTRIES);
		}
		v = realloc(t->entries, n * sizeof(*v));
		if (!v) {
			return hwct_error_set(err, -ENOMEM, name, f->offset, "out of memory");
		}
		t->entries = v;
		*cap = n;
	}
	e = tnx__transaction_trace_entry__unpack(NULL, (size_t)f->length, data + f->data_offset);
	if (!e) {
		return hwct_error_set(err, -EINVAL, name, f->data_offset, "transaction entry %zu (%" PRIu64 " bytes): "
			"not a valid TransactionTraceEntry (protobuf-c could not unpack it: a field of the wrong type, "
			"or a truncated or corrupt nested message)", t->count, f->length);
	}
	t->entries[t->count++] = e;
	return 0;
}

static int walk_file(struct tnx_trace *t, struct ws_walker *wk, size_t *cap)
{
	struct ws_field f;
	int ret;

	for (;;) {
		snprintf(wk->context, sizeof(wk->context), "transaction entry %zu: ", t->count);
		ret = ws_wire_next(wk, &f);
		if (ret <= 0) {
			break;
		}
		if (f.number == 1 && (f.type != WS_WIRE_I64 || f.value != MAGIC)) {
			return ws_wire_fail(wk, f.offset, "not a transaction trace: field 1 is not the magic \"TNXTRACE\"");
		}
		if (f.number == 2) {
			if (f.type != WS_WIRE_LEN) {
				return ws_wire_fail(wk, f.offset, "malformed: field 2 (an entry) has wire type %u",
					(unsigned)f.type);
			}
			ret = add(t, cap, wk->data, &f, wk->name, wk->err);
			if (ret < 0) {
				return ret;
			}
		}
	}
	return ret;
}

static int walk_perfetto(struct tnx_trace *t, struct ws_walker *wk, size_t *cap)
{
	struct ws_field f;
	int ret;

	t->perfetto = true;
	for (;;) {
		struct ws_walker in;
		struct ws_field g;

		snprintf(wk->context, sizeof(wk->context), "Perfetto packet %" PRIu64 ": ", t->packets);
		ret = ws_wire_next(wk, &f);
		if (ret <= 0) {
			break;
		}
		if (f.number != PERFETTO_PACKET || f.type != WS_WIRE_LEN) {
			return ws_wire_fail(wk, f.offset, "field %" PRIu32 " (wire type %u) at the top level: a Perfetto "
				"trace holds only packets (field 1, length-delimited)", f.number, (unsigned)f.type);
		}
		in = ws_wire_nested(wk, &f);
		while ((ret = ws_wire_next(&in, &g)) > 0) {
			if (g.number != PERFETTO_TRANSACTIONS) {
				continue;
			}
			if (g.type != WS_WIRE_LEN) {
				return ws_wire_fail(&in, g.offset, "malformed: field 94 (transactions) has wire type %u",
					(unsigned)g.type);
			}
			ret = add(t, cap, wk->data, &g, wk->name, wk->err);
			if (ret < 0) {
				return ret;
			}
		}
		if (ret < 0) {
			return ret;
		}
		t->packets++;
	}
	return ret;
}

int tnx_trace_read(struct tnx_trace *t, const uint8_t *data, size_t size, const char *name, struct hwct_error *err)
{
	struct ws_walker wk = { .data = data, .size = size, .name = name, .err = err };
	size_t cap = 0;
	int ret;

	*t = (struct tnx_trace){ 0 };
	hwct_error_clear(err);
	ret = size && data[0] == 0x09 ? walk_file(t, &wk, &cap) : walk_perfetto(t, &wk, &cap);
	if (ret == 0 && !t->count) {
		wk.context[0] = '\0';
		ret = ws_wire_fail(&wk, size, "the transaction trace has no entries");
	}
	if (ret < 0) {
		tnx_trace_finish(t);
	}
	return ret;
}

void tnx_trace_finish(struct tnx_trace *t)
{
	for (size_t i = 0; i < t->count; i++) {
		tnx__transaction_trace_entry__free_unpacked(t->entries[i], NULL);
	}
	free(t->entries);
	*t = (struct tnx_trace){ 0 };
}
