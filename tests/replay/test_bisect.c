/*
 * hwc-bisect's search and build spellings (replayer/bisect/bisect.h), with
 * no replay: each case is a row of truths, one per build, oldest first —
 * 'S' the build's replay matches the known-good results, 'D' it differs,
 * 'K' it cannot be tested (skipped) — and what the search must conclude, in
 * how many replays at most.
 */
#include <errno.h>
#include <string.h>

#include "bisect.h"
#include "check.h"

static void search_cases(void)
{
	static const struct {
		const char *truth;
		enum bisect_outcome outcome;
		long first;		/* FOUND: the first differing build */
		unsigned max_replays;	/* replays (skips not counted) at most */
		const char *tried;	/* NULL: anything; else 'x' where a build must be tried, '.' not */
	} cases[] = {
		{ "D", BISECT_FOUND, 0, 1, "x" },
		{ "S", BISECT_NONE, -1, 1, "x" },
		{ "SD", BISECT_FOUND, 1, 2, NULL },
		{ "SSSS", BISECT_NONE, -1, 2, "..xx" },
		{ "DDDD", BISECT_FOUND, 0, 3, NULL },
		{ "SSSDDDDD", BISECT_FOUND, 3, 3, NULL },
		{ "SDDD", BISECT_FOUND, 1, 3, NULL },
		/* the kernel list of the vm-bisect test: 6.1, 6.12 (first), a bogus 6.12, 6.12 */
		{ "SDKD", BISECT_FOUND, 1, 3, "xxx." },
		/* a skipped build next to the change leaves it open */
		{ "SKDD", BISECT_AMBIGUOUS, -1, 3, NULL },
		{ "KKKK", BISECT_AMBIGUOUS, -1, 0, "xxxx" },
		{ "SSSK", BISECT_AMBIGUOUS, -1, 3, NULL },
		{ "SKSSDD", BISECT_FOUND, 4, 3, NULL },
		{ "SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSDD", BISECT_FOUND, 31, 6, NULL },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t n = strlen(cases[c].truth);
		struct bisect_search s;
		unsigned replays = 0, steps = 0;
		char tried[64] = "";
		long i;

		CHECK_INT(bisect_search_init(&s, n), 0);
		memset(tried, '.', n);
		while ((i = bisect_search_next(&s)) >= 0) {
			char t = cases[c].truth[i];

			CHECK(s.state[i] == BISECT_UNTESTED, "%s: build %ld tried twice", cases[c].truth, i);
			CHECK(steps++ < n, "%s: the search does not end", cases[c].truth);
			tried[i] = 'x';
			replays += t != 'K';
			bisect_search_mark(&s, (size_t)i, t == 'S' ? BISECT_SAME : t == 'D' ? BISECT_DIFFERS : BISECT_SKIPPED);
		}
		CHECK_INT(bisect_search_outcome(&s), cases[c].outcome);
		if (cases[c].outcome == BISECT_FOUND) {
			CHECK_INT(s.hi, cases[c].first);
		}
		CHECK(replays <= cases[c].max_replays, "%s: %u replays, at most %u", cases[c].truth, replays,
			cases[c].max_replays);
		if (cases[c].tried) {
			CHECK_STR(tried, cases[c].tried);
		}
		bisect_search_finish(&s);
	}
}

static void build_cases(void)
{
	static const struct {
		const char *spec;
		int ret;
		enum bisect_build_kind kind;
		const char *args;	/* hwc-replay arguments, space-separated */
		const char *stem;
	} cases[] = {
		{ "6.12.117-1~deb12u1", 0, BISECT_BUILD_KERNEL, "--vm --kernel 6.12.117-1~deb12u1",
			"kernel_6.12.117-1~deb12u1" },
		{ "kernel:6.1", 0, BISECT_BUILD_KERNEL, "--vm --kernel 6.1", "kernel_6.1" },
		{ "image:/k/bzImage", 0, BISECT_BUILD_IMAGE, "--vm --kernel-image /k/bzImage", "image__k_bzImage" },
		{ "image:/k/vmlinux:/k/mods", 0, BISECT_BUILD_IMAGE,
			"--vm --kernel-image /k/vmlinux --kernel-modules /k/mods", "image__k_vmlinux__k_mods" },
		{ "hwc2:/m/hwcomposer.so", 0, BISECT_BUILD_HWC2, "--hwc2 /m/hwcomposer.so", "hwc2__m_hwcomposer.so" },
		{ "libs:/mesa/lib", 0, BISECT_BUILD_LIBS, "", "libs__mesa_lib" },
		{ "userland:/ul/trixie", 0, BISECT_BUILD_USERLAND, "--vm --userland /ul/trixie", "userland__ul_trixie" },
		{ "bzImage", -EINVAL, 0, NULL, NULL },
		{ "kernel:", -EINVAL, 0, NULL, NULL },
		{ "kernel:6.1;rm", -EINVAL, 0, NULL, NULL },
		{ "", -EINVAL, 0, NULL, NULL },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct bisect_build b;
		const char *argv[8];
		char joined[256] = "", msg[256] = "";
		size_t n = 0;

		CHECK_INT(bisect_build_parse(cases[c].spec, &b, msg, sizeof(msg)), cases[c].ret);
		if (cases[c].ret) {
			CHECK(strstr(msg, cases[c].spec) != NULL, "'%s': the message '%s' does not name it",
				cases[c].spec, msg);
			continue;
		}
		CHECK_INT(b.kind, cases[c].kind);
		bisect_build_args(&b, argv, &n);
		for (size_t i = 0; i < n; i++) {
			strcat(joined, i ? " " : "");
			strcat(joined, argv[i]);
		}
		CHECK_STR(joined, cases[c].args);
		CHECK_STR(b.file_stem, cases[c].stem);
		bisect_build_finish(&b);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		return 2;
	}
	if (strcmp(argv[1], "search") == 0) {
		search_cases();
	} else if (strcmp(argv[1], "builds") == 0) {
		build_cases();
	} else {
		return 2;
	}
	return 0;
}
