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

static void parse_display(struct fixture *f, struct cursor c)
{
	int32_t w = 0, h = 0;
	bool is_virtual = false;
	struct wire x;

	while (next(&c, &x)) {
		if (x.field == 7 && x.type == 0) {
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
	if (!is_virtual && !f->width) {
		f->width = w;
		f->height = h;
	}
}

static void parse_entry(struct fixture *f, struct fixture_entry *e)
{
	struct cursor c = { f->data + e->offset, f->data + e->offset + e->size, f->data };
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
				while (next(&layer, &y)) {
					if (y.field == 35 && y.type == 0) {
						CHECK(e->decided_count < FIXTURE_MAX_DECIDED);
						e->decided[e->decided_count++] = (int32_t)y.value;
					}
				}
			}
		}
	}
}

void fixture_load(struct fixture *f, const char *path)
{
	struct cursor c;
	struct wire x;
	size_t cap = 0;

	memset(f, 0, sizeof(*f));
	f->data = test_read_file(path, &f->size);
	CHECK_MSG(f->data && f->size > 9, "%s", path);
	/* every fixture has the LayersTraceFileProto wrapper: field 1 fixed64 "LYRTRACE" */
	CHECK(f->data[0] == 0x09 && memcmp(f->data + 1, "LYRTRACE", 8) == 0);
	c = (struct cursor){ f->data, f->data + f->size, f->data };
	while (next(&c, &x)) {
		if (x.field != 2 || x.type != 2) {
			continue;
		}
		if (f->count == cap) {
			cap = cap ? cap * 2 : 16;
			f->entries = realloc(f->entries, cap * sizeof(*f->entries));
			CHECK(f->entries);
		}
		f->entries[f->count] = (struct fixture_entry){
			.key_offset = x.key_offset,
			.offset = (size_t)(x.bytes - f->data),
			.size = x.length,
		};
		parse_entry(f, &f->entries[f->count]);
		f->count++;
	}
}

void fixture_finish(struct fixture *f)
{
	free(f->data);
	free(f->entries);
	memset(f, 0, sizeof(*f));
}
