/*
 * The results_version of hwc-replay's results.json (docs/results.md,
 * "Versions"): one constant for the writer (hwc-replay) and every reader
 * (--expect, hwc-trace diff, hwc-trace report).
 */
#ifndef HWCT_COMMON_RESULTS_VERSION_H
#define HWCT_COMMON_RESULTS_VERSION_H

#define HWCT_RESULTS_VERSION 1

#endif
