/* The fds a test process has open (fds_open.h). */
#include <dirent.h>

#include "fds_open.h"

int test_count_open_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!dir) {
		return -1;
	}
	while ((e = readdir(dir))) {
		n += e->d_name[0] != '.';
	}
	closedir(dir);
	return n - 1;	/* the directory's own fd */
}
