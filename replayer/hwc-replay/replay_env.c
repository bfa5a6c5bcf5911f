/* Recording and replay environments (replay_env.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "replay_env.h"

#ifndef HWCT_REPLAY_LIBDRM_BUILD
#define HWCT_REPLAY_LIBDRM_BUILD ""
#endif
#ifndef HWCT_REPLAY_MESA_BUILD
#define HWCT_REPLAY_MESA_BUILD ""
#endif

static char *dup_or_null(const char *s)
{
	return s && s[0] ? strdup(s) : NULL;
}

int replay_recording_read(struct hwct_reader *r, struct replay_recording *out)
{
	const Hwct__Record *rec;
	int ret;

	*out = (struct replay_recording){ 0 };
	while ((ret = hwct_reader_next(r, &rec)) == 1) {
		const Hwct__Environment *e = rec->environment;

		if (rec->kind_case == HWCT__RECORD__KIND_FRAME_END) {
			break;
		}
		if (rec->kind_case != HWCT__RECORD__KIND_ENVIRONMENT || out->found) {
			continue;
		}
		out->found = true;
		out->source = dup_or_null(e->source);
		out->host = dup_or_null(e->host);
		out->kernel = dup_or_null(e->kernel);
		out->machine = dup_or_null(e->machine);
		out->android_fingerprint = dup_or_null(e->android_fingerprint);
		out->mesa_version = dup_or_null(e->mesa_version);
		out->libdrm_version = dup_or_null(e->libdrm_version);
		out->hwc2_module = dup_or_null(e->hwc2_module);
	}
	if (ret < 0) {
		return ret;
	}
	return hwct_reader_rewind(r);
}

void replay_recording_finish(struct replay_recording *rec)
{
	free(rec->source);
	free(rec->host);
	free(rec->kernel);
	free(rec->machine);
	free(rec->android_fingerprint);
	free(rec->mesa_version);
	free(rec->libdrm_version);
	free(rec->hwc2_module);
	*rec = (struct replay_recording){ 0 };
}

void replay_recording_write(const struct replay_recording *rec, struct rjson *j)
{
	if (!rec->found) {
		rjson_null(j, "recording");
		return;
	}
	rjson_object_begin(j, "recording");
	rjson_string(j, "source", rec->source);
	rjson_string(j, "host", rec->host);
	rjson_string(j, "kernel", rec->kernel);
	rjson_string(j, "machine", rec->machine);
	rjson_string(j, "android_fingerprint", rec->android_fingerprint);
	rjson_string(j, "mesa_version", rec->mesa_version);
	rjson_string(j, "libdrm_version", rec->libdrm_version);
	rjson_string(j, "hwc2_module", rec->hwc2_module);
	rjson_object_end(j);
}

void replay_host_collect(struct replay_host *h, bool gl)
{
	struct utsname u;

	*h = (struct replay_host){ 0 };
	if (uname(&u) == 0) {
		snprintf(h->host, sizeof(h->host), "%s", u.nodename);
		snprintf(h->kernel, sizeof(h->kernel), "%.120s %.120s", u.release, u.version);
		snprintf(h->machine, sizeof(h->machine), "%.60s", u.machine);
	}
	h->libdrm_build = HWCT_REPLAY_LIBDRM_BUILD[0] ? HWCT_REPLAY_LIBDRM_BUILD : NULL;
	h->mesa_build = HWCT_REPLAY_MESA_BUILD[0] ? HWCT_REPLAY_MESA_BUILD : NULL;
	if (gl) {
		h->has_gl = replay_host_gl_strings(h) == 0;
	}
}

static const char *or_null(const char *s)
{
	return s[0] ? s : NULL;
}

void replay_host_write(const struct replay_host *h, struct rjson *j)
{
	rjson_object_begin(j, "replay_environment");
	rjson_string(j, "host", or_null(h->host));
	rjson_string(j, "kernel", or_null(h->kernel));
	rjson_string(j, "machine", or_null(h->machine));
	rjson_string(j, "libdrm_build", h->libdrm_build);
	rjson_string(j, "mesa_build", h->mesa_build);
	if (h->has_gl) {
		rjson_object_begin(j, "egl");
		rjson_string(j, "vendor", or_null(h->egl_vendor));
		rjson_string(j, "version", or_null(h->egl_version));
		rjson_object_end(j);
		rjson_object_begin(j, "gl");
		rjson_string(j, "vendor", or_null(h->gl_vendor));
		rjson_string(j, "renderer", or_null(h->gl_renderer));
		rjson_string(j, "version", or_null(h->gl_version));
		rjson_object_end(j);
	} else {
		rjson_null(j, "egl");
		rjson_null(j, "gl");
	}
	rjson_object_end(j);
}
