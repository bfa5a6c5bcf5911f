/*
 * The fence watcher: a thread that owns the recorder's dup of every fence
 * that crossed the boundary, polls them, and writes one Fence record per
 * fence when it signals, with the signal time from SYNC_IOC_FILE_INFO. A
 * descriptor that is not a sync_file (the tests' pipes and eventfds) has no
 * kernel timestamp: its signal time is when poll() saw it ready, and
 * Fence.driver says "poll".
 */
#ifndef REC_FENCE_H
#define REC_FENCE_H

#include <stdbool.h>
#include <stdint.h>

struct hwct_writer;
struct rec_fence_watch;

struct rec_fence_info {
	uint64_t id;		/* Fence.id */
	int32_t kind;		/* HWCT_FENCE_* */
	bool has_display, has_layer;
	uint64_t display, layer;
	uint64_t created_ns;	/* when it crossed the boundary */
	uint64_t frame;		/* FrameEnd.frame it belongs to */
	uint64_t seen_ns;	/* seen signalled earlier by someone else (a capture), 0 unknown */
};

/* Starts the thread. Returns NULL when out of memory or threads. */
struct rec_fence_watch *rec_fence_watch_create(void);

/* Stops the thread and closes every fd. fw may be NULL. */
void rec_fence_watch_destroy(struct rec_fence_watch *fw);

/* Records of the fences added from now on go to w. */
void rec_fence_watch_begin(struct rec_fence_watch *fw, struct hwct_writer *w);

/*
 * Watches fd (an fd of fds.h, taken: closed once its record is written).
 * fd -1 (no dup was made: fd budget spent, or dup failed) writes a record
 * with status FENCE_UNWATCHED at once; so does a fence past MAX_WATCHED
 * (counted in rec_fence_watch_dropped).
 */
void rec_fence_watch_add(struct rec_fence_watch *fw, int fd, const struct rec_fence_info *info);

/*
 * Waits up to grace_ms for the watched fences, writes the still pending
 * ones with status 0, and forgets the writer.
 */
void rec_fence_watch_end(struct rec_fence_watch *fw, uint32_t grace_ms);

/* Fences that had an fd but could not be watched (MAX_WATCHED or out of memory), counted. */
uint64_t rec_fence_watch_dropped(struct rec_fence_watch *fw);

/*
 * Signal time of a signalled fence: SYNC_IOC_FILE_INFO's latest fence
 * timestamp with driver/timeline names, or, for other fds, poll_ns with
 * driver "poll". Returns the fence status (1, or < 0 for an error).
 */
int32_t rec_fence_signal_info(int fd, uint64_t poll_ns, uint64_t *signal_ns, char driver[32],
	char timeline[32]);

#endif
