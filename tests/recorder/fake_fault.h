/*
 * hwcomposer.faulty.so: the fake HWC2 module (fake_hwc2.c) built with
 * FAKE_FAULTY, which fails on purpose for the tests of a module that
 * crashes or hangs (hwc-replay --hwc2's supervisor, the recorder's crash
 * flush). FAKE_HWC2_FAULT=KIND:CALL:N (read at the first fault point)
 * makes the N-th call (from 1) of CALL fail as KIND says:
 *   crash  raise(SIGSEGV)
 *   abort  abort() (SIGABRT, as a failed assertion)
 *   hang   never return
 * CALL is one of validateDisplay, presentDisplay, close. Unset, the module
 * is the fake.
 */
#ifndef HWCT_TEST_FAKE_FAULT_H
#define HWCT_TEST_FAKE_FAULT_H

#ifdef FAKE_FAULTY
/* Counts a call of name and fails it when FAKE_HWC2_FAULT says so. */
void fake_fault_point(const char *name);
#else
#define fake_fault_point(name) ((void)0)
#endif

#endif
