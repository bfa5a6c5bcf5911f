/* Walking zip archives in memory with libzip, within limits (archive.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <zip.h>

#include "archive.h"
#include "archive_end.h"

#define READ_CHUNK (1u << 20)

struct walk {
	const struct arch_limits *lim;
	const struct arch_visitor *v;
	struct hwct_error *err;
	uint64_t entries;		/* seen so far, all archives */
	uint64_t total;			/* bytes read so far, all archives */
};

static bool named_zip(const char *name)
{
	size_t n = strlen(name);

	return n >= 4 && strcasecmp(name + n - 4, ".zip") == 0;
}

static int walk_archive(struct walk *wk, const uint8_t *data, size_t size, const char *path, unsigned depth);

/* Reads entry i (claiming `claimed` bytes) whole into *out. */
static int read_entry(struct walk *wk, zip_t *za, zip_uint64_t i, const char *path, uint64_t claimed,
	uint8_t **out, size_t *len)
{
	size_t cap = (size_t)claimed + 1, got = 0;	/* one more byte tells an entry longer than it says */
	uint8_t *buf = malloc(cap);
	zip_file_t *zf;

	if (!buf) {
		return hwct_error_set(wk->err, -ENOMEM, path, UINT64_MAX, "out of memory for %" PRIu64 " bytes",
			claimed);
	}
	zf = zip_fopen_index(za, i, 0);
	if (!zf) {
		int ret = hwct_error_set(wk->err, -EINVAL, path, UINT64_MAX, "cannot read the entry: %s",
			zip_strerror(za));

		free(buf);
		return ret;
	}
	for (;;) {
		size_t want = cap - got < READ_CHUNK ? cap - got : READ_CHUNK;
		zip_int64_t n = want ? zip_fread(zf, buf + got, want) : 0;

		if (n < 0) {
			int ret = hwct_error_set(wk->err, -EINVAL, path, UINT64_MAX, "cannot decompress the entry: %s",
				zip_file_strerror(zf));

			zip_fclose(zf);
			free(buf);
			return ret;
		}
		if (n == 0) {
			break;
		}
		got += (size_t)n;
		if (got > claimed) {
			zip_fclose(zf);
			free(buf);
			return hwct_error_set(wk->err, -EINVAL, path, UINT64_MAX,
				"decompresses to more than the %" PRIu64 " bytes its archive declares (a zip bomb?)",
				claimed);
		}
	}
	zip_fclose(zf);
	if (got != claimed) {
		free(buf);
		return hwct_error_set(wk->err, -EINVAL, path, UINT64_MAX,
			"decompresses to %zu bytes, not the %" PRIu64 " its archive declares", got, claimed);
	}
	*out = buf;
	*len = got;
	return 0;
}

static int visit(struct walk *wk, zip_t *za, zip_uint64_t i, const char *archive, unsigned depth)
{
	struct arch_entry e = { .depth = depth };
	zip_stat_t st;
	uint8_t *data = NULL;
	size_t len = 0, plen;
	char *path;
	int want, ret;

	if (zip_stat_index(za, i, 0, &st) < 0 || !(st.valid & ZIP_STAT_NAME) || !(st.valid & ZIP_STAT_SIZE)) {
		return hwct_error_set(wk->err, -EINVAL, archive, UINT64_MAX, "entry %" PRIu64 ": cannot read its "
			"directory record: %s", (uint64_t)i, zip_strerror(za));
	}
	if (!*st.name || st.name[strlen(st.name) - 1] == '/') {
		return 0;	/* a directory */
	}
	plen = strlen(archive) + strlen(st.name) + 4;
	path = malloc(plen);
	if (!path) {
		return hwct_error_set(wk->err, -ENOMEM, archive, UINT64_MAX, "out of memory");
	}
	snprintf(path, plen, "%s > %s", archive, st.name);
	e.path = path;
	e.name = st.name;
	e.size = st.size;
	want = named_zip(st.name) ? 1 : wk->v->want(&e, wk->v->user);
	if (want <= 0) {
		free(path);
		return want;
	}
	if (st.size > wk->lim->max_entry_bytes) {
		ret = hwct_error_set(wk->err, -EFBIG, path, UINT64_MAX, "the entry claims %" PRIu64 " bytes; the "
			"limit for one entry is %" PRIu64, (uint64_t)st.size, wk->lim->max_entry_bytes);
		goto out;
	}
	if (st.size > wk->lim->max_total_bytes - wk->total) {
		ret = hwct_error_set(wk->err, -EFBIG, path, UINT64_MAX, "the entry claims %" PRIu64 " bytes, past "
			"the limit of %" PRIu64 " bytes read from the archive in all (%" PRIu64 " read before it)",
			(uint64_t)st.size, wk->lim->max_total_bytes, wk->total);
		goto out;
	}
	ret = read_entry(wk, za, i, path, st.size, &data, &len);
	if (ret < 0) {
		goto out;
	}
	wk->total += len;
	if (arch_is_zip(data, len)) {
		ret = walk_archive(wk, data, len, path, depth + 1);
	} else if (!named_zip(st.name) || wk->v->want(&e, wk->v->user) > 0) {
		ret = wk->v->take(&e, &data, len, wk->v->user);
	}
out:
	free(data);
	free(path);
	return ret;
}

static int walk_archive(struct walk *wk, const uint8_t *data, size_t size, const char *path, unsigned depth)
{
	struct arch_end end;
	const char *why;
	zip_error_t zerr;
	zip_source_t *src;
	zip_t *za;
	zip_int64_t n;
	int ret;

	if (depth > wk->lim->max_depth) {
		return hwct_error_set(wk->err, -ELOOP, path, UINT64_MAX, "an archive nested %u deep; the limit is "
			"%u archives one inside another", depth, wk->lim->max_depth);
	}
	ret = arch_end_read(data, size, &end, &why);
	if (ret < 0) {
		return hwct_error_set(wk->err, ret, path, UINT64_MAX, "not a readable zip archive: %s", why);
	}
	if (end.entries > wk->lim->max_entries - wk->entries) {
		return hwct_error_set(wk->err, -E2BIG, path, end.record_offset, "the archive lists %" PRIu64
			" entries; the limit is %" PRIu64 " entries in all (%" PRIu64 " seen before it)", end.entries,
			wk->lim->max_entries, wk->entries);
	}
	zip_error_init(&zerr);
	src = zip_source_buffer_create(data, size, 0, &zerr);
	if (!src) {
		ret = hwct_error_set(wk->err, -ENOMEM, path, UINT64_MAX, "%s", zip_error_strerror(&zerr));
		zip_error_fini(&zerr);
		return ret;
	}
	za = zip_open_from_source(src, ZIP_RDONLY, &zerr);
	if (!za) {
		ret = hwct_error_set(wk->err, -EINVAL, path, UINT64_MAX, "not a readable zip archive: %s",
			zip_error_strerror(&zerr));
		zip_source_free(src);
		zip_error_fini(&zerr);
		return ret;
	}
	zip_error_fini(&zerr);
	n = zip_get_num_entries(za, 0);
	wk->entries += (uint64_t)n;
	ret = 0;
	for (zip_int64_t i = 0; i < n && ret == 0; i++) {
		ret = visit(wk, za, (zip_uint64_t)i, path, depth);
	}
	zip_discard(za);
	return ret;
}

int arch_walk(const uint8_t *data, size_t size, const char *name, const struct arch_limits *lim,
	const struct arch_visitor *v, struct hwct_error *err)
{
	struct arch_limits defaults;
	struct walk wk = { .v = v, .err = err };

	if (!lim) {
		arch_limits_init(&defaults);
		lim = &defaults;
	}
	wk.lim = lim;
	hwct_error_clear(err);
	return walk_archive(&wk, data, size, name, 1);
}
