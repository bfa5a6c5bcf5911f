/* Recorder options from the environment and Android properties (config.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __ANDROID__
#include <sys/system_properties.h>
#endif

#include "config.h"

#define MIB (1024u * 1024u)
#define DEFAULT_BUDGET_MB 256u
/*
 * 0: no call waits for a capture; captures are checked against their
 * buffers' release fences, and what a client that outruns the worker
 * leaves the recorder holding is bounded by the fd budget (fds.h,
 * recorder/README.md "Capture before release").
 */
#define DEFAULT_CAPTURE_WAIT_MS 0u

/* Every option the recorder reads; each has a property vendor.hwctrace.<lower-case tail>. */
static const char *const option_names[] = {
	"HWCT_OUTPUT",
	"HWCT_PIXELS",
	"HWCT_MAX_FRAMES",
	"HWCT_MAX_SECONDS",
	"HWCT_BUDGET_MB",
	"HWCT_CAPTURE_WAIT_MS",
	"HWCT_TRIGGER",
	"HWCT_CONTROL",
	"HWCT_REAL_MODULE",
};

const char *rec_config_get(const char *name, char *buf, size_t size)
{
	const char *v = getenv(name);

	if (v) {
		return v;
	}
#ifdef __ANDROID__
	{
		char prop[PROP_NAME_MAX];
		size_t n = (size_t)snprintf(prop, sizeof(prop), "vendor.hwctrace.");
		char value[PROP_VALUE_MAX];

		for (const char *p = name + strlen("HWCT_"); *p && n + 1 < sizeof(prop); p++) {
			prop[n++] = (char)tolower((unsigned char)*p);
		}
		prop[n] = '\0';
		if (__system_property_get(prop, value) > 0) {
			snprintf(buf, size, "%s", value);
			return buf;
		}
	}
#else
	(void)buf;
	(void)size;
#endif
	return NULL;
}

bool rec_config_real_module(char *out, size_t size)
{
	char buf[4096];
	const char *v = rec_config_get("HWCT_REAL_MODULE", buf, sizeof(buf));

	if (!v || !*v) {
		return false;
	}
	snprintf(out, size, "%s", v);
	return true;
}

/* Parses a decimal integer in [0, max]; false on anything else. */
static bool parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s) {
		return false;
	}
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s)) {
			return false;
		}
		if (v > (max - (uint64_t)(*s - '0')) / 10) {
			return false;
		}
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return true;
}

static void remember(struct rec_config *cfg, const char *key, const char *value)
{
	if (cfg->option_count < REC_CONFIG_MAX_OPTIONS) {
		cfg->option_keys[cfg->option_count] = key;
		snprintf(cfg->option_values[cfg->option_count], sizeof(cfg->option_values[0]), "%s", value);
		cfg->option_count++;
	}
}

static int bad(char *why, size_t size, const char *name, const char *value, const char *what)
{
	snprintf(why, size, "%s=\"%.64s\": %s", name, value, what);
	return -EINVAL;
}

int rec_config_read(struct rec_config *cfg, char *why, size_t size)
{
	char buf[4096];
	uint64_t v;

	*cfg = (struct rec_config){
		.pixels = true,
		.budget_bytes = (uint64_t)DEFAULT_BUDGET_MB * MIB,
		.capture_wait_ms = DEFAULT_CAPTURE_WAIT_MS,
	};
	for (size_t i = 0; i < sizeof(option_names) / sizeof(option_names[0]); i++) {
		const char *name = option_names[i];
		const char *value = rec_config_get(name, buf, sizeof(buf));

		if (!value) {
			continue;
		}
		remember(cfg, name, value);
		if (strcmp(name, "HWCT_OUTPUT") == 0) {
			if (!*value || strlen(value) >= sizeof(cfg->output)) {
				return bad(why, size, name, value, "empty or too long");
			}
			cfg->output_none = strcmp(value, "none") == 0;
			snprintf(cfg->output, sizeof(cfg->output), "%s", value);
		} else if (strcmp(name, "HWCT_PIXELS") == 0) {
			if (strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
				return bad(why, size, name, value, "expected 0 or 1");
			}
			cfg->pixels = value[0] == '1';
		} else if (strcmp(name, "HWCT_MAX_FRAMES") == 0) {
			if (!parse_uint(value, UINT64_MAX, &cfg->max_frames)) {
				return bad(why, size, name, value, "expected a frame count");
			}
		} else if (strcmp(name, "HWCT_MAX_SECONDS") == 0) {
			if (!parse_uint(value, UINT32_MAX, &cfg->max_seconds)) {
				return bad(why, size, name, value, "expected seconds");
			}
		} else if (strcmp(name, "HWCT_BUDGET_MB") == 0) {
			if (!parse_uint(value, 1u << 20, &v)) {
				return bad(why, size, name, value, "expected MiB (0 .. 1048576)");
			}
			cfg->budget_zero = v == 0;
			cfg->budget_bytes = v ? v * MIB : 1;
		} else if (strcmp(name, "HWCT_CAPTURE_WAIT_MS") == 0) {
			if (!parse_uint(value, 60000, &v)) {
				return bad(why, size, name, value, "expected milliseconds (0 .. 60000)");
			}
			cfg->capture_wait_ms = (uint32_t)v;
		} else if (strcmp(name, "HWCT_TRIGGER") == 0) {
			if (strcmp(value, "signal") == 0) {
				cfg->trigger = REC_TRIGGER_SIGNAL;
			} else if (strcmp(value, "none") != 0 && *value) {
				return bad(why, size, name, value, "expected \"signal\" or \"none\"");
			}
		} else if (strcmp(name, "HWCT_CONTROL") == 0) {
			if (!*value || strlen(value) >= sizeof(cfg->control)) {
				return bad(why, size, name, value, "empty or too long");
			}
			snprintf(cfg->control, sizeof(cfg->control), "%s", value);
		}
	}
	if (cfg->trigger == REC_TRIGGER_SIGNAL && cfg->control[0]) {
		return bad(why, size, "HWCT_TRIGGER", "signal", "and HWCT_CONTROL both given: choose one");
	}
	if (!cfg->output[0]) {
#ifdef __ANDROID__
		snprintf(cfg->output, sizeof(cfg->output), "/data/local/tmp");
#else
		snprintf(cfg->output, sizeof(cfg->output), ".");
#endif
	}
	return 0;
}
