/*
 * The agreement report (diff.h): did the replay board put on planes the
 * layers the recorded device took, and leave to the client those it gave
 * the client? Counted as hwc-replay's totals count them (docs/results.md,
 * recorded_agreement): layers of validated frames whose recorded final type
 * is known, DEVICE-like against a plane, CLIENT against client composition.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/frame.h>
#include <hwct/hwc2_names.h>

#include "decision.h"
#include "diff.h"

#include <json-c/json.h>

#define AGREE_REASONS_MAX 16

struct reason_count {
	char name[32];
	uint64_t count;
};

struct layer_agreement {
	uint64_t display, layer;
	uint64_t frames, agree, device_to_client, client_to_device;
	struct reason_count reasons[AGREE_REASONS_MAX];	/* of the disagreements */
	size_t reason_count;
};

struct disagreement {
	uint64_t frame, display, layer;
	int32_t recorded;
	bool on_plane;
	uint64_t plane;
	char reasons[160];
};

struct agreement {
	struct layer_agreement *layers;
	size_t count;
	struct disagreement *list;
	size_t list_count;
	uint64_t counted, agree, device_to_client, client_to_device;
	uint64_t frames, frames_agreeing, not_validated, undecided, not_in_trace;
	bool out_of_memory;
};

static struct layer_agreement *layer_entry(struct agreement *ag, uint64_t display, uint64_t layer)
{
	struct layer_agreement *l;

	for (size_t i = 0; i < ag->count; i++) {
		if (ag->layers[i].display == display && ag->layers[i].layer == layer) {
			return &ag->layers[i];
		}
	}
	l = realloc(ag->layers, (ag->count + 1) * sizeof(*l));
	if (!l) {
		ag->out_of_memory = true;
		return NULL;
	}
	ag->layers = l;
	l = &l[ag->count++];
	*l = (struct layer_agreement){ .display = display, .layer = layer };
	return l;
}

static void count_reasons(struct layer_agreement *l, const char *reasons)
{
	const char *p = reasons;

	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < l->reason_count; i++) {
			if (strlen(l->reasons[i].name) == len && strncmp(l->reasons[i].name, p, len) == 0) {
				break;
			}
		}
		if (i == l->reason_count && i < AGREE_REASONS_MAX) {
			snprintf(l->reasons[i].name, sizeof(l->reasons[i].name), "%.*s", (int)len, p);
			l->reason_count++;
		}
		if (i < l->reason_count) {
			l->reasons[i].count++;
		}
		p += len + (p[len] == ',');
	}
}

/* One results frame against the recorded decisions (by layer id; -2: layer not recorded). */
static void count_frame(struct agreement *ag, const struct diff_result_frame *rf, bool validated,
	int32_t (*recorded)(const void *ctx, uint64_t layer), const void *ctx)
{
	bool agreeing = true;

	if (!rf->has_plan) {
		return;
	}
	ag->frames++;
	if (!validated) {
		ag->not_validated++;
		return;
	}
	for (size_t i = 0; i < rf->plan_count; i++) {
		const struct diff_plan_layer *p = &rf->plan[i];
		int32_t composition = recorded(ctx, p->layer);
		int device = hwct_decision_on_device(composition);
		struct layer_agreement *l;

		if (device < 0) {
			ag->undecided++;
			continue;
		}
		l = layer_entry(ag, rf->display, p->layer);
		if (!l) {
			return;
		}
		l->frames++;
		ag->counted++;
		if (device == (int)p->on_plane) {
			l->agree++;
			ag->agree++;
			continue;
		}
		agreeing = false;
		l->device_to_client += device && !p->on_plane;
		l->client_to_device += !device && p->on_plane;
		ag->device_to_client += device && !p->on_plane;
		ag->client_to_device += !device && p->on_plane;
		count_reasons(l, p->reasons);
		{
			struct disagreement *d = realloc(ag->list, (ag->list_count + 1) * sizeof(*d));

			if (!d) {
				ag->out_of_memory = true;
				return;
			}
			ag->list = d;
			d = &d[ag->list_count++];
			*d = (struct disagreement){ rf->frame, rf->display, p->layer, composition, p->on_plane, p->plane, "" };
			snprintf(d->reasons, sizeof(d->reasons), "%s", p->reasons);
		}
	}
	ag->frames_agreeing += agreeing;
}

static int32_t recorded_in_results(const void *ctx, uint64_t layer)
{
	const struct diff_result_frame *rf = ctx;

	for (size_t i = 0; i < rf->recorded_count; i++) {
		if (rf->recorded[i].layer == layer) {
			return rf->recorded[i].composition;
		}
	}
	return -2;
}

static int32_t recorded_in_trace(const void *ctx, uint64_t layer)
{
	const struct hwct_frame *f = ctx;

	for (size_t i = 0; i < f->layer_count; i++) {
		if (f->layers[i].id == layer) {
			return f->layers[i].final;
		}
	}
	return -2;
}

static int by_frame(const void *a, const void *b)
{
	const struct diff_result_frame *x = *(const struct diff_result_frame *const *)a;
	const struct diff_result_frame *y = *(const struct diff_result_frame *const *)b;

	if (x->frame != y->frame) {
		return x->frame < y->frame ? -1 : 1;
	}
	return x < y ? -1 : x > y;
}

/* The first play's frames in frame order, walked along the trace's frames. */
static int from_trace(struct agreement *ag, const char *path, const struct diff_results *res)
{
	const struct diff_result_frame **v = malloc((res->count ? res->count : 1) * sizeof(*v));
	struct hwct_error err;
	struct hwct_reader *r;
	struct hwct_frame_iter *it = NULL;
	const struct hwct_frame *f;
	size_t n = 0, k = 0;
	int ret = -ENOMEM;

	r = v ? hwct_reader_open(path, &err) : NULL;
	if (!r) {
		if (v) {
			fprintf(stderr, "hwc-trace: error: %s\n", err.message);
		}
		free(v);
		return v ? err.code : -ENOMEM;
	}
	for (size_t i = 0; i < res->count; i++) {
		if (res->frames[i].loop == 0) {
			v[n++] = &res->frames[i];
		}
	}
	if (n) {
		qsort(v, n, sizeof(*v), by_frame);
	}
	it = hwct_frame_iter_create(r);
	while (it && k < n && (ret = hwct_frame_iter_next(it, &f)) > 0) {
		while (k < n && v[k]->frame < f->frame) {
			ag->not_in_trace++;
			k++;
		}
		if (k < n && v[k]->frame == f->frame) {
			count_frame(ag, v[k], f->validated, recorded_in_trace, f);
			while (++k < n && v[k]->frame == f->frame) {
				/* a frame listed twice: the first counts */
			}
		}
	}
	if (ret < 0) {
		fprintf(stderr, "hwc-trace: error: %s\n", hwct_reader_error(r) ? hwct_reader_error(r)->message :
			"out of memory");
	} else {
		ag->not_in_trace += n - k;
		ret = 0;
	}
	hwct_frame_iter_destroy(it);
	hwct_reader_destroy(r);
	free(v);
	return ret;
}

static const char *comp_name(int32_t v)
{
	const char *name = hwct_hwc2_composition_name(v);

	return name ? name : "UNKNOWN";
}

static void print_text(FILE *f, const char *source, const char *results_path, const struct diff_results *res,
	const struct agreement *ag, bool verbose)
{
	if (verbose) {
		for (size_t i = 0; i < ag->list_count; i++) {
			const struct disagreement *d = &ag->list[i];

			fprintf(f, "frame %" PRIu64 " (display %" PRIu64 "): layer %" PRIu64 " recorded %s, ", d->frame,
				d->display, d->layer, comp_name(d->recorded));
			if (d->on_plane) {
				fprintf(f, "board plane %" PRIu64 "\n", d->plane);
			} else {
				fprintf(f, "board client (%s)\n", d->reasons[0] ? d->reasons : "no reason given");
			}
		}
		fputs(ag->list_count ? "\n" : "", f);
	}
	fprintf(f, "agreement of the decisions recorded in %s with the plans of %s (planner %s, target %s)\n\n",
		source, results_path, res->planner, res->target);
	fprintf(f, "%-10s %-8s %-7s %-7s %-15s %-15s %s\n", "layer", "display", "frames", "agree", "device->client",
		"client->device", "board's reasons for disagreements");
	for (size_t i = 0; i < ag->count; i++) {
		const struct layer_agreement *l = &ag->layers[i];

		fprintf(f, "%-10" PRIu64 " %-8" PRIu64 " %-7" PRIu64 " %-7" PRIu64 " %-15" PRIu64 " %-15" PRIu64, l->layer,
			l->display, l->frames, l->agree, l->device_to_client, l->client_to_device);
		for (size_t k = 0; k < l->reason_count; k++) {
			fprintf(f, "%s%s %" PRIu64, k ? ", " : " ", l->reasons[k].name, l->reasons[k].count);
		}
		fputc('\n', f);
	}
	fprintf(f, "\noverall: %" PRIu64 " of %" PRIu64 " layer decisions agree", ag->agree, ag->counted);
	if (ag->counted) {
		fprintf(f, " (ratio %.3f)", (double)ag->agree / (double)ag->counted);
	}
	fprintf(f, "; %" PRIu64 " device->client, %" PRIu64 " client->device; %" PRIu64 " of %" PRIu64
		" frames agree entirely\n", ag->device_to_client, ag->client_to_device, ag->frames_agreeing, ag->frames);
	if (ag->not_validated || ag->undecided || ag->not_in_trace) {
		fprintf(f, "not counted: %" PRIu64 " frames not validated, %" PRIu64 " layers without a recorded "
			"decision, %" PRIu64 " frames not in the trace\n", ag->not_validated, ag->undecided, ag->not_in_trace);
	}
}

static int print_json(FILE *f, const char *source, const char *results_path, const struct agreement *ag)
{
	struct json_object *root = json_object_new_object(), *layers = json_object_new_array();
	struct json_object *list = json_object_new_array();

	if (!root || !layers || !list) {
		json_object_put(root);
		json_object_put(layers);
		json_object_put(list);
		return -ENOMEM;
	}
	json_object_object_add(root, "kind", json_object_new_string("agreement"));
	json_object_object_add(root, "recorded", json_object_new_string(source));
	json_object_object_add(root, "results", json_object_new_string(results_path));
	for (size_t i = 0; i < ag->count; i++) {
		const struct layer_agreement *l = &ag->layers[i];
		struct json_object *o = json_object_new_object(), *reasons = json_object_new_object();

		json_object_object_add(o, "layer", json_object_new_int64((int64_t)l->layer));
		json_object_object_add(o, "display", json_object_new_int64((int64_t)l->display));
		json_object_object_add(o, "frames", json_object_new_int64((int64_t)l->frames));
		json_object_object_add(o, "agree", json_object_new_int64((int64_t)l->agree));
		json_object_object_add(o, "device_to_client", json_object_new_int64((int64_t)l->device_to_client));
		json_object_object_add(o, "client_to_device", json_object_new_int64((int64_t)l->client_to_device));
		for (size_t k = 0; k < l->reason_count; k++) {
			json_object_object_add(reasons, l->reasons[k].name, json_object_new_int64((int64_t)l->reasons[k].count));
		}
		json_object_object_add(o, "reasons", reasons);
		json_object_array_add(layers, o);
	}
	for (size_t i = 0; i < ag->list_count; i++) {
		const struct disagreement *d = &ag->list[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "frame", json_object_new_int64((int64_t)d->frame));
		json_object_object_add(o, "display", json_object_new_int64((int64_t)d->display));
		json_object_object_add(o, "layer", json_object_new_int64((int64_t)d->layer));
		json_object_object_add(o, "recorded", json_object_new_string(comp_name(d->recorded)));
		json_object_object_add(o, "plane", d->on_plane ? json_object_new_int64((int64_t)d->plane) : NULL);
		json_object_object_add(o, "reasons", json_object_new_string(d->reasons));
		json_object_array_add(list, o);
	}
	json_object_object_add(root, "layers", layers);
	json_object_object_add(root, "disagreements", list);
	json_object_object_add(root, "counted", json_object_new_int64((int64_t)ag->counted));
	json_object_object_add(root, "agree", json_object_new_int64((int64_t)ag->agree));
	json_object_object_add(root, "ratio", ag->counted ? json_object_new_double((double)ag->agree /
		(double)ag->counted) : NULL);
	json_object_object_add(root, "device_to_client", json_object_new_int64((int64_t)ag->device_to_client));
	json_object_object_add(root, "client_to_device", json_object_new_int64((int64_t)ag->client_to_device));
	json_object_object_add(root, "frames", json_object_new_int64((int64_t)ag->frames));
	json_object_object_add(root, "frames_agreeing", json_object_new_int64((int64_t)ag->frames_agreeing));
	json_object_object_add(root, "frames_not_validated", json_object_new_int64((int64_t)ag->not_validated));
	json_object_object_add(root, "layers_undecided", json_object_new_int64((int64_t)ag->undecided));
	json_object_object_add(root, "frames_not_in_trace", json_object_new_int64((int64_t)ag->not_in_trace));
	fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return 0;
}

int diff_agreement(FILE *f, const char *trace_path, const char *results_path, const struct diff_results *res,
	bool json, bool verbose)
{
	struct agreement ag = { 0 };
	int ret = 0;

	if (trace_path) {
		ret = from_trace(&ag, trace_path, res);
	} else {
		for (size_t i = 0; i < res->count; i++) {
			const struct diff_result_frame *rf = &res->frames[i];

			if (rf->loop == 0 && rf->has_recorded) {
				count_frame(&ag, rf, rf->validated, recorded_in_results, rf);
			}
		}
	}
	if (ret == 0 && ag.out_of_memory) {
		fprintf(stderr, "hwc-trace: error: out of memory\n");
		ret = -ENOMEM;
	}
	if (ret == 0) {
		if (json) {
			ret = print_json(f, trace_path ? trace_path : results_path, results_path, &ag);
		}
		if (!json) {
			print_text(f, trace_path ? trace_path : "the results' \"recorded\"", results_path, res, &ag, verbose);
		}
	}
	free(ag.layers);
	free(ag.list);
	if (ret < 0) {
		return DIFF_EXIT_ERROR;
	}
	return ag.agree == ag.counted ? DIFF_EXIT_EQUAL : DIFF_EXIT_DIFFERENT;
}
