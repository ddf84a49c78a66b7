// SPDX-License-Identifier: GPL-2.0-only
/*
 * tempo-fuzz: a fuzzer for the tempo uAPI.
 *
 *   tempo-fuzz [--seed N] [--seconds S] [--iterations N] [options]
 *
 * Every tempo ioctl and the DRM core ioctls a tempo client uses (GEM
 * close, syncobjs) are called with random, edge and stale values, bad
 * pointers, extension chains and random batches; every errno is checked
 * against the documented set (table.c), every completed job's fence error
 * too. The work runs in forked children, one per chunk of a few seconds,
 * so that the fuzzer itself cannot die and so that files are closed and
 * processes exit with work in flight. At the end a fresh file must still
 * run a job on every engine.
 *
 * Exit status: 0 clean; 1 a violation, a child that died or hung, or a
 * device that no longer works; 2 usage or set-up error; 77 no device.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include <linux/sync_file.h>

#include "fuzz.h"

struct options {
	uint64_t seed;
	double seconds;
	uint64_t iterations;
	double chunk_seconds;
	long only_chunk;
	const char *node;
	bool verbose;
	bool no_exec;
	bool no_check;
	bool huge_core_counts;
	unsigned int fast;
};

static void usage(FILE *out)
{
	fputs("usage: tempo-fuzz [options]\n"
	      "  --seed N             random seed (default: from the clock; always printed)\n"
	      "  --seconds S          how long to fuzz (default 20)\n"
	      "  --iterations N       stop after N calls (default: no limit)\n"
	      "  --chunk-seconds S    life of one child process (default 2)\n"
	      "  --chunk K            run chunk K of the seed only (to replay a report)\n"
	      "  --node PATH          render node (default: $TEMPO_RENDER_NODE, else the\n"
	      "                       first render node of the tempo driver)\n"
	      "  --no-exec            submit no valid-looking jobs\n"
	      "  --no-check           skip the device check at the end\n"
	      "  --huge-core-counts   pass multi-gigabyte counts to the syncobj ioctls\n"
	      "                       (6.12's DRM core warns on those: not a tempo issue)\n"
	      "  --fast N             cheap calls between two operations (default 64)\n"
	      "  -v, --verbose        more output\n", out);
}

static int parse(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "seconds", required_argument, NULL, 't' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "chunk-seconds", required_argument, NULL, 'c' },
		{ "chunk", required_argument, NULL, 'k' },
		{ "node", required_argument, NULL, 'd' },
		{ "no-exec", no_argument, NULL, 'E' },
		{ "no-check", no_argument, NULL, 'C' },
		{ "huge-core-counts", no_argument, NULL, 'H' },
		{ "fast", required_argument, NULL, 'F' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int opt;

	o->seed = fz_mix((uint64_t)time(NULL), (uint64_t)getpid());
	o->seconds = 20;
	o->iterations = UINT64_MAX;
	o->chunk_seconds = 2;
	o->only_chunk = -1;
	o->fast = 64;
	while ((opt = getopt_long(argc, argv, "vh", longs, NULL)) != -1) {
		switch (opt) {
		case 's':
			o->seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			o->seconds = atof(optarg);
			break;
		case 'n':
			o->iterations = strtoull(optarg, NULL, 0);
			break;
		case 'c':
			o->chunk_seconds = atof(optarg);
			break;
		case 'k':
			o->only_chunk = atol(optarg);
			break;
		case 'd':
			o->node = optarg;
			break;
		case 'E':
			o->no_exec = true;
			break;
		case 'C':
			o->no_check = true;
			break;
		case 'H':
			o->huge_core_counts = true;
			break;
		case 'F':
			o->fast = (unsigned int)atoi(optarg);
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc || o->seconds <= 0 || o->chunk_seconds <= 0) {
		usage(stderr);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* The device */

static bool is_tempo(int fd)
{
	char name[32] = "";
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

	if (ioctl(fd, DRM_IOCTL_VERSION, &v))
		return false;
	return !strcmp(name, "tempo");
}

static char *find_node(void)
{
	const char *env = getenv("TEMPO_RENDER_NODE");
	struct dirent **names;
	char *found = NULL;
	int n;

	if (env && *env)
		return strdup(env);
	n = scandir("/dev/dri", &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char path[300];
		int fd;

		if (!found && !strncmp(names[i]->d_name, "renderD", 7)) {
			snprintf(path, sizeof(path), "/dev/dri/%s",
				 names[i]->d_name);
			fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd >= 0 && is_tempo(fd))
				found = strdup(path);
			if (fd >= 0)
				close(fd);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return found;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret < 0 && (errno == EINTR || errno == EAGAIN));
	return ret < 0 ? -errno : 0;
}

static int fence_wait(int fence, int timeout_ms)
{
	struct pollfd p = { .fd = fence, .events = POLLIN };
	struct sync_file_info info;

	while (poll(&p, 1, timeout_ms) < 0 && errno == EINTR)
		;
	memset(&info, 0, sizeof(info));
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		return -1000 - errno;
	return info.status;
}

/*
 * A fresh file must work: a buffer, a context, a WRITE_DATA job on every
 * slot of the default engine map, each read back; the new context must
 * not report itself guilty.
 */
static int device_check(const char *node, unsigned int timeout_ms)
{
	struct drm_tempo_bo_create bc = { .size = 65536 };
	struct drm_tempo_bo_mmap_offset mo = { 0 };
	struct drm_tempo_vm_map vm = { .flags = DRM_TEMPO_VM_MAP_AUTO_VA,
				       .size = 65536 };
	struct drm_tempo_ctx_create cc = { 0 };
	struct drm_tempo_ctx_param rs = {
		.param = DRM_TEMPO_CTX_PARAM_RESET_STATUS };
	struct drm_tempo_query q = { .query = DRM_TEMPO_QUERY_ENGINES };
	volatile uint32_t *map;
	unsigned int engines, bad = 0;
	int fd, ret;

	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "tempo-fuzz: device check: open %s: %s\n", node,
			strerror(errno));
		return -1;
	}
	ret = xioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q);
	if (!ret)
		ret = xioctl(fd, DRM_IOCTL_TEMPO_BO_CREATE, &bc);
	mo.handle = vm.handle = bc.handle;
	if (!ret)
		ret = xioctl(fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &mo);
	if (!ret)
		ret = xioctl(fd, DRM_IOCTL_TEMPO_VM_MAP, &vm);
	if (!ret)
		ret = xioctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &cc);
	if (ret) {
		fprintf(stderr, "tempo-fuzz: device check: set-up failed: %s\n",
			strerror(-ret));
		close(fd);
		return -1;
	}
	engines = (q.size - 8) / 8;
	map = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)mo.offset);
	if (map == MAP_FAILED) {
		fprintf(stderr, "tempo-fuzz: device check: mmap: %s\n",
			strerror(errno));
		close(fd);
		return -1;
	}
	for (unsigned int slot = 0; slot < engines; slot++) {
		uint32_t *cs = (uint32_t *)map + 4096 + 64 * slot;
		uint64_t dst = vm.va + 8 * slot;
		uint64_t batch = vm.va + 4 * (4096 + 64 * slot);
		struct drm_tempo_exec x = {
			.ctx_id = cc.ctx_id,
			.slot = slot,
			.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE,
			.num_batches = 1,
			.batches = (uint64_t)(uintptr_t)&batch,
			.out_fence_fd = -1,
		};
		int status;

		cs[0] = DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_DATA, 4);
		cs[1] = (uint32_t)dst;
		cs[2] = (uint32_t)(dst >> 32);
		cs[3] = 0xc0ffee00u + slot;
		cs[4] = DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_END, 1);
		ret = xioctl(fd, DRM_IOCTL_TEMPO_EXEC, &x);
		if (ret) {
			fprintf(stderr, "tempo-fuzz: device check: exec on slot %u: %s\n",
				slot, strerror(-ret));
			bad++;
			continue;
		}
		status = fence_wait(x.out_fence_fd, (int)timeout_ms);
		close(x.out_fence_fd);
		if (status != 1 || map[2 * slot] != 0xc0ffee00u + slot) {
			fprintf(stderr, "tempo-fuzz: device check: slot %u: fence status %d, value %#x\n",
				slot, status, map[2 * slot]);
			bad++;
		}
	}
	rs.ctx_id = cc.ctx_id;
	ret = xioctl(fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &rs);
	if (ret || (rs.value & DRM_TEMPO_RESET_STATUS_GUILTY)) {
		fprintf(stderr, "tempo-fuzz: device check: reset status %lld (%s)\n",
			(long long)rs.value, ret ? strerror(-ret) : "guilty");
		bad++;
	}
	munmap((void *)map, 65536);
	close(fd);
	if (!bad)
		printf("tempo-fuzz: device check: a fresh file ran a job on each of %u engines\n",
		       engines);
	return bad ? -1 : 0;
}

/* ------------------------------------------------------------------------ */
/* Chunks */

enum chunk_result { CHUNK_OK, CHUNK_SETUP, CHUNK_DIED, CHUNK_HUNG };

static void show_stuck(pid_t pid)
{
	char path[64], buf[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
		fd = open(path, O_RDONLY);
	}
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0) {
		buf[n] = 0;
		fprintf(stderr, "tempo-fuzz: %s:\n%s\n", path, buf);
	}
}

static enum chunk_result run_chunk(const struct options *o,
				   struct fz_shared *sh, const char *node,
				   unsigned int chunk, uint64_t max_calls,
				   uint64_t deadline, unsigned int timeout_ms)
{
	/* The leave path may wait twice the job timeout; then some slack. */
	uint64_t limit = deadline + 4ull * timeout_ms * 1000000ull +
			 30000000000ull;
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return CHUNK_SETUP;
	if (!pid) {
		struct fz_child c = {
			.sh = sh,
			.chunk = chunk,
			.seed = fz_mix(o->seed, chunk),
			.verbose = o->verbose,
			.huge_core_counts = o->huge_core_counts,
			.no_exec = o->no_exec,
			.fast = o->fast,
			.node = node,
		};

		c.rng.s = c.seed | 1;
		_exit(fz_child_run(&c, max_calls, deadline));
	}
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (fz_now_ns() > limit) {
			fprintf(stderr, "tempo-fuzz: chunk %u: child %d still running %.0f s after its deadline\n",
				chunk, pid, (double)(fz_now_ns() - deadline) / 1e9);
			show_stuck(pid);
			kill(pid, SIGKILL);
			for (int i = 0; i < 100; i++) {
				usleep(100000);
				if (waitpid(pid, &status, WNOHANG) == pid)
					return CHUNK_HUNG;
			}
			fprintf(stderr, "tempo-fuzz: chunk %u: child %d does not die (stuck in the kernel)\n",
				chunk, pid);
			show_stuck(pid);
			return CHUNK_HUNG;
		}
		usleep(20000);
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "tempo-fuzz: chunk %u (seed %#llx): child killed by signal %d (%s)\n",
			chunk, (unsigned long long)fz_mix(o->seed, chunk),
			WTERMSIG(status), strsignal(WTERMSIG(status)));
		return CHUNK_DIED;
	}
	if (WEXITSTATUS(status) == 2)
		return CHUNK_SETUP;
	return WEXITSTATUS(status) ? CHUNK_DIED : CHUNK_OK;
}

/* ------------------------------------------------------------------------ */
/* Report */

static const char *errname(unsigned int slot)
{
	const char *n;

	if (!slot)
		return "ok";
	if (slot == FZ_ERRNO_SLOTS - 1)
		return "other";
	n = strerrorname_np((int)slot);
	return n ? n : "?";
}

static void report(const struct fz_shared *sh)
{
	uint64_t per_errno[FZ_ERRNO_SLOTS] = { 0 };

	printf("tempo-fuzz: calls and results per ioctl (\"ok\" is success; FENCE is the status of completed jobs):\n");
	for (int op = 0; op < FZ_NUM_OPS; op++) {
		uint64_t total = 0;
		char line[1024];
		size_t used = 0;

		for (unsigned int e = 0; e < FZ_ERRNO_SLOTS; e++)
			total += sh->counts[op][e];
		if (!total)
			continue;
		for (unsigned int e = 0; e < FZ_ERRNO_SLOTS; e++) {
			if (!sh->counts[op][e])
				continue;
			if (op != FZ_FENCE)
				per_errno[e] += sh->counts[op][e];
			used += (size_t)snprintf(line + used, sizeof(line) - used,
						 " %s:%llu", errname(e),
						 (unsigned long long)sh->counts[op][e]);
			if (used >= sizeof(line))
				break;
		}
		printf("  %-22s %10llu %s\n", fz_ops[op].name,
		       (unsigned long long)total, line);
	}
	printf("tempo-fuzz: all ioctls by result:");
	for (unsigned int e = 0; e < FZ_ERRNO_SLOTS; e++)
		if (per_errno[e])
			printf(" %s:%llu", errname(e),
			       (unsigned long long)per_errno[e]);
	printf("\n");
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct fz_shared *sh;
	uint64_t start, end, stop;
	unsigned int chunk, timeout_ms = 2000, died = 0, hung = 0;
	struct drm_tempo_query_device dev = { 0 };
	char *node;
	int fd, failed = 0;

	if (parse(argc, argv, &o))
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	node = o.node ? strdup(o.node) : find_node();
	if (!node) {
		printf("tempo-fuzz: no tempo render node: skipped\n");
		return 77;
	}
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("tempo-fuzz: %s: %s: skipped\n", node, strerror(errno));
		return 77;
	}
	{
		struct drm_tempo_query q = {
			.query = DRM_TEMPO_QUERY_DEVICE, .size = sizeof(dev),
			.data = (uint64_t)(uintptr_t)&dev };

		if (xioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q)) {
			fprintf(stderr, "tempo-fuzz: %s: query failed\n", node);
			return 2;
		}
		timeout_ms = dev.job_timeout_ms;
	}
	close(fd);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("tempo-fuzz: mmap");
		return 2;
	}
	printf("tempo-fuzz: seed %#llx, %.1f s, node %s, uid %u, max priority %d, job timeout %u ms%s\n",
	       (unsigned long long)o.seed, o.seconds, node, getuid(),
	       dev.max_priority, timeout_ms,
	       o.only_chunk >= 0 ? " (one chunk)" : "");
	printf("tempo-fuzz: replay with: tempo-fuzz --seed %#llx --chunk-seconds %g [--chunk K]\n",
	       (unsigned long long)o.seed, o.chunk_seconds);

	start = fz_now_ns();
	stop = start + (uint64_t)(o.seconds * 1e9);
	chunk = o.only_chunk >= 0 ? (unsigned int)o.only_chunk : 0;
	for (;; chunk++) {
		uint64_t now = fz_now_ns(), deadline, before = sh->calls;
		enum chunk_result r;

		if (now >= stop || sh->calls >= o.iterations)
			break;
		deadline = now + (uint64_t)(o.chunk_seconds * 1e9);
		if (deadline > stop)
			deadline = stop;
		r = run_chunk(&o, sh, node, chunk, o.iterations, deadline,
			      timeout_ms);
		sh->chunks_done++;
		if (o.verbose)
			printf("tempo-fuzz: chunk %u: %llu calls\n", chunk,
			       (unsigned long long)(sh->calls - before));
		if (r == CHUNK_SETUP) {
			fprintf(stderr, "tempo-fuzz: chunk %u could not set up\n",
				chunk);
			failed = 1;
			break;
		}
		died += r == CHUNK_DIED;
		hung += r == CHUNK_HUNG;
		if (r == CHUNK_HUNG || o.only_chunk >= 0)
			break;
	}
	end = fz_now_ns();

	report(sh);
	printf("tempo-fuzz: %llu calls in %.1f s (%.0f calls/s) over %llu chunks; %llu jobs submitted, %llu seen completing\n",
	       (unsigned long long)sh->calls, (double)(end - start) / 1e9,
	       (double)sh->calls / ((double)(end - start) / 1e9),
	       (unsigned long long)sh->chunks_done,
	       (unsigned long long)sh->jobs_submitted,
	       (unsigned long long)sh->jobs_reaped);
	if (sh->violations) {
		printf("tempo-fuzz: %llu VIOLATIONS; first: %s\n",
		       (unsigned long long)sh->violations, sh->first_violation);
		failed = 1;
	}
	if (died || hung) {
		printf("tempo-fuzz: %u children died, %u hung\n", died, hung);
		failed = 1;
	}
	if (!hung && !o.no_check &&
	    device_check(node, 4 * timeout_ms + 10000))
		failed = 1;
	printf("tempo-fuzz: %s (seed %#llx)\n", failed ? "FAILED" : "passed",
	       (unsigned long long)o.seed);
	free(node);
	return failed;
}
