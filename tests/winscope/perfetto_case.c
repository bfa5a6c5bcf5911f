/*
 * The Perfetto layer trace: it imports with its display size inferred from
 * the root layers' bounds (it records none), reports the layers that repeat
 * an id and the packets it skipped, and gives the same frames as the same
 * snapshots re-wrapped by this test in a LayersTraceFileProto.
 */
#include <stdio.h>
#include <string.h>

#include "outtrace.h"
#include "testlib.h"
#include "wscase.h"

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

/* LayersTraceFileProto: 1 magic "LYRTRACE", 2 each snapshot as an entry. */
static void write_legacy(const struct fixture *fx, const char *path)
{
	uint8_t *out = malloc(fx->size + 9 + 10 * fx->count);
	size_t n = 0;

	CHECK(out);
	out[n++] = 0x09;
	memcpy(out + n, "LYRTRACE", 8);
	n += 8;
	for (size_t i = 0; i < fx->count; i++) {
		out[n++] = 0x12;
		n += put_varint(out + n, fx->entries[i].size);
		memcpy(out + n, fx->data + fx->entries[i].offset, fx->entries[i].size);
		n += fx->entries[i].size;
	}
	test_write_file(path, out, n);
	free(out);
}

/*
 * Trace { packet { trusted_packet_sequence_id (10) }, and per entry
 * packet { timestamp (8), surfaceflinger_layers_snapshot (93) = the entry } }:
 * a Perfetto container of the same snapshots, with a packet to skip.
 */
static void write_perfetto(const struct fixture *fx, const char *path)
{
	uint8_t *out = malloc(fx->size + 32 + 40 * fx->count);
	size_t n = 0;

	CHECK(out);
	out[n++] = 0x0a;	/* packet: field 1, length 2: field 10 = 1 */
	out[n++] = 2;
	out[n++] = 0x50;
	out[n++] = 1;
	for (size_t i = 0; i < fx->count; i++) {
		uint8_t head[16];
		size_t h = 0, size = fx->entries[i].size;

		head[h++] = 0x40;	/* timestamp: field 8 */
		h += put_varint(head + h, 1000 + i);
		head[h++] = 0xea;	/* field 93, length-delimited: key 746 */
		head[h++] = 0x05;
		h += put_varint(head + h, size);
		out[n++] = 0x0a;
		n += put_varint(out + n, h + size);
		memcpy(out + n, head, h);
		n += h;
		memcpy(out + n, fx->data + fx->entries[i].offset, size);
		n += size;
	}
	test_write_file(path, out, n);
	free(out);
}

static void same_frames(const char *a_path, const char *b_path)
{
	struct out_trace a, b;

	out_trace_load(&a, a_path);
	out_trace_load(&b, b_path);
	CHECK_MSG(a.count == b.count, "%zu frames from Perfetto, %zu re-wrapped", a.count, b.count);
	CHECK(a.width == b.width && a.height == b.height);
	CHECK(a.buffers_set == b.buffers_set && a.displays == b.displays);
	for (size_t d = 0; d < OUT_MAX_DISPLAYS; d++) {
		CHECK_MSG(a.display_frames[d] == b.display_frames[d], "display %zu: %zu frames, %zu", d,
			a.display_frames[d], b.display_frames[d]);
	}
	for (size_t i = 0; i < a.count; i++) {
		CHECK_MSG(a.frames[i].count == b.frames[i].count && a.frames[i].t_ns == b.frames[i].t_ns &&
			a.frames[i].display == b.frames[i].display &&
			memcmp(a.frames[i].types, b.frames[i].types, a.frames[i].count * sizeof(int32_t)) == 0,
			"frame %zu differs", i);
	}
	out_trace_finish(&a);
	out_trace_finish(&b);
}

int case_perfetto(struct ctx *c)
{
	char *out = test_path("perfetto.zst"), *legacy = test_path("rewrapped.pb");
	char *legacy_out = test_path("rewrapped.zst");
	struct ctx sized = *c;
	char expect[160];
	size_t dups = 0;
	struct test_run run;

	CHECK_MSG(c->fx.perfetto, "%s is not a Perfetto trace", c->fixture);
	CHECK_MSG(c->fx.width == 0 && c->fx.root_width > 0, "the fixture should record no size (%dx%d) and "
		"have root-layer bounds (%dx%d)", c->fx.width, c->fx.height, c->fx.root_width, c->fx.root_height);
	import(c, c->fixture, out, &run);
	CHECK_MSG(run.status == 0, "exit status %d: %s", run.status, run.err);
	CHECK_MSG(strstr(run.out, "inferred from the root layers' bounds"), "size source not said: %s", run.out);
	snprintf(expect, sizeof(expect), "Perfetto trace: %zu packet%s, %zu without a layer snapshot skipped",
		c->fx.packets, c->fx.packets == 1 ? "" : "s", c->fx.packets - c->fx.count);
	CHECK_MSG(strstr(run.out, expect), "expected '%s' in: %s", expect, run.out);
	for (size_t i = 0; i < c->fx.count; i++) {
		dups = c->fx.entries[i].duplicates > dups ? c->fx.entries[i].duplicates : dups;
	}
	CHECK(dups > 0);
	snprintf(expect, sizeof(expect), "%zu layer%s repeating an earlier layer's id", dups, dups == 1 ? "" : "s");
	CHECK_MSG(strstr(run.out, expect), "expected '%s' in: %s", expect, run.out);
	test_run_finish(&run);
	sized.fx.width = c->fx.root_width;
	sized.fx.height = c->fx.root_height;
	check_output(&sized, out, c->fx.count, c->fx.entries);

	write_legacy(&c->fx, legacy);
	import(c, legacy, legacy_out, &run);
	CHECK_MSG(run.status == 0, "re-wrapped: exit status %d: %s", run.status, run.err);
	test_run_finish(&run);
	same_frames(out, legacy_out);
	printf("%s: %zu snapshots in %zu packets, %zu duplicated ids, display %dx%d inferred: as imported, and as "
		"the re-wrapped LayersTraceFileProto\n", base_name(c->fixture), c->fx.count, c->fx.packets, dups,
		c->fx.root_width, c->fx.root_height);
	free(out);
	free(legacy);
	free(legacy_out);
	return 0;
}

int case_containers(struct ctx *c)
{
	char *out = test_path("legacy.zst"), *pf = test_path("wrapped.perfetto-trace");
	char *pf_out = test_path("wrapped.zst");
	char expect[96];
	struct test_run run;

	CHECK(!c->fx.perfetto);
	import(c, c->fixture, out, &run);
	CHECK_MSG(run.status == 0, "exit status %d: %s", run.status, run.err);
	test_run_finish(&run);
	write_perfetto(&c->fx, pf);
	import(c, pf, pf_out, &run);
	CHECK_MSG(run.status == 0, "as Perfetto: exit status %d: %s", run.status, run.err);
	snprintf(expect, sizeof(expect), "Perfetto trace: %zu packets, 1 without a layer snapshot skipped",
		c->fx.count + 1);
	CHECK_MSG(strstr(run.out, expect), "expected '%s' in: %s", expect, run.out);
	test_run_finish(&run);
	same_frames(out, pf_out);
	printf("%s: %zu entries on %zu displays: the same frames from the LayersTraceFileProto and from a Perfetto "
		"trace of the same snapshots\n", base_name(c->fixture), c->fx.count, c->fx.display_count);
	free(out);
	free(pf);
	free(pf_out);
	return 0;
}
