/* Error reports with file and offset (include/hwct/error.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include <hwct/error.h>

void hwct_error_clear(struct hwct_error *err)
{
	if (!err) {
		return;
	}
	err->code = 0;
	err->offset = UINT64_MAX;
	err->message[0] = '\0';
}

int hwct_error_set(struct hwct_error *err, int code, const char *name, uint64_t offset,
	const char *fmt, ...)
{
	va_list args;
	int n;

	if (!err) {
		return code;
	}
	err->code = code;
	err->offset = offset;
	if (offset == UINT64_MAX) {
		n = snprintf(err->message, sizeof(err->message), "%s: ", name);
	} else {
		n = snprintf(err->message, sizeof(err->message), "%s: offset %" PRIu64 ": ",
			name, offset);
	}
	if (n < 0 || (size_t)n >= sizeof(err->message)) {
		return code;
	}
	va_start(args, fmt);
	vsnprintf(err->message + n, sizeof(err->message) - (size_t)n, fmt, args);
	va_end(args);
	return code;
}
