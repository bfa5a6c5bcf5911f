/*
 * Two traces side by side (diff.h): their frame models in presentation
 * order, frame k of A against frame k of B; in traces of several displays,
 * frame k of A's i-th display against frame k of B's i-th (displays in
 * order of their first frame: their ids are each module's own). Layers
 * are paired by id when both stacks hold the same ids, else by position in
 * the stack.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/frame.h>
#include <hwct/reader.h>
#include <hwct/hwc2_names.h>

#include "diff.h"

enum {
	CAT_DISPLAY,
	CAT_LAYERS,
	CAT_GEOMETRY,
	CAT_PROPERTIES,
	CAT_DECISIONS,
	CAT_PIXELS,
};

static const char *const categories[] = { "display", "layers", "geometry", "properties", "decisions", "pixels" };

#define ID_LIST_MAX 8

/* "[10, 11, 12]", at most ID_LIST_MAX ids. */
static const char *id_list(char *buf, size_t size, const struct hwct_frame *f)
{
	size_t n = 0;

	n += (size_t)snprintf(buf, size, "[");
	for (size_t i = 0; i < f->layer_count && n < size; i++) {
		if (i == ID_LIST_MAX) {
			n += (size_t)snprintf(buf + n, size - n, ", ...");
			break;
		}
		n += (size_t)snprintf(buf + n, size - n, "%s%" PRIu64, i ? ", " : "", f->layers[i].id);
	}
	if (n < size) {
		snprintf(buf + n, size - n, "]");
	}
	return buf;
}

static int compare_ids(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether the stacks hold the same layer ids (in any order). */
static bool same_ids(const struct hwct_frame *a, const struct hwct_frame *b)
{
	uint64_t *x, *y;
	bool same;

	if (a->layer_count != b->layer_count) {
		return false;
	}
	if (!a->layer_count) {
		return true;
	}
	x = malloc(a->layer_count * sizeof(*x));
	y = malloc(b->layer_count * sizeof(*y));
	if (!x || !y) {
		free(x);
		free(y);
		return false;
	}
	for (size_t i = 0; i < a->layer_count; i++) {
		x[i] = a->layers[i].id;
		y[i] = b->layers[i].id;
	}
	qsort(x, a->layer_count, sizeof(*x), compare_ids);
	qsort(y, b->layer_count, sizeof(*y), compare_ids);
	same = memcmp(x, y, a->layer_count * sizeof(*x)) == 0;
	free(x);
	free(y);
	return same;
}

static const struct hwct_layer *find_layer(const struct hwct_frame *f, uint64_t id)
{
	for (size_t i = 0; i < f->layer_count; i++) {
		if (f->layers[i].id == id) {
			return &f->layers[i];
		}
	}
	return NULL;
}

static bool rect_equal(const struct hwct_rect *a, const struct hwct_rect *b)
{
	return a->left == b->left && a->top == b->top && a->right == b->right && a->bottom == b->bottom;
}

static bool frect_equal(const struct hwct_frect *a, const struct hwct_frect *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

static bool region_equal(const struct hwct_region *a, const struct hwct_region *b)
{
	if (a->count != b->count) {
		return false;
	}
	for (size_t i = 0; i < a->count; i++) {
		if (!rect_equal(&a->rects[i], &b->rects[i])) {
			return false;
		}
	}
	return true;
}

static const char *comp_name(char *buf, size_t size, int32_t v)
{
	const char *name = hwct_hwc2_composition_name(v);

	if (name) {
		return name;
	}
	snprintf(buf, size, "%d", v);
	return buf;
}

#define RECT_FMT "[%d,%d,%d,%d]"
#define RECT_ARGS(r) (r).left, (r).top, (r).right, (r).bottom
#define FRECT_FMT "[%g,%g,%g,%g]"
#define FRECT_ARGS(r) (double)(r).left, (double)(r).top, (double)(r).right, (double)(r).bottom

static void compare_geometry(struct diff_report *r, const char *who, const struct hwct_layer *a,
	const struct hwct_layer *b)
{
	if (a->z != b->z) {
		diff_report_add(r, CAT_GEOMETRY, "layer %s z %d vs %d", who, a->z, b->z);
	} else if (!rect_equal(&a->display_frame, &b->display_frame)) {
		diff_report_add(r, CAT_GEOMETRY, "layer %s display frame " RECT_FMT " vs " RECT_FMT, who,
			RECT_ARGS(a->display_frame), RECT_ARGS(b->display_frame));
	} else if (!frect_equal(&a->source_crop, &b->source_crop)) {
		diff_report_add(r, CAT_GEOMETRY, "layer %s source crop " FRECT_FMT " vs " FRECT_FMT, who,
			FRECT_ARGS(a->source_crop), FRECT_ARGS(b->source_crop));
	} else if (a->transform != b->transform) {
		diff_report_add(r, CAT_GEOMETRY, "layer %s transform %d vs %d", who, a->transform, b->transform);
	}
}

static void compare_properties(struct diff_report *r, const char *who, const struct hwct_layer *a,
	const struct hwct_layer *b)
{
	if (a->blend != b->blend) {
		diff_report_add(r, CAT_PROPERTIES, "layer %s blend mode %d vs %d", who, a->blend, b->blend);
	} else if (memcmp(&a->plane_alpha, &b->plane_alpha, sizeof(float)) != 0) {
		diff_report_add(r, CAT_PROPERTIES, "layer %s plane alpha %g vs %g", who, (double)a->plane_alpha,
			(double)b->plane_alpha);
	} else if (a->color != b->color || a->has_float_color != b->has_float_color ||
		memcmp(a->float_color, b->float_color, sizeof(a->float_color)) != 0) {
		diff_report_add(r, CAT_PROPERTIES, "layer %s colour %08" PRIx32 " vs %08" PRIx32 "%s", who, a->color,
			b->color, a->color == b->color ? " (float colour differs)" : "");
	} else if (a->dataspace != b->dataspace) {
		diff_report_add(r, CAT_PROPERTIES, "layer %s dataspace %d vs %d", who, a->dataspace, b->dataspace);
	} else if (a->has_color_transform != b->has_color_transform ||
		(a->has_color_transform && memcmp(a->color_transform, b->color_transform, sizeof(a->color_transform)))) {
		diff_report_add(r, CAT_PROPERTIES, "layer %s colour transform differs", who);
	} else if (!region_equal(&a->visible_region, &b->visible_region)) {
		diff_report_add(r, CAT_PROPERTIES, "layer %s visible region %zu vs %zu rects%s", who,
			a->visible_region.count, b->visible_region.count,
			a->visible_region.count == b->visible_region.count ? " (different rects)" : "");
	} else if (!region_equal(&a->damage, &b->damage)) {
		diff_report_add(r, CAT_PROPERTIES, "layer %s surface damage %zu vs %zu rects%s", who, a->damage.count,
			b->damage.count, a->damage.count == b->damage.count ? " (different rects)" : "");
	} else if (a->sideband != b->sideband) {
		diff_report_add(r, CAT_PROPERTIES, "layer %s sideband stream %" PRIu64 " vs %" PRIu64, who, a->sideband,
			b->sideband);
	}
}

static void compare_decisions(struct diff_report *r, const char *who, const struct hwct_layer *a,
	const struct hwct_layer *b)
{
	char x[16], y[16];

	if (a->requested != b->requested) {
		diff_report_add(r, CAT_DECISIONS, "layer %s requested %s vs %s", who,
			comp_name(x, sizeof(x), a->requested), comp_name(y, sizeof(y), b->requested));
	} else if (a->final != b->final) {
		diff_report_add(r, CAT_DECISIONS, "layer %s final %s vs %s", who, comp_name(x, sizeof(x), a->final),
			comp_name(y, sizeof(y), b->final));
	} else if (a->request != b->request) {
		diff_report_add(r, CAT_DECISIONS, "layer %s layer request %#x vs %#x", who, (unsigned)a->request,
			(unsigned)b->request);
	}
}

/*
 * The picture hash of b's content (docs/format.md section 3.3): what two
 * traces compare, whatever the stride their buffers had. A trace of format
 * 1.3 on stores it; an older one's padded content is repacked (by the
 * reader, once per content). Content that cannot be decoded compares by
 * its stored hash.
 */
static struct hwct_hash picture_of(struct hwct_reader *rd, const struct hwct_buffer_ref *b)
{
	struct hwct_hash h;

	if (hwct_reader_picture_hash(rd, b->info, &b->content, &h) < 0) {
		h = b->content;
	}
	return h;
}

static void compare_content(struct diff_report *r, const char *who, struct hwct_reader *ra,
	const struct hwct_buffer_ref *a, struct hwct_reader *rb, const struct hwct_buffer_ref *b)
{
	char x[HWCT_HASH_HEX], y[HWCT_HASH_HEX];
	struct hwct_hash pa, pb;

	if (!a->has_content || !b->has_content) {
		if (a->has_content != b->has_content) {
			diff_report_add(r, CAT_PIXELS, "%s content %s vs %s", who,
				a->has_content ? hwct_hash_to_hex(&a->content, x) : "(not captured)",
				b->has_content ? hwct_hash_to_hex(&b->content, y) : "(not captured)");
		}
		return;
	}
	pa = picture_of(ra, a);
	pb = picture_of(rb, b);
	if (!hwct_hash_equal(&pa, &pb)) {
		diff_report_add(r, CAT_PIXELS, "%s content %s vs %s", who, hwct_hash_to_hex(&pa, x),
			hwct_hash_to_hex(&pb, y));
	}
}

static void compare_frames(struct diff_report *r, struct hwct_reader *ra, const struct hwct_frame *a,
	struct hwct_reader *rb, const struct hwct_frame *b)
{
	bool by_id = same_ids(a, b);
	char x[160], y[160], who[64];

	diff_report_frame(r, a->frame, a->display, 0);
	if (a->display != b->display) {
		diff_report_add(r, CAT_DISPLAY, "display %" PRIu64 " vs %" PRIu64, a->display, b->display);
	} else if (a->width != b->width || a->height != b->height) {
		diff_report_add(r, CAT_DISPLAY, "mode %dx%d vs %dx%d", a->width, a->height, b->width, b->height);
	}
	if (!by_id) {
		diff_report_add(r, CAT_LAYERS, "A has %zu layers %s, B has %zu %s", a->layer_count,
			id_list(x, sizeof(x), a), b->layer_count, id_list(y, sizeof(y), b));
	}
	if (a->validated != b->validated) {
		diff_report_add(r, CAT_DECISIONS, "validated %s vs %s", a->validated ? "yes" : "no",
			b->validated ? "yes" : "no");
	}
	for (size_t i = 0; i < a->layer_count; i++) {
		const struct hwct_layer *la = &a->layers[i];
		const struct hwct_layer *lb = by_id ? find_layer(b, la->id) : i < b->layer_count ? &b->layers[i] : NULL;

		if (!lb) {
			break;
		}
		if (la->id == lb->id) {
			snprintf(who, sizeof(who), "%" PRIu64, la->id);
		} else {
			snprintf(who, sizeof(who), "%" PRIu64 "/%" PRIu64, la->id, lb->id);
		}
		compare_geometry(r, who, la, lb);
		compare_properties(r, who, la, lb);
		compare_decisions(r, who, la, lb);
		snprintf(x, sizeof(x), "layer %s", who);
		compare_content(r, x, ra, &la->buffer, rb, &lb->buffer);
	}
	if (a->has_client_target != b->has_client_target) {
		diff_report_add(r, CAT_DECISIONS, "client target %s vs %s", a->has_client_target ? "set" : "not set",
			b->has_client_target ? "set" : "not set");
	} else if (a->has_client_target) {
		compare_content(r, "client target", ra, &a->client_target, rb, &b->client_target);
	}
}

static int read_error(struct hwct_reader *rd, int ret, struct hwct_error *err)
{
	if (hwct_reader_error(rd)) {
		*err = *hwct_reader_error(rd);
	} else {
		hwct_error_set(err, ret, hwct_reader_name(rd), UINT64_MAX, "%s", strerror(-ret));
	}
	return ret;
}

/* Adds the displays r's FrameEnds name to ids (count of them, at most DIFF_DISPLAYS_MAX), then rewinds r. */
static int frame_displays(struct hwct_reader *r, uint64_t *ids, size_t *count, struct hwct_error *err)
{
	const Hwct__Record *rec;
	int ret;

	while ((ret = hwct_reader_next(r, &rec)) == 1) {
		bool known = false;

		if (rec->kind_case != HWCT__RECORD__KIND_FRAME_END) {
			continue;
		}
		for (size_t i = 0; i < *count && !known; i++) {
			known = ids[i] == rec->frame_end->display;
		}
		if (!known && *count < DIFF_DISPLAYS_MAX) {
			ids[(*count)++] = rec->frame_end->display;
		}
	}
	if (ret < 0 && !hwct_reader_error_at_cut_end(r)) {
		return read_error(r, ret, err);
	}
	ret = hwct_reader_rewind(r);
	return ret < 0 ? read_error(r, ret, err) : 0;
}

/* Which display of a trace a pass takes. */
struct side {
	bool absent;			/* the other trace has more displays: none here */
	uint64_t display;		/* UINT64_MAX: every display */
};

/* Frame k of A's display against frame k of B's (in order); frames one side lacks are counted. */
static int compare_display(struct hwct_reader *ra, struct hwct_reader *rb, struct side sa, struct side sb,
	struct diff_report *r, struct hwct_error *err)
{
	struct hwct_frame_iter *ia = sa.absent ? NULL : hwct_frame_iter_create(ra);
	struct hwct_frame_iter *ib = sb.absent ? NULL : hwct_frame_iter_create(rb);
	int ret = -ENOMEM;

	if ((ia || sa.absent) && (ib || sb.absent)) {
		if (ia) {
			hwct_frame_iter_set_display(ia, sa.display);
		}
		if (ib) {
			hwct_frame_iter_set_display(ib, sb.display);
		}
		for (;;) {
			const struct hwct_frame *fa = NULL, *fb = NULL;
			int na = ia ? hwct_frame_iter_next(ia, &fa) : 0;
			int nb = na >= 0 && ib ? hwct_frame_iter_next(ib, &fb) : 0;

			if (na < 0 || nb < 0) {
				ret = na < 0 ? read_error(ra, na, err) : read_error(rb, nb, err);
				break;
			}
			if (na == 0 && nb == 0) {
				ret = 0;
				break;
			}
			if (na && nb) {
				compare_frames(r, ra, fa, rb, fb);
			} else {
				r->only_a += na;
				r->only_b += nb;
			}
		}
	}
	hwct_frame_iter_destroy(ia);
	hwct_frame_iter_destroy(ib);
	return ret;
}

static int by_frame(const void *x, const void *y)
{
	const struct diff_entry *a = x, *b = y;

	if (a->frame != b->frame) {
		return a->frame < b->frame ? -1 : 1;
	}
	return a->category < b->category ? -1 : a->category > b->category;
}

int diff_traces(const char *a, const char *b, uint64_t display, struct diff_report *r, struct hwct_error *err)
{
	struct hwct_reader *ra = hwct_reader_open(a, err), *rb = NULL;
	uint64_t ids_a[DIFF_DISPLAYS_MAX], ids_b[DIFF_DISPLAYS_MAX];
	size_t count_a = 0, count_b = 0, count;
	int ret = 0;

	r->kind = "traces";
	r->categories = categories;
	r->category_count = sizeof(categories) / sizeof(categories[0]);
	if (!ra || !(rb = hwct_reader_open(b, err))) {
		hwct_reader_destroy(ra);
		return err->code ? err->code : -EINVAL;
	}
	if (display == UINT64_MAX && (ret = frame_displays(ra, ids_a, &count_a, err)) == 0) {
		ret = frame_displays(rb, ids_b, &count_b, err);
	}
	count = count_a > count_b ? count_a : count_b;
	if (ret == 0 && count <= 1) {
		/* one display (or --display): its frames in order, whatever its id in each trace */
		ret = compare_display(ra, rb, (struct side){ .display = display }, (struct side){ .display = display },
			r, err);
	} else if (ret == 0) {
		/* several: the i-th display of A (in order of first frame) against the i-th of B */
		for (size_t i = 0; i < count && ret == 0; i++) {
			struct side sa = { .absent = i >= count_a, .display = i < count_a ? ids_a[i] : 0 };
			struct side sb = { .absent = i >= count_b, .display = i < count_b ? ids_b[i] : 0 };

			ret = i ? hwct_reader_rewind(ra) : 0;
			ret = ret ? read_error(ra, ret, err) : i ? hwct_reader_rewind(rb) : 0;
			ret = ret ? read_error(rb, ret, err) : compare_display(ra, rb, sa, sb, r, err);
		}
		if (r->count > 1) {
			qsort(r->entries, r->count, sizeof(*r->entries), by_frame);	/* one frame's categories stay in order */
		}
		diff_report_note(r, "displays: A %zu, B %zu; frame k of A's i-th display (in order of first frame) "
			"compared with frame k of B's i-th", count_a, count_b);
	}
	if (ret == 0 && (r->only_a || r->only_b)) {
		diff_report_note(r, "frame counts: A %" PRIu64 ", B %" PRIu64, r->compared + r->only_a,
			r->compared + r->only_b);
	}
	hwct_reader_destroy(ra);
	hwct_reader_destroy(rb);
	return ret;
}
