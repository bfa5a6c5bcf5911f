/* The layer snapshots of a Perfetto trace (winscope_perfetto.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "winscope_perfetto.h"

#define DETECT_PACKETS 64	/* packets looked into before giving up */

/* A varint at data[*pos] (before end), tolerantly: false when it does not end there. */
static bool varint_at(const uint8_t *data, size_t end, size_t *pos, uint64_t *v)
{
	*v = 0;
	for (unsigned shift = 0; *pos < end && shift < 64; shift += 7) {
		uint8_t b = data[(*pos)++];

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			return true;
		}
	}
	return false;
}

/* Whether the packet in data[pos, end) has field 93 as a message, as far as it is readable. */
static bool packet_has_layers(const uint8_t *data, size_t pos, size_t end)
{
	struct ws_walker wk = { .data = data, .size = end, .pos = pos };
	struct ws_field f;
	int ret;

	for (;;) {
		size_t key_at = wk.pos;
		uint64_t key;

		ret = ws_wire_next(&wk, &f);
		if (ret > 0 && f.number == WS_PERFETTO_LAYERS) {
			return true;	/* of the wrong wire type: ws_perfetto_walk() says so */
		}
		if (ret < 0) {
			/* a truncated or damaged snapshot still shows its key */
			return varint_at(data, end, &key_at, &key) && key >> 3 == WS_PERFETTO_LAYERS;
		}
		if (ret == 0) {
			return false;
		}
	}
}

bool ws_perfetto_detect(const uint8_t *data, size_t size)
{
	struct ws_walker wk = { .data = data, .size = size };
	struct ws_field f;

	for (unsigned n = 0; n < DETECT_PACKETS; n++) {
		size_t at = wk.pos;
		uint64_t key, len;
		int ret = ws_wire_next(&wk, &f);

		if (ret > 0 && (f.number != WS_PERFETTO_PACKET || f.type != WS_WIRE_LEN)) {
			return false;
		}
		if (ret > 0 && packet_has_layers(data, (size_t)f.data_offset, (size_t)(f.data_offset + f.length))) {
			return true;
		}
		if (ret < 0) {
			/* the last packet runs past the end: look into what there is of it */
			return varint_at(data, size, &at, &key) && key == (WS_PERFETTO_PACKET << 3 | WS_WIRE_LEN) &&
				varint_at(data, size, &at, &len) && packet_has_layers(data, at, size);
		}
		if (ret == 0) {
			return false;
		}
	}
	return false;
}

int ws_perfetto_walk(struct ws_trace *t, struct ws_walker *wk, size_t *cap)
{
	struct ws_field f;
	uint64_t packet = 0;
	int ret;

	for (;; packet++) {
		struct ws_walker in;
		struct ws_field g;
		bool used = false;

		snprintf(wk->context, sizeof(wk->context), "Perfetto packet %" PRIu64 ": ", packet);
		ret = ws_wire_next(wk, &f);
		if (ret <= 0) {
			break;
		}
		if (f.number != WS_PERFETTO_PACKET || f.type != WS_WIRE_LEN) {
			return ws_wire_fail(wk, f.offset, "field %" PRIu32 " (wire type %u) at the top level: a "
				"Perfetto trace holds only packets (field 1, length-delimited)", f.number,
				(unsigned)f.type);
		}
		in = ws_wire_nested(wk, &f);
		while ((ret = ws_wire_next(&in, &g)) > 0) {
			if (g.number != WS_PERFETTO_LAYERS) {
				continue;
			}
			if (g.type != WS_WIRE_LEN) {
				return ws_wire_fail(&in, g.offset, "malformed: field 93 (the layers snapshot) has "
					"wire type %u", (unsigned)g.type);
			}
			ret = ws_trace_add(t, cap, g.data_offset, g.length, wk->name, wk->err);
			if (ret < 0) {
				return ret;
			}
			used = true;
		}
		if (ret < 0) {
			return ret;
		}
		t->packets++;
		t->packets_skipped += !used;
	}
	if (ret < 0) {
		return ret;
	}
	wk->context[0] = '\0';
	if (!t->count) {
		return ws_wire_fail(wk, wk->size, "the Perfetto trace has no layer snapshots (TracePacket "
			"field 93) in its %" PRIu64 " packets", t->packets);
	}
	return 0;
}
