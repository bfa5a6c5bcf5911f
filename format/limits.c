/* Reader limits: defaults and their HWCT_LIMIT_* overrides (include/hwct/limits.h). */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/limits.h>

struct limit_def {
	const char *env;
	size_t field;		/* offsetof(struct hwct_limits, ...) */
	uint64_t def;
	uint64_t max;		/* largest value accepted */
};

static const struct limit_def defs[] = {
	{ "HWCT_LIMIT_FRAME_BYTES", offsetof(struct hwct_limits, frame_bytes),
		HWCT_LIMIT_DEFAULT_FRAME_BYTES, UINT32_MAX },
	{ "HWCT_LIMIT_RECORD_BYTES", offsetof(struct hwct_limits, record_bytes),
		HWCT_LIMIT_DEFAULT_RECORD_BYTES, 1ull << 30 },
	{ "HWCT_LIMIT_BLOB_BYTES", offsetof(struct hwct_limits, blob_bytes),
		HWCT_LIMIT_DEFAULT_BLOB_BYTES, 1ull << 30 },
	{ "HWCT_LIMIT_DIMENSION", offsetof(struct hwct_limits, dimension),
		HWCT_LIMIT_DEFAULT_DIMENSION, 1u << 30 },
	{ "HWCT_LIMIT_DELTA_DEPTH", offsetof(struct hwct_limits, delta_depth),
		HWCT_LIMIT_DEFAULT_DELTA_DEPTH, 4096 },
	{ "HWCT_LIMIT_JSON_BYTES", offsetof(struct hwct_limits, json_bytes),
		HWCT_LIMIT_DEFAULT_JSON_BYTES, 1ull << 32 },
	{ "HWCT_LIMIT_JSON_DEPTH", offsetof(struct hwct_limits, json_depth),
		HWCT_LIMIT_DEFAULT_JSON_DEPTH, 100000 },
	{ "HWCT_LIMIT_JSON_VALUES", offsetof(struct hwct_limits, json_values),
		HWCT_LIMIT_DEFAULT_JSON_VALUES, 1ull << 32 },
};

static struct hwct_limits limits;
static pthread_once_t limits_once = PTHREAD_ONCE_INIT;

/* Parses "N", "NK", "NM" or "NG". Returns 0 or -EINVAL. */
static int parse_value(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;
	unsigned shift = 0;

	if (*s < '0' || *s > '9') {
		return -EINVAL;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno) {
		return -EINVAL;
	}
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	default: break;
	}
	if (*end != '\0' || v > (UINT64_MAX >> shift)) {
		return -EINVAL;
	}
	*out = (uint64_t)v << shift;
	return 0;
}

/* The value of def's variable: 1 when set and valid, 0 when unset, -EINVAL otherwise. */
static int read_env(const struct limit_def *def, uint64_t *out, char *msg, unsigned len)
{
	const char *s = getenv(def->env);

	if (!s) {
		return 0;
	}
	if (parse_value(s, out) < 0 || *out == 0 || *out > def->max) {
		if (msg) {
			snprintf(msg, len, "%s=%s: not a number from 1 to %llu (K, M, G suffixes allowed)",
				def->env, s, (unsigned long long)def->max);
		}
		return -EINVAL;
	}
	return 1;
}

int hwct_limits_from_env(struct hwct_limits *out, char *msg, unsigned len)
{
	int ret = 0;

	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		uint64_t *field = (uint64_t *)((char *)out + defs[i].field);
		uint64_t v;
		int got = read_env(&defs[i], &v, ret == 0 ? msg : NULL, len);

		*field = got > 0 ? v : defs[i].def;
		if (got < 0) {
			ret = got;
		}
	}
	return ret;
}

static void limits_init(void)
{
	hwct_limits_from_env(&limits, NULL, 0);
}

const struct hwct_limits *hwct_limits(void)
{
	pthread_once(&limits_once, limits_init);
	return &limits;
}

void hwct_limits_set(const struct hwct_limits *lim)
{
	pthread_once(&limits_once, limits_init);
	limits = *lim;
}
