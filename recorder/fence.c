/* The fence watcher thread (fence.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <hwct/format.h>
#include <hwct/writer.h>

#include "fds.h"
#include "fence.h"
#include "recorder.h"
#include "sync_uapi.h"
#include "tp.h"

#define POLL_TIMEOUT_MS 1000
#define MAX_SYNC_FENCES 16
#define MAX_WATCHED 4096

struct watched {
	int fd;
	struct rec_fence_info info;
};

struct rec_fence_watch {
	pthread_t thread;
	pthread_mutex_t lock;
	int wake[2];			/* a byte in wake[1] interrupts poll() */
	struct watched *items;		/* under lock */
	size_t count, cap;
	struct hwct_writer *writer;	/* under lock, NULL between sessions */
	bool quit;
	uint64_t dropped;
};

int32_t rec_fence_signal_info(int fd, uint64_t poll_ns, uint64_t *signal_ns, char driver[32],
	char timeline[32])
{
	struct rec_sync_fence_info fences[MAX_SYNC_FENCES];
	struct rec_sync_file_info info;
	uint32_t n;

	memset(&info, 0, sizeof(info));
	if (ioctl(fd, REC_SYNC_IOC_FILE_INFO, &info) < 0) {
		/* not a sync_file: the time poll() saw it ready */
		*signal_ns = poll_ns;
		strcpy(driver, "poll");
		timeline[0] = '\0';
		return 1;
	}
	n = info.num_fences < MAX_SYNC_FENCES ? info.num_fences : MAX_SYNC_FENCES;
	memset(fences, 0, sizeof(fences));
	memset(&info, 0, sizeof(info));
	info.num_fences = n;
	info.sync_fence_info = (uint64_t)(uintptr_t)fences;
	*signal_ns = poll_ns;
	driver[0] = timeline[0] = '\0';
	if (n == 0 || ioctl(fd, REC_SYNC_IOC_FILE_INFO, &info) < 0) {
		return info.status < 0 ? info.status : 1;
	}
	*signal_ns = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (fences[i].timestamp_ns > *signal_ns) {
			*signal_ns = fences[i].timestamp_ns;
		}
	}
	if (!*signal_ns) {
		*signal_ns = poll_ns;
	}
	memcpy(driver, fences[0].driver_name, 31);
	driver[31] = '\0';
	memcpy(timeline, fences[0].obj_name, 31);
	timeline[31] = '\0';
	return info.status < 0 ? info.status : 1;
}

/* Writes the record of w (lock held). signalled false: still pending. */
static void emit(struct rec_fence_watch *fw, const struct watched *item, bool signalled, uint64_t poll_ns)
{
	Hwct__Record rec = HWCT__RECORD__INIT;
	Hwct__Fence f = HWCT__FENCE__INIT;
	char driver[32] = "", timeline[32] = "";
	uint64_t signal_ns = 0;
	/* no fd: the recorder never held one to watch it by (fence.h) */
	int32_t status = item->fd < 0 ? HWCT_FENCE_UNWATCHED : HWCT_FENCE_PENDING;

	if (signalled && item->fd >= 0) {
		if (item->info.seen_ns && item->info.seen_ns < poll_ns) {
			poll_ns = item->info.seen_ns;
		}
		status = rec_fence_signal_info(item->fd, poll_ns, &signal_ns, driver, timeline);
		rec_tp_fence_signal(item->info.id, item->info.kind, signal_ns, status);
	}
	if (!fw->writer) {
		return;
	}
	f.has_id = f.has_kind = f.has_created_ns = f.has_status = f.has_frame = true;
	f.id = item->info.id;
	f.kind = item->info.kind;
	f.created_ns = item->info.created_ns;
	f.status = status;
	f.frame = item->info.frame;
	f.has_display = item->info.has_display;
	f.display = item->info.display;
	f.has_layer = item->info.has_layer;
	f.layer = item->info.layer;
	if (signalled) {
		f.has_signal_ns = true;
		f.signal_ns = signal_ns;
		f.driver = driver[0] ? driver : NULL;
		f.timeline = timeline[0] ? timeline : NULL;
	}
	rec.kind_case = HWCT__RECORD__KIND_FENCE;
	rec.fence = &f;
	hwct_writer_write(fw->writer, &rec);
}

static void remove_at(struct rec_fence_watch *fw, size_t i)
{
	rec_fds_close(fw->items[i].fd);
	fw->items[i] = fw->items[--fw->count];
}

static void *watch_main(void *data)
{
	struct rec_fence_watch *fw = data;
	struct pollfd *pfds = NULL;
	uint64_t *ids = NULL;
	size_t cap = 0;

	rec_thread_background();
	for (;;) {
		size_t n;
		char buf[64];
		uint64_t now;

		pthread_mutex_lock(&fw->lock);
		if (fw->quit) {
			pthread_mutex_unlock(&fw->lock);
			break;
		}
		n = fw->count;
		if (n + 1 > cap) {
			size_t c = n + 64;
			struct pollfd *p = realloc(pfds, c * sizeof(*p));
			uint64_t *q = p ? realloc(ids, c * sizeof(*q)) : NULL;

			if (p) {
				pfds = p;
			}
			if (q) {
				ids = q;
				cap = c;
			}
		}
		if (n + 1 > cap) {
			n = cap ? cap - 1 : 0;
		}
		if (pfds) {
			pfds[0] = (struct pollfd){ .fd = fw->wake[0], .events = POLLIN };
			for (size_t i = 0; i < n; i++) {
				pfds[i + 1] = (struct pollfd){ .fd = fw->items[i].fd, .events = POLLIN };
				ids[i] = fw->items[i].info.id;
			}
		}
		pthread_mutex_unlock(&fw->lock);
		if (!pfds) {
			struct timespec ts = { 0, 10000000 };

			nanosleep(&ts, NULL);
			continue;
		}
		if (poll(pfds, (nfds_t)(n + 1), POLL_TIMEOUT_MS) <= 0) {
			continue;
		}
		now = rec_now_ns();
		if (pfds[0].revents) {
			while (read(fw->wake[0], buf, sizeof(buf)) > 0) {
			}
		}
		pthread_mutex_lock(&fw->lock);
		for (size_t i = 0; i < n; i++) {
			if (!(pfds[i + 1].revents & (POLLIN | POLLERR | POLLHUP))) {
				continue;
			}
			for (size_t k = 0; k < fw->count; k++) {
				if (fw->items[k].info.id == ids[i] && fw->items[k].fd == pfds[i + 1].fd) {
					emit(fw, &fw->items[k], true, now);
					remove_at(fw, k);
					break;
				}
			}
		}
		pthread_mutex_unlock(&fw->lock);
	}
	free(pfds);
	free(ids);
	return NULL;
}

static void wake(struct rec_fence_watch *fw)
{
	char c = 0;
	ssize_t ret = write(fw->wake[1], &c, 1);

	(void)ret;	/* a full pipe wakes the thread just as well */
}

static int nonblocking_pipe(int fds[2])
{
	if (pipe(fds) < 0) {
		return -errno;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(fds[i], F_SETFD, FD_CLOEXEC);
		fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
	}
	return 0;
}

struct rec_fence_watch *rec_fence_watch_create(void)
{
	struct rec_fence_watch *fw = calloc(1, sizeof(*fw));
	sigset_t all, old;
	int ret;

	if (!fw) {
		return NULL;
	}
	if (nonblocking_pipe(fw->wake) < 0) {
		goto error_free;
	}
	pthread_mutex_init(&fw->lock, NULL);
	/* the thread takes none of the host's signals */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = rec_thread_start(&fw->thread, watch_main, fw);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret != 0) {
		goto error_pipe;
	}
	return fw;

error_pipe:
	pthread_mutex_destroy(&fw->lock);
	close(fw->wake[0]);
	close(fw->wake[1]);
error_free:
	free(fw);
	return NULL;
}

void rec_fence_watch_destroy(struct rec_fence_watch *fw)
{
	if (!fw) {
		return;
	}
	pthread_mutex_lock(&fw->lock);
	fw->quit = true;
	pthread_mutex_unlock(&fw->lock);
	wake(fw);
	pthread_join(fw->thread, NULL);
	while (fw->count) {
		remove_at(fw, fw->count - 1);
	}
	free(fw->items);
	close(fw->wake[0]);
	close(fw->wake[1]);
	pthread_mutex_destroy(&fw->lock);
	free(fw);
}

void rec_fence_watch_begin(struct rec_fence_watch *fw, struct hwct_writer *w)
{
	pthread_mutex_lock(&fw->lock);
	fw->writer = w;
	pthread_mutex_unlock(&fw->lock);
}

void rec_fence_watch_add(struct rec_fence_watch *fw, int fd, const struct rec_fence_info *info)
{
	struct watched item = { .fd = fd, .info = *info };

	pthread_mutex_lock(&fw->lock);
	if (fd < 0) {
		emit(fw, &item, false, 0);
		pthread_mutex_unlock(&fw->lock);
		return;
	}
	if (fw->count == fw->cap && fw->cap < MAX_WATCHED) {
		size_t cap = fw->cap ? fw->cap * 2 : 64;
		struct watched *items = realloc(fw->items, cap * sizeof(*items));

		if (items) {
			fw->items = items;
			fw->cap = cap;
		}
	}
	if (fw->count == fw->cap) {
		fw->dropped++;
		rec_fds_close(fd);
		item.fd = -1;
		emit(fw, &item, false, 0);
		pthread_mutex_unlock(&fw->lock);
		return;
	}
	fw->items[fw->count++] = item;
	pthread_mutex_unlock(&fw->lock);
	wake(fw);
}

void rec_fence_watch_end(struct rec_fence_watch *fw, uint32_t grace_ms)
{
	uint64_t deadline = rec_now_ns() + (uint64_t)grace_ms * 1000000u;
	struct timespec step = { 0, 1000000 };

	for (;;) {
		size_t n;

		pthread_mutex_lock(&fw->lock);
		n = fw->count;
		pthread_mutex_unlock(&fw->lock);
		if (!n || rec_now_ns() >= deadline) {
			break;
		}
		nanosleep(&step, NULL);
	}
	pthread_mutex_lock(&fw->lock);
	while (fw->count) {
		emit(fw, &fw->items[fw->count - 1], false, 0);
		remove_at(fw, fw->count - 1);
	}
	fw->writer = NULL;
	pthread_mutex_unlock(&fw->lock);
	wake(fw);
}

uint64_t rec_fence_watch_dropped(struct rec_fence_watch *fw)
{
	uint64_t n;

	pthread_mutex_lock(&fw->lock);
	n = fw->dropped;
	pthread_mutex_unlock(&fw->lock);
	return n;
}
