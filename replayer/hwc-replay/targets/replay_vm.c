/*
 * --vm: hwc-replay runs itself inside the project's vkms VM (tests/vm/vm-run,
 * docs/vm-tests.md) as `--device /dev/dri/card0`. The guest sees the host's
 * files read-only and returns only its output and exit status, so the
 * results file travels back on the guest's standard output; --dump-images
 * cannot (refused). --kernel, --kernel-image and --kernel-modules choose the
 * VM's kernel, --userland its root folder (vm-run's options of the same names).
 * --board DUMP shapes vkms like the dump's board (board_vkms.c, vm-run's
 * --vkms-board), on the newest kernel line unless a kernel is given; the
 * guest's replay gets --board too (replay_board.h). --arch arm64 boots an arm64
 * kernel (vm-run --arch arm64), where the guest runs an aarch64 hwc-replay:
 * --vm-replay's, this program when it is one, else the cross build beside this
 * build tree's (guest_program).
 *
 * The harness is HWCT_VM_RUN, else the installed one (libexecdir/hwctrace),
 * else, for a program of a build tree, the vm-run link beside it with the
 * build tree's vm-cache (replayer/meson.build).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "board.h"
#include "board_vkms.h"
#include "replay.h"

#ifndef HWCT_VM_RUN
#define HWCT_VM_RUN ""
#endif
#ifndef HWCT_VM_CACHE
#define HWCT_VM_CACHE ""
#endif

/* the architecture of this program, the guest's by default (an i686 or armhf
 * program runs on the 64-bit kernel of its family) */
#if defined(__aarch64__) || defined(__arm__)
#define OWN_ARCH "arm64"
#else
#define OWN_ARCH "amd64"
#endif

/* ELF e_machine values (the ELF gABI) of the programs each guest runs */
enum {
	ELF_MACHINE_386 = 3,
	ELF_MACHINE_ARM = 40,
	ELF_MACHINE_X86_64 = 62,
	ELF_MACHINE_AARCH64 = 183,
};

static const char *setting(const char *env, const char *built)
{
	const char *v = getenv(env);

	return v && *v ? v : built;
}

/* Options the guest must not see (with a value: next, or after '='); returns
 * 2 when the value is the next argument, 1 when the option is one argument,
 * 0 when it is for the guest. */
static int host_only(const char *arg)
{
	static const char *const with_value[] = { "--results", "--kernel", "--kernel-image", "--kernel-modules",
		"--userland", "--arch", "--vm-replay" };

	if (strcmp(arg, "--vm") == 0) {
		return 1;
	}
	for (size_t i = 0; i < sizeof(with_value) / sizeof(with_value[0]); i++) {
		size_t len = strlen(with_value[i]);

		if (strncmp(arg, with_value[i], len) == 0) {
			if (!arg[len]) {
				return 2;
			}
			if (arg[len] == '=') {
				return 1;
			}
		}
	}
	return 0;
}

/*
 * Writes the vkms device shaped like --board's dump to a new temporary file,
 * whose path it puts in path, and says what of the board it copies and what
 * it cannot. Returns 0, or an exit status with the error reported.
 */
static int write_vkms_board(const struct replay_options *o, char path[PATH_MAX])
{
	const char *tmp = getenv("TMPDIR");
	struct board_vkms_notes notes;
	struct hwct_error err;
	struct board *board = board_from_file(o->vm_board, o->profile_device, &err);
	FILE *f;
	int fd, ret;

	if (!board) {
		replay_error("--board: %s", err.message);
		return REPLAY_EXIT_USAGE;
	}
	snprintf(path, PATH_MAX, "%s/hwc-replay-board.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		replay_error("--board: cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		board_destroy(board);
		return REPLAY_EXIT_FAILED;
	}
	ret = board_vkms_write(board, f, &notes);
	if (fclose(f) != 0 && ret == 0) {
		ret = -EIO;
	}
	if (ret) {
		replay_error("--board %s: cannot shape a vkms device like it: %s", o->vm_board, strerror(-ret));
		unlink(path);
		board_destroy(board);
		return REPLAY_EXIT_FAILED;
	}
	replay_note(o->quiet, "vkms shaped like %s (driver %s):", o->vm_board, *board->driver ? board->driver :
		"unknown");
	for (size_t i = 0; i < notes.emulated_count; i++) {
		replay_note(o->quiet, "  emulated: %s", notes.emulated[i]);
	}
	for (size_t i = 0; i < notes.not_emulated_count; i++) {
		replay_note(o->quiet, "  not emulated: %s", notes.not_emulated[i]);
	}
	board_vkms_notes_finish(&notes);
	board_destroy(board);
	return 0;
}

/* Appends vm-run's kernel options (--kernel, --kernel-image, --kernel-modules). */
static size_t add_kernel_args(const struct replay_options *o, char **args, size_t n)
{
	if (o->vm_kernel) {
		args[n++] = "--kernel";
		args[n++] = (char *)o->vm_kernel;
	} else if (o->vm_board && !o->vm_kernel_image) {
		/* configfs came to vkms in a 7.x kernel: the newest line has it */
		args[n++] = "--kernel";
		args[n++] = "newest";
	}
	if (o->vm_kernel_image) {
		args[n++] = "--kernel-image";
		args[n++] = (char *)o->vm_kernel_image;
	}
	if (o->vm_kernel_modules) {
		args[n++] = "--kernel-modules";
		args[n++] = (char *)o->vm_kernel_modules;
	}
	if (o->vm_userland) {
		args[n++] = "--userland";
		args[n++] = (char *)o->vm_userland;
	}
	return n;
}

/*
 * Checks that path is an ELF program the guest of arch runs (aarch64 or arm
 * for arm64, x86-64 or i386 for amd64). Returns 0, or an exit status with the
 * error reported (what names the option or default it came from).
 */
static int check_guest_program(const char *path, const char *arch, const char *what)
{
	unsigned char h[20];
	bool arm64 = strcmp(arch, "arm64") == 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, h, sizeof(h)) : -1;
	unsigned machine;

	if (fd < 0) {
		replay_error("%s %s: %s", what, path, strerror(errno));
		return REPLAY_EXIT_TARGET;
	}
	close(fd);
	if (got != (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4) != 0) {
		replay_error("%s %s: not an ELF program", what, path);
		return REPLAY_EXIT_TARGET;
	}
	/* e_machine: 2 bytes at offset 18, in the file's byte order (EI_DATA 1: little) */
	machine = h[5] == 1 ? (unsigned)h[18] | (unsigned)h[19] << 8 : (unsigned)h[18] << 8 | (unsigned)h[19];
	if (arm64 ? machine != ELF_MACHINE_AARCH64 && machine != ELF_MACHINE_ARM :
		machine != ELF_MACHINE_X86_64 && machine != ELF_MACHINE_386) {
		replay_error("%s %s: a program for ELF machine %u, not for the %s guest (%s)", what, path, machine,
			arch, arm64 ? "aarch64 or arm" : "x86-64 or i386");
		return REPLAY_EXIT_TARGET;
	}
	return 0;
}

/*
 * The hwc-replay the guest of arch runs, written to out: --vm-replay's; this
 * program (self) when of that architecture; else, for arm64, the aarch64 cross
 * build beside this build tree (<build>/replayer/hwc-replay ->
 * <build>/../build-aarch64/replayer/hwc-replay, the folder scripts/test-cross.sh
 * builds). Returns 0, or an exit status with the error reported.
 */
static int guest_program(const struct replay_options *o, const char *arch, const char *self, char out[PATH_MAX])
{
	const char *slash = strrchr(self, '/');
	int dir = slash ? (int)(slash - self) : 0;
	struct stat st;

	if (o->vm_replay) {
		/* a relative path serves: the guest runs in this working directory */
		if (snprintf(out, PATH_MAX, "%s", o->vm_replay) >= PATH_MAX) {
			replay_error("--vm-replay: path too long");
			return REPLAY_EXIT_USAGE;
		}
		return check_guest_program(out, arch, "--vm-replay");
	}
	if (strcmp(arch, OWN_ARCH) == 0) {
		snprintf(out, PATH_MAX, "%s", self);
		return 0;
	}
	if (strcmp(arch, "arm64") == 0 && slash &&
		snprintf(out, PATH_MAX, "%.*s/../../build-aarch64/replayer/hwc-replay", dir, self) < PATH_MAX &&
		stat(out, &st) == 0) {
		return check_guest_program(out, arch, "the cross build's");
	}
	if (strcmp(arch, "arm64") == 0) {
		replay_error("--vm --arch arm64 needs an hwc-replay built for arm64: give one with --vm-replay PATH, "
			"or build build-aarch64 beside this build tree (meson setup build-aarch64 --cross-file "
			"cross/aarch64-linux-gnu.txt && ninja -C build-aarch64; docs/cross.md)");
	} else {
		replay_error("--vm --arch %s needs an hwc-replay built for %s: give one with --vm-replay PATH "
			"(an x86-64 build's replayer/hwc-replay)", arch, arch);
	}
	return o->expect ? REPLAY_EXIT_UNTESTABLE : REPLAY_EXIT_TARGET;
}

/*
 * An uninstalled program's harness: the vm-run beside self (a link the build
 * makes) and the build tree's vm-cache, written to run and cache. Returns
 * whether there is one.
 */
static bool build_tree_harness(const char *self, char run[PATH_MAX], char cache[PATH_MAX])
{
	const char *slash = strrchr(self, '/');
	int dir = slash ? (int)(slash - self) : 0;

	if (!slash || snprintf(run, PATH_MAX, "%.*s/vm-run", dir, self) >= PATH_MAX ||
		snprintf(cache, PATH_MAX, "%.*s/../vm-cache", dir, self) >= PATH_MAX) {
		return false;
	}
	return access(run, X_OK) == 0;
}

int replay_vm_exec(const struct replay_options *o, int argc, char **argv)
{
	const char *env_run = getenv("HWCT_VM_RUN");
	bool from_env = env_run && *env_run;
	const char *vm_run = from_env ? env_run : HWCT_VM_RUN;
	const char *cache = setting("HWCT_VM_CACHE", HWCT_VM_CACHE);
	char self[PATH_MAX], cwd[PATH_MAX], board_file[PATH_MAX] = "", guest[PATH_MAX];
	const char *arch = o->vm_arch ? o->vm_arch : OWN_ARCH;
	char tree_run[PATH_MAX], tree_cache[PATH_MAX];
	char **args = calloc((size_t)argc + 24, sizeof(*args));
	size_t n = 0;
	int out = STDOUT_FILENO, status;
	bool waited;
	pid_t pid;
	ssize_t len;

	if (!args) {
		replay_error("out of memory");
		return REPLAY_EXIT_FAILED;
	}
	if (o->dump_images) {
		replay_error("--dump-images cannot be used with --vm: the VM returns no files (use --device inside it)");
		free(args);
		return REPLAY_EXIT_USAGE;
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len > 0) {
		self[len] = '\0';
	}
	if (len > 0) {
		/* before the harness: a wrong program is the user's error wherever the VM is */
		status = guest_program(o, arch, self, guest);
		if (status) {
			free(args);
			return status;
		}
	}
	/* HWCT_VM_RUN, when set, is the harness even when it is not there (an error then) */
	if (!from_env && (!*vm_run || access(vm_run, X_OK) != 0) && len > 0 &&
		build_tree_harness(self, tree_run, tree_cache)) {
		vm_run = tree_run;
		cache = *cache ? cache : tree_cache;
	}
	if (!*vm_run || access(vm_run, X_OK) != 0 || len <= 0 || !getcwd(cwd, sizeof(cwd))) {
		replay_error("target vm is not available: no VM harness (%s); set HWCT_VM_RUN to tests/vm/vm-run",
			*vm_run ? vm_run : "not built with one");
		free(args);
		return o->expect ? REPLAY_EXIT_UNTESTABLE : REPLAY_EXIT_TARGET;
	}
	args[n++] = (char *)vm_run;
	if (strcmp(arch, "amd64") != 0) {
		args[n++] = "--arch";
		args[n++] = (char *)arch;
	}
	if (*cache) {
		args[n++] = "--cache";
		args[n++] = (char *)cache;
	}
	n = add_kernel_args(o, args, n);
	if (o->vm_kernel && !o->trace) {	/* --kernel list */
		args[n] = NULL;
		fflush(NULL);
		execv(vm_run, args);
		replay_error("cannot run %s: %s", vm_run, strerror(errno));
		free(args);
		return REPLAY_EXIT_FAILED;
	}
	if (o->vm_board) {
		int ret = write_vkms_board(o, board_file);

		if (ret) {
			free(args);
			return ret;
		}
		args[n++] = "--vkms-board";
		args[n++] = board_file;
	}
	args[n++] = "--cwd";
	args[n++] = cwd;
	args[n++] = "--";
	args[n++] = guest;
	for (int i = 1; i < argc; i++) {
		int skip = host_only(argv[i]);

		if (skip) {
			i += skip - 1;
			continue;
		}
		args[n++] = argv[i];
	}
	args[n++] = "--device";
	args[n++] = "/dev/dri/card0";
	if (o->results) {
		args[n++] = "--results";
		args[n++] = "-";
		if (strcmp(o->results, "-") != 0) {
			out = open(o->results, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (out < 0) {
				replay_error("%s: cannot write: %s", o->results, strerror(errno));
				if (*board_file) {
					unlink(board_file);
				}
				free(args);
				return REPLAY_EXIT_FAILED;
			}
		}
	}
	args[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (out != STDOUT_FILENO) {
			dup2(out, STDOUT_FILENO);
		}
		execv(vm_run, args);
		_exit(127);
	}
	free(args);
	if (out != STDOUT_FILENO) {
		close(out);
	}
	waited = pid > 0 && waitpid(pid, &status, 0) == pid;
	if (*board_file) {
		unlink(board_file);
	}
	if (!waited) {
		replay_error("cannot run %s: %s", vm_run, strerror(errno));
		return REPLAY_EXIT_FAILED;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : REPLAY_EXIT_FAILED;
}
