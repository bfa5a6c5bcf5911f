/*
 * libFuzzer target for the transaction-trace rebuild (analyzers/
 * transactions/): any input is read as a transaction trace (legacy
 * TNXTRACE or Perfetto), its layer state rebuilt after every entry and
 * written as layer trace entries, which the layer importer's reader then
 * unpacks and checks. It must end in a clean result or an error, never a
 * crash, a leak or undefined behaviour. Limits are lower than the
 * command's so an input costs milliseconds.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tnx_import.h"
#include "winscope_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tnx_options to = { .max_layers = 2000 };
	struct winscope_options wopts;
	struct hwct_error err;
	struct ws_trace t;
	uint8_t *out;
	size_t out_size;

	if (tnx_import(data, size, "fuzz-input", &to, &out, &out_size, NULL, &err) < 0) {
		return 0;
	}
	winscope_options_init(&wopts);
	wopts.max_layers = 4096;
	if (ws_trace_read(&t, out, out_size, "rebuilt", &wopts, &err) == 0) {
		ws_trace_finish(&t);
	}
	free(out);
	return 0;
}
