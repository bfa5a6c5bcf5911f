/* Writing results.json (replay_results.h; schema: docs/results.md). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <hwct/format.h>
#include <hwct/hwc2_names.h>

#include "board.h"
#include "hwct_config.h"
#include "replay_board.h"
#include "replay_results.h"

#define COMPACT_DEPTH 3		/* frames, and objects inside the header's members, on one line */
#define RESULTS_BUFFER (1u << 20)	/* stdio buffer of a results file */

static const char *const timing_names[] = {
	[REPLAY_TIMING_DEFAULT] = "default",
	[REPLAY_TIMING_RECORDED] = "recorded",
	[REPLAY_TIMING_VSYNC] = "vsync",
	[REPLAY_TIMING_FAST] = "fast",
};

static const char *const compare_names[] = {
	[REPLAY_COMPARE_ALL] = "all",
	[REPLAY_COMPARE_PIXELS] = "pixels",
	[REPLAY_COMPARE_PLANS] = "plans",
};

const char *replay_composition_name(int32_t composition)
{
	const char *name = hwct_hwc2_composition_name(composition);

	return name ? name : "UNKNOWN";
}

int replay_results_open(struct replay_results *r, const char *path)
{
	*r = (struct replay_results){ .path = path };
	if (strcmp(path, "-") == 0) {
		r->f = stdout;
	} else {
		r->f = fopen(path, "w");
		if (!r->f) {
			return -errno;
		}
		r->own = true;
		setvbuf(r->f, NULL, _IOFBF, RESULTS_BUFFER);
	}
	rjson_init(&r->j, r->f, COMPACT_DEPTH);
	return 0;
}

int replay_results_resume(struct replay_results *r, const char *path, const struct rjson *state)
{
	*r = (struct replay_results){ .path = path, .header_done = true };
	if (strcmp(path, "-") == 0) {
		r->f = stdout;
	} else {
		r->f = fopen(path, "a");
		if (!r->f) {
			return -errno;
		}
		r->own = true;
	}
	r->j = *state;
	r->j.f = r->f;
	return 0;
}

static void write_pair(struct rjson *j, const char *key, uint32_t a, uint32_t b)
{
	rjson_array_begin(j, key);
	rjson_uint(j, NULL, a);
	rjson_uint(j, NULL, b);
	rjson_array_end(j);
}

static void write_map(struct rjson *j, const struct replay_map *m)
{
	rjson_object_begin(j, "mode_map");
	rjson_string(j, "mode", replay_map_name(m->mode));
	rjson_bool(j, "active", m->active);
	if (m->from_width && m->from_height) {
		write_pair(j, "from", m->from_width, m->from_height);
	} else {
		rjson_null(j, "from");
	}
	write_pair(j, "to", m->to_width, m->to_height);
	rjson_array_begin(j, "scale");
	rjson_double(j, NULL, m->scale_x);
	rjson_double(j, NULL, m->scale_y);
	rjson_array_end(j);
	rjson_array_begin(j, "output");
	rjson_int(j, NULL, m->output.left);
	rjson_int(j, NULL, m->output.top);
	rjson_int(j, NULL, m->output.right);
	rjson_int(j, NULL, m->output.bottom);
	rjson_array_end(j);
	rjson_object_end(j);
}

static void write_trace(struct rjson *j, const struct replay_header *h)
{
	const Hwct__FileHeader *fh = h->trace->header;
	char version[32];

	snprintf(version, sizeof(version), "%u.%u", h->trace->major, h->trace->minor);
	rjson_object_begin(j, "trace");
	rjson_string(j, "path", h->opts->trace);
	rjson_string(j, "writer", fh && fh->writer && fh->writer[0] ? fh->writer : NULL);
	rjson_string(j, "format_version", version);
	rjson_uint(j, "frames", h->trace->frame_count);
	if (fh && fh->has_pixels) {
		rjson_bool(j, "pixels", fh->pixels);
	} else {
		rjson_null(j, "pixels");
	}
	rjson_bool(j, "has_seek_table", h->trace->has_seek_table);
	rjson_bool(j, "truncated", h->trace->truncated);
	rjson_object_end(j);
}

static void write_target(struct rjson *j, const struct replay_header *h, const struct replay_board *emulated)
{
	const struct board *b = h->target->board;

	rjson_object_begin(j, "target");
	rjson_string(j, "kind", h->target->name);
	rjson_string(j, "path", h->target->arg);
	write_pair(j, "mode", h->target->width, h->target->height);
	rjson_int(j, "vsync_period_ns", h->target->vsync_period_ns);
	rjson_object_end(j);
	if (!b) {
		rjson_null(j, "board");
		return;
	}
	rjson_object_begin(j, "board");
	rjson_string(j, "name", b->name);
	rjson_string(j, "driver", b->driver[0] ? b->driver : NULL);
	write_pair(j, "mode", b->width, b->height);
	rjson_uint(j, "planes", b->plane_count);
	rjson_array_begin(j, "plane_ids");
	for (size_t i = 0; i < b->plane_count; i++) {
		rjson_uint(j, NULL, emulated ? replay_board_plane(emulated, b->planes[i].id) : b->planes[i].id);
	}
	rjson_array_end(j);
	rjson_object_end(j);
}

/* "emulated_board": the dump a --device --board device is shaped like, and its plane ids. */
static void write_emulated(struct rjson *j, const struct replay_board *rb)
{
	if (!rb || !rb->dump) {
		rjson_null(j, "emulated_board");
		return;
	}
	rjson_object_begin(j, "emulated_board");
	rjson_string(j, "dump", rb->path);
	rjson_string(j, "driver", rb->dump->driver[0] ? rb->dump->driver : NULL);
	rjson_array_begin(j, "planes");
	for (size_t i = 0; i < rb->bound; i++) {
		rjson_object_begin(j, NULL);
		rjson_uint(j, "kms", rb->kms_ids[i]);
		if (rb->dump_ids[i]) {
			rjson_uint(j, "dump", rb->dump_ids[i]);
		} else {
			rjson_null(j, "dump");
		}
		rjson_object_end(j);
	}
	rjson_array_end(j);
	rjson_object_end(j);
}

void replay_results_header(struct replay_results *r, const struct replay_header *h)
{
	struct rjson *j = &r->j;

	if (!r->f || r->header_done) {
		return;
	}
	r->header_done = true;
	r->profile = h->target && h->target->name && strcmp(h->target->name, "profile") == 0;
	rjson_object_begin(j, NULL);
	rjson_int(j, "results_version", REPLAY_RESULTS_VERSION);
	rjson_object_begin(j, "tool");
	rjson_string(j, "name", REPLAY_PROGRAM);
	rjson_string(j, "version", HWCT_VERSION);
	rjson_object_end(j);
	write_trace(j, h);
	replay_recording_write(h->recording, j);
	replay_host_write(h->host, j);
	write_target(j, h, r->emulated);
	write_emulated(j, r->emulated);
	rjson_string(j, "planner", h->target->module_decides ? REPLAY_MODULE_PLANNER : h->opts->planner);
	rjson_string(j, "compositor", h->compositor);
	rjson_string(j, "yuv_model", h->yuv_model);
	rjson_bool(j, "pixels", !h->opts->no_pixels);
	rjson_string(j, "timing", timing_names[h->timing]);
	rjson_string(j, "format_fallback", h->opts->format_fallback == REPLAY_FALLBACK_EQUIVALENT ?
		"equivalent" : "none");
	rjson_object_begin(j, "range");
	rjson_uint(j, "first", h->opts->first);
	if (h->opts->last == UINT64_MAX) {
		rjson_null(j, "last");
	} else {
		rjson_uint(j, "last", h->opts->last);
	}
	if (h->opts->has_display) {
		rjson_uint(j, "display", h->opts->display);
	} else {
		rjson_null(j, "display");
	}
	rjson_uint(j, "loops", h->opts->loops);
	rjson_object_end(j);
	if (h->map) {
		write_map(j, h->map);
	} else {
		rjson_null(j, "mode_map");
	}
	rjson_string(j, "placeholder_color", "#ff00ff");
	rjson_string(j, "images_dir", h->images_dir);
	if (h->opts->expect) {
		rjson_object_begin(j, "expect");
		rjson_string(j, "file", h->opts->expect);
		rjson_string(j, "compare", compare_names[h->opts->compare]);
		rjson_object_end(j);
	} else {
		rjson_null(j, "expect");
	}
	rjson_array_begin(j, "frames");
}

/*
 * What a decision on a board profile takes for granted that a drm_info dump
 * cannot tell (docs/results.md, "assumed"): whether planes scale, and
 * whether the device has the bandwidth, width and memory for a plane.
 */
#define ASSUMED_SCALING (1u << 0)	/* the layer needs scaling: the board's can_scale was assumed */
#define ASSUMED_BANDWIDTH (1u << 1)	/* on a plane: bandwidth, width caps, memory taken as enough */

/* Whether a layer's source crop and display frame differ in size (rotations by 90 swap them). */
static bool needs_scaling(const struct scene_layer *l)
{
	double w = (double)l->crop.right - l->crop.left, h = (double)l->crop.bottom - l->crop.top;
	double fw = (double)l->frame.right - l->frame.left, fh = (double)l->frame.bottom - l->frame.top;

	if (l->transform & HAL_TRANSFORM_ROT_90) {
		double t = w;

		w = h;
		h = t;
	}
	return l->image && (w != fw || h != fh);
}

static uint32_t assumed(const struct scene_layer *l, const struct plan_layer *pl)
{
	uint32_t bits = 0;

	if (needs_scaling(l) && (pl->plane_id || (pl->reasons & PLAN_REASON_SCALING))) {
		bits |= ASSUMED_SCALING;
	}
	if (pl->plane_id) {
		bits |= ASSUMED_BANDWIDTH;
	}
	return bits;
}

static void write_assumed(struct rjson *j, uint32_t bits)
{
	rjson_array_begin(j, "assumed");
	if (bits & ASSUMED_SCALING) {
		rjson_string(j, NULL, "assumed-scaling");
	}
	if (bits & ASSUMED_BANDWIDTH) {
		rjson_string(j, NULL, "assumed-bandwidth");
	}
	rjson_array_end(j);
}

/* profile: a board profile decided (the plan rests on assumptions, listed per layer). */
static void write_plan(struct rjson *j, const struct scene *scene, const struct plan *plan, bool profile,
	const struct replay_board *emulated)
{
	const char *composition;
	char reasons[32];

	if (!plan) {
		rjson_null(j, "plan");
		rjson_null(j, "client_target_plane");
		return;
	}
	rjson_array_begin(j, "plan");
	for (size_t i = 0; i < plan->layer_count; i++) {
		const struct plan_layer *pl = &plan->layers[i];

		rjson_object_begin(j, NULL);
		rjson_uint(j, "layer", i < scene->layer_count ? scene->layers[i].id : 0);
		if (pl->plane_id) {
			rjson_uint(j, "plane", emulated ? replay_board_plane(emulated, pl->plane_id) : pl->plane_id);
		} else {
			rjson_null(j, "plane");
		}
		composition = hwct_hwc2_composition_name(pl->composition);
		if (composition) {
			rjson_string(j, "composition", composition);
		} else {
			rjson_null(j, "composition");
		}
		rjson_array_begin(j, "reasons");
		for (uint32_t b = 0; b < 32; b++) {
			if (pl->reasons & (1u << b)) {
				const char *name = plan_reason_name(1u << b);

				if (!name) {
					snprintf(reasons, sizeof(reasons), "bit-%u", b);
				}
				rjson_string(j, NULL, name ? name : reasons);
			}
		}
		rjson_array_end(j);
		if (profile && i < scene->layer_count) {
			write_assumed(j, assumed(&scene->layers[i], pl));
		}
		rjson_object_end(j);
	}
	rjson_array_end(j);
	if (plan->client_target_plane) {
		rjson_uint(j, "client_target_plane", emulated ?
			replay_board_plane(emulated, plan->client_target_plane) : plan->client_target_plane);
	} else {
		rjson_null(j, "client_target_plane");
	}
}

static void write_recorded(struct rjson *j, const struct hwct_frame *f)
{
	rjson_object_begin(j, "recorded");
	rjson_bool(j, "validated", f->validated);
	rjson_bool(j, "client_target", f->has_client_target);
	rjson_array_begin(j, "layers");
	for (size_t i = 0; i < f->layer_count; i++) {
		rjson_object_begin(j, NULL);
		rjson_uint(j, "layer", f->layers[i].id);
		rjson_string(j, "requested", replay_composition_name(f->layers[i].requested));
		rjson_string(j, "composition", replay_composition_name(f->layers[i].final));
		rjson_object_end(j);
	}
	rjson_array_end(j);
	rjson_object_end(j);
}

void replay_results_frame(struct replay_results *r, const struct replay_frame_report *fr)
{
	const struct backend_result *res = fr->result;
	const struct hwct_frame *f = fr->frame;
	struct rjson *j = &r->j;
	char hex[HWCT_HASH_HEX];

	if (!r->f) {
		return;
	}
	rjson_object_begin(j, NULL);
	rjson_uint(j, "frame", f->frame);
	rjson_uint(j, "display", f->display);
	rjson_uint(j, "display_frame", f->display_frame);
	if (fr->loop) {
		rjson_uint(j, "loop", fr->loop);
	}
	rjson_uint(j, "t_ns", f->t_ns);
	write_plan(j, fr->scene, res->plan, r->profile, r->emulated);
	rjson_double(j, "efficiency", res->efficiency);
	rjson_string(j, "checksum", res->has_checksum ? hwct_hash_to_hex(&res->checksum, hex) : NULL);
	rjson_string(j, "checksum_source", res->has_checksum ? res->checksum_source : NULL);
	rjson_array_begin(j, "missing_content");
	for (size_t i = 0; i < fr->missing_count; i++) {
		rjson_uint(j, NULL, fr->missing[i]);
	}
	rjson_array_end(j);
	if (fr->sub_count) {
		rjson_array_begin(j, "format_substitutions");
		for (size_t i = 0; i < fr->sub_count; i++) {
			char from[12], to[12];

			rjson_object_begin(j, NULL);
			rjson_uint(j, "layer", fr->subs[i].layer);
			rjson_string(j, "from", board_fourcc_name(fr->subs[i].from, from));
			rjson_string(j, "to", board_fourcc_name(fr->subs[i].to, to));
			rjson_object_end(j);
		}
		rjson_array_end(j);
	}
	if (fr->image) {
		rjson_string(j, "image", fr->image);
	}
	if (fr->map) {
		write_map(j, fr->map);
	}
	rjson_object_begin(j, "timing");
	rjson_int_or_null(j, "wait_ns", fr->wait_ns);
	rjson_int_or_null(j, "plan_ns", res->plan_ns);
	rjson_int_or_null(j, "compose_ns", res->compose_ns);
	rjson_int_or_null(j, "commit_ns", res->commit_ns);
	rjson_int_or_null(j, "present_ns", res->present_ns);
	rjson_object_end(j);
	if (res->call_errors || res->note[0]) {
		rjson_object_begin(j, "module");
		rjson_uint(j, "call_errors", res->call_errors);
		rjson_string(j, "note", res->note[0] ? res->note : NULL);
		rjson_object_end(j);
	}
	write_recorded(j, f);
	rjson_object_end(j);
}

static void write_outcome(struct rjson *j, const struct replay_outcome *o)
{
	rjson_bool(j, "complete", o->complete);
	rjson_string(j, "error", o->error);
	if (!o->expect) {
		rjson_null(j, "comparison");
		return;
	}
	rjson_object_begin(j, "comparison");
	rjson_uint(j, "compared", o->compared);
	rjson_uint(j, "differing", o->differing);
	if (o->has_first_difference) {
		rjson_uint(j, "first_difference_frame", o->first_difference_frame);
		rjson_string(j, "first_difference", o->first_difference);
	} else {
		rjson_null(j, "first_difference_frame");
		rjson_null(j, "first_difference");
	}
	rjson_object_end(j);
}

int replay_results_close(struct replay_results *r, const struct replay_totals *t, const struct replay_outcome *o)
{
	int ret = 0;

	if (!r->f) {
		return 0;
	}
	if (r->header_done) {
		rjson_array_end(&r->j);
		replay_totals_write(t, &r->j);
		write_outcome(&r->j, o);
		rjson_object_end(&r->j);
	}
	if (fflush(r->f) != 0 || ferror(r->f)) {
		ret = errno ? -errno : -EIO;
	}
	if (r->own && fclose(r->f) != 0 && ret == 0) {
		ret = -errno;
	}
	r->f = NULL;
	return ret;
}
