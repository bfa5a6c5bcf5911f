/*
 * libFuzzer target for the zip reader (analyzers/archive/) and the trace
 * classifier behind `hwc-trace import` (analyzers/import/import_kind.h):
 * any input is walked as an archive (nested ones too) within small limits,
 * and every entry read is classified. It must end in a clean result or an
 * error, never a crash, a leak or undefined behaviour.
 */
#include <stddef.h>
#include <stdint.h>

#include "archive.h"
#include "import_kind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int want(const struct arch_entry *e, void *user)
{
	(void)e;
	(void)user;
	return 1;
}

static int take(const struct arch_entry *e, uint8_t **data, size_t size, void *user)
{
	struct imp_class c;

	(void)e;
	(void)user;
	imp_classify(*data, size, &c);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arch_visitor v = { .want = want, .take = take };
	struct arch_limits lim = {
		.max_entry_bytes = 1u << 20,
		.max_total_bytes = 4u << 20,
		.max_entries = 1000,
		.max_depth = 3,
	};
	struct hwct_error err;
	struct imp_class c;

	imp_classify(data, size, &c);
	arch_walk(data, size, "fuzz-input", &lim, &v, &err);
	return 0;
}
