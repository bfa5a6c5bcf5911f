/* The logging module (include/hwct/log.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <hwct/log.h>

static hwct_log_handler_fn handler;
static void *handler_data;
static enum hwct_log_priority threshold = HWCT_LOG_WARNING;

static const char *const prefixes[] = {
	[HWCT_LOG_ERROR] = "error",
	[HWCT_LOG_WARNING] = "warning",
	[HWCT_LOG_INFO] = "info",
	[HWCT_LOG_DEBUG] = "debug",
};

void hwct_log_set_handler(hwct_log_handler_fn fn, void *data)
{
	handler = fn;
	handler_data = data;
}

void hwct_log_set_threshold(enum hwct_log_priority max_prio)
{
	threshold = max_prio;
}

static void emit(enum hwct_log_priority prio, const char *msg)
{
	if (handler) {
		handler(prio, msg, handler_data);
		return;
	}
	if (prio <= threshold) {
		fprintf(stderr, "hwctrace %s: %s\n", prefixes[prio], msg);
	}
}

void hwct_logv(enum hwct_log_priority prio, const char *fmt, va_list args)
{
	int saved = errno;
	char msg[1024];

	if (!handler && prio > threshold) {
		errno = saved;
		return;
	}
	vsnprintf(msg, sizeof(msg), fmt, args);
	emit(prio, msg);
	errno = saved;
}

void hwct_log(enum hwct_log_priority prio, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	hwct_logv(prio, fmt, args);
	va_end(args);
}

void hwct_log_errno(enum hwct_log_priority prio, const char *fmt, ...)
{
	int saved = errno;
	char msg[1024];
	va_list args;

	va_start(args, fmt);
	vsnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	hwct_log(prio, "%s: %s", msg, strerror(saved));
	errno = saved;
}
