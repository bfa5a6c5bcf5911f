/*
 * test-hwc2-kms-load (suite 'unit', no device): hwcomposer.kms.so loads as
 * libhardware loads a module and fails cleanly where there is no device.
 * Usage: test-hwc2-kms-load MODULE CASE, CASE one of:
 *   hmi        HMI: tag, API versions, id, name, methods; only HMI and the
 *              test helper exported
 *   no-device  open("composer") with HWCT_KMS_DEVICE naming no node, and with an
 *              unknown HWCT_KMS_PLANNER: an error, no device, no fd left open
 *   bad-open   open with another device name, or a NULL out pointer: -EINVAL
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hardware/hwcomposer2.h>
#include <hwct/hwc2_kms.h>

#define CHECK_NONFATAL	/* a failed check is counted and the test goes on */
#include "check.h"
#include "fds_open.h"
#include "hwc2_load.h"

struct check_tally check_tally;

static void case_hmi(void *dl, const hw_module_t *hmi)
{
	CHECK(hmi->tag == HARDWARE_MODULE_TAG, "tag 0x%x", hmi->tag);
	CHECK(hmi->module_api_version == HARDWARE_MODULE_API_VERSION(2, 0), "module API 0x%x",
		hmi->module_api_version);
	CHECK(hmi->hal_api_version == HARDWARE_HAL_API_VERSION, "HAL API 0x%x", hmi->hal_api_version);
	CHECK(hmi->id && strcmp(hmi->id, HWC_HARDWARE_MODULE_ID) == 0, "id %s", hmi->id ? hmi->id : "-");
	CHECK(hmi->name && *hmi->name, "no name");
	CHECK(hmi->methods && hmi->methods->open, "no open");
	CHECK(dlsym(dl, HWC2_KMS_LAST_FRAME_SYMBOL) != NULL, "no %s", HWC2_KMS_LAST_FRAME_SYMBOL);
	/* the static libraries stay inside: a host process may link its own copies */
	CHECK(dlsym(dl, "backend_kms_create") == NULL, "backend_kms_create is exported");
	CHECK(dlsym(dl, "planner_run") == NULL, "planner_run is exported");
}

static void open_fails(const hw_module_t *hmi, const char *what)
{
	hw_device_t *dev = (hw_device_t *)&dev;	/* not NULL: open must clear it */
	int before = test_count_open_fds();
	int ret = hmi->methods->open(hmi, HWC_HARDWARE_COMPOSER, &dev);

	CHECK(ret < 0, "%s: open returned %d", what, ret);
	CHECK(dev == NULL, "%s: a device came back", what);
	CHECK(test_count_open_fds() == before, "%s: %d fds before open, %d after", what, before, test_count_open_fds());
	if (ret == 0 && dev) {
		dev->close(dev);
	}
}

static void case_no_device(const hw_module_t *hmi)
{
	setenv("HWCT_KMS_DEVICE", "/nonexistent/card0", 1);
	open_fails(hmi, "no such node");
	setenv("HWCT_KMS_DEVICE", "/dev/null", 1);
	open_fails(hmi, "not a DRM node");
	setenv("HWCT_KMS_PLANNER", "no-such-planner", 1);
	open_fails(hmi, "unknown planner");
	unsetenv("HWCT_KMS_PLANNER");
	setenv("HWCT_KMS_MODE", "wide", 1);
	open_fails(hmi, "bad HWCT_KMS_MODE");
	unsetenv("HWCT_KMS_MODE");
}

static void case_bad_open(const hw_module_t *hmi)
{
	hw_device_t *dev = NULL;

	CHECK(hmi->methods->open(hmi, "gralloc", &dev) == -EINVAL && dev == NULL,
		"open(\"gralloc\") did not fail with -EINVAL");
	CHECK(hmi->methods->open(hmi, HWC_HARDWARE_COMPOSER, NULL) == -EINVAL,
		"open with a NULL device pointer did not fail with -EINVAL");
}

int main(int argc, char *argv[])
{
	hw_module_t *hmi;
	char msg[256];
	void *dl;

	if (argc != 3) {
		fprintf(stderr, "usage: test-hwc2-kms-load MODULE hmi|no-device|bad-open\n");
		return 2;
	}
	if (hwct_hwc2_module_load(argv[1], NULL, &dl, &hmi, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "FAIL: %s: %s\n", argv[1], msg);
		return 1;
	}
	if (strcmp(argv[2], "hmi") == 0) {
		case_hmi(dl, hmi);
	} else if (strcmp(argv[2], "no-device") == 0) {
		case_no_device(hmi);
	} else if (strcmp(argv[2], "bad-open") == 0) {
		case_bad_open(hmi);
	} else {
		fprintf(stderr, "unknown case %s\n", argv[2]);
		return 2;
	}
	/* not dlclosed, as libhardware never unloads a HAL (and LeakSanitizer could not name
	 * what EGL's dispatch library allocated at load time in an unloaded module) */
	return check_status();
}
