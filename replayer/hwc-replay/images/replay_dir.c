/* The names of the image directory (replay_dir.h). */
#include <string.h>

#include "replay_dir.h"

bool replay_dir_valid_name(const char *name)
{
	static const char prefix[] = "frame-";
	size_t len = strlen(name), digits;

	if (len < sizeof(prefix) - 1 + 1 + 4 || len > 64 || strncmp(name, prefix, sizeof(prefix) - 1) != 0 ||
		strcmp(name + len - 4, ".png") != 0) {
		return false;
	}
	digits = strspn(name + sizeof(prefix) - 1, "0123456789");
	if (digits == 0) {
		return false;
	}
	for (const char *q = name + sizeof(prefix) - 1 + digits; q < name + len - 4; q++) {
		if (!((*q >= 'a' && *q <= 'z') || *q == '-')) {
			return false;	/* only "-expected" style suffixes */
		}
	}
	return true;
}
