/*
 * Human-readable records (dump.h): calls as `#seq t=… tid=… method(…) args
 * -> ERROR (duration)`, FrameEnds as frame boundaries, Keyframes and Blobs
 * summarized, everything else through the generic printer.
 */
#include <inttypes.h>
#include <string.h>

#include <hwct/hash.h>
#include <hwct/hwc2_names.h>

#include "cli.h"
#include "dump.h"
#include "names.h"
#include "pb.h"

static struct pbtext_options text_options(const struct dump_options *opts, int32_t function)
{
	return (struct pbtext_options){
		.verbose = opts->verbose,
		.no_blob_data = opts->no_blob_data,
		.function = function,
	};
}

static void print_call(FILE *f, const Hwct__Call *c, const struct dump_options *opts)
{
	static const char *const handled[] = { "seq", "thread", "t_enter_ns", "t_exit_ns", "function",
		"display", "layer", "error", NULL };
	struct pbtext_options to = text_options(opts, c->has_function ? c->function : -1);
	const char *method = c->has_function ? hwct_hwc2_function_method(c->function) : NULL;
	const ProtobufCFieldDescriptor *fd;
	char t[32];

	fprintf(f, "#%" PRIu64 " t=%s", c->seq, cli_format_seconds(t, sizeof(t), c->t_enter_ns));
	if (c->has_thread) {
		fprintf(f, " tid=%u", c->thread);
	}
	if (method) {
		fprintf(f, " %s(", method);
	} else {
		fprintf(f, " function_%d(", c->function);
	}
	if (c->has_display) {
		fprintf(f, "display=%" PRIu64, c->display);
	}
	if (c->has_layer) {
		fprintf(f, "%slayer=%" PRIu64, c->has_display ? ", " : "", c->layer);
	}
	fputc(')', f);
	/* the args message flattened, then any other field the schema grew */
	fd = protobuf_c_message_descriptor_get_field(c->base.descriptor, c->args_case);
	if (fd && pb_field_count(&c->base, fd)) {
		pbtext_fields(f, pb_field_value(&c->base, fd, 0).msg, &to, NULL);
	}
	for (unsigned i = 0; i < c->base.descriptor->n_fields; i++) {
		const ProtobufCFieldDescriptor *other = &c->base.descriptor->fields[i];
		bool skip = (other->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) != 0;

		for (size_t k = 0; handled[k] && !skip; k++) {
			skip = strcmp(handled[k], other->name) == 0;
		}
		if (!skip) {
			pbtext_field(f, &c->base, other, &to);
		}
	}
	if (c->has_error) {
		const char *name = hwct_hwc2_error_name(c->error);

		if (name) {
			fprintf(f, " -> %s", name);
		} else {
			fprintf(f, " -> %d", c->error);
		}
	}
	if (c->has_t_exit_ns && c->t_exit_ns >= c->t_enter_ns) {
		fprintf(f, " (%.1fus)", (double)(c->t_exit_ns - c->t_enter_ns) / 1000.0);
	}
	fputc('\n', f);
}

static void print_frame_end(FILE *f, const Hwct__FrameEnd *fe, const struct dump_options *opts)
{
	static const char *const handled[] = { "frame", "display", "display_frame", "t_ns", "flags", NULL };
	struct pbtext_options to = text_options(opts, -1);
	char t[32], flags[128];

	fprintf(f, "=== frame %" PRIu64 " display %" PRIu64 " #%" PRIu64 " t=%s", fe->frame, fe->display,
		fe->display_frame, cli_format_seconds(t, sizeof(t), fe->t_ns));
	pbtext_fields(f, &fe->base, &to, handled);
	if (fe->has_flags && fe->flags) {
		fprintf(f, " flags=%s", names_frame_flags(flags, sizeof(flags), fe->flags));
	}
	fputc('\n', f);
}

static void print_keyframe(FILE *f, const Hwct__Keyframe *k, const struct dump_options *opts)
{
	static const char *const handled[] = { "frame", "t_ns", "displays", "states", "buffers",
		"mid_frame", NULL };
	struct pbtext_options to = text_options(opts, -1);
	size_t layers = 0;
	char t[32];

	for (size_t i = 0; i < k->n_states; i++) {
		layers += k->states[i]->n_layers;
	}
	fprintf(f, "keyframe frame=%" PRIu64, k->frame);
	if (k->has_t_ns) {
		fprintf(f, " t=%s", cli_format_seconds(t, sizeof(t), k->t_ns));
	}
	fprintf(f, " displays=%zu layers=%zu buffers=%zu", k->n_displays, layers, k->n_buffers);
	if (k->mid_frame) {
		fputs(" mid_frame", f);
	}
	pbtext_fields(f, &k->base, &to, handled);
	fputc('\n', f);
	if (!opts->verbose) {
		return;
	}
	for (size_t i = 0; i < k->n_displays; i++) {
		fputs("  display", f);
		pbtext_fields(f, &k->displays[i]->base, &to, NULL);
		fputc('\n', f);
	}
	for (size_t i = 0; i < k->n_states; i++) {
		static const char *const state_skip[] = { "layers", NULL };

		fputs("  state", f);
		pbtext_fields(f, &k->states[i]->base, &to, state_skip);
		fputc('\n', f);
		for (size_t j = 0; j < k->states[i]->n_layers; j++) {
			fputs("    layer", f);
			pbtext_fields(f, &k->states[i]->layers[j]->base, &to, NULL);
			fputc('\n', f);
		}
	}
	for (size_t i = 0; i < k->n_buffers; i++) {
		fputs("  buffer", f);
		pbtext_fields(f, &k->buffers[i]->base, &to, NULL);
		fputc('\n', f);
	}
}

static void print_blob(FILE *f, const Hwct__Blob *b, const struct dump_options *opts)
{
	static const char *const handled[] = { "hash", "size", "width", "height", "data", NULL };
	struct pbtext_options to = text_options(opts, -1);
	char hex[2 * HWCT_HASH_BYTES + 1] = "?";

	if (b->has_hash && b->hash.len == HWCT_HASH_BYTES) {
		pb_hex(hex, b->hash.data, b->hash.len);
	}
	fprintf(f, "blob %s size=%" PRIu64, hex, b->size);
	if (b->has_width || b->has_height) {
		fprintf(f, " %ux%u", b->width, b->height);
	}
	pbtext_fields(f, &b->base, &to, handled);
	if (b->has_data && !opts->no_blob_data) {
		fprintf(f, " stored=%zu", b->data.len);
	}
	fputc('\n', f);
}

void dump_text_record(FILE *f, const Hwct__Record *rec, const struct dump_options *opts)
{
	struct pbtext_options to = text_options(opts, -1);
	const ProtobufCFieldDescriptor *kind;
	const ProtobufCMessage *msg;

	switch (rec->kind_case) {
	case HWCT__RECORD__KIND_CALL:
		print_call(f, rec->call, opts);
		return;
	case HWCT__RECORD__KIND_FRAME_END:
		print_frame_end(f, rec->frame_end, opts);
		return;
	case HWCT__RECORD__KIND_KEYFRAME:
		print_keyframe(f, rec->keyframe, opts);
		return;
	case HWCT__RECORD__KIND_BLOB:
		print_blob(f, rec->blob, opts);
		return;
	default:
		break;
	}
	if (!pb_record_kind(rec, &kind, &msg)) {
		return;
	}
	fputs(kind->name, f);
	pbtext_fields(f, msg, &to, NULL);
	fputc('\n', f);
}
