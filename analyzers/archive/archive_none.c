/* arch_walk() of a build without libzip (-Dzip=disabled): archives are refused by name. */
#include <errno.h>

#include "archive.h"

int arch_walk(const uint8_t *data, size_t size, const char *name, const struct arch_limits *lim,
	const struct arch_visitor *v, struct hwct_error *err)
{
	(void)data;
	(void)size;
	(void)lim;
	(void)v;
	return hwct_error_set(err, -ENOTSUP, name, UINT64_MAX, "a zip archive, and this hwc-trace was built "
		"without libzip (-Dzip=disabled): unzip it and import the trace inside");
}
