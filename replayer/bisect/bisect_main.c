/*
 * hwc-bisect TRACE --good RESULTS.json [options] BUILD... [-- REPLAY-OPTION...]
 * (bisect.h, docs/hwc-bisect.1.scd): the first build, of builds given oldest
 * first, whose replay of TRACE differs from the known-good results.
 *
 * Exit status, like git bisect's run: 0 the first differing build found, 1
 * no build differs, 125 skipped builds leave the answer open, 2 usage error,
 * 3 hwc-replay could not be run or refused its options.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect.h"
#include "hwct_config.h"
#include "say.h"

#ifndef HWCT_BISECT_REPLAY
#define HWCT_BISECT_REPLAY "hwc-replay"
#endif

#define MAX_BUILDS 4096

enum { EXIT_FOUND = 0, EXIT_NONE = 1, EXIT_USAGE = 2, EXIT_REPLAY = 3, EXIT_OPEN = 125 };

struct bisect_cli {
	const char *trace, *good, *out, *replay;
	char *specs[MAX_BUILDS];	/* owned */
	size_t spec_count;
	const char *const *extra;
	size_t extra_count;
};

static const char usage_text[] =
	"usage: hwc-bisect TRACE --good RESULTS.json [--out DIR] [--builds FILE] [--replay PROGRAM]\n"
	"                  BUILD... [-- HWC-REPLAY-OPTION...]\n";

static void help(void)
{
	printf("%s\nReplays TRACE on builds given oldest first, with hwc-replay --expect RESULTS.json,\n"
		"and names the first build whose replay differs (binary search; a build that cannot\n"
		"be tested is skipped, as git bisect's 125).\n\n"
		"builds:\n"
		"  6.12.117-1~deb12u1, kernel:V   a Debian kernel version (or line) under --vm\n"
		"  image:IMAGE[:MODULES]          a kernel image (and modules folder) under --vm\n"
		"  hwc2:MODULE.so                 an HWC2 module (--hwc2)\n"
		"  libs:DIR                       LD_LIBRARY_PATH=DIR, e.g. a Mesa build; the target\n"
		"                                 from the options after --\n"
		"  userland:DIR                   a root folder (another Debian's Mesa) under --vm\n\n"
		"options:\n"
		"  --good RESULTS.json   known-good results (hwc-replay --results of a good build)\n"
		"  --out DIR             one results file and log per build tried (default hwc-bisect.out)\n"
		"  --builds FILE         builds one per line ('#' comments), before those of the command line\n"
		"  --replay PROGRAM      hwc-replay to run (default: the one next to hwc-bisect)\n"
		"  -- OPTIONS            passed to every replay (--frames, --compare, --compositor, ...)\n\n"
		"exit status: 0 found, 1 no build differs, 125 skipped builds leave it open,\n"
		"2 usage error, 3 hwc-replay could not run.\n", usage_text);
}

static int usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	hwct_vsay("hwc-bisect", NULL, fmt, args);
	va_end(args);
	fprintf(stderr, "%s(see 'hwc-bisect --help')\n", usage_text);
	return EXIT_USAGE;
}

/* Appends a copy of spec. Returns 0 or -ENOMEM. */
static int add_spec(struct bisect_cli *cli, const char *spec)
{
	cli->specs[cli->spec_count] = strdup(spec);
	if (!cli->specs[cli->spec_count]) {
		return -ENOMEM;
	}
	cli->spec_count++;
	return 0;
}

/* Lines of path, trimmed, without comments or blanks, appended to cli->specs; kept for the run. */
static int read_builds(struct bisect_cli *cli, const char *path)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "hwc-bisect: %s: %s\n", path, strerror(errno));
		return EXIT_USAGE;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *end;

		line[strcspn(line, "#\n")] = '\0';
		while (*s == ' ' || *s == '\t') {
			s++;
		}
		end = s + strlen(s);
		while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) {
			*--end = '\0';
		}
		if (!*s) {
			continue;
		}
		if (cli->spec_count == MAX_BUILDS) {
			fclose(f);
			return usage("more than 4096 builds in %s", path);
		}
		if (add_spec(cli, s) < 0) {
			fclose(f);
			return EXIT_REPLAY;
		}
	}
	fclose(f);
	return 0;
}

static int parse_cli(struct bisect_cli *cli, int argc, char **argv)
{
	const char *builds_file = NULL;
	const char *positional[MAX_BUILDS + 1];
	size_t npos = 0;
	int ret;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **target = NULL;

		if (strcmp(a, "--") == 0) {
			cli->extra = (const char *const *)argv + i + 1;
			cli->extra_count = (size_t)(argc - i - 1);
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			help();
			return -1;
		}
		if (strcmp(a, "--version") == 0) {
			printf("hwc-bisect %s\n", HWCT_VERSION);
			return -1;
		}
		if (strcmp(a, "--good") == 0) {
			target = &cli->good;
		} else if (strcmp(a, "--out") == 0) {
			target = &cli->out;
		} else if (strcmp(a, "--builds") == 0) {
			target = &builds_file;
		} else if (strcmp(a, "--replay") == 0) {
			target = &cli->replay;
		} else if (a[0] == '-' && a[1]) {
			return usage("unknown option %s", a);
		}
		if (target) {
			if (i + 1 >= argc || !argv[i + 1][0]) {
				return usage("%s needs a value", a);
			}
			*target = argv[++i];
			continue;
		}
		if (npos == MAX_BUILDS + 1) {
			return usage("more than 4096 builds");
		}
		positional[npos++] = a;
	}
	if (npos == 0) {
		return usage("no trace given");
	}
	cli->trace = positional[0];
	if (!cli->good) {
		return usage("--good RESULTS.json is needed (the results of a known-good build)");
	}
	if (builds_file && (ret = read_builds(cli, builds_file)) != 0) {
		return ret;
	}
	for (size_t i = 1; i < npos; i++) {
		if (cli->spec_count == MAX_BUILDS) {
			return usage("more than 4096 builds");
		}
		if (add_spec(cli, positional[i]) < 0) {
			return EXIT_REPLAY;
		}
	}
	if (cli->spec_count == 0) {
		return usage("no builds given");
	}
	if (access(cli->trace, R_OK) != 0) {
		fprintf(stderr, "hwc-bisect: %s: %s\n", cli->trace, strerror(errno));
		return EXIT_USAGE;
	}
	if (access(cli->good, R_OK) != 0) {
		fprintf(stderr, "hwc-bisect: %s: %s\n", cli->good, strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

/* hwc-replay next to this program, else the build-time one, else from PATH. */
static const char *find_replay(char *buf, size_t size)
{
	ssize_t len = readlink("/proc/self/exe", buf, size - 16);

	if (len > 0) {
		char *slash;

		buf[len] = '\0';
		slash = strrchr(buf, '/');
		if (slash) {
			strcpy(slash + 1, "hwc-replay");
			if (access(buf, X_OK) == 0) {
				return buf;
			}
		}
	}
	return access(HWCT_BISECT_REPLAY, X_OK) == 0 ? HWCT_BISECT_REPLAY : "hwc-replay";
}

static void print_build(const char *what, const struct bisect_build *b, size_t i, const char *out)
{
	printf("  %s: %s (results %s/%zu-%s.json)\n", what, b->label, out, i + 1, b->file_stem);
}

static int report(const struct bisect_cli *cli, const struct bisect_search *s, struct bisect_build *builds,
	const struct bisect_run *runs, unsigned replays)
{
	enum bisect_outcome o = bisect_search_outcome(s);
	size_t skipped = 0;

	for (size_t i = 0; i < s->n; i++) {
		skipped += s->state[i] == BISECT_SKIPPED;
	}
	if (o == BISECT_FOUND) {
		const struct bisect_run *r = &runs[s->hi];

		printf("first differing build: %s\n", builds[s->hi].label);
		if (r->has_first) {
			printf("  first difference: frame %llu: %s\n", (unsigned long long)r->first_frame, r->first);
		}
		printf("  differing frames: %llu of %llu compared\n", (unsigned long long)r->differing,
			(unsigned long long)r->compared);
		print_build("differs", &builds[s->hi], (size_t)s->hi, cli->out);
		if (s->lo >= 0) {
			print_build("the build before it matches", &builds[s->lo], (size_t)s->lo, cli->out);
		} else {
			printf("  it is the first build given: the one before it is the known-good results\n");
		}
	} else if (o == BISECT_NONE) {
		printf("no build differs from %s\n", cli->good);
	} else {
		printf("skipped builds leave it open; the first differing build is one of:\n");
		for (long i = s->lo + 1; i <= s->hi && i < (long)s->n; i++) {
			printf("  %s%s\n", builds[i].label, s->state[i] == BISECT_SKIPPED ? " (skipped)" : "");
		}
		if (s->hi == (long)s->n) {
			printf("  (or none of them)\n");
		}
	}
	printf("replays: %u of %zu builds", replays, s->n);
	if (skipped) {
		printf(", skipped %zu:", skipped);
		for (size_t i = 0; i < s->n; i++) {
			if (s->state[i] == BISECT_SKIPPED) {
				printf(" %s", builds[i].label);
			}
		}
	}
	printf("\n");
	return o == BISECT_FOUND ? EXIT_FOUND : o == BISECT_NONE ? EXIT_NONE : EXIT_OPEN;
}

static const char *state_word(enum bisect_state st)
{
	return st == BISECT_SAME ? "same" : st == BISECT_DIFFERS ? "differs" : "skipped";
}

static int bisect(struct bisect_cli *cli, struct bisect_build *builds, struct bisect_run *runs)
{
	struct bisect_search s;
	unsigned replays = 0;
	long i;
	int ret;

	if (bisect_search_init(&s, cli->spec_count) < 0) {
		return EXIT_REPLAY;
	}
	printf("hwc-bisect: %zu builds, known-good results %s, trace %s\n", s.n, cli->good, cli->trace);
	while ((i = bisect_search_next(&s)) >= 0) {
		struct bisect_build *b = &builds[i];
		struct bisect_run *r = &runs[i];
		char results[PATH_MAX], log[PATH_MAX];

		snprintf(results, sizeof(results), "%s/%ld-%s.json", cli->out, i + 1, b->file_stem);
		snprintf(log, sizeof(log), "%s/%ld-%s.log", cli->out, i + 1, b->file_stem);
		printf("[%ld/%zu] %s: ", i + 1, s.n, b->label);
		fflush(stdout);
		ret = bisect_run_build(cli->replay, cli->trace, cli->good, b, cli->extra, cli->extra_count,
			results, log, r);
		if (ret < 0) {
			printf("\nhwc-bisect: cannot run %s: %s\n", cli->replay, strerror(-ret));
			bisect_search_finish(&s);
			return EXIT_REPLAY;
		}
		if (r->status == 2 || r->status == 127) {
			printf("\nhwc-bisect: %s refused the replay (exit %d): %s (log %s)\n", cli->replay, r->status,
				r->why, log);
			bisect_search_finish(&s);
			return r->status == 2 ? EXIT_USAGE : EXIT_REPLAY;
		}
		replays += r->state != BISECT_SKIPPED;
		printf("%s (%.0f s)", state_word(r->state), r->seconds);
		if (r->state == BISECT_DIFFERS && r->has_first) {
			printf(": frame %llu: %s", (unsigned long long)r->first_frame, r->first);
		} else if (r->state == BISECT_SKIPPED) {
			printf(": cannot be tested (exit %d): %s", r->status, r->why[0] ? r->why : "no message");
		}
		printf("\n");
		bisect_search_mark(&s, (size_t)i, r->state);
	}
	ret = report(cli, &s, builds, runs, replays);
	bisect_search_finish(&s);
	return ret;
}

static void free_specs(struct bisect_cli *cli)
{
	for (size_t i = 0; i < cli->spec_count; i++) {
		free(cli->specs[i]);
	}
	cli->spec_count = 0;
}

int main(int argc, char **argv)
{
	static struct bisect_cli cli = { .out = "hwc-bisect.out" };
	struct bisect_build *builds;
	struct bisect_run *runs;
	char replay_buf[PATH_MAX], msg[512];
	int ret = parse_cli(&cli, argc, argv);

	if (ret) {
		free_specs(&cli);
		return ret < 0 ? 0 : ret;
	}
	if (!cli.replay) {
		cli.replay = find_replay(replay_buf, sizeof(replay_buf));
	}
	if (mkdir(cli.out, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "hwc-bisect: %s: %s\n", cli.out, strerror(errno));
		free_specs(&cli);
		return EXIT_USAGE;
	}
	builds = calloc(cli.spec_count, sizeof(*builds));
	runs = calloc(cli.spec_count, sizeof(*runs));
	if (!builds || !runs) {
		free(builds);
		free(runs);
		free_specs(&cli);
		return EXIT_REPLAY;
	}
	ret = 0;
	for (size_t i = 0; i < cli.spec_count && ret == 0; i++) {
		if (bisect_build_parse(cli.specs[i], &builds[i], msg, sizeof(msg)) < 0) {
			fprintf(stderr, "hwc-bisect: %s\n%s", msg, usage_text);
			ret = EXIT_USAGE;
		}
	}
	if (ret == 0) {
		ret = bisect(&cli, builds, runs);
	}
	for (size_t i = 0; i < cli.spec_count; i++) {
		bisect_build_finish(&builds[i]);
	}
	free(builds);
	free(runs);
	free_specs(&cli);
	return ret;
}
