/*
 * The one logging module. Library code reports through it and never prints
 * on its own; programs choose where messages go.
 */
#ifndef HWCT_LOG_H
#define HWCT_LOG_H

#include <stdarg.h>

enum hwct_log_priority {
	HWCT_LOG_ERROR = 0,
	HWCT_LOG_WARNING = 1,
	HWCT_LOG_INFO = 2,
	HWCT_LOG_DEBUG = 3,
};

/* Receives one formatted message without a trailing newline. */
typedef void (*hwct_log_handler_fn)(enum hwct_log_priority prio, const char *msg, void *data);

/*
 * Installs the handler (NULL restores the default, which writes to stderr
 * messages at or above the threshold) and the threshold. Not thread-safe
 * against concurrent logging: call it at start-up.
 */
void hwct_log_set_handler(hwct_log_handler_fn handler, void *data);
void hwct_log_set_threshold(enum hwct_log_priority max_prio);

/* Logs a message. Preserves errno. */
void hwct_log(enum hwct_log_priority prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void hwct_logv(enum hwct_log_priority prio, const char *fmt, va_list args)
	__attribute__((format(printf, 2, 0)));

/* Logs a message followed by ": " and strerror(errno). Preserves errno. */
void hwct_log_errno(enum hwct_log_priority prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
