/*
 * kms-snapshot-json NODE: prints the capability snapshot of a DRM node
 * (replayer/kms/snapshot.c, the shape of `drm_info -j`) on stdout, so that a
 * test can read a device back through the project's own KMS code and hand it
 * to `hwc-trace board` on the host. Exit 0, 1 when the node cannot be read
 * (the reason on stderr), 2 on bad usage.
 */
#include <stdio.h>

#include <json-c/json.h>

#include "snapshot.h"

int main(int argc, char **argv)
{
	struct hwct_error err;
	struct json_object *snap;

	if (argc != 2) {
		fprintf(stderr, "usage: kms-snapshot-json /dev/dri/cardN\n");
		return 2;
	}
	snap = kms_snapshot_path(argv[1], &err);
	if (!snap) {
		fprintf(stderr, "kms-snapshot-json: %s\n", err.message);
		return 1;
	}
	puts(json_object_to_json_string_ext(snap, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(snap);
	return 0;
}
