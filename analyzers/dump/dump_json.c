/* Records as JSON Lines (dump.h). */
#include <errno.h>

#include <json-c/json.h>

#include "dump.h"
#include "pb.h"

int dump_json_record(FILE *f, const Hwct__Record *rec, const struct dump_options *opts)
{
	struct pbjson_options jo = { .no_blob_data = opts->no_blob_data };
	const ProtobufCFieldDescriptor *kind;
	const ProtobufCMessage *msg;
	struct json_object *obj, *name;
	int ret = -ENOMEM;

	if (!pb_record_kind(rec, &kind, &msg)) {
		return 0;
	}
	obj = json_object_new_object();
	name = json_object_new_string(kind->name);
	if (!obj || !name || json_object_object_add(obj, "kind", name) < 0) {
		json_object_put(name);
		goto out;
	}
	/* the Record itself: {"kind": "call", "call": {...}} (Blob and Fence have a "kind" of their own) */
	(void)msg;
	ret = pbjson_add_fields(obj, &rec->base, &jo);
	if (ret == 0) {
		fputs(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), f);
		fputc('\n', f);
	}
out:
	json_object_put(obj);
	return ret;
}
