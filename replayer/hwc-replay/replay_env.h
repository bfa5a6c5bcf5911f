/*
 * The two environments a results file names: the recording's (the trace's
 * Environment record) and the replay's (this host: uname, the libdrm and
 * Mesa versions hwc-replay was built against, and the EGL/GL strings when
 * the gl compositor is used).
 */
#ifndef HWCT_REPLAY_ENV_H
#define HWCT_REPLAY_ENV_H

#include <stdbool.h>

#include <hwct/reader.h>

#include "replay_json.h"

/* From the trace's first Environment record; NULL fields were not recorded. Strings owned. */
struct replay_recording {
	bool found;			/* the trace has an Environment record before its first frame */
	char *source, *host, *kernel, *machine, *android_fingerprint;
	char *mesa_version, *libdrm_version, *hwc2_module;
};

/*
 * Reads r from its start up to the first FrameEnd for the Environment
 * record, then rewinds r. Returns 0 or the reader's -errno.
 */
int replay_recording_read(struct hwct_reader *r, struct replay_recording *out);

void replay_recording_finish(struct replay_recording *rec);

/* Writes it as the member "recording". */
void replay_recording_write(const struct replay_recording *rec, struct rjson *j);

#define REPLAY_ENV_STRING 256

struct replay_host {
	char host[REPLAY_ENV_STRING];	/* uname nodename */
	char kernel[REPLAY_ENV_STRING];	/* uname release and version */
	char machine[64];
	const char *libdrm_build;	/* libdrm.pc version at build time, NULL unknown; static */
	const char *mesa_build;		/* Mesa's gbm.pc version at build time, NULL unknown; static */
	bool has_gl;			/* the strings below were read */
	char egl_vendor[REPLAY_ENV_STRING], egl_version[REPLAY_ENV_STRING];
	char gl_vendor[REPLAY_ENV_STRING], gl_renderer[REPLAY_ENV_STRING], gl_version[REPLAY_ENV_STRING];
};

/* Fills h; with gl, also the EGL/GL strings (replay_env_gl.c). */
void replay_host_collect(struct replay_host *h, bool gl);

/* Opens a display and context the way the gl compositor does and reads their strings. Returns 0 or -errno. */
int replay_host_gl_strings(struct replay_host *h);

/* Writes it as the member "replay_environment". */
void replay_host_write(const struct replay_host *h, struct rjson *j);

#endif
