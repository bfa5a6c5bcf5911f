/*
 * Error reports of the trace readers: what went wrong, where in which file.
 */
#ifndef HWCT_ERROR_H
#define HWCT_ERROR_H

#include <stdint.h>

#define HWCT_ERROR_MESSAGE_MAX 512

struct hwct_error {
	int code;		/* -errno style: -EINVAL corrupt, -EPROTONOSUPPORT version, -EIO, ... 0 = none */
	uint64_t offset;	/* byte offset in the file the message is about, UINT64_MAX unknown */
	char message[HWCT_ERROR_MESSAGE_MAX];	/* "FILE: offset N: what: detail" */
};

/* Clears err (code 0, empty message). err may be NULL. */
void hwct_error_clear(struct hwct_error *err);

/*
 * Fills err with code, offset and a message prefixed by "NAME: offset N: "
 * (or "NAME: " when offset is UINT64_MAX). err may be NULL. Returns code.
 */
int hwct_error_set(struct hwct_error *err, int code, const char *name, uint64_t offset,
	const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
