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

#define BOOT_LEAD_NS 5000000u
#define MAX_SEEN 256			/* other displays counted */		/* the display's set-up calls, before the first frame */

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
	bool no_pixels;			/* winscope_options.no_pixels */
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
		image = ws_content_create(m->format, wl->width, wl->height, wl->id, wl->frame, wl->opaque,
			!im->no_pixels);
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
			wl->opaque, !im->no_pixels);

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

/* One display of the trace being imported. */
struct shown {
	struct ws_display d;
	struct ws_stack *stacks;	/* per entry, empty where the entry does not list the display; owned */
	bool *present;			/* per entry; owned */
	int index;			/* its session display, -1 before its hotplug */
	bool unplugged;			/* gone from the entries since its last frame: disconnected */
	struct importer im;
	uint64_t frames, first_entry;
	uint64_t unplugs, first_unplug_entry;
};

struct plan {
	struct shown *shown;		/* the first is session display 0; owned */
	size_t count;
	uint32_t skipped;		/* displays of the trace not imported */
};

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

/* Hotplugs shown display k (not the first, which the session starts with) when it first appears. */
static int hotplug(struct session *s, struct shown *sh, size_t k, size_t entry)
{
	struct session_display_config cfg = { .id = k, .width = sh->d.view.width, .height = sh->d.view.height,
		.dpi = sh->d.dpi > 0 ? sh->d.dpi : 0, .name = sh->d.name, .is_virtual = sh->d.is_virtual,
		.external = !sh->d.is_virtual };
	int index = session_display_add(s, &cfg);

	if (index < 0) {
		return index;
	}
	sh->index = index;
	sh->first_entry = entry;
	return 0;
}

/*
 * Shown display sh, connected, is not in entry i: the composer's hotplug
 * (disconnected), then SurfaceFlinger destroys its layers. It is connected
 * again when an entry lists it later.
 */
static int unplug(struct session *s, struct shown *sh, size_t entry)
{
	int ret = session_display_use(s, (size_t)sh->index);

	ret = ret ? ret : session_display_unplug(s);
	while (ret == 0 && sh->im.count) {
		unmap(&sh->im, &sh->im.map[sh->im.count - 1]);
	}
	if (ret == 0) {
		sh->unplugged = true;
		sh->first_unplug_entry = sh->unplugs++ ? sh->first_unplug_entry : entry;
	}
	return ret;
}

static int play(struct session *s, const struct ws_trace *t, struct plan *pl, struct winscope_report *rep)
{
	uint64_t vsync = 0;
	int ret = 0;

	pl->shown[0].index = 0;
	for (size_t i = 0; i < t->count && ret == 0; i++) {
		vsync = vsync_of(t->entries[i].msg, vsync);
		for (size_t k = 0; k < pl->count && ret == 0; k++) {
			struct shown *sh = &pl->shown[k];

			if (!sh->present[i]) {
				ret = sh->index >= 0 && !sh->unplugged ? unplug(s, sh, i) : 0;
				continue;
			}
			if (sh->index < 0) {
				ret = hotplug(s, sh, k, i);
			} else if (sh->unplugged) {
				ret = session_display_use(s, (size_t)sh->index);
				ret = ret ? ret : session_display_replug(s);
				sh->unplugged = ret != 0;
			}
			ret = ret ? ret : session_display_use(s, (size_t)sh->index);
			ret = ret ? ret : apply_stack(&sh->im, &sh->stacks[i]);
			ret = ret ? ret : session_frame_at(s, vsync);
			count_decisions(&sh->im, &sh->stacks[i]);
			sh->frames++;
			rep->frames++;
		}
		rep->entries++;
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

/* Every entry's stack on display sh, before anything is written: a bad entry fails the import early. */
static int build_stacks(const struct ws_trace *t, struct shown *sh, const struct winscope_options *opts,
	const char *name, struct hwct_error *err)
{
	int ret = 0;

	sh->stacks = calloc(t->count, sizeof(*sh->stacks));
	if (!sh->stacks) {
		return hwct_error_set(err, -ENOMEM, name, UINT64_MAX, "out of memory");
	}
	for (size_t i = 0; i < t->count && ret == 0; i++) {
		if (sh->present[i]) {
			ws_display_update(&sh->d, t->entries[i].msg);
			ret = ws_stack_build(&sh->stacks[i], t->entries[i].msg, &sh->d, opts, name,
				t->entries[i].offset, i, err);
		}
	}
	return ret;
}

static bool lists(const Winscope__LayersTraceProto *e, uint64_t id)
{
	for (size_t k = 0; k < e->n_displays; k++) {
		if (e->displays[k]->id == id) {
			return true;
		}
	}
	return false;
}

/*
 * The displays to import: opts->display alone, else every display of the
 * trace, the first physical one first, the others in the order they appear.
 */
static int plan_displays(struct plan *pl, const Winscope__LayersTraceProto *const *msgs, size_t count,
	const struct winscope_options *opts, const char *name, struct hwct_error *err)
{
	uint64_t ids[WINSCOPE_MAX_DISPLAYS], seen[MAX_SEEN];
	size_t n = 0, distinct = 0;
	uint32_t unused;
	int ret = 0;

	*pl = (struct plan){ .shown = calloc(WINSCOPE_MAX_DISPLAYS, sizeof(*pl->shown)) };
	if (!pl->shown) {
		return hwct_error_set(err, -ENOMEM, name, UINT64_MAX, "out of memory");
	}
	/* the first: the one a single-display import takes (opts->display, the first physical, or none listed) */
	ret = ws_display_select(msgs, count, opts, name, &pl->shown[0].d, &unused, err);
	if (ret < 0) {
		return ret;
	}
	ids[n++] = pl->shown[0].d.id;
	for (size_t i = 0; i < count; i++) {
		for (size_t k = 0; k < msgs[i]->n_displays; k++) {
			uint64_t id = msgs[i]->displays[k]->id;
			bool known = false;

			for (size_t j = 0; j < distinct && !known; j++) {
				known = seen[j] == id;
			}
			if (!known && id != ids[0] && distinct < MAX_SEEN) {
				seen[distinct++] = id;
				if (!opts->has_display && n < WINSCOPE_MAX_DISPLAYS) {
					ids[n++] = id;
				}
			}
		}
	}
	pl->count = n;
	pl->skipped = (uint32_t)(distinct - (n - 1));
	for (size_t k = 0; k < n && ret == 0; k++) {
		struct shown *sh = &pl->shown[k];
		struct winscope_options one = *opts;
		bool listed = false;

		one.has_display = true;
		one.display = ids[k];
		sh->index = -1;
		for (size_t i = 0; i < count && !listed; i++) {
			listed = lists(msgs[i], ids[k]);
		}
		if (k > 0) {
			ret = ws_display_select(msgs, count, &one, name, &sh->d, &unused, err);
		}
		sh->present = calloc(count, sizeof(*sh->present));
		if (ret == 0 && !sh->present) {
			ret = hwct_error_set(err, -ENOMEM, name, UINT64_MAX, "out of memory");
		}
		for (size_t i = 0; ret == 0 && i < count; i++) {
			sh->present[i] = !listed || lists(msgs[i], ids[k]);
		}
	}
	return ret;
}

static void plan_finish(struct plan *pl, size_t entries)
{
	for (size_t k = 0; pl->shown && k < pl->count; k++) {
		struct shown *sh = &pl->shown[k];

		for (size_t i = 0; i < sh->im.count; i++) {
			free(sh->im.map[i].name);
		}
		free(sh->im.map);
		free(sh->present);
		free_stacks(sh->stacks, entries);
	}
	free(pl->shown);
	*pl = (struct plan){ 0 };
}

static void fill_report(struct winscope_report *rep, const struct ws_trace *t, const struct plan *pl)
{
	const struct ws_display *d = &pl->shown[0].d;

	*rep = (struct winscope_report){ .display_id = d->id, .width = d->view.width, .height = d->view.height,
		.size_source = ws_size_source_text(d->size_source), .packets = t->packets,
		.packets_skipped = t->packets_skipped, .displays_skipped = pl->skipped,
		.display_count = (uint32_t)pl->count };
	snprintf(rep->display_name, sizeof(rep->display_name), "%s", d->name);
	for (size_t k = 0; k < pl->count; k++) {
		const struct shown *sh = &pl->shown[k];
		struct winscope_display_report *dr = &rep->displays[k];

		*dr = (struct winscope_display_report){ .hwc2_id = k, .id = sh->d.id, .width = sh->d.view.width,
			.height = sh->d.view.height, .size_source = ws_size_source_text(sh->d.size_source),
			.is_virtual = sh->d.is_virtual };
		snprintf(dr->name, sizeof(dr->name), "%s", sh->d.name);
		for (size_t i = 0; i < t->count; i++) {
			const struct ws_stack *st = &sh->stacks[i];

			rep->decisions = rep->decisions || st->composition_state;
			if (st->duplicates > rep->duplicates) {
				rep->duplicates = st->duplicates;
				rep->duplicate_id = st->duplicate_id;
			}
			for (size_t j = 0; j < st->count; j++) {
				const struct ws_layer *wl = &st->layers[j];

				if (!wl->color && ws_content_format(wl->format, wl->width, wl->height) ==
					PATTERN_RGBA8888 && wl->format != 1) {
					rep->formats_substituted++;
				}
			}
		}
	}
}

static void finish_report(struct winscope_report *rep, const struct plan *pl)
{
	for (size_t k = 0; k < pl->count; k++) {
		rep->displays[k].frames = pl->shown[k].frames;
		rep->displays[k].first_entry = pl->shown[k].first_entry;
		rep->displays[k].unplugs = pl->shown[k].unplugs;
		rep->displays[k].first_unplug_entry = pl->shown[k].first_unplug_entry;
	}
}

int winscope_import(const void *data, size_t size, const char *name, struct hwct_writer *w,
	const struct winscope_options *opts, struct winscope_report *rep, struct hwct_error *err)
{
	struct winscope_options defaults;
	struct winscope_report local;
	const Winscope__LayersTraceProto **msgs = NULL;
	struct session *s = NULL;
	struct plan pl = { 0 };
	struct ws_trace t;
	struct ws_meta meta;
	int ret;

	hwct_error_clear(err);
	rep = rep ? rep : &local;
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
	ret = plan_displays(&pl, msgs, t.count, opts, name, err);
	for (size_t k = 0; ret == 0 && k < pl.count; k++) {
		ret = build_stacks(&t, &pl.shown[k], opts, name, err);
	}
	if (ret < 0) {
		goto out;
	}
	fill_report(rep, &t, &pl);
	ret = ws_meta_init(&meta, &t, &pl.shown[0].d, rep, pl.shown[0].stacks, name, opts->origin_note);
	/* the session starts shortly before the first frame, not at boot */
	meta.config.start_ns = vsync_of(t.entries[0].msg, 0) > BOOT_LEAD_NS ?
		vsync_of(t.entries[0].msg, 0) - BOOT_LEAD_NS : 0;
	meta.config.no_pixels = opts->no_pixels;
	if (ret == 0) {
		s = session_create(w, &meta.config);
		ret = s ? 0 : -errno;
	}
	for (size_t k = 0; k < pl.count; k++) {
		pl.shown[k].im = (struct importer){ .s = s, .rep = rep, .no_pixels = opts->no_pixels };
	}
	ret = ret < 0 ? ret : play(s, &t, &pl, rep);
	finish_report(rep, &pl);
	if (s) {
		int end = session_destroy(s);

		ret = ret ? ret : end;
	}
	ws_meta_finish(&meta);
	if (ret < 0) {
		hwct_error_set(err, ret, name, UINT64_MAX, "writing the trace: %s", strerror(-ret));
	}
out:
	plan_finish(&pl, t.count);
	free(msgs);
	ws_trace_finish(&t);
	return ret;
}
