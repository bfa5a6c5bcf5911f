/* Messages for a person on standard error (say.h). */
#include "say.h"

#include <stdio.h>

void hwct_vsay(const char *program, const char *kind, const char *fmt, va_list args)
{
	fflush(stdout);
	if (kind) {
		fprintf(stderr, "%s: %s: ", program, kind);
	} else {
		fprintf(stderr, "%s: ", program);
	}
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
}
