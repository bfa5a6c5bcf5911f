/* JSON size, nesting and value-count limits, checked before parsing (include/hwct/limits.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include <hwct/limits.h>

int hwct_json_check_bounds(const char *data, uint64_t size, uint64_t *offset, char *msg, unsigned len)
{
	const struct hwct_limits *lim = hwct_limits();
	uint64_t depth = 0, values = 1;
	bool in_string = false, opened = false;

	*offset = 0;
	if (size > lim->json_bytes) {
		snprintf(msg, len, "JSON: %llu bytes exceed the limit of %llu (HWCT_LIMIT_JSON_BYTES)",
			(unsigned long long)size, (unsigned long long)lim->json_bytes);
		return -EFBIG;
	}
	for (uint64_t i = 0; i < size; i++) {
		char c = data[i];

		if (in_string) {
			if (c == '\\') {
				i++;
			} else if (c == '"') {
				in_string = false;
			}
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			continue;
		}
		/* a container's first member or element has no comma before it */
		if (opened && c != '}' && c != ']') {
			values++;
		}
		opened = false;
		if (c == '"') {
			in_string = true;
		} else if (c == '{' || c == '[') {
			opened = true;
			if (++depth > lim->json_depth) {
				*offset = i;
				snprintf(msg, len, "JSON: nesting deeper than the limit of %llu levels "
					"(HWCT_LIMIT_JSON_DEPTH)", (unsigned long long)lim->json_depth);
				return -EFBIG;
			}
		} else if (c == '}' || c == ']') {
			depth -= depth > 0;
		} else if (c == ',') {
			values++;
		}
		if (values > lim->json_values) {
			*offset = i;
			snprintf(msg, len, "JSON: more values than the limit of %llu (HWCT_LIMIT_JSON_VALUES)",
				(unsigned long long)lim->json_values);
			return -EFBIG;
		}
	}
	return 0;
}
