/* Builds as hwc-bisect spells them (bisect.h), into hwc-replay arguments. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"

static const struct {
	const char *prefix;
	enum bisect_build_kind kind;
	const char *noun;
} kinds[] = {
	{ "kernel:", BISECT_BUILD_KERNEL, "kernel" },
	{ "image:", BISECT_BUILD_IMAGE, "image" },
	{ "hwc2:", BISECT_BUILD_HWC2, "hwc2" },
	{ "libs:", BISECT_BUILD_LIBS, "libs" },
	{ "userland:", BISECT_BUILD_USERLAND, "userland" },
};

#define KIND_COUNT (sizeof(kinds) / sizeof(kinds[0]))

/* A Debian kernel line or version: "6.12", "6.12.117-1~deb12u1". */
static bool looks_like_version(const char *s)
{
	if (s[0] < '0' || s[0] > '9') {
		return false;
	}
	for (const char *p = s; *p; p++) {
		if (!strchr("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+~-", *p)) {
			return false;
		}
	}
	return strchr(s, '.') != NULL;
}

static char *safe_stem(const char *label)
{
	char *s = strdup(label);

	for (char *p = s; p && *p; p++) {
		if (!strchr("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+~-_", *p)) {
			*p = '_';
		}
	}
	return s;
}

int bisect_build_parse(const char *spec, struct bisect_build *b, char *msg, size_t size)
{
	const char *value = spec, *noun = "kernel";
	char label[1024];

	*b = (struct bisect_build){ .kind = BISECT_BUILD_KERNEL };
	for (size_t i = 0; i < KIND_COUNT; i++) {
		size_t len = strlen(kinds[i].prefix);

		if (strncmp(spec, kinds[i].prefix, len) == 0) {
			b->kind = kinds[i].kind;
			noun = kinds[i].noun;
			value = spec + len;
			break;
		}
	}
	if (!value[0]) {
		snprintf(msg, size, "build '%s': nothing after the colon", spec);
		return -EINVAL;
	}
	if (b->kind == BISECT_BUILD_KERNEL && !looks_like_version(value)) {
		snprintf(msg, size, "build '%s': not a Debian kernel version (6.12.117-1~deb12u1), "
			"nor kernel:, image:, hwc2:, libs: or userland: followed by one", spec);
		return -EINVAL;
	}
	b->spec = strdup(spec);
	b->path = strdup(value);
	if (b->kind == BISECT_BUILD_IMAGE && b->path) {
		char *colon = strchr(b->path, ':');

		if (colon) {
			*colon = '\0';
			b->modules = strdup(colon + 1);
			if (!b->modules) {
				goto nomem;
			}
		}
	}
	snprintf(label, sizeof(label), "%s %s", noun, value);
	b->label = strdup(label);
	b->file_stem = safe_stem(label);
	if (!b->spec || !b->path || !b->label || !b->file_stem) {
		goto nomem;
	}
	return 0;
nomem:
	bisect_build_finish(b);
	snprintf(msg, size, "out of memory");
	return -ENOMEM;
}

void bisect_build_finish(struct bisect_build *b)
{
	free(b->spec);
	free(b->path);
	free(b->modules);
	free(b->label);
	free(b->file_stem);
	*b = (struct bisect_build){ 0 };
}

void bisect_build_args(const struct bisect_build *b, const char **argv, size_t *n)
{
	switch (b->kind) {
	case BISECT_BUILD_KERNEL:
		argv[(*n)++] = "--vm";
		argv[(*n)++] = "--kernel";
		argv[(*n)++] = b->path;
		break;
	case BISECT_BUILD_IMAGE:
		argv[(*n)++] = "--vm";
		argv[(*n)++] = "--kernel-image";
		argv[(*n)++] = b->path;
		if (b->modules) {
			argv[(*n)++] = "--kernel-modules";
			argv[(*n)++] = b->modules;
		}
		break;
	case BISECT_BUILD_HWC2:
		argv[(*n)++] = "--hwc2";
		argv[(*n)++] = b->path;
		break;
	case BISECT_BUILD_USERLAND:
		argv[(*n)++] = "--vm";
		argv[(*n)++] = "--userland";
		argv[(*n)++] = b->path;
		break;
	case BISECT_BUILD_LIBS:
		break;	/* LD_LIBRARY_PATH, set by bisect_run_build */
	}
}
