/* The caller's kernel thread id (recorder.h). */
#define _GNU_SOURCE	/* gettid(): Linux-specific, this file only */
#include <stdint.h>
#include <unistd.h>

#include "recorder.h"

REC_HOT uint32_t rec_tid(void)
{
	static _Thread_local uint32_t tid;

	if (!tid) {
		tid = (uint32_t)gettid();
	}
	return tid;
}
