/* Protobuf-c messages as json-c objects by reflection (pb.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <hwct/hwc2_names.h>

#include "json_int.h"
#include "pb.h"

#define JSON_HEX_MAX 64			/* bytes written as hex; longer: {"bytes": N} */

/* Shortest text that reads back as the same float/double; NaN and infinities as strings. */
static struct json_object *json_real(double d, bool is_float)
{
	char buf[40];

	if (!isfinite(d)) {
		return json_object_new_string(isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
	}
	snprintf(buf, sizeof(buf), is_float ? "%.9g" : "%.17g", d);
	if (is_float) {
		char shorter[40];

		for (int prec = 1; prec < 9; prec++) {
			snprintf(shorter, sizeof(shorter), "%.*g", prec, d);
			if ((float)strtod(shorter, NULL) == (float)d) {
				memcpy(buf, shorter, sizeof(buf));
				break;
			}
		}
	}
	return json_object_new_double_s(d, buf);
}

static struct json_object *json_bytes(const ProtobufCBinaryData *b)
{
	struct json_object *obj;
	char *hex;

	if (b->len > JSON_HEX_MAX) {
		obj = json_object_new_object();
		if (obj && json_object_object_add(obj, "bytes", hwct_json_u64(b->len)) < 0) {
			json_object_put(obj);
			obj = NULL;
		}
		return obj;
	}
	hex = malloc(2 * b->len + 1);
	if (!hex) {
		return NULL;
	}
	pb_hex(hex, b->data, b->len);
	obj = json_object_new_string(hex);
	free(hex);
	return obj;
}

static struct json_object *json_value(const struct pb_value *v, const struct pbjson_options *opts)
{
	switch (v->kind) {
	case PB_INT:
		return hwct_json_i64(v->i);
	case PB_UINT:
		return hwct_json_u64(v->u);
	case PB_FLOAT:
	case PB_DOUBLE:
		return json_real(v->d, v->kind == PB_FLOAT);
	case PB_BOOL:
		return json_object_new_boolean(v->b);
	case PB_ENUM:
		return v->enum_value ? json_object_new_string(v->enum_value->name) : hwct_json_i64(v->i);
	case PB_STRING:
		return json_object_new_string(v->s);
	case PB_BYTES:
		return json_bytes(&v->bytes);
	case PB_MESSAGE:
		return pbjson_message(v->msg, opts);
	}
	return NULL;
}

static struct json_object *json_field(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd, size_t n,
	const struct pbjson_options *opts)
{
	struct json_object *array;

	if (!pb_field_is_repeated(fd)) {
		struct pb_value v = pb_field_value(m, fd, 0);

		return json_value(&v, opts);
	}
	array = json_object_new_array_ext((int)n);
	for (size_t i = 0; array && i < n; i++) {
		struct pb_value v = pb_field_value(m, fd, i);
		struct json_object *item = json_value(&v, opts);

		if (!item || json_object_array_add(array, item) < 0) {
			json_object_put(item);
			json_object_put(array);
			array = NULL;
		}
	}
	return array;
}

static int add(struct json_object *obj, const char *key, struct json_object *value)
{
	if (!value || json_object_object_add(obj, key, value) < 0) {
		json_object_put(value);
		return -ENOMEM;
	}
	return 0;
}

/* Names the JSON adds beside a field's number. */
static int add_names(struct json_object *obj, const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd)
{
	const char *name;

	if (m->descriptor != &hwct__call__descriptor || strcmp(fd->name, "function") != 0) {
		return 0;
	}
	name = hwct_hwc2_function_name(((const Hwct__Call *)m)->function);
	if (!name) {
		return json_object_object_add(obj, "function_name", NULL) < 0 ? -ENOMEM : 0;	/* null */
	}
	return add(obj, "function_name", json_object_new_string(name));
}

int pbjson_add_fields(struct json_object *obj, const ProtobufCMessage *m, const struct pbjson_options *opts)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	int ret = 0;

	for (unsigned i = 0; i < d->n_fields && ret == 0; i++) {
		const ProtobufCFieldDescriptor *fd = &d->fields[i];
		size_t n = pb_field_count(m, fd);

		if (n == 0 || (opts->no_blob_data && d == &hwct__blob__descriptor && strcmp(fd->name, "data") == 0)) {
			continue;
		}
		ret = add(obj, fd->name, json_field(m, fd, n, opts));
		if (ret == 0) {
			ret = add_names(obj, m, fd);
		}
	}
	return ret;
}

struct json_object *pbjson_message(const ProtobufCMessage *m, const struct pbjson_options *opts)
{
	struct json_object *obj = json_object_new_object();

	if (obj && pbjson_add_fields(obj, m, opts) < 0) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}
