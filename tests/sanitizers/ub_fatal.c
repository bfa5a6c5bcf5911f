/*
 * Deliberate errors for ub-fatal.sh: `ub-fatal KIND` makes one, then
 * prints "survived KIND" and exits 0 if the process was let go on.
 * KIND is one of the names in kinds[] below; "none" makes no error.
 * Values come through volatile objects so the compiler cannot see the
 * error and fold it away.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int int_max = INT_MAX;
static volatile int shift = 40;
static volatile size_t zero = 0;
static volatile size_t four = 4;
static char *volatile null_ptr = NULL;
static void *volatile kept;

static int error_none(void)
{
	return 0;
}

/* UBSan signed-integer-overflow */
static int error_signed_overflow(void)
{
	return int_max + 1;
}

/* UBSan nonnull-attribute: memcpy's source may not be NULL, even for 0 bytes (the fuzz-winscope finding) */
static int error_null_memcpy(void)
{
	char dst[4] = { 0 };

	memcpy(dst, null_ptr, zero);
	return dst[0];
}

/* UBSan shift-exponent: 1 << 40 for a 32-bit int */
static int error_shift(void)
{
	return 1 << shift;
}

/* UBSan alignment: an int read at an odd address */
static int error_misaligned(void)
{
	static _Alignas(int) char bytes[2 * sizeof(int)] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	char *volatile p = bytes + 1;

	return *(int *)(void *)p;
}

/* UBSan array-bounds: a[4] of int a[4], inside a struct (ASan sees no overflow there) */
static int error_index(void)
{
	static struct {
		int a[4];
		int after;
	} s = { { 1, 2, 3, 4 }, 5 };

	return s.a[four];
}

/* ASan heap-buffer-overflow */
static int error_heap_overflow(void)
{
	char *p = malloc(4);
	int v;

	if (!p) {
		return 0;
	}
	p[four] = 1;
	v = p[0];
	free(p);
	return v;
}

/* LeakSanitizer, at exit: 64 bytes no pointer reaches */
static int error_leak(void)
{
	kept = malloc(64);
	kept = NULL;
	return 0;
}

static const struct {
	const char *name;
	int (*make)(void);
} kinds[] = {
	{ "none", error_none },
	{ "signed-overflow", error_signed_overflow },
	{ "null-memcpy", error_null_memcpy },
	{ "shift", error_shift },
	{ "misaligned", error_misaligned },
	{ "index", error_index },
	{ "heap-overflow", error_heap_overflow },
	{ "leak", error_leak },
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s KIND\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(argv[1], kinds[i].name) == 0) {
			int v = kinds[i].make();

			printf("survived %s (%d)\n", kinds[i].name, v);
			return 0;
		}
	}
	fprintf(stderr, "unknown kind '%s'\n", argv[1]);
	return 2;
}
