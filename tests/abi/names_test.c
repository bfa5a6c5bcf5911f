/*
 * Round-trip tests of the generated HWC2 name tables (<hwct/hwc2_names.h>)
 * and of the format's own enums generated from the schema (<hwct/format_enums.h>).
 * Usage: names_test CASE, one meson test per case (see cases[] below).
 * Exit status 0 on success, 1 on a failed check (each failure is printed, check.h).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/format.h>
#include <hwct/hwc2_names.h>
#include <hwct/hwctrace.pb-c.h>

#define CHECK_NONFATAL	/* a failed check is counted and the test goes on */
#include "check.h"

struct check_tally check_tally;

static bool str_eq(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* "SET_LAYER_Z_ORDER" -> "setLayerZOrder", independent of the generator. */
static void to_camel(const char *name, char *out, size_t size)
{
	size_t n = 0;
	bool upper = false;

	for (; *name != '\0' && n + 1 < size; name++) {
		if (*name == '_') {
			upper = true;
			continue;
		}
		out[n++] = (char)(upper ? toupper((unsigned char)*name) : tolower((unsigned char)*name));
		upper = false;
	}
	out[n] = '\0';
}

/* Every descriptor 1..MAX has a name and a method that map back to it. */
static void test_functions(void)
{
	int named = 0;

	CHECK(HWCT_HWC2_FUNCTION_MAX == 70, "max %d", HWCT_HWC2_FUNCTION_MAX);
	CHECK(HWCT_HWC2_FUNCTION_COUNT == 70, "count %d", HWCT_HWC2_FUNCTION_COUNT);
	CHECK(HWCT_HWC2_FUNCTION_NAMES == 71, "names %d", HWCT_HWC2_FUNCTION_NAMES);

	for (int32_t d = 1; d <= HWCT_HWC2_FUNCTION_MAX; d++) {
		const char *name = hwct_hwc2_function_name(d);
		const char *method = hwct_hwc2_function_method(d);
		char camel[128];

		CHECK(name != NULL, "descriptor %d has no name", (int)d);
		CHECK(method != NULL, "descriptor %d has no method", (int)d);
		if (name == NULL || method == NULL) {
			continue;
		}
		named++;
		CHECK(hwct_hwc2_function_from_name(name) == d, "%s -> %d",
			name, (int)hwct_hwc2_function_from_name(name));
		CHECK(hwct_hwc2_function_from_method(method) == d, "%s -> %d",
			method, (int)hwct_hwc2_function_from_method(method));
		to_camel(name, camel, sizeof(camel));
		CHECK(str_eq(camel, method), "%s: method %s, expected %s", name, method, camel);
	}
	CHECK(named == 70, "%d named descriptors", named);
}

struct function_case {
	int32_t value;
	const char *name;
	const char *method;
};

static const struct function_case function_cases[] = {
	{ HWC2_FUNCTION_ACCEPT_DISPLAY_CHANGES, "ACCEPT_DISPLAY_CHANGES", "acceptDisplayChanges" },
	{ HWC2_FUNCTION_DUMP, "DUMP", "dump" },
	{ 28, "SET_LAYER_BUFFER", "setLayerBuffer" },
	{ HWC2_FUNCTION_SET_LAYER_SOURCE_CROP, "SET_LAYER_SOURCE_CROP", "setLayerSourceCrop" },
	{ HWC2_FUNCTION_SET_LAYER_Z_ORDER, "SET_LAYER_Z_ORDER", "setLayerZOrder" },
	{ 43, "VALIDATE_DISPLAY", "validateDisplay" },
	{ HWC2_FUNCTION_GET_DATASPACE_SATURATION_MATRIX, "GET_DATASPACE_SATURATION_MATRIX",
		"getDataspaceSaturationMatrix" },
	{ HWC2_FUNCTION_SET_ACTIVE_CONFIG_WITH_CONSTRAINTS, "SET_ACTIVE_CONFIG_WITH_CONSTRAINTS",
		"setActiveConfigWithConstraints" },
	{ 70, "GET_LAYER_GENERIC_METADATA_KEY", "getLayerGenericMetadataKey" },
};

/* Known descriptor/name/method triples, and what unknown input gives. */
static void test_function_pairs(void)
{
	for (size_t i = 0; i < sizeof(function_cases) / sizeof(function_cases[0]); i++) {
		const struct function_case *c = &function_cases[i];

		CHECK(str_eq(hwct_hwc2_function_name(c->value), c->name), "%d", (int)c->value);
		CHECK(str_eq(hwct_hwc2_function_method(c->value), c->method), "%d", (int)c->value);
		CHECK(hwct_hwc2_function_from_name(c->name) == c->value, "%s", c->name);
		CHECK(hwct_hwc2_function_from_method(c->method) == c->value, "%s", c->method);
	}

	CHECK(str_eq(hwct_hwc2_function_name(HWC2_FUNCTION_INVALID), "INVALID"), "0");
	CHECK(hwct_hwc2_function_method(HWC2_FUNCTION_INVALID) == NULL, "0");
	CHECK(hwct_hwc2_function_name(HWCT_HWC2_FUNCTION_MAX + 1) == NULL, "max + 1");
	CHECK(hwct_hwc2_function_name(-1) == NULL, "-1");
	CHECK(hwct_hwc2_function_name(INT32_MAX) == NULL, "INT32_MAX");
	CHECK(hwct_hwc2_function_method(HWCT_HWC2_FUNCTION_MAX + 1) == NULL, "max + 1");
	CHECK(hwct_hwc2_function_from_name(NULL) == -1, "NULL");
	CHECK(hwct_hwc2_function_from_name("") == -1, "empty");
	CHECK(hwct_hwc2_function_from_name("set_layer_buffer") == -1, "lower case");
	CHECK(hwct_hwc2_function_from_name("HWC2_FUNCTION_SET_LAYER_BUFFER") == -1, "prefix");
	CHECK(hwct_hwc2_function_from_name("SET_LAYER_BUFFERS") == -1, "longer");
	CHECK(hwct_hwc2_function_from_method("SetLayerBuffer") == -1, "Pascal case");
	CHECK(hwct_hwc2_function_from_method(NULL) == -1, "NULL");
	CHECK(hwct_hwc2_function_from_method("invalid") == -1, "invalid");
}

struct table {
	const char *name;
	const char *(*to_name)(int32_t value);
	int32_t (*from_name)(const char *name);
	int names;	/* HWCT_HWC2_<T>_NAMES */
	bool small;	/* every value < SWEEP and no aliases: the sweep finds all names */
};

#define TABLE(t, T, small) \
	{ #t, hwct_hwc2_##t##_name, hwct_hwc2_##t##_from_name, HWCT_HWC2_##T##_NAMES, small }

static const struct table tables[] = {
	TABLE(function, FUNCTION, true),
	TABLE(composition, COMPOSITION, true),
	TABLE(blend_mode, BLEND_MODE, true),
	TABLE(callback_descriptor, CALLBACK_DESCRIPTOR, true),
	TABLE(capability, CAPABILITY, true),
	TABLE(error, ERROR, true),
	TABLE(attribute, ATTRIBUTE, true),
	TABLE(display_request, DISPLAY_REQUEST, true),
	TABLE(layer_request, LAYER_REQUEST, true),
	TABLE(display_type, DISPLAY_TYPE, true),
	TABLE(connection, CONNECTION, true),
	TABLE(power_mode, POWER_MODE, true),
	TABLE(vsync, VSYNC, true),
	TABLE(content_type, CONTENT_TYPE, true),
	TABLE(display_capability, DISPLAY_CAPABILITY, true),
	TABLE(per_frame_metadata_key, PER_FRAME_METADATA_KEY, true),
	TABLE(display_connection_type, DISPLAY_CONNECTION_TYPE, true),
	TABLE(displayed_content_sampling, DISPLAYED_CONTENT_SAMPLING, true),
	TABLE(format_color_component, FORMAT_COLOR_COMPONENT, true),
	TABLE(transform, TRANSFORM, true),
	TABLE(pixel_format, PIXEL_FORMAT, false),
	TABLE(dataspace, DATASPACE, false),
	TABLE(dataspace_standard, DATASPACE_STANDARD, false),
	TABLE(dataspace_transfer, DATASPACE_TRANSFER, false),
	TABLE(dataspace_range, DATASPACE_RANGE, false),
	TABLE(color_mode, COLOR_MODE, true),
	TABLE(render_intent, RENDER_INTENT, true),
	TABLE(color_transform, COLOR_TRANSFORM, true),
	TABLE(hdr, HDR, true),
};

#define SWEEP 1024

/* Every table: each value 0..SWEEP with a name maps back; small tables are complete. */
static void test_sweep(void)
{
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		const struct table *tab = &tables[t];
		int found = 0;

		CHECK(tab->names > 0, "%s empty", tab->name);
		for (int32_t v = -2; v < SWEEP; v++) {
			const char *name = tab->to_name(v);

			if (name == NULL) {
				continue;
			}
			found++;
			CHECK(tab->from_name(name) == v, "%s: %s -> %d, expected %d", tab->name,
				name, (int)tab->from_name(name), (int)v);
		}
		if (tab->small) {
			CHECK(found == tab->names, "%s: %d of %d names in 0..%d", tab->name, found,
				tab->names, SWEEP);
		}
		CHECK(tab->to_name(-1) == NULL, "%s: -1 named", tab->name);
		CHECK(tab->from_name(NULL) == -1, "%s: NULL", tab->name);
		CHECK(tab->from_name("NO_SUCH_NAME") == -1, "%s: unknown", tab->name);
	}
}

struct enum_case {
	const char *(*to_name)(int32_t value);
	int32_t (*from_name)(const char *name);
	int32_t value;
	const char *name;	/* expected to_name(value); NULL: no name */
};

#define CASE(t, value, name) { hwct_hwc2_##t##_name, hwct_hwc2_##t##_from_name, value, name }

static const struct enum_case enum_cases[] = {
	CASE(composition, HWC2_COMPOSITION_CLIENT, "CLIENT"),
	CASE(composition, HWC2_COMPOSITION_SOLID_COLOR, "SOLID_COLOR"),
	CASE(composition, HWC2_COMPOSITION_DISPLAY_DECORATION, "DISPLAY_DECORATION"),
	CASE(composition, 7, NULL),
	CASE(blend_mode, HWC2_BLEND_MODE_PREMULTIPLIED, "PREMULTIPLIED"),
	CASE(callback_descriptor, HWC2_CALLBACK_VSYNC_2_4, "VSYNC_2_4"),
	CASE(capability, HWC2_CAPABILITY_SKIP_VALIDATE, "SKIP_VALIDATE"),
	CASE(error, HWC2_ERROR_NONE, "NONE"),
	CASE(error, HWC2_ERROR_HAS_CHANGES, "HAS_CHANGES"),
	CASE(error, HWC2_ERROR_SEAMLESS_NOT_POSSIBLE, "SEAMLESS_NOT_POSSIBLE"),
	CASE(attribute, HWC2_ATTRIBUTE_DPI_Y, "DPI_Y"),
	CASE(attribute, 6, NULL),
	CASE(attribute, HWC2_ATTRIBUTE_CONFIG_GROUP, "CONFIG_GROUP"),
	CASE(display_request, HWC2_DISPLAY_REQUEST_WRITE_CLIENT_TARGET_TO_OUTPUT,
		"WRITE_CLIENT_TARGET_TO_OUTPUT"),
	CASE(display_request, 3, NULL),
	CASE(layer_request, HWC2_LAYER_REQUEST_CLEAR_CLIENT_TARGET, "CLEAR_CLIENT_TARGET"),
	CASE(display_type, HWC2_DISPLAY_TYPE_PHYSICAL, "PHYSICAL"),
	CASE(connection, HWC2_CONNECTION_DISCONNECTED, "DISCONNECTED"),
	CASE(power_mode, HWC2_POWER_MODE_ON, "ON"),
	CASE(power_mode, HWC2_POWER_MODE_DOZE_SUSPEND, "DOZE_SUSPEND"),
	CASE(vsync, HWC2_VSYNC_ENABLE, "ENABLE"),
	CASE(content_type, HWC2_CONTENT_TYPE_GAME, "GAME"),
	CASE(display_capability, 4, NULL),
	CASE(display_capability, HWC2_DISPLAY_CAPABILITY_AUTO_LOW_LATENCY_MODE,
		"AUTO_LOW_LATENCY_MODE"),
	CASE(per_frame_metadata_key, HWC2_DISPLAY_RED_PRIMARY_X, "DISPLAY_RED_PRIMARY_X"),
	CASE(per_frame_metadata_key, HWC2_MAX_FRAME_AVERAGE_LIGHT_LEVEL,
		"MAX_FRAME_AVERAGE_LIGHT_LEVEL"),
	CASE(display_connection_type, HWC2_DISPLAY_CONNECTION_TYPE_INTERNAL, "INTERNAL"),
	CASE(displayed_content_sampling, HWC2_DISPLAYED_CONTENT_SAMPLING_DISABLE, "DISABLE"),
	CASE(format_color_component, HWC2_FORMAT_COMPONENT_2, "COMPONENT_2"),
	CASE(transform, 0, NULL),
	CASE(transform, HAL_TRANSFORM_FLIP_H, "FLIP_H"),
	CASE(transform, HAL_TRANSFORM_ROT_180, "ROT_180"),
	CASE(transform, HAL_TRANSFORM_ROT_270, "ROT_270"),
	CASE(transform, HWC_TRANSFORM_FLIP_V_ROT_90, "FLIP_V_ROT_90"),
	CASE(pixel_format, HAL_PIXEL_FORMAT_RGBA_8888, "RGBA_8888"),
	CASE(pixel_format, HAL_PIXEL_FORMAT_IMPLEMENTATION_DEFINED, "IMPLEMENTATION_DEFINED"),
	CASE(pixel_format, HAL_PIXEL_FORMAT_RGBA_1010102, "RGBA_1010102"),
	CASE(pixel_format, HAL_PIXEL_FORMAT_YCBCR_P010, "YCBCR_P010"),
	CASE(pixel_format, HAL_PIXEL_FORMAT_FLEX_RGBA_8888, "FLEX_RGBA_8888"),
	CASE(pixel_format, HAL_PIXEL_FORMAT_HSV_888, "HSV_888"),
	CASE(pixel_format, HAL_PIXEL_FORMAT_Y8, "Y8"),
	CASE(pixel_format, HAL_PIXEL_FORMAT_YV12, "YV12"),
	CASE(pixel_format, 0, NULL),
	CASE(dataspace, HAL_DATASPACE_UNKNOWN, "UNKNOWN"),
	CASE(dataspace, HAL_DATASPACE_SRGB, "SRGB"),
	CASE(dataspace, HAL_DATASPACE_V0_SRGB, "V0_SRGB"),
	CASE(dataspace, HAL_DATASPACE_V0_JFIF, "V0_JFIF"),
	CASE(dataspace, HAL_DATASPACE_DISPLAY_P3, "DISPLAY_P3"),
	CASE(dataspace, HAL_DATASPACE_DISPLAY_P3_LINEAR, "DCI_P3_LINEAR"),	/* alias */
	CASE(dataspace, HAL_DATASPACE_BT2020_ITU_PQ, "BT2020_ITU_PQ"),
	CASE(dataspace, HAL_DATASPACE_DISPLAY_BT2020, "DISPLAY_BT2020"),
	CASE(dataspace, HAL_DATASPACE_STANDARD_SHIFT, NULL),	/* fields are not dataspaces */
	CASE(dataspace_standard, HAL_DATASPACE_STANDARD_BT709, "BT709"),
	CASE(dataspace_standard, HAL_DATASPACE_STANDARD_UNSPECIFIED, "UNSPECIFIED"),
	CASE(dataspace_transfer, HAL_DATASPACE_TRANSFER_ST2084, "ST2084"),
	CASE(dataspace_transfer, HAL_DATASPACE_TRANSFER_SHIFT, NULL),
	CASE(dataspace_range, HAL_DATASPACE_RANGE_LIMITED, "LIMITED"),
	CASE(color_mode, HAL_COLOR_MODE_NATIVE, "NATIVE"),
	CASE(color_mode, HAL_COLOR_MODE_DISPLAY_P3, "DISPLAY_P3"),
	CASE(color_mode, HAL_COLOR_MODE_BT2100_PQ, "BT2100_PQ"),
	CASE(render_intent, HAL_RENDER_INTENT_TONE_MAP_ENHANCE, "TONE_MAP_ENHANCE"),
	CASE(color_transform, HAL_COLOR_TRANSFORM_GRAYSCALE, "GRAYSCALE"),
	CASE(hdr, HAL_HDR_HDR10_PLUS, "HDR10_PLUS"),
};

/* Known value/name pairs of the other tables. */
static void test_enums(void)
{
	for (size_t i = 0; i < sizeof(enum_cases) / sizeof(enum_cases[0]); i++) {
		const struct enum_case *c = &enum_cases[i];
		const char *got = c->to_name(c->value);

		if (c->name == NULL) {
			CHECK(got == NULL, "case %zu: value %d named %s", i, (int)c->value, got);
			continue;
		}
		CHECK(str_eq(got, c->name), "case %zu: value %d named %s, expected %s", i,
			(int)c->value, got != NULL ? got : "(null)", c->name);
		CHECK(c->from_name(c->name) == c->value, "case %zu: %s -> %d", i, c->name,
			(int)c->from_name(c->name));
	}
	/* An alias resolves by name even though value lookup prefers the first name. */
	CHECK(hwct_hwc2_dataspace_from_name("DISPLAY_P3_LINEAR") == HAL_DATASPACE_DISPLAY_P3_LINEAR,
		"DISPLAY_P3_LINEAR");
}

/*
 * The format's enums: the C names carry the schema's values (as protoc-c
 * numbers them), the names are the schema's without the group prefix, and
 * a value the schema does not name has none.
 */
static void test_format_enums(void)
{
	static const struct {
		int32_t c_value, schema_value;
		const char *(*to_name)(int32_t);
		const char *name;
	} cases[] = {
		{ HWCT_FENCE_UNKNOWN, HWCT__FENCE_KIND__FENCE_UNKNOWN, hwct_fence_kind_name, "UNKNOWN" },
		{ HWCT_FENCE_CLIENT_TARGET, HWCT__FENCE_KIND__FENCE_CLIENT_TARGET, hwct_fence_kind_name, "CLIENT_TARGET" },
		{ HWCT_FENCE_READBACK, HWCT__FENCE_KIND__FENCE_READBACK, hwct_fence_kind_name, "READBACK" },
		{ HWCT_FENCE_PENDING, HWCT__FENCE_STATUS__FENCE_PENDING, hwct_fence_status_name, "PENDING" },
		{ HWCT_FENCE_SIGNALLED, HWCT__FENCE_STATUS__FENCE_SIGNALLED, hwct_fence_status_name, "SIGNALLED" },
		{ HWCT_CAPTURE_OK, HWCT__CAPTURE_STATUS__CAPTURE_OK, hwct_capture_status_name, "OK" },
		{ HWCT_CAPTURE_SYNTHETIC, HWCT__CAPTURE_STATUS__CAPTURE_SYNTHETIC, hwct_capture_status_name, "SYNTHETIC" },
		{ HWCT_BLOB_PIXELS, HWCT__BLOB_KIND__BLOB_PIXELS, hwct_blob_kind_name, "PIXELS" },
		{ HWCT_BLOB_BYTES, HWCT__BLOB_KIND__BLOB_BYTES, hwct_blob_kind_name, "BYTES" },
		{ HWCT_FRAME_BLOBS, HWCT__FRAME_KIND__FRAME_BLOBS, hwct_frame_kind_name, "BLOBS" },
		{ HWCT__BLOB_ENCODING__BLOB_DELTA, HWCT__BLOB_ENCODING__BLOB_DELTA, hwct_blob_encoding_name, "DELTA" },
		{ HWCT__BLOB_PREDICTOR__PREDICT_UP, HWCT__BLOB_PREDICTOR__PREDICT_UP, hwct_blob_predictor_name, "UP" },
		{ HWCT_FENCE_READBACK + 1, HWCT_FENCE_READBACK + 1, hwct_fence_kind_name, NULL },
		{ -1, -1, hwct_fence_status_name, NULL },
		{ HWCT_CAPTURE_SYNTHETIC + 1, HWCT_CAPTURE_SYNTHETIC + 1, hwct_capture_status_name, NULL },
		{ 0, 0, hwct_frame_kind_name, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = cases[i].to_name(cases[i].c_value);

		CHECK(cases[i].c_value == cases[i].schema_value, "case %zu: C value %d, schema %d", i,
			(int)cases[i].c_value, (int)cases[i].schema_value);
		if (cases[i].name == NULL) {
			CHECK(got == NULL, "case %zu: value %d named %s", i, (int)cases[i].c_value, got);
		} else {
			CHECK(str_eq(got, cases[i].name), "case %zu: value %d named %s, expected %s", i,
				(int)cases[i].c_value, got != NULL ? got : "(null)", cases[i].name);
		}
	}
}

static const struct check_case cases[] = {
	{ "functions", test_functions },
	{ "function-pairs", test_function_pairs },
	{ "enums", test_enums },
	{ "sweep", test_sweep },
	{ "format-enums", test_format_enums },
};

int main(int argc, char **argv)
{
	return check_run_cases(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
