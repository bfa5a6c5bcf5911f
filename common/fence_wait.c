/* One fence wait for every program and test (fence_wait.h). */
#include <errno.h>
#include <poll.h>

#include "fence_wait.h"

int hwct_fence_wait(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	if (fd < 0) {
		return 0;
	}
	do {
		n = poll(&p, 1, timeout_ms);
	} while (n < 0 && (errno == EINTR || errno == EAGAIN));
	if (n < 0) {
		return -errno;
	}
	if (n == 0) {
		return -ETIME;
	}
	return (p.revents & POLLNVAL) ? -EBADF : 0;
}
