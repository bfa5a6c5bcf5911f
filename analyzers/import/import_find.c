/* Finding the traces in a file, an archive or a folder (import_find.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read_file.h"
#include "import_find.h"

static const char *const trace_suffixes[] = {
	".pb", ".winscope", ".perfetto-trace", ".pftrace", ".perfetto", ".trace", ".zip",
};

bool imp_trace_name(const char *name)
{
	size_t n = strlen(name);

	if (strstr(name, "wmtrace/")) {
		return true;
	}
	for (size_t i = 0; i < sizeof(trace_suffixes) / sizeof(trace_suffixes[0]); i++) {
		size_t s = strlen(trace_suffixes[i]);

		if (n >= s && strcasecmp(name + n - s, trace_suffixes[i]) == 0) {
			return true;
		}
	}
	return false;
}

static int add(struct imp_found *f, const char *path, uint8_t **data, size_t size, struct hwct_error *err)
{
	struct imp_source *s;
	const char *base;

	if (f->count == f->cap) {
		size_t n = f->cap ? f->cap * 2 : 16;
		struct imp_source *v = realloc(f->sources, n * sizeof(*v));

		if (!v) {
			return hwct_error_set(err, -ENOMEM, path, UINT64_MAX, "out of memory");
		}
		f->sources = v;
		f->cap = n;
	}
	s = &f->sources[f->count];
	*s = (struct imp_source){ .path = strdup(path) };
	if (!s->path) {
		return hwct_error_set(err, -ENOMEM, path, UINT64_MAX, "out of memory");
	}
	f->count++;
	imp_classify(*data, size, &s->cls);
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	s->generated = s->cls.kind == IMP_LAYERS && strstr(base, "from_transactions") != NULL;
	/* a lone file of no known kind is kept too: it may be a layer dump (no magic) */
	if (s->cls.kind == IMP_LAYERS || s->cls.kind == IMP_TRANSACTIONS || !f->container) {
		s->data = *data;
		s->size = size;
		*data = NULL;
	}
	return 0;
}

struct walk_ctx {
	struct imp_found *f;
	struct hwct_error *err;
};

static int want_entry(const struct arch_entry *e, void *user)
{
	struct imp_found *f = ((struct walk_ctx *)user)->f;

	if (imp_trace_name(e->name)) {
		return 1;
	}
	f->passed++;
	return 0;
}

static int take_entry(const struct arch_entry *e, uint8_t **data, size_t size, void *user)
{
	struct walk_ctx *ctx = user;

	return add(ctx->f, e->path, data, size, ctx->err);
}

static int look_at_file(const char *path, const struct arch_limits *lim, uint64_t max_input, struct imp_found *f,
	struct hwct_error *err)
{
	struct walk_ctx ctx = { .f = f, .err = err };
	struct arch_visitor v = { .want = want_entry, .take = take_entry, .user = &ctx };
	uint8_t *data = NULL;
	size_t size = 0;
	int ret = hwct_read_file(path, max_input, &data, &size, err);

	if (ret < 0) {
		return ret;
	}
	if (arch_is_zip(data, size)) {
		f->container = true;
		ret = arch_walk(data, size, path, lim, &v, err);
	} else {
		ret = add(f, path, &data, size, err);
	}
	free(data);
	return ret;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of dir (and its folders, depth levels down), in name order, not following links. */
static int look_at_dir(const char *dir, unsigned depth, const struct arch_limits *lim, uint64_t max_input,
	struct imp_found *f, struct hwct_error *err)
{
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int ret = 0;

	if (!d) {
		return hwct_error_set(err, -errno, dir, UINT64_MAX, "cannot open the folder: %s", strerror(errno));
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) {
			continue;
		}
		if (n == cap) {
			char **p = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof(*p));

			if (!p) {
				ret = hwct_error_set(err, -ENOMEM, dir, UINT64_MAX, "out of memory");
				goto out;
			}
			names = p;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			ret = hwct_error_set(err, -ENOMEM, dir, UINT64_MAX, "out of memory");
			goto out;
		}
		n++;
		if (n + f->count > lim->max_entries) {
			ret = hwct_error_set(err, -E2BIG, dir, UINT64_MAX, "more than %" PRIu64 " files",
				lim->max_entries);
			goto out;
		}
	}
	if (n) {
		qsort(names, n, sizeof(*names), name_cmp);
	}
	for (size_t i = 0; i < n && ret == 0; i++) {
		size_t len = strlen(dir) + strlen(names[i]) + 2;
		char *path = malloc(len);
		struct stat st;

		if (!path) {
			ret = hwct_error_set(err, -ENOMEM, dir, UINT64_MAX, "out of memory");
			break;
		}
		snprintf(path, len, "%s/%s", dir, names[i]);
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (depth < lim->max_depth * 2) {
				ret = look_at_dir(path, depth + 1, lim, max_input, f, err);
			}
		} else if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && imp_trace_name(path)) {
			ret = look_at_file(path, lim, max_input, f, err);
		} else {
			f->passed++;
		}
		free(path);
	}
out:
	for (size_t i = 0; i < n; i++) {
		free(names[i]);
	}
	free(names);
	closedir(d);
	return ret;
}

int imp_find(const char *in_path, const struct arch_limits *lim, uint64_t max_input, struct imp_found *f,
	struct hwct_error *err)
{
	struct arch_limits defaults;
	struct stat st;

	*f = (struct imp_found){ 0 };
	hwct_error_clear(err);
	if (!lim) {
		arch_limits_init(&defaults);
		lim = &defaults;
	}
	if (stat(in_path, &st) < 0) {
		return hwct_error_set(err, -errno, in_path, UINT64_MAX, "cannot open: %s", strerror(errno));
	}
	if (S_ISDIR(st.st_mode)) {
		f->container = true;
		return look_at_dir(in_path, 1, lim, max_input, f, err);
	}
	return look_at_file(in_path, lim, max_input, f, err);
}

static bool fits(const struct imp_source *s, enum imp_pick pick, const char *name)
{
	size_t n, p;

	switch (pick) {
	case IMP_PICK_LAYERS:
		return s->cls.kind == IMP_LAYERS && !s->generated;
	case IMP_PICK_GENERATED:
		return s->cls.kind == IMP_LAYERS && s->generated;
	case IMP_PICK_TRANSACTIONS:
		return s->cls.kind == IMP_TRANSACTIONS;
	case IMP_PICK_NAME:
		n = strlen(name);
		p = strlen(s->path);
		return s->data && p >= n && strcmp(s->path + p - n, name) == 0;
	case IMP_PICK_AUTO:
		break;
	}
	return false;
}

static const struct imp_source *first(const struct imp_found *f, enum imp_pick pick, const char *name)
{
	for (size_t i = 0; i < f->count; i++) {
		if (fits(&f->sources[i], pick, name)) {
			return &f->sources[i];
		}
	}
	return NULL;
}

const struct imp_source *imp_choose(const struct imp_found *f, enum imp_pick pick, const char *name,
	const char **why)
{
	const struct imp_source *s;

	if (pick != IMP_PICK_AUTO) {
		*why = "asked for with --use";
		return first(f, pick, name);
	}
	if (!f->container && f->count == 1 && f->sources[0].data) {
		*why = "the only input";
		return &f->sources[0];
	}
	if ((s = first(f, IMP_PICK_LAYERS, NULL))) {
		*why = "a layer trace SurfaceFlinger recorded is preferred: it is what the device showed";
	} else if ((s = first(f, IMP_PICK_GENERATED, NULL))) {
		*why = "no recorded layer trace; a layer trace generated from the transactions comes next";
	} else if ((s = first(f, IMP_PICK_TRANSACTIONS, NULL))) {
		*why = "no layer trace; the layer stacks are rebuilt from the transactions";
	}
	return s;
}

void imp_found_finish(struct imp_found *f)
{
	for (size_t i = 0; i < f->count; i++) {
		free(f->sources[i].path);
		free(f->sources[i].data);
	}
	free(f->sources);
	*f = (struct imp_found){ 0 };
}
