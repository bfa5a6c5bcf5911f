/*
 * The container layer: header, skippable frames and the seek table
 * (docs/format.md section 1).
 */
#ifndef HWCT_CONTAINER_H
#define HWCT_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwct/error.h>
#include <hwct/hwctrace.pb-c.h>

#include "bytebuf.h"

#define SKIPPABLE_HEADER_SIZE 8
#define HEADER_PREFIX_SIZE 16
#define SEEK_ENTRY_SIZE 12
#define SEEK_FOOTER_SIZE 9
#define SEEK_CHECKSUM_FLAG 0x80u

struct seek_entry {
	uint32_t compressed;	/* whole frame size */
	uint32_t decompressed;	/* 0 for skippable frames */
	uint32_t checksum;	/* low 32 bits of XXH64 of the content */
};

/* Appends a skippable frame with that magic and payload. Returns 0 or -ENOMEM/-EFBIG. */
int container_append_skippable(struct bytebuf *out, uint32_t magic, const void *payload, size_t size);

/* Appends the header frame for the current format version. Returns 0 or -errno. */
int container_append_header(struct bytebuf *out, const Hwct__FileHeader *header);

/*
 * Parses the header frame at the start of data. On success returns the frame
 * size (> 0), the version and the unpacked FileHeader (caller frees with
 * hwct__file_header__free_unpacked). Returns -errno with err filled otherwise:
 * -EPROTONOSUPPORT for an unknown major.
 */
long container_parse_header(const uint8_t *data, size_t size, const char *name,
	uint16_t *major, uint16_t *minor, Hwct__FileHeader **header, struct hwct_error *err);

/* Appends the seek table frame for entries. Returns 0 or -errno. */
int container_append_seek_table(struct bytebuf *out, const struct seek_entry *entries, size_t count);

/*
 * Finds and checks the seek table at the end of a file of `size` bytes.
 * Returns 1 with *entries (caller frees) and *count set, 0 when the file has
 * no seek-table footer, or -EINVAL with err filled when it has a damaged one.
 */
int container_parse_seek_table(const uint8_t *data, size_t size, const char *name,
	struct seek_entry **entries, size_t *count, struct hwct_error *err);

/*
 * Size of the complete zstd frame (ordinary or skippable) at data, or 0 when
 * the frame is incomplete or not a zstd frame; *what then says which.
 */
size_t container_frame_size(const uint8_t *data, size_t size, const char **what);

/* Whether the frame at data (at least 4 bytes) is skippable; *magic set when so. */
bool container_is_skippable(const uint8_t *data, size_t size, uint32_t *magic);

/* The seek-table checksum of content: low 32 bits of XXH64, seed 0. */
uint32_t container_checksum(const void *data, size_t size);

#endif
