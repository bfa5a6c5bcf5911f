/* XXH3-128 content hashes (include/hwct/hash.h, docs/format.md section 4). */
#include <string.h>

#include <xxhash.h>
/*
 * On x86, a libxxhash built with its dispatcher (Debian's is) picks AVX2 or
 * AVX-512 at run time, twice as fast as the SSE2 code behind plain
 * XXH3_128bits; its header renames XXH3_128bits to the dispatching entry.
 * The header is installed only with the dispatcher. Same hashes either way.
 */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__has_include)
#if __has_include(<xxh_x86dispatch.h>)
#include <xxh_x86dispatch.h>
#endif
#endif

#include <hwct/hash.h>

struct hwct_hash hwct_hash_compute(const void *data, size_t size)
{
	XXH128_hash_t h = XXH3_128bits(size ? data : "", size);

	return (struct hwct_hash){ .high = h.high64, .low = h.low64 };
}

static void put_be64(uint8_t *out, uint64_t v)
{
	for (int i = 7; i >= 0; i--) {
		out[i] = (uint8_t)v;
		v >>= 8;
	}
}

static uint64_t get_be64(const uint8_t *in)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++) {
		v = v << 8 | in[i];
	}
	return v;
}

void hwct_hash_to_bytes(const struct hwct_hash *hash, uint8_t out[HWCT_HASH_BYTES])
{
	put_be64(out, hash->high);
	put_be64(out + 8, hash->low);
}

bool hwct_hash_from_bytes(struct hwct_hash *out, const uint8_t *bytes, size_t size)
{
	if (size != HWCT_HASH_BYTES || !bytes) {
		return false;
	}
	out->high = get_be64(bytes);
	out->low = get_be64(bytes + 8);
	return true;
}

char *hwct_hash_to_hex(const struct hwct_hash *hash, char out[HWCT_HASH_HEX])
{
	static const char digits[] = "0123456789abcdef";
	uint8_t bytes[HWCT_HASH_BYTES];

	hwct_hash_to_bytes(hash, bytes);
	for (int i = 0; i < HWCT_HASH_BYTES; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 0xf];
	}
	out[HWCT_HASH_HEX - 1] = '\0';
	return out;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

bool hwct_hash_from_hex(struct hwct_hash *out, const char *hex)
{
	uint8_t bytes[HWCT_HASH_BYTES];

	if (!hex || strlen(hex) != 2 * HWCT_HASH_BYTES) {
		return false;
	}
	for (int i = 0; i < HWCT_HASH_BYTES; i++) {
		int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			return false;
		}
		bytes[i] = (uint8_t)(hi << 4 | lo);
	}
	return hwct_hash_from_bytes(out, bytes, sizeof(bytes));
}
