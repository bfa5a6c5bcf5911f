/* A plan as one human line and as JSON (planner.h). */
#include <stdio.h>

#include <json-c/json.h>

#include "planner.h"

char *plan_format(const struct plan *plan, char *buf, size_t size)
{
	size_t len = 0;

	if (size == 0) {
		return buf;
	}
	buf[0] = '\0';
	for (size_t i = 0; i <= plan->layer_count && len < size; i++) {
		const char *sep = len ? ", " : "";
		char reasons[256];
		int n;

		if (i == plan->layer_count) {
			if (!plan->needs_client_target) {
				break;
			}
			if (plan->client_target_plane) {
				n = snprintf(buf + len, size - len, "%starget:plane %u", sep,
					(unsigned)plan->client_target_plane);
			} else {
				n = snprintf(buf + len, size - len, "%starget:none", sep);
			}
		} else if (plan->layers[i].plane_id) {
			n = snprintf(buf + len, size - len, "%s%zu:plane %u", sep, i,
				(unsigned)plan->layers[i].plane_id);
		} else if (plan->layers[i].reasons) {
			n = snprintf(buf + len, size - len, "%s%zu:client(%s)", sep, i,
				plan_reasons_format(plan->layers[i].reasons, reasons, sizeof(reasons)));
		} else {
			n = snprintf(buf + len, size - len, "%s%zu:client", sep, i);
		}
		if (n < 0) {
			break;
		}
		len += (size_t)n;
	}
	return buf;
}

/*
 * Adds value (owned) under key. Fails, dropping value, when it is NULL
 * (out of memory) and not nullable, or when adding fails.
 */
static bool add(struct json_object *obj, const char *key, struct json_object *value, bool nullable)
{
	if (!value && !nullable) {
		return false;
	}
	if (json_object_object_add(obj, key, value) != 0) {
		json_object_put(value);
		return false;
	}
	return true;
}

static struct json_object *reasons_json(uint32_t reasons)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned bit = 0; arr && bit < 32; bit++) {
		const char *name = plan_reason_name(1u << bit);

		if (!(reasons & (1u << bit)) || !name) {
			continue;
		}
		if (json_object_array_add(arr, json_object_new_string(name)) != 0) {
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

static struct json_object *layer_json(const struct plan *plan, const struct scene *scene, size_t i)
{
	struct json_object *obj = json_object_new_object();
	const struct plan_layer *l = &plan->layers[i];
	bool ok;

	if (!obj) {
		return NULL;
	}
	ok = add(obj, "index", json_object_new_uint64(i), false) &&
		(!scene || i >= scene->layer_count ||
			add(obj, "id", json_object_new_uint64(scene->layers[i].id), false)) &&
		add(obj, "plane", l->plane_id ? json_object_new_uint64(l->plane_id) : NULL, true) &&
		add(obj, "reasons", reasons_json(l->reasons), false);
	if (!ok) {
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

struct json_object *plan_to_json(const struct plan *plan, const struct scene *scene)
{
	struct json_object *obj = json_object_new_object();
	struct json_object *layers, *target;

	if (!obj || !add(obj, "planner", json_object_new_string(plan->planner), false)) {
		goto error;
	}
	layers = json_object_new_array();
	if (!add(obj, "layers", layers, false)) {
		goto error;
	}
	for (size_t i = 0; i < plan->layer_count; i++) {
		struct json_object *l = layer_json(plan, scene, i);

		if (!l || json_object_array_add(layers, l) != 0) {
			json_object_put(l);
			goto error;
		}
	}
	target = json_object_new_object();
	if (!add(obj, "client_target", target, false) ||
		!add(target, "needed", json_object_new_boolean(plan->needs_client_target), false) ||
		!add(target, "plane", plan->client_target_plane ?
			json_object_new_uint64(plan->client_target_plane) : NULL, true) ||
		!add(obj, "tests", json_object_new_uint64(plan->test_count), false) ||
		!add(obj, "timed_out", json_object_new_boolean(plan->timed_out), false)) {
		goto error;
	}
	return obj;

error:
	json_object_put(obj);
	return NULL;
}
