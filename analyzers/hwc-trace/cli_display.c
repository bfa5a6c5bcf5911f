/*
 * --display ID of the commands that open a trace (cli.h): the trace must
 * name that display, else the error lists the displays it does name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <hwct/reader.h>

#include "cli.h"

struct id_set {
	uint64_t *ids;			/* owned, ascending */
	size_t count;
};

/* Adds id to s in order. Returns 0 or -ENOMEM. */
static int add_id(struct id_set *s, uint64_t id)
{
	size_t at = 0;
	uint64_t *p;

	while (at < s->count && s->ids[at] < id) {
		at++;
	}
	if (at < s->count && s->ids[at] == id) {
		return 0;
	}
	p = realloc(s->ids, (s->count + 1) * sizeof(*p));
	if (!p) {
		return -ENOMEM;
	}
	s->ids = p;
	for (size_t i = s->count; i > at; i--) {
		p[i] = p[i - 1];
	}
	p[at] = id;
	s->count++;
	return 0;
}

/* The display a record names, if it names one. */
static bool record_display(const Hwct__Record *rec, uint64_t *id)
{
	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_DISPLAY:
		*id = rec->display->id;
		return true;
	case HWCT__RECORD__KIND_CALL:
		*id = rec->call->display;
		return rec->call->has_display;
	case HWCT__RECORD__KIND_CALLBACK:
		*id = rec->callback->display;
		return rec->callback->has_display;
	case HWCT__RECORD__KIND_FRAME_END:
		*id = rec->frame_end->display;
		return true;
	case HWCT__RECORD__KIND_FENCE:
		*id = rec->fence->display;
		return rec->fence->has_display;
	default:
		return false;
	}
}

/* "0, 1" ("none") into buf. */
static void list_ids(const struct id_set *s, char *buf, size_t size)
{
	size_t used = 0;

	snprintf(buf, size, "none");
	for (size_t i = 0; i < s->count && used < size; i++) {
		int n = snprintf(buf + used, size - used, "%s%" PRIu64, i ? ", " : "", s->ids[i]);

		if (n < 0) {
			break;
		}
		used += (size_t)n;
	}
}

int cli_display_find(struct hwct_reader *r, uint64_t display, char *list, size_t size)
{
	struct id_set seen = { 0 };
	const Hwct__Record *rec;
	bool found = false;
	uint64_t id;
	int ret;

	while (!found && (ret = hwct_reader_next(r, &rec)) > 0) {
		if (record_display(rec, &id)) {
			found = id == display;
			if ((ret = add_id(&seen, id)) < 0) {
				break;
			}
		}
	}
	if (found) {
		ret = hwct_reader_rewind(r);
	}
	list_ids(&seen, list, size);
	free(seen.ids);
	if (ret == 0 || (ret < 0 && ret != -ENOMEM && !found && hwct_reader_error_at_cut_end(r))) {
		return found;	/* a trace cut where its writer died was read whole */
	}
	return ret;
}

int cli_display_check(struct hwct_reader *r, uint64_t display)
{
	char ids[256];
	int ret = cli_display_find(r, display, ids, sizeof(ids));

	if (ret > 0) {
		return CLI_CONTINUE;
	}
	if (ret == -ENOMEM) {
		cli_error("out of memory");
		return CLI_EXIT_FAILURE;
	}
	if (ret == 0) {
		cli_error("%s: no display %" PRIu64 " in the trace (its displays: %s)", hwct_reader_name(r), display, ids);
	} else if (hwct_reader_error(r)) {
		cli_error("%s: no display %" PRIu64 " in the trace before the error below (its displays: %s)",
			hwct_reader_name(r), display, ids);
	}
	if (hwct_reader_error(r)) {
		cli_read_stopped(r, hwct_reader_error(r));	/* a cut end: a warning */
	}
	return ret < 0 ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
}
