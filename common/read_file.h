/*
 * A whole file read into memory under a size limit, for the importers that
 * parse an input at once (hwc-trace import, import-winscope).
 */
#ifndef HWCT_COMMON_READ_FILE_H
#define HWCT_COMMON_READ_FILE_H

#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>

/*
 * Reads path (a regular file or a pipe; a directory is refused) into *out, a
 * malloc'd buffer the caller frees, of *size bytes. Returns 0, or a negative
 * errno with err naming the file (and the byte offset of a read error):
 * -EISDIR, -EFBIG when it holds more than limit bytes, -ENOMEM, or open's or
 * read's error.
 */
int hwct_read_file(const char *path, uint64_t limit, uint8_t **out, size_t *size, struct hwct_error *err);

#endif
