/*
 * Tests of `hwc-trace import-winscope` over the real layer traces in
 * tests/data/winscope/: one meson test per (case, fixture).
 *
 *   winscope-test CASE HWC_TRACE FIXTURE [HWC_REPLAY BOARD]
 *
 * Facts are read from the fixture by fixture.c's own wire reader and from
 * the output with the hwctrace reader, then compared. The cases of inputs
 * the fuzzer found (found_case.c) take FIXTURE as it is: their facts are
 * written in the case.
 */
#include <hardware/hwcomposer2.h>
#include <stdio.h>
#include <string.h>

#include "fixture.h"
#include "outtrace.h"
#include "testlib.h"
#include "wscase.h"

const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

void import(const struct ctx *c, const char *in, const char *out, struct test_run *run)
{
	const char *argv[] = { c->hwc_trace, "import-winscope", in, out, NULL };

	test_run(run, argv);
}

/* An import that must fail with a message naming `in` (and an offset when offset is set). */
void expect_failure(const struct ctx *c, const char *in, bool offset, const char *what)
{
	char *out = test_path("failed.zst");
	struct test_run run;

	import(c, in, out, &run);
	CHECK_MSG(run.status == 1, "%s: exit status %d, stderr: %s", what, run.status, run.err);
	CHECK_MSG(strstr(run.err, in), "%s: the message does not name the input: %s", what, run.err);
	CHECK_MSG(!offset || strstr(run.err, "offset"), "%s: the message has no offset: %s", what, run.err);
	CHECK_MSG(!test_exists(out), "%s: an output was left behind", what);
	test_run_finish(&run);
	free(out);
}

static void check_decisions(const struct fixture_entry *e, const struct out_frame *f, size_t index)
{
	int32_t expected[FIXTURE_MAX_DECIDED];

	memcpy(expected, e->decided, e->decided_count * sizeof(expected[0]));
	for (size_t i = 1; i < e->decided_count; i++) {	/* insertion sort, few */
		for (size_t k = i; k > 0 && expected[k - 1] > expected[k]; k--) {
			int32_t t = expected[k];

			expected[k] = expected[k - 1];
			expected[k - 1] = t;
		}
	}
	CHECK_MSG(f->count == e->decided_count, "entry %zu: %zu layers with hwc_composition_type, frame has %zu",
		index, e->decided_count, f->count);
	for (size_t i = 0; i < f->count; i++) {
		CHECK_MSG(f->types[i] == expected[i], "entry %zu: decision %zu is %d, the trace says %d", index, i,
			f->types[i], expected[i]);
	}
}

/* Frames the import should write: every display of the fixture on each entry listing it (one when none). */
static size_t expected_frames(const struct fixture *fx, size_t entries)
{
	size_t n = 0;

	for (size_t i = 0; i < fx->display_count; i++) {
		n += fx->display_entries[i];
	}
	return fx->display_count && entries == fx->count ? n : entries;
}

/*
 * The checks of one imported trace against the fixture's facts: every
 * display, display 0 the first physical one with a frame per entry listing
 * it, and that display's decisions those the entries recorded.
 */
void check_output(const struct ctx *c, const char *out, size_t entries, const struct fixture_entry *first)
{
	size_t displays = entries == c->fx.count && c->fx.display_count ? c->fx.display_count : 1;
	size_t frames = expected_frames(&c->fx, entries), e = 0;
	struct out_trace t;
	char source[160];

	out_trace_load(&t, out);
	CHECK_MSG(t.count == frames, "%zu FrameEnd records, expected %zu", t.count, frames);
	CHECK_MSG(t.displays == displays, "%zu Display records for %zu displays", t.displays, displays);
	CHECK_MSG(t.width == c->fx.width && t.height == c->fx.height, "display %dx%d, the trace says %dx%d",
		t.width, t.height, c->fx.width, c->fx.height);
	snprintf(source, sizeof(source), "import-winscope:%s", base_name(c->fixture));
	CHECK_MSG(strcmp(t.source, source) == 0, "Environment.source '%s'", t.source);
	CHECK(t.note);
	CHECK_MSG(t.buffers_set > 0 && t.buffers_synthetic == t.buffers_set, "%zu of %zu buffers synthetic",
		t.buffers_synthetic, t.buffers_set);
	for (size_t i = 0; i < t.count; i++) {
		const struct fixture_entry *en = NULL;

		CHECK_MSG(i == 0 || t.frames[i].t_ns > t.frames[i - 1].t_ns, "frame %zu goes back in time", i);
		if (t.frames[i].display != 0) {
			continue;
		}
		/* display 0's frames follow the entries that list it */
		while (first && e < entries && entries == c->fx.count && !first[e].lists_first) {
			e++;
		}
		en = first && e < entries ? &first[e] : NULL;
		e++;
		CHECK_MSG(t.frames[i].count > 0, "frame %zu has no layers", i);
		if (en && en->decided_count) {
			check_decisions(en, &t.frames[i], i);
		} else {
			/* no decisions recorded: every layer is composed as requested */
			for (size_t k = 0; k < t.frames[i].count; k++) {
				CHECK(t.frames[i].types[k] == HWC2_COMPOSITION_DEVICE ||
					t.frames[i].types[k] == HWC2_COMPOSITION_SOLID_COLOR);
			}
		}
	}
	out_trace_finish(&t);
}

static int case_import(struct ctx *c)
{
	char *out = test_path("out.zst");
	size_t decided = 0;
	struct test_run run;

	import(c, c->fixture, out, &run);
	CHECK_MSG(run.status == 0, "exit status %d: %s", run.status, run.err);
	test_run_finish(&run);
	check_output(c, out, c->fx.count, c->fx.entries);
	for (size_t i = 0; i < c->fx.count; i++) {
		decided += c->fx.entries[i].decided_count;
	}
	printf("%s: %zu entries, %zu displays, %zu frames, %zu recorded decisions, display 0 %dx%d: as imported\n",
		base_name(c->fixture), c->fx.count, c->fx.display_count, expected_frames(&c->fx, c->fx.count), decided,
		c->fx.width, c->fx.height);
	if (c->fx.display_count > 1) {
		/* --display keeps one: the first physical display's frames, the others counted */
		char id[32], expect[64];
		const char *argv[] = { c->hwc_trace, "import-winscope", c->fixture, out, "--display", id, NULL };
		struct out_trace t;

		snprintf(id, sizeof(id), "%llu", (unsigned long long)c->fx.display_ids[c->fx.first_physical]);
		remove(out);
		test_run(&run, argv);
		CHECK_MSG(run.status == 0, "--display %s: exit status %d: %s", id, run.status, run.err);
		snprintf(expect, sizeof(expect), "%zu other display%s not imported", c->fx.display_count - 1,
			c->fx.display_count == 2 ? "" : "s");
		CHECK_MSG(strstr(run.out, expect), "--display %s: expected '%s' in: %s", id, expect, run.out);
		test_run_finish(&run);
		out_trace_load(&t, out);
		CHECK_MSG(t.displays == 1 && t.count == c->fx.display_entries[c->fx.first_physical],
			"--display %s: %zu displays, %zu frames", id, t.displays, t.count);
		out_trace_finish(&t);
		printf("--display %s: 1 display, %zu frames\n", id, c->fx.display_entries[c->fx.first_physical]);
	}
	free(out);
	return 0;
}

static int case_replay(struct ctx *c)
{
	char *out = test_path("out.zst");
	struct test_run run;

	if (!c->replay || !*c->replay) {
		printf("hwc-replay is not built: skipped\n");
		return TEST_SKIP;
	}
	import(c, c->fixture, out, &run);
	CHECK_MSG(run.status == 0, "import: exit status %d: %s", run.status, run.err);
	test_run_finish(&run);
	{
		const char *argv[] = { c->replay, out, "--profile", c->board, "--quiet", NULL };

		test_run(&run, argv);
	}
	CHECK_MSG(run.status == 0, "hwc-replay: exit status %d: %s", run.status, run.err);
	test_run_finish(&run);
	free(out);
	return 0;
}

/* Writes the first `size` bytes of the fixture, or a copy with byte `flip` xor-ed, to a scratch file. */
static char *variant(const struct ctx *c, const char *name, size_t size, size_t flip, uint8_t mask)
{
	char *path = test_path(name);
	uint8_t *copy = malloc(c->fx.size);

	CHECK(copy);
	memcpy(copy, c->fx.data, c->fx.size);
	if (flip < c->fx.size) {
		copy[flip] ^= mask;
	}
	test_write_file(path, copy, size);
	free(copy);
	return path;
}

static int case_truncated(struct ctx *c)
{
	const struct fixture_entry *first = &c->fx.entries[0], *last = &c->fx.entries[c->fx.count - 1];
	const size_t cuts[] = {
		5,					/* inside the magic */
		first->key_offset + 2,			/* inside the first entry's length */
		first->offset + first->size / 2,
		last->offset + last->size / 2,
		c->fx.size - 1,
	};

	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		char name[64], what[96];
		char *in;

		snprintf(name, sizeof(name), "cut-%zu.pb", cuts[i]);
		snprintf(what, sizeof(what), "cut at %zu of %zu bytes", cuts[i], c->fx.size);
		in = variant(c, name, cuts[i], SIZE_MAX, 0);
		expect_failure(c, in, true, what);
		free(in);
	}
	return 0;
}

/*
 * The file the anywhere-flips of case_corrupt go into: a legacy trace of
 * three or more entries keeps only its first and last entry (with every byte
 * before the first and after the last: the magic and the trailing fields),
 * so it still has every kind of framing the whole file has, at a fraction of
 * the import's cost (each import synthesizes the pixels of every frame).
 * Other files are used whole. Returns a malloc'd copy; *size its length.
 */
static uint8_t *flip_base(const struct ctx *c, size_t *size)
{
	const struct fixture_entry *first = &c->fx.entries[0], *last = &c->fx.entries[c->fx.count - 1];
	size_t head = first->offset + first->size, tail = last->key_offset;
	uint8_t *copy;

	if (c->fx.perfetto || c->fx.count < 3) {
		head = c->fx.size;
		tail = c->fx.size;
	}
	*size = head + (c->fx.size - tail);
	copy = malloc(*size);
	CHECK(copy);
	memcpy(copy, c->fx.data, head);
	memcpy(copy + head, c->fx.data + tail, c->fx.size - tail);
	return copy;
}

/*
 * Adds offset at to offsets (a set: at most max, each once, in range).
 */
static void add_offset(size_t *offsets, size_t *n, size_t max, size_t at, size_t size)
{
	if (at >= size || *n >= max) {
		return;
	}
	for (size_t i = 0; i < *n; i++) {
		if (offsets[i] == at) {
			return;
		}
	}
	offsets[(*n)++] = at;
}

#define CORRUPT_STRIDES 6
#define CORRUPT_MAX 32

/*
 * Named flips that must fail with a message, then flips anywhere, which
 * must never crash: a clean trace or a clean error. The anywhere-flips are
 * deterministic: every framing boundary of flip_base's file (its first and
 * last byte; each kept entry's key, length, first and last byte; the first
 * entry's layers key and length) and CORRUPT_STRIDES offsets spread evenly
 * over the file; the bit flipped cycles through all eight.
 */
static int case_corrupt(struct ctx *c)
{
	const struct fixture_entry *first = &c->fx.entries[0], *last = &c->fx.entries[c->fx.count - 1];
	const struct {
		size_t offset;
		uint8_t mask;
		const char *what;
	} flips[] = {
		{ c->fx.perfetto ? 0 : 1, c->fx.perfetto ? 0x07 : 0x20, c->fx.perfetto ? "packet key wire type" : "magic" },
		{ first->key_offset, 0x07, "entry key wire type" },
		{ first->layers_key, 0x05, "layers key wire type (2 -> 7)" },
	};
	size_t offsets[CORRUPT_MAX], n = 0, size, last_key;
	uint8_t *base;

	for (size_t i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
		char *in = variant(c, "flip.pb", c->fx.size, flips[i].offset, flips[i].mask);

		expect_failure(c, in, true, flips[i].what);
		free(in);
	}
	base = flip_base(c, &size);
	/* where the last entry went in the base file: right after the first, when the middle was left out */
	last_key = size < c->fx.size ? first->offset + first->size : last->key_offset;
	{
		const size_t bounds[] = {
			0, 1, size - 1,
			first->key_offset, first->key_offset + 1, first->offset, first->offset + first->size - 1,
			first->layers_key, first->layers_key + 1,
			last_key, last_key + 1, last_key + (last->offset - last->key_offset),
			last_key + (last->offset - last->key_offset) + last->size - 1,
		};

		for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
			add_offset(offsets, &n, CORRUPT_MAX, bounds[i], size);
		}
		for (size_t i = 0; i < CORRUPT_STRIDES; i++) {
			add_offset(offsets, &n, CORRUPT_MAX, size * (2 * i + 1) / (2 * CORRUPT_STRIDES), size);
		}
	}
	{
		/* the base file itself imports: the flips are the only damage */
		char *in = test_path("base.pb"), *out = test_path("base.zst");
		struct test_run run;

		test_write_file(in, base, size);
		import(c, in, out, &run);
		CHECK_MSG(run.status == 0, "the unflipped file of %zu bytes: exit status %d: %s", size, run.status,
			run.err);
		test_run_finish(&run);
		remove(out);
		free(out);
		free(in);
	}
	for (size_t i = 0; i < n; i++) {
		char *in = test_path("any.pb"), *out = test_path("any.zst");
		struct test_run run;
		size_t at = offsets[i];
		uint8_t mask = (uint8_t)(1u << (i % 8));

		base[at] ^= mask;
		test_write_file(in, base, size);
		base[at] ^= mask;
		import(c, in, out, &run);
		CHECK_MSG(run.status == 0 || run.status == 1, "byte %zu of %zu flipped (0x%02x): exit status %d: %s", at,
			size, mask, run.status, run.err);
		if (run.status == 1) {
			CHECK_MSG(strstr(run.err, in), "byte %zu flipped: %s", at, run.err);
		} else {
			struct out_trace t;

			out_trace_load(&t, out);
			out_trace_finish(&t);
		}
		test_run_finish(&run);
		remove(out);
		free(out);
		free(in);
	}
	printf("%zu named flips, %zu flips over %zu of the fixture's %zu bytes (%zu of %zu entries kept)\n",
		sizeof(flips) / sizeof(flips[0]), n, size, c->fx.size, size < c->fx.size ? (size_t)2 : c->fx.count,
		c->fx.count);
	free(base);
	return 0;
}

/* A lone entry (a LayersTraceProto) and a lone LayersProto: the shapes of dumps without the file wrapper. */
static int case_shapes(struct ctx *c)
{
	const struct fixture_entry *e = &c->fx.entries[0];
	const uint8_t *layers = c->fx.data + e->layers_key;
	char *entry = test_path("entry.pb"), *out = test_path("entry.zst");
	struct test_run run;
	size_t len = 0, shift = 0, p = 1;

	test_write_file(entry, c->fx.data + e->offset, e->size);
	import(c, entry, out, &run);
	CHECK_MSG(run.status == 0, "lone LayersTraceProto: exit status %d: %s", run.status, run.err);
	test_run_finish(&run);
	{
		struct ctx lone = *c;

		lone.fixture = entry;
		check_output(&lone, out, 1, e);
	}
	/* the layers field: key 0x1a, a varint length, the LayersProto */
	CHECK(e->layers_key && layers[0] == 0x1a);
	do {
		len |= (size_t)(layers[p] & 0x7f) << shift;
		shift += 7;
	} while (layers[p++] & 0x80);
	test_write_file(entry, layers + p, len);
	import(c, entry, out, &run);
	/* without DisplayProto a modern LayersProto records no display size: inferred and said, or --size */
	CHECK_MSG(run.status == 0 && strstr(run.out, "inferred from"), "lone LayersProto: exit status %d: %s%s",
		run.status, run.out, run.err);
	test_run_finish(&run);
	{
		char size[32];
		const char *argv[] = { c->hwc_trace, "import-winscope", entry, out, "--size", size, NULL };
		struct ctx lone = *c;

		snprintf(size, sizeof(size), "%dx%d", c->fx.width, c->fx.height);
		test_run(&run, argv);
		CHECK_MSG(run.status == 0, "lone LayersProto --size %s: exit status %d: %s", size, run.status,
			run.err);
		test_run_finish(&run);
		lone.fixture = entry;
		check_output(&lone, out, 1, e);
	}
	free(entry);
	free(out);
	return 0;
}

static int case_bad_output(struct ctx *c)
{
	char *missing_dir = test_path("no-such-dir/out.zst");
	const char *outs[] = { missing_dir, "/proc/hwct-winscope-test.zst" };
	struct test_run run;

	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		import(c, c->fixture, outs[i], &run);
		CHECK_MSG(run.status == 1 && strstr(run.err, outs[i]), "%s: exit status %d: %s", outs[i], run.status,
			run.err);
		test_run_finish(&run);
	}
	import(c, c->fixture, c->fixture, &run);
	CHECK_MSG(run.status == 2, "OUT = IN: exit status %d: %s", run.status, run.err);
	test_run_finish(&run);
	free(missing_dir);
	return 0;
}

static int case_not_a_trace(struct ctx *c)
{
	static const char text[] = "# not a layer trace\n";
	char *empty = test_path("empty.pb"), *other = test_path("text.pb"), *missing = test_path("missing.pb");

	test_write_file(empty, "", 0);
	expect_failure(c, empty, false, "empty input");
	test_write_file(other, text, sizeof(text) - 1);
	expect_failure(c, other, false, "text input");
	expect_failure(c, missing, false, "missing input");
	free(empty);
	free(other);
	free(missing);
	return 0;
}

static const struct {
	const char *name;
	int (*run)(struct ctx *c);
	bool found;		/* FIXTURE is an input the fuzzer found: not parsed as a fixture (c.fx empty) */
} cases[] = {
	{ "import", case_import, false },
	{ "replay", case_replay, false },
	{ "truncated", case_truncated, false },
	{ "corrupt", case_corrupt, false },
	{ "shapes", case_shapes, false },
	{ "perfetto", case_perfetto, false },
	{ "containers", case_containers, false },
	{ "bad-output", case_bad_output, false },
	{ "not-a-trace", case_not_a_trace, false },
	{ "no-layers", case_no_layers, true },
};

int main(int argc, char **argv)
{
	struct ctx c = { 0 };
	int ret;

	if (argc < 4) {
		fprintf(stderr, "usage: %s CASE HWC_TRACE FIXTURE [HWC_REPLAY BOARD]\n", argv[0]);
		return 2;
	}
	c.hwc_trace = argv[2];
	c.fixture = argv[3];
	c.replay = argc > 5 ? argv[4] : NULL;
	c.board = argc > 5 ? argv[5] : NULL;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(cases[i].name, argv[1]) == 0) {
			if (!cases[i].found) {
				fixture_load(&c.fx, c.fixture);
				CHECK(c.fx.count > 0);
			}
			ret = cases[i].run(&c);
			fixture_finish(&c.fx);
			return ret;
		}
	}
	fprintf(stderr, "unknown case '%s'\n", argv[1]);
	return 2;
}
