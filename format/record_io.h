/* Record framing: varint length + Record message (docs/format.md section 2). */
#ifndef HWCT_RECORD_IO_H
#define HWCT_RECORD_IO_H

#include <stddef.h>
#include <stdint.h>

#include <hwct/hwctrace.pb-c.h>

#include "bytebuf.h"

#define RECORD_MAX_SIZE (1u << 30)

/* Bytes of the base-128 varint of v (1 to 10). */
size_t varint_size(uint64_t v);

/* Writes the varint of v at p (room for 10 bytes); returns its size. */
size_t varint_put(uint8_t *p, uint64_t v);

/* The CLOCK_MONOTONIC time a record carries (call entry, frame end, callback), 0 for none. */
uint64_t record_time(const Hwct__Record *rec);

/* Appends the framed record to out. Returns 0 or -ENOMEM. */
int record_append(struct bytebuf *out, const Hwct__Record *rec);

/*
 * Reads one record frame from data[*pos, size): on success sets *body and
 * *body_size to the message bytes and advances *pos, returning 1; returns 0
 * at exactly size; -EINVAL for a bad varint, a zero length or a length past
 * size, -EFBIG for a length past the record limit (hwct_limits()), with *what
 * (a static string) saying which.
 */
int record_next(const uint8_t *data, size_t size, size_t *pos,
	const uint8_t **body, size_t *body_size, const char **what);

#endif
