/* Header, skippable frames and the zstd seekable-format seek table (container.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>


#include <zstd.h>
#include <xxhash.h>

#include <hwct/format.h>

#include "container.h"

uint32_t container_checksum(const void *data, size_t size)
{
	return (uint32_t)XXH64(size ? data : "", size, 0);
}

int container_append_skippable(struct bytebuf *out, uint32_t magic, const void *payload, size_t size)
{
	int ret;

	if (size > UINT32_MAX - SKIPPABLE_HEADER_SIZE) {
		return -EFBIG;
	}
	ret = bytebuf_reserve(out, SKIPPABLE_HEADER_SIZE + size);
	if (ret < 0) {
		return ret;
	}
	bytebuf_append_le32(out, magic);
	bytebuf_append_le32(out, (uint32_t)size);
	return bytebuf_append(out, payload, size);
}

int container_append_header(struct bytebuf *out, const Hwct__FileHeader *header)
{
	size_t len = hwct__file_header__get_packed_size(header);
	struct bytebuf payload = { 0 };
	uint8_t prefix[HEADER_PREFIX_SIZE];
	int ret;

	memcpy(prefix, HWCT_HEADER_SIGNATURE, 8);
	prefix[8] = HWCT_FORMAT_MAJOR & 0xff;
	prefix[9] = HWCT_FORMAT_MAJOR >> 8;
	prefix[10] = HWCT_FORMAT_MINOR & 0xff;
	prefix[11] = HWCT_FORMAT_MINOR >> 8;
	put_le32(prefix + 12, (uint32_t)len);
	ret = bytebuf_reserve(&payload, sizeof(prefix) + len);
	if (ret == 0) {
		bytebuf_append(&payload, prefix, sizeof(prefix));
		hwct__file_header__pack(header, payload.data + payload.len);
		payload.len += len;
		ret = container_append_skippable(out, HWCT_MAGIC_HEADER, payload.data, payload.len);
	}
	bytebuf_finish(&payload);
	return ret;
}

long container_parse_header(const uint8_t *data, size_t size, const char *name,
	uint16_t *major, uint16_t *minor, Hwct__FileHeader **header, struct hwct_error *err)
{
	uint32_t magic, frame_len, len;
	const uint8_t *p;

	magic = size >= 4 ? get_le32(data) : 0;
	if (size >= 4 && magic == 0xFD2FB528u) {
		return hwct_error_set(err, -EINVAL, name, 0,
			"header: a plain zstd file, not an hwctrace trace (no header frame 0x%08x)",
			HWCT_MAGIC_HEADER);
	}
	if (size < SKIPPABLE_HEADER_SIZE + HEADER_PREFIX_SIZE) {
		return hwct_error_set(err, -EINVAL, name, 0,
			"header: file is %zu bytes, shorter than a trace header", size);
	}
	if (magic != HWCT_MAGIC_HEADER) {
		return hwct_error_set(err, -EINVAL, name, 0,
			"header: magic 0x%08x is not the hwctrace header frame 0x%08x", magic,
			HWCT_MAGIC_HEADER);
	}
	frame_len = get_le32(data + 4);
	if (frame_len > size - SKIPPABLE_HEADER_SIZE || frame_len < HEADER_PREFIX_SIZE) {
		return hwct_error_set(err, -EINVAL, name, 4,
			"header: frame size %u does not fit the file (%zu bytes)", frame_len, size);
	}
	p = data + SKIPPABLE_HEADER_SIZE;
	if (memcmp(p, HWCT_HEADER_SIGNATURE, 8) != 0) {
		return hwct_error_set(err, -EINVAL, name, 8, "header: signature is not HWCTRACE");
	}
	*major = get_le16(p + 8);
	*minor = get_le16(p + 10);
	if (*major != HWCT_FORMAT_MAJOR) {
		return hwct_error_set(err, -EPROTONOSUPPORT, name, 16,
			"header: format version %u.%u is not readable by this reader (reads %u.x)",
			*major, *minor, HWCT_FORMAT_MAJOR);
	}
	len = get_le32(p + 12);
	if (len > frame_len - HEADER_PREFIX_SIZE) {
		return hwct_error_set(err, -EINVAL, name, 20,
			"header: FileHeader length %u exceeds its frame (%u bytes)", len,
			frame_len - HEADER_PREFIX_SIZE);
	}
	*header = hwct__file_header__unpack(NULL, len, p + HEADER_PREFIX_SIZE);
	if (!*header) {
		return hwct_error_set(err, -EINVAL, name, SKIPPABLE_HEADER_SIZE + HEADER_PREFIX_SIZE,
			"header: FileHeader message does not parse");
	}
	return (long)(SKIPPABLE_HEADER_SIZE + frame_len);
}

int container_append_seek_table(struct bytebuf *out, const struct seek_entry *entries, size_t count)
{
	size_t payload = count * SEEK_ENTRY_SIZE + SEEK_FOOTER_SIZE;
	uint8_t footer[SEEK_FOOTER_SIZE];
	int ret;

	if (count > (UINT32_MAX - SEEK_FOOTER_SIZE - SKIPPABLE_HEADER_SIZE) / SEEK_ENTRY_SIZE) {
		return -EFBIG;
	}
	ret = bytebuf_reserve(out, SKIPPABLE_HEADER_SIZE + payload);
	if (ret < 0) {
		return ret;
	}
	bytebuf_append_le32(out, HWCT_MAGIC_SEEK_TABLE);
	bytebuf_append_le32(out, (uint32_t)payload);
	for (size_t i = 0; i < count; i++) {
		bytebuf_append_le32(out, entries[i].compressed);
		bytebuf_append_le32(out, entries[i].decompressed);
		bytebuf_append_le32(out, entries[i].checksum);
	}
	put_le32(footer, (uint32_t)count);
	footer[4] = SEEK_CHECKSUM_FLAG;
	put_le32(footer + 5, HWCT_SEEKABLE_FOOTER_MAGIC);
	return bytebuf_append(out, footer, sizeof(footer));
}

int container_parse_seek_table(const uint8_t *data, size_t size, const char *name,
	struct seek_entry **entries_out, size_t *count_out, struct hwct_error *err)
{
	const uint8_t *footer;
	uint32_t count, frame_len;
	uint64_t table_size, start, sum = 0;
	struct seek_entry *entries;
	uint8_t descriptor;

	if (size < SKIPPABLE_HEADER_SIZE + SEEK_FOOTER_SIZE) {
		return 0;
	}
	footer = data + size - SEEK_FOOTER_SIZE;
	if (get_le32(footer + 5) != HWCT_SEEKABLE_FOOTER_MAGIC) {
		return 0;
	}
	count = get_le32(footer);
	descriptor = footer[4];
	if (descriptor & 0x7c) {
		return hwct_error_set(err, -EINVAL, name, size - 5,
			"seek table: reserved descriptor bits set (0x%02x)", descriptor);
	}
	table_size = (uint64_t)count * ((descriptor & SEEK_CHECKSUM_FLAG) ? 12 : 8);
	if (table_size + SEEK_FOOTER_SIZE + SKIPPABLE_HEADER_SIZE > size) {
		return hwct_error_set(err, -EINVAL, name, size - SEEK_FOOTER_SIZE,
			"seek table: %u entries do not fit a %zu-byte file", count, size);
	}
	start = size - SEEK_FOOTER_SIZE - table_size - SKIPPABLE_HEADER_SIZE;
	if (get_le32(data + start) != HWCT_MAGIC_SEEK_TABLE) {
		return hwct_error_set(err, -EINVAL, name, start,
			"seek table: frame magic 0x%08x is not 0x%08x", get_le32(data + start),
			HWCT_MAGIC_SEEK_TABLE);
	}
	frame_len = get_le32(data + start + 4);
	if (frame_len != table_size + SEEK_FOOTER_SIZE) {
		return hwct_error_set(err, -EINVAL, name, start + 4,
			"seek table: frame size %u does not match %u entries", frame_len, count);
	}
	if (!(descriptor & SEEK_CHECKSUM_FLAG)) {
		return hwct_error_set(err, -EINVAL, name, size - 5,
			"seek table: checksum flag not set (hwctrace always writes checksums)");
	}
	entries = calloc(count ? count : 1, sizeof(*entries));
	if (!entries) {
		return hwct_error_set(err, -ENOMEM, name, start, "seek table: out of memory");
	}
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *e = data + start + SKIPPABLE_HEADER_SIZE + (uint64_t)i * SEEK_ENTRY_SIZE;

		entries[i].compressed = get_le32(e);
		entries[i].decompressed = get_le32(e + 4);
		entries[i].checksum = get_le32(e + 8);
		sum += entries[i].compressed;
	}
	if (sum != start) {
		free(entries);
		return hwct_error_set(err, -EINVAL, name, start,
			"seek table: frame sizes add up to %llu bytes but the table starts at %llu",
			(unsigned long long)sum, (unsigned long long)start);
	}
	*entries_out = entries;
	*count_out = count;
	return 1;
}

bool container_is_skippable(const uint8_t *data, size_t size, uint32_t *magic)
{
	uint32_t m;

	if (size < 4) {
		return false;
	}
	m = get_le32(data);
	if ((m & 0xFFFFFFF0u) != 0x184D2A50u) {
		return false;
	}
	if (magic) {
		*magic = m;
	}
	return true;
}

size_t container_frame_size(const uint8_t *data, size_t size, const char **what)
{
	size_t n;

	if (size < 4) {
		*what = "zstd frame: fewer than 4 bytes left";
		return 0;
	}
	if (container_is_skippable(data, size, NULL)) {
		uint64_t len;

		if (size < SKIPPABLE_HEADER_SIZE) {
			*what = "skippable frame: truncated header";
			return 0;
		}
		len = (uint64_t)get_le32(data + 4) + SKIPPABLE_HEADER_SIZE;
		if (len > size) {
			*what = "skippable frame: truncated";
			return 0;
		}
		return (size_t)len;
	}
	if (get_le32(data) != 0xFD2FB528u) {
		*what = "zstd frame: bad magic";
		return 0;
	}
	n = ZSTD_findFrameCompressedSize(data, size);
	if (ZSTD_isError(n)) {
		*what = "zstd frame: truncated or malformed";
		return 0;
	}
	return n;
}
