/* Buffered stdout, quiet EPIPE, error messages (cli.h). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "say.h"

#define OUT_BUFFER (1u << 16)

static char out_buffer[OUT_BUFFER];
static bool out_epipe;

void cli_out_init(void)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	setvbuf(stdout, out_buffer, _IOFBF, sizeof(out_buffer));
}

bool cli_out_broken(void)
{
	if (!ferror(stdout)) {
		return false;
	}
	if (errno == EPIPE) {
		out_epipe = true;
	}
	return true;
}

bool cli_out_finish(void)
{
	int ret = fflush(stdout);

	if (out_epipe || (ret != 0 && errno == EPIPE)) {
		return true;	/* the reader went away: not an error */
	}
	if (ret != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: error: writing standard output: %s\n", CLI_PROGRAM, strerror(errno));
		return false;
	}
	return true;
}

void cli_warning(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	hwct_vsay(CLI_PROGRAM, "warning", fmt, args);
	va_end(args);
}

void cli_error(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	hwct_vsay(CLI_PROGRAM, "error", fmt, args);
	va_end(args);
}

const char *cli_format_seconds(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%06llu", (unsigned long long)(ns / 1000000000u),
		(unsigned long long)(ns % 1000000000u / 1000u));
	return buf;
}
