/* A minimal protobuf wire reader for the fixtures (fixture.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "testlib.h"

struct cursor {
	const uint8_t *p, *end;
	const uint8_t *base;
};

struct wire {
	size_t key_offset;
	uint32_t field;
	uint32_t type;
	uint64_t value;
	const uint8_t *bytes;
	size_t length;
};

static bool varint(struct cursor *c, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 64 && c->p < c->end; shift += 7) {
		uint8_t b = *c->p++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			return true;
		}
	}
	return false;
}

/* Next field of the message in c; false at its end. Exits on malformed input. */
static bool next(struct cursor *c, struct wire *w)
{
	uint64_t key;

	if (c->p >= c->end) {
		return false;
	}
	w->key_offset = (size_t)(c->p - c->base);
	CHECK(varint(c, &key));
	w->field = (uint32_t)(key >> 3);
	w->type = (uint32_t)(key & 7);
	switch (w->type) {
	case 0:
		CHECK(varint(c, &w->value));
		break;
	case 1:
		CHECK(c->end - c->p >= 8);
		c->p += 8;
		break;
	case 5:
		CHECK(c->end - c->p >= 4);
		w->value = (uint64_t)c->p[0] | (uint64_t)c->p[1] << 8 | (uint64_t)c->p[2] << 16 | (uint64_t)c->p[3] << 24;
		c->p += 4;
		break;
	case 2:
		CHECK(varint(c, &w->value));
		CHECK((uint64_t)(c->end - c->p) >= w->value);
		w->bytes = c->p;
		w->length = (size_t)w->value;
		c->p += w->length;
		break;
	default:
		CHECK_MSG(false, "wire type %u in a fixture", w->type);
	}
	return true;
}

static struct cursor sub(const struct cursor *parent, const struct wire *w)
{
	return (struct cursor){ w->bytes, w->bytes + w->length, parent->base };
}

static void note_display(struct fixture *f, uint64_t id, bool is_virtual)
{
	size_t i = 0;

	while (i < f->display_count && f->display_ids[i] != id) {
		i++;
	}
	if (i == f->display_count) {
		CHECK(i < FIXTURE_MAX_DISPLAYS);
		f->display_ids[f->display_count++] = id;
		f->display_virtual[i] = is_virtual;
	}
	f->display_entries[i]++;
}

static void parse_display(struct fixture *f, struct cursor c)
{
	int32_t w = 0, h = 0;
	bool is_virtual = false;
	uint64_t id = 0;
	struct wire x;

	while (next(&c, &x)) {
		if (x.field == 1 && x.type == 0) {
			id = x.value;
		} else if (x.field == 7 && x.type == 0) {
			is_virtual = x.value != 0;
		} else if (x.field == 4 && x.type == 2) {
			struct cursor s = sub(&c, &x);
			struct wire y;

			while (next(&s, &y)) {
				if (y.field == 1 && y.type == 0) {
					w = (int32_t)y.value;
				} else if (y.field == 2 && y.type == 0) {
					h = (int32_t)y.value;
				}
			}
		}
	}
	note_display(f, id, is_virtual);
	if (!is_virtual && !f->width) {
		f->width = w;
		f->height = h;
	}
}

#define MAX_IDS 8192
#define MAX_SIDE 8192	/* the importer's default size limit */

static float as_float(uint64_t bits)
{
	uint32_t u = (uint32_t)bits;
	float v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

/* A root layer (parent, field 25, absent or -1) with bounds (field 45) from the origin within the limit. */
static void root_bounds(struct fixture *f, struct cursor layer)
{
	float r[5] = { 0 };	/* FloatRectProto fields 1..4 */
	bool root = true, has = false;
	struct wire y;

	while (next(&layer, &y)) {
		if (y.field == 25 && y.type == 0) {
			root = (int32_t)y.value == -1;
		} else if (y.field == 45 && y.type == 2) {
			struct cursor b = sub(&layer, &y);
			struct wire z;

			has = true;
			while (next(&b, &z)) {
				if (z.field >= 1 && z.field <= 4 && z.type == 5) {
					r[z.field] = as_float(z.value);
				}
			}
		}
	}
	if (root && has && r[1] >= 0 && r[2] >= 0 && r[3] > r[1] && r[4] > r[2] && r[3] <= MAX_SIDE &&
		r[4] <= MAX_SIDE && (double)r[3] * r[4] > (double)f->root_width * f->root_height) {
		f->root_width = (int32_t)(r[3] + 0.5f);
		f->root_height = (int32_t)(r[4] + 0.5f);
	}
}

static void note_id(struct fixture_entry *e, int32_t *ids, size_t *n, int32_t id)
{
	for (size_t i = 0; i < *n; i++) {
		if (ids[i] == id) {
			e->duplicates++;
			return;
		}
	}
	CHECK(*n < MAX_IDS);
	ids[(*n)++] = id;
}

static void parse_entry(struct fixture *f, struct fixture_entry *e)
{
	struct cursor c = { f->data + e->offset, f->data + e->offset + e->size, f->data };
	static int32_t ids[MAX_IDS];
	size_t n_ids = 0;
	struct wire x;

	while (next(&c, &x)) {
		if (x.field == 7 && x.type == 2) {
			parse_display(f, sub(&c, &x));
		} else if (x.field == 3 && x.type == 2) {
			struct cursor layers = sub(&c, &x);
			struct wire l;

			e->layers_key = x.key_offset;
			while (next(&layers, &l)) {
				struct cursor layer;
				struct wire y;

				if (l.field != 1 || l.type != 2) {
					continue;
				}
				layer = sub(&layers, &l);
				root_bounds(f, layer);
				while (next(&layer, &y)) {
					if (y.field == 1 && y.type == 0) {
						note_id(e, ids, &n_ids, (int32_t)y.value);
					} else if (y.field == 35 && y.type == 0) {
						CHECK(e->decided_count < FIXTURE_MAX_DECIDED);
						e->decided[e->decided_count++] = (int32_t)y.value;
					}
				}
			}
		}
	}
}

/* Which display is first, and which entries list it (after every entry is read). */
static void order_displays(struct fixture *f)
{
	for (size_t i = 0; i < f->display_count; i++) {
		if (!f->display_virtual[i]) {
			f->first_physical = i;
			break;
		}
	}
	for (size_t e = 0; e < f->count; e++) {
		struct fixture_entry *en = &f->entries[e];
		struct cursor c = { f->data + en->offset, f->data + en->offset + en->size, f->data };
		struct wire x;

		en->lists_first = f->display_count == 0;
		while (next(&c, &x)) {
			if (x.field == 7 && x.type == 2) {
				struct cursor d = sub(&c, &x);
				struct wire y;

				while (next(&d, &y)) {
					if (y.field == 1 && y.type == 0 && y.value == f->display_ids[f->first_physical]) {
						en->lists_first = true;
					}
				}
			}
		}
	}
}

static void add_entry(struct fixture *f, size_t *cap, const struct wire *x)
{
	if (f->count == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		f->entries = realloc(f->entries, *cap * sizeof(*f->entries));
		CHECK(f->entries);
	}
	f->entries[f->count] = (struct fixture_entry){
		.key_offset = x->key_offset,
		.offset = (size_t)(x->bytes - f->data),
		.size = x->length,
	};
	parse_entry(f, &f->entries[f->count]);
	f->count++;
}

void fixture_load(struct fixture *f, const char *path)
{
	struct cursor c;
	struct wire x;
	size_t cap = 0;

	memset(f, 0, sizeof(*f));
	f->data = test_read_file(path, &f->size);
	CHECK_MSG(f->data && f->size > 9, "%s", path);
	c = (struct cursor){ f->data, f->data + f->size, f->data };
	if (f->data[0] == 0x0a) {
		/* Perfetto: packets (field 1), the snapshots in their field 93 */
		f->perfetto = true;
		while (next(&c, &x)) {
			struct cursor packet = sub(&c, &x);
			struct wire y;

			CHECK(x.field == 1 && x.type == 2);
			f->packets++;
			while (next(&packet, &y)) {
				if (y.field == 93 && y.type == 2) {
					add_entry(f, &cap, &y);
				}
			}
		}
		order_displays(f);
		return;
	}
	/* the other fixtures have the LayersTraceFileProto wrapper: field 1 fixed64 "LYRTRACE" */
	CHECK(f->data[0] == 0x09 && memcmp(f->data + 1, "LYRTRACE", 8) == 0);
	while (next(&c, &x)) {
		if (x.field == 2 && x.type == 2) {
			add_entry(f, &cap, &x);
		}
	}
	order_displays(f);
}

void fixture_finish(struct fixture *f)
{
	free(f->data);
	free(f->entries);
	memset(f, 0, sizeof(*f));
}
