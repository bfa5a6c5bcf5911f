/*
 * The import (winscope.h): parse and check the whole input, build every
 * entry's layer stack, then play the stacks through a scenario session, one
 * display frame per entry, keeping one HWC2 layer per LayerProto id while
 * the layer stays visible.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "winscope_content.h"
#include "winscope_import.h"
#include "winscope_read.h"
#include "winscope_stack.h"

#define BOOT_LEAD_NS 5000000u		/* the display's set-up calls, before the first frame */

void winscope_options_init(struct winscope_options *opts)
{
	*opts = (struct winscope_options){
		.max_dimension = 8192,
		.max_pixels = 16u << 20,
		.max_input = 1u << 30,
		.max_layers = 20000,
	};
}

/* A layer that has an HWC2 layer. */
struct mapped {
	int32_t id;			/* LayerProto.id */
	struct session_layer *layer;	/* owned by the session */
	char *name;			/* owned; the session borrows it */
	bool color;
	uint32_t width, height;
	enum pattern_format format;
	bool opaque;
	uint64_t frame;			/* the buffer drawn in layer->image */
	bool seen;			/* in the current frame's stack */
};

struct importer {
	struct session *s;
	struct mapped *map;
	size_t count, cap;
	struct winscope_report *rep;
};

static struct mapped *find(struct importer *im, int32_t id)
{
	for (size_t i = 0; i < im->count; i++) {
		if (im->map[i].id == id) {
			return &im->map[i];
		}
	}
	return NULL;
}

static void unmap(struct importer *im, struct mapped *m)
{
	session_layer_destroy(im->s, m->layer);
	free(m->name);
	*m = im->map[--im->count];
}

static int add_layer(struct importer *im, const struct ws_layer *wl)
{
	struct pattern_image *image = NULL;
	struct mapped *m;

	if (im->count == im->cap) {
		size_t cap = im->cap ? im->cap * 2 : 32;
		struct mapped *map = realloc(im->map, cap * sizeof(*map));

		if (!map) {
			return -ENOMEM;
		}
		im->map = map;
		im->cap = cap;
	}
	m = &im->map[im->count];
	*m = (struct mapped){ .id = wl->id, .color = wl->color, .width = wl->width, .height = wl->height,
		.opaque = wl->opaque, .frame = wl->frame, .seen = true };
	m->name = strdup(wl->name);
	if (!m->name) {
		return -ENOMEM;
	}
	if (!wl->color) {
		m->format = ws_content_format(wl->format, wl->width, wl->height);
		image = ws_content_create(m->format, wl->width, wl->height, wl->id, wl->frame, wl->opaque);
		if (!image) {
			free(m->name);
			return -errno;
		}
	}
	m->layer = session_layer_create(im->s, m->name, &wl->props, image);
	if (!m->layer) {
		/* the session owns image once it took it; a failed allocation before that leaks it */
		free(m->name);
		return -errno;
	}
	im->count++;
	im->rep->layers_created++;
	if (image) {
		im->rep->buffers++;
		return session_layer_queue(m->layer, NULL, 0);
	}
	return 0;
}

static int update_layer(struct importer *im, struct mapped *m, const struct ws_layer *wl)
{
	enum pattern_format format = ws_content_format(wl->format, wl->width, wl->height);
	struct hwct_rect damage;

	m->layer->props = wl->props;
	m->seen = true;
	if (wl->color) {
		return 0;
	}
	if (wl->width != m->width || wl->height != m->height || format != m->format || wl->opaque != m->opaque) {
		struct pattern_image *image = ws_content_create(format, wl->width, wl->height, wl->id, wl->frame,
			wl->opaque);

		if (!image) {
			return -errno;
		}
		session_layer_set_image(m->layer, image);
		*m = (struct mapped){ .id = m->id, .layer = m->layer, .name = m->name, .width = wl->width,
			.height = wl->height, .format = format, .opaque = wl->opaque, .frame = wl->frame,
			.seen = true };
		im->rep->buffers++;
		return session_layer_queue(m->layer, NULL, 0);
	}
	if (wl->frame == m->frame) {
		return 0;
	}
	ws_content_set_frame(m->layer->image, wl->id, wl->frame, wl->opaque, &damage);
	m->frame = wl->frame;
	im->rep->buffers++;
	return session_layer_queue(m->layer, &damage, 1);
}

/* Destroys the layers that left, creates the new ones, updates the rest, bottom first. */
static int apply_stack(struct importer *im, const struct ws_stack *stack)
{
	int ret = 0;

	for (size_t i = 0; i < im->count; i++) {
		im->map[i].seen = false;
	}
	for (size_t k = 0; k < stack->count; k++) {
		struct mapped *m = find(im, stack->layers[k].id);

		if (m && m->color == stack->layers[k].color) {
			m->seen = true;
		}
	}
	for (size_t i = im->count; i-- > 0;) {
		if (!im->map[i].seen) {
			unmap(im, &im->map[i]);
		}
	}
	for (size_t k = 0; k < stack->count && ret == 0; k++) {
		const struct ws_layer *wl = &stack->layers[k];
		struct mapped *m = find(im, wl->id);

		ret = m ? update_layer(im, m, wl) : add_layer(im, wl);
		m = find(im, wl->id);
		if (ret == 0 && m) {
			m->layer->recorded_type = wl->recorded;
		}
	}
	return ret;
}

static void count_decisions(struct importer *im, const struct ws_stack *stack)
{
	for (size_t k = 0; k < stack->count; k++) {
		const struct ws_layer *wl = &stack->layers[k];
		int32_t type = wl->recorded ? wl->recorded : wl->props.composition;

		if (type > 0 && type < 8) {
			im->rep->decided[type]++;
		}
	}
	if (stack->count > im->rep->layers_max) {
		im->rep->layers_max = stack->count;
	}
}

/* The vsync entry i is composed after: its calls start at its timestamp. */
static uint64_t vsync_of(const Winscope__LayersTraceProto *e, uint64_t previous)
{
	uint64_t next = previous + WS_VSYNC_PERIOD_NS;

	if (e->has_elapsed_realtime_nanos && e->elapsed_realtime_nanos > (int64_t)SESSION_WAKEUP_NS) {
		uint64_t t = (uint64_t)e->elapsed_realtime_nanos - SESSION_WAKEUP_NS;

		return t > previous ? t : next;
	}
	return next;
}

static int play(struct importer *im, const struct ws_trace *t, const struct ws_stack *stacks)
{
	uint64_t vsync = 0;
	int ret = 0;

	for (size_t i = 0; i < t->count && ret == 0; i++) {
		ret = apply_stack(im, &stacks[i]);
		vsync = vsync_of(t->entries[i].msg, vsync);
		ret = ret ? ret : session_frame_at(im->s, vsync);
		count_decisions(im, &stacks[i]);
		im->rep->entries++;
	}
	return ret;
}

static void free_stacks(struct ws_stack *stacks, size_t count)
{
	for (size_t i = 0; stacks && i < count; i++) {
		ws_stack_finish(&stacks[i]);
	}
	free(stacks);
}

/* Every entry's stack, before anything is written: a bad entry fails the import early. */
static int build_stacks(const struct ws_trace *t, struct ws_display *d, const struct winscope_options *opts,
	const char *name, struct ws_stack **out, struct hwct_error *err)
{
	struct ws_stack *stacks = calloc(t->count, sizeof(*stacks));
	int ret = 0;

	if (!stacks) {
		return hwct_error_set(err, -ENOMEM, name, UINT64_MAX, "out of memory");
	}
	for (size_t i = 0; i < t->count && ret == 0; i++) {
		ws_display_update(d, t->entries[i].msg);
		ret = ws_stack_build(&stacks[i], t->entries[i].msg, d, opts, name, t->entries[i].offset, i, err);
	}
	if (ret < 0) {
		free_stacks(stacks, t->count);
		return ret;
	}
	*out = stacks;
	return 0;
}

static void fill_report(struct winscope_report *rep, const struct ws_trace *t, const struct ws_display *d,
	uint32_t skipped, const struct ws_stack *stacks, size_t count)
{
	*rep = (struct winscope_report){ .display_id = d->id, .width = d->view.width, .height = d->view.height,
		.size_source = ws_size_source_text(d->size_source), .packets = t->packets,
		.packets_skipped = t->packets_skipped, .displays_skipped = skipped };
	snprintf(rep->display_name, sizeof(rep->display_name), "%s", d->name);
	for (size_t i = 0; i < count; i++) {
		if (stacks[i].duplicates > rep->duplicates) {
			rep->duplicates = stacks[i].duplicates;
			rep->duplicate_id = stacks[i].duplicate_id;
		}
		rep->decisions = rep->decisions || stacks[i].composition_state;
		for (size_t k = 0; k < stacks[i].count; k++) {
			const struct ws_layer *wl = &stacks[i].layers[k];

			if (!wl->color && ws_content_format(wl->format, wl->width, wl->height) ==
				PATTERN_RGBA8888 && wl->format != 1) {
				rep->formats_substituted++;
			}
		}
	}
}

int winscope_import(const void *data, size_t size, const char *name, struct hwct_writer *w,
	const struct winscope_options *opts, struct winscope_report *rep, struct hwct_error *err)
{
	struct winscope_options defaults;
	struct winscope_report local;
	struct importer im = { .rep = rep ? rep : &local };
	const Winscope__LayersTraceProto **msgs = NULL;
	struct ws_stack *stacks = NULL;
	struct ws_trace t;
	struct ws_display d;
	struct ws_meta meta;
	uint32_t skipped;
	int ret;

	hwct_error_clear(err);
	if (!opts) {
		winscope_options_init(&defaults);
		opts = &defaults;
	}
	ret = ws_trace_read(&t, data, size, name, opts, err);
	if (ret < 0) {
		return ret;
	}
	msgs = calloc(t.count, sizeof(*msgs));
	if (!msgs) {
		ret = hwct_error_set(err, -ENOMEM, name, UINT64_MAX, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < t.count; i++) {
		msgs[i] = t.entries[i].msg;
	}
	ret = ws_display_select(msgs, t.count, opts, name, &d, &skipped, err);
	ret = ret < 0 ? ret : build_stacks(&t, &d, opts, name, &stacks, err);
	if (ret < 0) {
		goto out;
	}
	fill_report(im.rep, &t, &d, skipped, stacks, t.count);
	ret = ws_meta_init(&meta, &t, &d, im.rep, stacks, name);
	/* the session starts shortly before the first frame, not at boot */
	meta.config.start_ns = vsync_of(t.entries[0].msg, 0) > BOOT_LEAD_NS ?
		vsync_of(t.entries[0].msg, 0) - BOOT_LEAD_NS : 0;
	if (ret == 0) {
		im.s = session_create(w, &meta.config);
		ret = im.s ? 0 : -errno;
	}
	ret = ret < 0 ? ret : play(&im, &t, stacks);
	if (im.s) {
		int end = session_destroy(im.s);

		ret = ret ? ret : end;
	}
	for (size_t i = 0; i < im.count; i++) {
		free(im.map[i].name);
	}
	ws_meta_finish(&meta);
	if (ret < 0) {
		hwct_error_set(err, ret, name, UINT64_MAX, "writing the trace: %s", strerror(-ret));
	}
out:
	free(im.map);
	free(msgs);
	free_stacks(stacks, t.count);
	ws_trace_finish(&t);
	return ret;
}
