/* Whole files in and out of a test (files.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

static void die(const char *path, int err)
{
	fprintf(stderr, "%s: %s\n", path, strerror(err));
	exit(1);
}

uint8_t *test_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		die(path, errno);
	}
	do {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 1 << 16;
			data = realloc(data, cap + 1);
			if (!data) {
				die(path, ENOMEM);
			}
		}
		n = fread(data + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		die(path, EIO);
	}
	fclose(f);
	data[len] = 0;
	*size = len;
	return data;
}

void test_write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f) {
		die(path, errno);
	}
	if (fwrite(data, 1, size, f) != size) {
		die(path, EIO);
	}
	if (fclose(f) != 0) {
		die(path, errno);
	}
}
