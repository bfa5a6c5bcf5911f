/*
 * Recorder options, read once from the environment (and, on Android, from the
 * vendor.hwctrace.* properties that mirror them; recorder/README.md).
 */
#ifndef REC_CONFIG_H
#define REC_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REC_CONFIG_MAX_OPTIONS 16

enum rec_trigger {
	REC_TRIGGER_NONE = 0,	/* record from the first call */
	REC_TRIGGER_SIGNAL,	/* SIGUSR2 toggles recording, starting stopped */
};

struct rec_config {
	char output[4096];		/* HWCT_OUTPUT: a directory or a file path */
	bool output_none;		/* HWCT_OUTPUT=none: LTTng tracepoints only, no file */
	bool pixels;			/* HWCT_PIXELS, default true */
	uint64_t max_frames;		/* HWCT_MAX_FRAMES, 0 = no limit */
	uint64_t max_seconds;		/* HWCT_MAX_SECONDS, 0 = no limit */
	uint64_t budget_bytes;		/* HWCT_BUDGET_MB in bytes; default 256 MiB */
	bool budget_zero;		/* HWCT_BUDGET_MB=0: every pixel capture is dropped */
	uint32_t capture_wait_ms;	/* HWCT_CAPTURE_WAIT_MS, default 0: present never waits */
	enum rec_trigger trigger;	/* HWCT_TRIGGER */
	char control[4096];		/* HWCT_CONTROL: file polled for "start"/"stop", "" none */

	/* The options as given, for FileHeader.options and Environment.extra. */
	size_t option_count;
	const char *option_keys[REC_CONFIG_MAX_OPTIONS];
	char option_values[REC_CONFIG_MAX_OPTIONS][256];
};

/*
 * Reads the options. Returns 0, or -EINVAL with a one-line reason in
 * why (size bytes) when an option is malformed.
 */
int rec_config_read(struct rec_config *cfg, char *why, size_t size);

/*
 * The real module for the HAL-wrapper path: HWCT_REAL_MODULE, else (Android)
 * the property vendor.hwctrace.real_module. Returns false when unset.
 */
bool rec_config_real_module(char *out, size_t size);

/* Value of option `name` ("HWCT_OUTPUT"), env first, then its property; NULL if unset. */
const char *rec_config_get(const char *name, char *buf, size_t size);

#endif
