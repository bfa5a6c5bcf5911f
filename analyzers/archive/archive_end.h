/*
 * The end of a zip archive, read before libzip sees it: the end of central
 * directory record (and its zip64 form) says how many entries the archive
 * has and where its directory lies, so an archive with too many entries or
 * a directory cut short is refused before anything is allocated for it.
 */
#ifndef HWCT_ARCHIVE_END_H
#define HWCT_ARCHIVE_END_H

#include <stddef.h>
#include <stdint.h>

struct arch_end {
	uint64_t entries;		/* entries the directory lists */
	uint64_t dir_offset;		/* byte offset of the central directory */
	uint64_t dir_size;		/* its length, bytes */
	uint64_t record_offset;		/* byte offset of the end record */
};

/*
 * Finds the end record in data (size bytes, borrowed). Returns 0, or
 * -EINVAL with *why set to a static text (no end record; the directory
 * runs past the end record).
 */
int arch_end_read(const uint8_t *data, size_t size, struct arch_end *end, const char **why);

#endif
