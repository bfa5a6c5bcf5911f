/* Totals over the replayed frames (replay_results.h). */
#include "decision.h"
#include "replay_results.h"

struct replay_display_total *replay_totals_display(struct replay_totals *t, uint64_t display)
{
	for (size_t i = 0; i < t->display_count; i++) {
		if (t->displays[i].display == display) {
			return &t->displays[i];
		}
	}
	if (t->display_count == REPLAY_TOTALS_DISPLAYS) {
		return NULL;
	}
	t->displays[t->display_count] = (struct replay_display_total){ .display = display };
	return &t->displays[t->display_count++];
}

void replay_totals_add(struct replay_totals *t, const struct replay_frame_report *fr)
{
	const struct plan *plan = fr->result->plan;
	const struct hwct_frame *f = fr->frame;
	struct replay_display_total *d = replay_totals_display(t, f->display);
	bool agreeing = true;

	t->frames++;
	if (d) {
		d->frames++;
	}
	t->efficiency_sum += fr->result->efficiency;
	t->layers += f->layer_count;
	t->missing_layers += fr->missing_count;
	t->substituted_layers += fr->sub_count;
	t->call_errors += fr->result->call_errors;
	t->noted_frames += fr->result->note[0] != '\0';
	if (!plan) {
		return;
	}
	t->client_frames += plan->needs_client_target;
	for (size_t i = 0; i < plan->layer_count; i++) {
		for (uint32_t b = 0; b < 32; b++) {
			t->reasons[b] += (plan->layers[i].reasons >> b) & 1;
		}
		/*
		 * import too, when no plane of the device takes the format (ADDFB2's
		 * check); test-failed too, when the plan failed (drmhwc: no plane for it)
		 */
		t->format_only_layers += (plan->layers[i].reasons & PLAN_REASON_FORMAT) &&
			!(plan->layers[i].reasons & ~(uint32_t)(PLAN_REASON_FORMAT | PLAN_REASON_IMPORT |
				PLAN_REASON_TEST_FAILED));
	}
	for (size_t i = 0; i < f->layer_count && i < plan->layer_count; i++) {
		int recorded = f->validated ? hwct_decision_on_device(f->layers[i].final) : -1;
		int planned = !plan_layer_is_client(&plan->layers[i]);

		if (recorded < 0) {
			continue;
		}
		t->recorded_layers++;
		if (recorded == planned) {
			t->agree++;
		} else {
			agreeing = false;
			t->device_to_client += recorded && !planned;
			t->client_to_device += !recorded && planned;
		}
	}
	t->frames_agreeing += agreeing;
}

void replay_totals_write(const struct replay_totals *t, struct rjson *j)
{
	rjson_object_begin(j, "totals");
	rjson_uint(j, "frames", t->frames);
	if (t->frames) {
		rjson_double(j, "mean_efficiency", t->efficiency_sum / (double)t->frames);
	} else {
		rjson_null(j, "mean_efficiency");
	}
	rjson_uint(j, "client_composition_frames", t->client_frames);
	rjson_uint(j, "layers", t->layers);
	rjson_uint(j, "missing_content_layers", t->missing_layers);
	rjson_uint(j, "format_substituted_layers", t->substituted_layers);
	rjson_uint(j, "format_only_client_layers", t->format_only_layers);
	rjson_object_begin(j, "reasons");
	for (uint32_t b = 0; b < 32; b++) {
		const char *name = plan_reason_name(1u << b);

		if (name) {
			rjson_uint(j, name, t->reasons[b]);
		}
	}
	rjson_object_end(j);
	rjson_object_begin(j, "recorded_agreement");
	rjson_uint(j, "layers", t->recorded_layers);
	rjson_uint(j, "agree", t->agree);
	if (t->recorded_layers) {
		rjson_double(j, "ratio", (double)t->agree / (double)t->recorded_layers);
	} else {
		rjson_null(j, "ratio");
	}
	rjson_uint(j, "device_to_client", t->device_to_client);
	rjson_uint(j, "client_to_device", t->client_to_device);
	rjson_uint(j, "frames_agreeing", t->frames_agreeing);
	rjson_object_end(j);
	rjson_array_begin(j, "displays");
	for (size_t i = 0; i < t->display_count; i++) {
		const struct replay_display_total *d = &t->displays[i];

		rjson_object_begin(j, NULL);
		rjson_uint(j, "display", d->display);
		if (d->has_crtc) {
			rjson_uint(j, "crtc", d->crtc_id);
		} else {
			rjson_null(j, "crtc");
		}
		rjson_uint(j, "frames", d->frames);
		rjson_uint(j, "skipped_frames", d->skipped);
		rjson_string(j, "skipped_reason", d->skipped ? d->reason : NULL);
		rjson_object_end(j);
	}
	rjson_array_end(j);
	rjson_uint(j, "call_errors", t->call_errors);
	rjson_uint(j, "noted_frames", t->noted_frames);
	rjson_uint(j, "wall_ns", (uint64_t)(t->wall_ns > 0 ? t->wall_ns : 0));
	if (t->wall_ns > 0) {
		rjson_double(j, "fps", (double)t->frames * 1e9 / (double)t->wall_ns);
	} else {
		rjson_null(j, "fps");
	}
	rjson_object_end(j);
}
