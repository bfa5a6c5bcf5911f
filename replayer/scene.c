/* Reason names (scene.h). */
#include <stdio.h>
#include <string.h>

#include "scene.h"

#define PLAN_REASON_NAME(name, bit, str) [bit] = str,
static const char *const reason_names[] = { PLAN_REASONS(PLAN_REASON_NAME) };
#undef PLAN_REASON_NAME

const char *plan_reason_name(uint32_t bit)
{
	for (size_t i = 0; i < sizeof(reason_names) / sizeof(reason_names[0]); i++) {
		if (bit == 1u << i) {
			return reason_names[i];
		}
	}
	return NULL;
}

char *plan_reasons_format(uint32_t reasons, char *buf, size_t size)
{
	size_t len = 0;

	if (size) {
		buf[0] = '\0';
	}
	for (size_t i = 0; i < sizeof(reason_names) / sizeof(reason_names[0]) && len < size; i++) {
		if (reasons & (1u << i)) {
			int n = snprintf(buf + len, size - len, "%s%s", len ? "," : "", reason_names[i]);

			len += n > 0 ? (size_t)n : 0;
		}
	}
	return buf;
}
