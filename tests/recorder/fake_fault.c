/* The fault points of hwcomposer.faulty.so (fake_fault.h). */
#include <pthread.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_fault.h"

struct fault {
	char kind[16];
	char call[64];
	unsigned long at;		/* the N-th call, from 1; 0 none */
	unsigned long seen;
};

static struct fault fault;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void parse(void)
{
	const char *v = getenv("FAKE_HWC2_FAULT");

	if (!v || sscanf(v, "%15[a-z]:%63[A-Za-z]:%lu", fault.kind, fault.call, &fault.at) != 3) {
		fault.at = 0;
	}
}

void fake_fault_point(const char *name)
{
	bool hit;

	pthread_once(&once, parse);
	if (!fault.at || strcmp(name, fault.call) != 0) {
		return;
	}
	pthread_mutex_lock(&lock);
	hit = ++fault.seen == fault.at;
	pthread_mutex_unlock(&lock);
	if (!hit) {
		return;
	}
	if (strcmp(fault.kind, "crash") == 0) {
		raise(SIGSEGV);
	} else if (strcmp(fault.kind, "abort") == 0) {
		abort();
	} else if (strcmp(fault.kind, "hang") == 0) {
		for (;;) {
			pause();
		}
	}
}
