/*
 * The pictures of the report (report.h): the PNGs `hwc-replay --dump-images`
 * wrote for a results file, embedded as data: URLs for the frames where they
 * help — the differing frames first, then frames sampled over the run — up
 * to a byte budget. Only names hwc-replay makes ("frame-" digits ".png")
 * are read, inside the results' images_dir (relative: to the results
 * file's directory), and only files that start with the PNG signature.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "report.h"

#define SAMPLES 24		/* frames sampled over the run, besides the differing ones */

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static bool our_name(const char *s)
{
	size_t n = strlen(s), digits = 0;

	if (n < 11 || n > 30 || strncmp(s, "frame-", 6) != 0 || strcmp(s + n - 4, ".png") != 0) {
		return false;
	}
	for (size_t i = 6; i < n - 4; i++) {
		digits += s[i] >= '0' && s[i] <= '9';
	}
	return digits == n - 10;
}

static int by_frame(const void *a, const void *b)
{
	const struct report_image *x = a, *y = b;

	return x->frame < y->frame ? -1 : x->frame > y->frame;
}

int report_images_add(struct report_images *im, struct json_object *frame)
{
	struct json_object *img = member(frame, "image"), *loop = member(frame, "loop"), *num = member(frame, "frame");
	struct report_image *items;

	if (!json_object_is_type(img, json_type_string) || !our_name(json_object_get_string(img)) ||
		!json_object_is_type(num, json_type_int) || (loop && json_object_get_int64(loop) != 0)) {
		return 0;
	}
	if (im->count == im->cap) {
		items = realloc(im->items, (im->cap ? im->cap * 2 : 64) * sizeof(*items));
		if (!items) {
			return -ENOMEM;
		}
		im->items = items;
		im->cap = im->cap ? im->cap * 2 : 64;
	}
	im->items[im->count].frame = (uint64_t)json_object_get_int64(num);
	snprintf(im->items[im->count].name, sizeof(im->items[im->count].name), "%s", json_object_get_string(img));
	im->count++;
	return 0;
}

int report_images_end(struct report_images *im, const char *results_path, struct json_object *root)
{
	struct json_object *dir = member(root, "images_dir");
	const char *slash = strrchr(results_path, '/');
	const char *d;
	size_t base;

	if (!json_object_is_type(dir, json_type_string) || !im->count) {
		im->count = 0;
		return 0;
	}
	d = json_object_get_string(dir);
	base = d[0] == '/' || !slash ? 0 : (size_t)(slash - results_path) + 1;
	im->dir = malloc(base + strlen(d) + 1);
	if (!im->dir) {
		return -ENOMEM;
	}
	memcpy(im->dir, results_path, base);
	strcpy(im->dir + base, d);
	qsort(im->items, im->count, sizeof(*im->items), by_frame);
	return 0;
}

void report_images_finish(struct report_images *im)
{
	free(im->dir);
	free(im->items);
	*im = (struct report_images){ 0 };
}

static const struct report_image *find(const struct report_images *im, uint64_t frame)
{
	struct report_image key = { .frame = frame };

	return im->count ? bsearch(&key, im->items, im->count, sizeof(key), by_frame) : NULL;
}

/* The PNG file (malloc'd, *size bytes), NULL when unreadable, not a PNG or over max bytes. */
static unsigned char *read_png(const char *dir, const char *name, uint64_t max, size_t *size)
{
	static const unsigned char signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;
	unsigned char *data = NULL;
	struct stat st;

	fd = dfd < 0 ? -1 : openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd >= 0) {
		close(dfd);
	}
	if (fd < 0) {
		return NULL;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 8 && (uint64_t)st.st_size <= max &&
		(data = malloc((size_t)st.st_size))) {
		if (read(fd, data, (size_t)st.st_size) != st.st_size || memcmp(data, signature, 8) != 0) {
			free(data);
			data = NULL;
		}
		*size = (size_t)st.st_size;
	}
	close(fd);
	return data;
}

static void base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);

		fputc(alphabet[v >> 18 & 63], f);
		fputc(alphabet[v >> 12 & 63], f);
		fputc(i + 1 < n ? alphabet[v >> 6 & 63] : '=', f);
		fputc(i + 2 < n ? alphabet[v & 63] : '=', f);
	}
}

/* Embeds the pictures of frame in every results file that has one, if they all fit. */
static size_t embed_frame(FILE *f, const struct report_images *ims, size_t count, uint64_t frame, uint64_t *budget,
	size_t written)
{
	unsigned char *data[REPORT_MAX_RESULTS] = { NULL };
	size_t sizes[REPORT_MAX_RESULTS] = { 0 };
	uint64_t need = 0;
	bool any = false;

	for (size_t i = 0; i < count && i < REPORT_MAX_RESULTS; i++) {
		const struct report_image *img = ims[i].dir ? find(&ims[i], frame) : NULL;

		if (img && (data[i] = read_png(ims[i].dir, img->name, *budget, &sizes[i]))) {
			need += (sizes[i] + 2) / 3 * 4;
			any = true;
		}
	}
	if (any && need <= *budget) {
		*budget -= need;
		for (size_t i = 0; i < count && i < REPORT_MAX_RESULTS; i++) {
			if (data[i]) {
				fprintf(f, "%s[%zu,%" PRIu64 ",\"data:image/png;base64,", written++ ? ",\n" : "\n", i, frame);
				base64(f, data[i], sizes[i]);
				fputs("\"]", f);
			}
		}
	}
	for (size_t i = 0; i < count && i < REPORT_MAX_RESULTS; i++) {
		free(data[i]);
	}
	return written;
}

void report_write_images(FILE *f, const struct report_images *ims, size_t count, const uint64_t *differing,
	size_t differing_count, uint64_t budget)
{
	size_t written = 0;

	fputs(",\n\"images\":[", f);
	for (size_t i = 0; i < differing_count && budget; i++) {
		if (i == 0 || differing[i] != differing[i - 1]) {
			written = embed_frame(f, ims, count, differing[i], &budget, written);
		}
	}
	for (size_t k = 0; count && ims[0].count && k < SAMPLES && budget; k++) {
		uint64_t frame = ims[0].items[k * ims[0].count / SAMPLES].frame;
		bool done = false;

		for (size_t i = 0; i < differing_count && !done; i++) {
			done = differing[i] == frame;
		}
		if (!done && (k == 0 || frame != ims[0].items[(k - 1) * ims[0].count / SAMPLES].frame)) {
			written = embed_frame(f, ims, count, frame, &budget, written);
		}
	}
	fputs("]", f);
}
