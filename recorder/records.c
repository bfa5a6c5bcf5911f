/* Records other than calls: environment, displays, callbacks, buffers, frame ends, stats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifdef __ANDROID__
#include <sys/system_properties.h>
#endif

#include <hwct/format.h>
#include <hwct/writer.h>

#include "fds.h"
#include "fence.h"
#include "hwc2_wrappers.h"
#include "hwct_config.h"
#include "worker.h"

#define MAX_EXTRA 24

static void process_name(char *out, size_t size)
{
	FILE *f = fopen("/proc/self/comm", "re");
	size_t n = 0;

	out[0] = '\0';
	if (f) {
		n = fread(out, 1, size - 1, f);
		fclose(f);
	}
	out[n] = '\0';
	if (n && out[n - 1] == '\n') {
		out[n - 1] = '\0';
	}
}

#ifdef __ANDROID__
static const char *const android_props[] = {
	"ro.build.fingerprint", "ro.build.version.release", "ro.build.version.sdk",
	"ro.product.model", "ro.product.device", "ro.hardware", "ro.hardware.hwcomposer",
	"ro.board.platform", "ro.hardware.egl",
};
#define ANDROID_PROPS (sizeof(android_props) / sizeof(android_props[0]))
#endif

void rec_write_environment(struct rec_worker *w)
{
	struct recorder *r = w->r;
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Environment env = HWCT__ENVIRONMENT__INIT;
	Hwct__KeyValue kv[MAX_EXTRA], *kvp[MAX_EXTRA];
	char comm[64], kernel[sizeof(((struct utsname *)0)->release) * 2 + 2], pass[128] = "";
	struct utsname u;
	struct timespec mono, real;
	size_t n = 0;

	process_name(comm, sizeof(comm));
	env.process = comm[0] ? comm : NULL;
	env.has_pid = true;
	env.pid = (int32_t)getpid();
	if (uname(&u) == 0) {
		snprintf(kernel, sizeof(kernel), "%s %s", u.release, u.version);
		env.kernel = kernel;
		env.machine = u.machine;
		env.host = u.nodename;
	}
	env.n_hwc2_capabilities = r->capability_count;
	env.hwc2_capabilities = r->capabilities;
	env.hwc2_module = r->module_path;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	env.has_clock_monotonic_ns = env.has_clock_realtime_ns = true;
	env.clock_monotonic_ns = (uint64_t)mono.tv_sec * 1000000000u + (uint64_t)mono.tv_nsec;
	env.clock_realtime_ns = (uint64_t)real.tv_sec * 1000000000u + (uint64_t)real.tv_nsec;
	env.source = "recorder";

	for (size_t i = 0; i < r->cfg.option_count && n < MAX_EXTRA - 2; i++, n++) {
		hwct__key_value__init(&kv[n]);
		kv[n].key = (char *)r->cfg.option_keys[i];
		kv[n].value = (char *)r->cfg.option_values[i];
		kvp[n] = &kv[n];
	}
	hwct__key_value__init(&kv[n]);
	kv[n].key = "recorder_version";
	kv[n].value = HWCT_VERSION;
	kvp[n] = &kv[n];
	n++;
	for (unsigned i = 0; i < atomic_load(&r->passthrough_count) && i < 16; i++) {
		size_t len = strlen(pass);

		snprintf(pass + len, sizeof(pass) - len, "%s%u", len ? "," : "", r->passthrough[i]);
	}
	if (pass[0]) {
		hwct__key_value__init(&kv[n]);
		kv[n].key = "passthrough_descriptors";
		kv[n].value = pass;
		kvp[n] = &kv[n];
		n++;
	}
	env.n_extra = n;
	env.extra = kvp;

#ifdef __ANDROID__
	Hwct__KeyValue pkv[ANDROID_PROPS], *pkvp[ANDROID_PROPS];
	char values[ANDROID_PROPS][PROP_VALUE_MAX];
	size_t np = 0;

	for (size_t i = 0; i < ANDROID_PROPS; i++) {
		if (__system_property_get(android_props[i], values[np]) > 0) {
			hwct__key_value__init(&pkv[np]);
			pkv[np].key = (char *)android_props[i];
			pkv[np].value = values[np];
			pkvp[np] = &pkv[np];
			if (i == 0) {
				env.android_fingerprint = values[np];
			}
			np++;
		}
	}
	env.n_android_props = np;
	env.android_props = pkvp;
#endif
	rec.kind_case = HWCT__RECORD__KIND_ENVIRONMENT;
	rec.environment = &env;
	rec_session_write(w, &rec);
}

void rec_write_display(struct rec_worker *w, const struct rec_display_info *info)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Display d = HWCT__DISPLAY__INIT;
	Hwct__DisplayConfig configs[REC_MAX_CONFIGS], *cp[REC_MAX_CONFIGS];
	Hwct__Note note = HWCT__NOTE__INIT;
	int32_t caps[REC_MAX_DISPLAY_CAPS];
	char text[700];

	d.has_id = d.has_connected = true;
	d.id = info->display;
	d.connected = info->connected;
	d.name = info->has_name ? (char *)info->name : NULL;
	d.has_type = info->has_type;
	d.type = info->type;
	d.has_connection_type = info->has_connection_type;
	d.connection_type = info->connection_type;
	d.has_active_config = info->has_active_config;
	d.active_config = info->active_config;
	for (uint32_t i = 0; i < info->config_count; i++) {
		const struct rec_display_config *c = &info->configs[i];

		hwct__display_config__init(&configs[i]);
		configs[i].has_id = configs[i].has_width = configs[i].has_height = true;
		configs[i].has_vsync_period_ns = configs[i].has_dpi_x = configs[i].has_dpi_y = true;
		configs[i].id = c->id;
		configs[i].width = c->width;
		configs[i].height = c->height;
		configs[i].vsync_period_ns = c->vsync_period;
		configs[i].dpi_x = c->dpi_x;
		configs[i].dpi_y = c->dpi_y;
		configs[i].has_config_group = c->config_group >= 0;
		configs[i].config_group = c->config_group;
		cp[i] = &configs[i];
	}
	d.n_configs = info->config_count;
	d.configs = cp;
	d.n_color_modes = info->color_mode_count;
	d.color_modes = (int32_t *)info->color_modes;
	for (uint32_t i = 0; i < info->capability_count; i++) {
		caps[i] = (int32_t)info->capabilities[i];
	}
	d.n_capabilities = info->capability_count;
	d.capabilities = caps;
	d.has_brightness_supported = info->has_brightness;
	d.brightness_supported = info->brightness_supported;
	rec.kind_case = HWCT__RECORD__KIND_DISPLAY;
	rec.display = &d;
	rec_session_write(w, &rec);

	if (info->from_create) {
		snprintf(text, sizeof(text), "Display %llu: a virtual display, described from its "
			"createVirtualDisplay call (size, type VIRTUAL, one config 0); queried: %s",
			(unsigned long long)info->display, info->queried);
	} else {
		snprintf(text, sizeof(text), "Display %llu: facts queried by the recorder itself after hotplug, "
			"not recorded as calls: %s", (unsigned long long)info->display, info->queried);
	}
	note.topic = "recorder-internal";
	note.text = text;
	rec = (Hwct__Record)HWCT__RECORD__INIT;
	rec.kind_case = HWCT__RECORD__KIND_NOTE;
	rec.note = &note;
	rec_session_write(w, &rec);
}

static const struct rec_arg *cbarg(const struct rec_event *ev, int i)
{
	return i < ev->nargs && ev->args[i].kind != REC_ARG_NONE ? &ev->args[i] : NULL;
}

void rec_write_callback(struct rec_worker *w, const struct rec_event *ev)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Callback cb = HWCT__CALLBACK__INIT;
	Hwct__ActiveConfigArgs timeline = HWCT__ACTIVE_CONFIG_ARGS__INIT;
	const struct rec_arg *a;

	cb.has_descriptor = cb.has_t_ns = cb.has_thread = true;
	cb.descriptor = ev->function;
	cb.t_ns = ev->t_enter;
	cb.thread = ev->tid;
	cb.has_display = ev->has_display;
	cb.display = ev->display;
	switch (ev->function) {
	case HWC2_CALLBACK_HOTPLUG:
		if ((a = cbarg(ev, REC_CBARG_HOTPLUG_CONNECTION))) {
			cb.has_connection = true;
			cb.connection = (int32_t)a->v.i;
		}
		break;
	case HWC2_CALLBACK_VSYNC:
		if ((a = cbarg(ev, REC_CBARG_VSYNC_TIMESTAMP))) {
			cb.has_timestamp_ns = true;
			cb.timestamp_ns = a->v.i;
		}
		break;
	case HWC2_CALLBACK_VSYNC_2_4:
		if ((a = cbarg(ev, REC_CBARG_VSYNC_2_4_TIMESTAMP))) {
			cb.has_timestamp_ns = true;
			cb.timestamp_ns = a->v.i;
		}
		if ((a = cbarg(ev, REC_CBARG_VSYNC_2_4_VSYNC_PERIOD))) {
			cb.has_vsync_period_ns = true;
			cb.vsync_period_ns = (uint32_t)a->v.i;
		}
		break;
	case HWC2_CALLBACK_VSYNC_PERIOD_TIMING_CHANGED:
		a = cbarg(ev, REC_CBARG_VSYNC_PERIOD_TIMING_CHANGED_TIMELINE);
		if (a && a->present && a->count == sizeof(hwc_vsync_period_change_timeline_t)) {
			hwc_vsync_period_change_timeline_t t;

			memcpy(&t, rec_arg_data(ev, a), sizeof(t));
			timeline.has_new_vsync_applied_time_ns = timeline.has_refresh_required = true;
			timeline.has_refresh_time_ns = true;
			timeline.new_vsync_applied_time_ns = t.newVsyncAppliedTimeNanos;
			timeline.refresh_required = t.refreshRequired != 0;
			timeline.refresh_time_ns = t.refreshTimeNanos;
			cb.timeline = &timeline;
		}
		break;
	default:
		break;
	}
	rec.kind_case = HWCT__RECORD__KIND_CALLBACK;
	rec.callback = &cb;
	rec_session_write(w, &rec);
}

void rec_write_buffer(struct rec_worker *w, const struct rec_capture *cap)
{
	struct rec_buffer_state *bs = rec_buffers_get(&w->buffers, cap->buffer_id);
	const struct rec_buffer_layout *l = &cap->layout;
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Buffer b = HWCT__BUFFER__INIT;
	Hwct__BufferPlane planes[REC_MAX_PLANES], *pp[REC_MAX_PLANES];
	uint8_t hash[HWCT_HASH_BYTES];

	if (bs->written && bs->written_has_layout == cap->has_layout &&
			(!cap->has_layout || rec_layout_equal(&bs->written_layout, l))) {
		return;
	}
	b.has_id = true;
	b.id = cap->buffer_id;
	if (cap->has_layout) {
		b.has_width = b.has_height = b.has_drm_format = true;
		b.width = l->width;
		b.height = l->height;
		b.drm_format = l->drm_format;
		b.has_hal_format = l->has_hal_format;
		b.hal_format = l->hal_format;
		b.has_modifier = l->has_modifier;
		b.modifier = l->modifier;
		b.has_usage = l->has_usage;
		b.usage = l->usage;
		for (uint32_t p = 0; p < l->plane_count && p < REC_MAX_PLANES; p++) {
			hwct__buffer_plane__init(&planes[p]);
			planes[p].has_offset = planes[p].has_stride = true;
			planes[p].offset = l->planes[p].offset;
			planes[p].stride = l->planes[p].stride;
			pp[p] = &planes[p];
		}
		b.n_planes = l->plane_count;
		b.planes = pp;
		b.allocator = (char *)l->allocator;
	} else {
		b.allocator = "unknown";
	}
	if (cap->has_hash) {
		hwct_hash_to_bytes(&cap->hash, hash);
		b.has_content = true;
		b.content = (ProtobufCBinaryData){ HWCT_HASH_BYTES, hash };
	}
	rec.kind_case = HWCT__RECORD__KIND_BUFFER;
	rec.buffer = &b;
	rec_session_write(w, &rec);
	bs->written = true;
	bs->written_has_layout = cap->has_layout;
	bs->written_layout = *l;
}

void rec_write_frame_end(struct rec_worker *w, struct rec_wdisplay *d)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__FrameEnd fe = HWCT__FRAME_END__INIT;

	if (!d->fe_pending || w->limit_reached) {
		return;
	}
	fe.has_frame = fe.has_display = fe.has_display_frame = fe.has_t_ns = true;
	fe.has_present_fence = fe.has_validated = fe.has_flags = true;
	fe.frame = w->frame++;
	fe.display = d->id;
	fe.display_frame = d->frames++;
	fe.t_ns = d->fe_t_ns;
	fe.present_fence = d->fe_fence;
	fe.validated = d->fe_validated;
	fe.flags = d->fe_flags | (d->late ? HWCT_FRAME_CAPTURE_LATE : 0) |
		(d->fe_validated ? 0 : HWCT_FRAME_SKIPPED_VALIDATE);
	if (d->late) {
		w->frames_late++;
	}
	d->fe_pending = false;
	d->validated = false;
	d->late = false;
	rec.kind_case = HWCT__RECORD__KIND_FRAME_END;
	rec.frame_end = &fe;
	rec_session_write(w, &rec);
	/* a limit ends the trace right after a FrameEnd */
	if ((w->r->cfg.max_frames && w->frame >= w->r->cfg.max_frames) ||
			(w->r->cfg.max_seconds &&
			rec_now_ns() - w->start_ns >= w->r->cfg.max_seconds * 1000000000u)) {
		w->want = false;
		w->limit_reached = true;
	}
}

void rec_write_capture_stats(struct rec_worker *w)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__CaptureStats cs = HWCT__CAPTURE_STATS__INIT;
	struct hwct_writer_stats st;
	struct rec_fds_stats fds;

	if (!w->writer) {
		return;
	}
	hwct_writer_get_stats(w->writer, &st);
	cs.has_t_ns = cs.has_blobs_dropped = cs.has_bytes_dropped = cs.has_records_dropped = true;
	cs.has_frames_capture_late = cs.has_bytes_queued_peak = true;
	cs.t_ns = rec_now_ns();
	/* the calls written so far with capture DROPPED, whatever dropped them */
	cs.blobs_dropped = w->cctx.drops;
	cs.bytes_dropped = w->cctx.drop_bytes;
	cs.records_dropped = atomic_load(&w->r->events_dropped) + w->write_errors;
	cs.frames_capture_late = w->frames_late;
	cs.bytes_queued_peak = st.bytes_queued_peak;
	rec_fds_get_stats(&fds);
	cs.has_fd_budget = cs.has_fds_held_peak = cs.has_captures_no_fd = cs.has_fences_unwatched = true;
	cs.fd_budget = fds.budget;
	cs.fds_held_peak = fds.peak;
	cs.captures_no_fd = w->captures_no_fd;
	cs.fences_unwatched = w->fences_unwatched + rec_fence_watch_dropped(w->fences);
	cs.has_worker_wakes = true;
	cs.worker_wakes = atomic_load(&w->r->worker_wakes);
	rec.kind_case = HWCT__RECORD__KIND_CAPTURE_STATS;
	rec.capture_stats = &cs;
	rec_session_write(w, &rec);
	w->last_stats_ns = cs.t_ns;
}
