/*
 * The zip end of central directory record (archive_end.h). Layout (PKWARE
 * APPNOTE 4.3.16, 4.3.14, 4.3.15): the record is 22 bytes plus a comment
 * of up to 65535 bytes, signature 0x06054b50, entry count at +10 (16 bits),
 * directory size at +12 and offset at +16 (32 bits). When a field is
 * saturated the zip64 locator (signature 0x07064b50, 20 bytes, just before
 * the record) gives the offset of the zip64 record (signature 0x06064b50),
 * whose entry count is at +32, directory size at +40, offset at +48.
 */
#include <errno.h>

#include "archive_end.h"

#define END_SIG 0x06054b50u
#define END_SIZE 22u
#define LOCATOR_SIG 0x07064b50u
#define LOCATOR_SIZE 20u
#define END64_SIG 0x06064b50u
#define END64_SIZE 56u
#define MAX_COMMENT 65535u

static uint32_t le16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
	return le16(p) | le16(p + 2) << 16;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static int zip64(const uint8_t *data, size_t at, struct arch_end *end, const char **why)
{
	uint64_t off;

	if (at < LOCATOR_SIZE || le32(data + at - LOCATOR_SIZE) != LOCATOR_SIG) {
		return 0;	/* saturated fields without zip64: take them as they are */
	}
	off = le64(data + at - LOCATOR_SIZE + 8);
	if (off > at - LOCATOR_SIZE || at - LOCATOR_SIZE - off < END64_SIZE || le32(data + off) != END64_SIG) {
		*why = "the zip64 end record its locator points to is not there";
		return -EINVAL;
	}
	end->entries = le64(data + off + 32);
	end->dir_size = le64(data + off + 40);
	end->dir_offset = le64(data + off + 48);
	end->record_offset = off;
	return 0;
}

int arch_end_read(const uint8_t *data, size_t size, struct arch_end *end, const char **why)
{
	size_t low, at;
	int ret;

	if (size < END_SIZE) {
		*why = "too short for a zip end record (truncated?)";
		return -EINVAL;
	}
	low = size - END_SIZE > MAX_COMMENT ? size - END_SIZE - MAX_COMMENT : 0;
	for (at = size - END_SIZE;; at--) {
		if (le32(data + at) == END_SIG && at + END_SIZE + le16(data + at + 20) <= size) {
			break;
		}
		if (at == low) {
			*why = "no end of central directory record (a truncated or damaged archive)";
			return -EINVAL;
		}
	}
	end->entries = le16(data + at + 10);
	end->dir_size = le32(data + at + 12);
	end->dir_offset = le32(data + at + 16);
	end->record_offset = at;
	if (end->entries == 0xffff || end->dir_size == 0xffffffffu || end->dir_offset == 0xffffffffu) {
		ret = zip64(data, at, end, why);
		if (ret < 0) {
			return ret;
		}
	}
	if (end->dir_offset > end->record_offset || end->dir_size > end->record_offset - end->dir_offset) {
		*why = "the central directory runs past the end record (a truncated or damaged archive)";
		return -EINVAL;
	}
	return 0;
}
