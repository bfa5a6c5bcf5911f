/* The tests' own trace-file reader (testmodel.h). */
#include <string.h>

#include <xxhash.h>
#include <zstd.h>

#include <hwct/format.h>

#include "testmodel.h"
#include "testutil.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Size of the complete frame at p, 0 when incomplete. */
static size_t frame_size(const uint8_t *p, size_t left, bool *skippable)
{
	size_t n;

	if (left < 8) {
		return 0;
	}
	*skippable = (le32(p) & 0xFFFFFFF0u) == 0x184D2A50u;
	if (*skippable) {
		n = (size_t)le32(p + 4) + 8;
		return n <= left ? n : 0;
	}
	n = ZSTD_findFrameCompressedSize(p, left);
	return ZSTD_isError(n) ? 0 : n;
}

static void parse_records(struct model_frame *f)
{
	size_t pos = 0, cap = 0;

	while (pos < f->content_size) {
		uint64_t len = 0;
		unsigned shift = 0;
		uint8_t b;

		do {
			CHECK(pos < f->content_size && shift < 64);
			b = f->content[pos++];
			len |= (uint64_t)(b & 0x7f) << shift;
			shift += 7;
		} while (b & 0x80);
		CHECK(len <= f->content_size - pos);
		if (f->record_count == cap) {
			cap = cap ? cap * 2 : 64;
			f->records = realloc(f->records, cap * sizeof(*f->records));
			CHECK(f->records);
		}
		f->records[f->record_count] = (struct model_record){ f->content + pos, (size_t)len, NULL };
		f->records[f->record_count].rec = hwct__record__unpack(NULL, (size_t)len, f->content + pos);
		CHECK(f->records[f->record_count].rec);
		f->frame_ends += f->records[f->record_count].rec->kind_case == HWCT__RECORD__KIND_FRAME_END;
		f->record_count++;
		pos += (size_t)len;
	}
}

static void load_data_frame(struct model_frame *f, const uint8_t *p)
{
	unsigned long long n = ZSTD_getFrameContentSize(p, (size_t)f->size);
	size_t got;

	CHECK(n != ZSTD_CONTENTSIZE_ERROR && n != ZSTD_CONTENTSIZE_UNKNOWN);
	f->content = malloc(n ? (size_t)n : 1);
	CHECK(f->content);
	got = ZSTD_decompress(f->content, (size_t)n, p, (size_t)f->size);
	CHECK_MSG(!ZSTD_isError(got) && got == n, "data frame at %llu does not decode",
		(unsigned long long)f->offset);
	f->content_size = got;
	parse_records(f);
}

static bool check_seek_table(const struct model *m)
{
	const struct model_frame *st = &m->frames[m->count - 1];
	const uint8_t *p = m->data + st->offset + 8, *footer;
	uint32_t count;

	if (!st->skippable || st->magic != HWCT_MAGIC_SEEK_TABLE || st->size < 8 + 9) {
		return false;
	}
	footer = m->data + st->offset + st->size - 9;
	count = le32(footer);
	if (le32(footer + 5) != HWCT_SEEKABLE_FOOTER_MAGIC || footer[4] != 0x80 || count != m->count - 1 ||
		st->size != 8 + (uint64_t)count * 12 + 9) {
		return false;
	}
	for (uint32_t i = 0; i < count; i++, p += 12) {
		const struct model_frame *f = &m->frames[i];
		uint32_t sum = (uint32_t)XXH64(f->content ? (const void *)f->content : "", f->content_size, 0);

		if (le32(p) != f->size || le32(p + 4) != f->content_size || le32(p + 8) != sum) {
			return false;
		}
	}
	return true;
}

void model_load_bytes(struct model *m, const uint8_t *data, size_t size)
{
	size_t cap = 0;

	*m = (struct model){ .data = malloc(size ? size : 1), .size = size };
	CHECK(m->data);
	memcpy(m->data, data, size);
	for (uint64_t off = 0; off < size;) {
		struct model_frame *f;
		bool skippable = false;
		size_t n = frame_size(m->data + off, size - off, &skippable);

		if (n == 0) {
			break;
		}
		if (m->count == cap) {
			cap = cap ? cap * 2 : 32;
			m->frames = realloc(m->frames, cap * sizeof(*m->frames));
			CHECK(m->frames);
		}
		f = &m->frames[m->count++];
		*f = (struct model_frame){ .offset = off, .size = n, .skippable = skippable };
		if (skippable) {
			f->magic = le32(m->data + off);
		} else {
			load_data_frame(f, m->data + off);
		}
		off += n;
		m->complete_end = off;
	}
	m->has_seek_table = m->count > 0 && m->complete_end == size && check_seek_table(m);
}

void model_load(struct model *m, const char *path)
{
	size_t size;
	uint8_t *data = test_read_file(path, &size);

	model_load_bytes(m, data, size);
	free(data);
}

void model_finish(struct model *m)
{
	for (size_t i = 0; i < m->count; i++) {
		for (size_t j = 0; j < m->frames[i].record_count; j++) {
			hwct__record__free_unpacked(m->frames[i].records[j].rec, NULL);
		}
		free(m->frames[i].records);
		free(m->frames[i].content);
	}
	free(m->frames);
	free(m->data);
	*m = (struct model){ 0 };
}

size_t model_records(const struct model *m, const struct model_record ***out)
{
	size_t count = 0, k = 0;
	const struct model_record **v;

	for (size_t i = 0; i < m->count; i++) {
		count += m->frames[i].record_count;
	}
	v = malloc((count ? count : 1) * sizeof(*v));
	CHECK(v);
	for (size_t i = 0; i < m->count; i++) {
		for (size_t j = 0; j < m->frames[i].record_count; j++) {
			v[k++] = &m->frames[i].records[j];
		}
	}
	*out = v;
	return count;
}
