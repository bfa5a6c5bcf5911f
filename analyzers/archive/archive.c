/* What archive.h says whether or not libzip is built in. */
#include "archive.h"

void arch_limits_init(struct arch_limits *l)
{
	l->max_entry_bytes = 1ull << 30;
	l->max_total_bytes = 4ull << 30;
	l->max_entries = 100000;
	l->max_depth = 4;
}

bool arch_is_zip(const uint8_t *data, size_t size)
{
	return size >= 4 && data[0] == 'P' && data[1] == 'K' && ((data[2] == 3 && data[3] == 4) ||
		(data[2] == 5 && data[3] == 6));
}
