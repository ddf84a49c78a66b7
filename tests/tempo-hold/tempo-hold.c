// SPDX-License-Identifier: GPL-2.0-only
/*
 * tempo-hold: put work in flight on the tempo device and keep it there
 * until told otherwise, for shell scripts that unload the module or close
 * files around it (tests/guest/module-cycles.sh).
 *
 *   tempo-hold [--gate N] [--spin MS] [--queued N] [--contexts N]
 *              [--state FILE] [--then close|release|exit|keep-fence]
 *              [--timeout S]
 *
 * 1. Opens the render node, submits N jobs that wait on a gate in their
 *    own buffer (WAIT_MEM >= 1), a DISPATCH of SPIN for MS milliseconds,
 *    and N jobs queued behind the first gated one (an in-sync on its
 *    syncobj), then writes "submitted" to FILE. The gated jobs go round
 *    the contexts (one by default): a job that times out bans only its
 *    own context, so with several the gated jobs time out one by one.
 * 2. Waits for SIGUSR1 (or exits with status 3 after the timeout), then:
 *    close       closes the DRM file with the jobs in flight, exits;
 *    release     opens the gate, waits for every job, checks that none
 *                failed, closes, exits;
 *    exit        exits with everything open (the exit path closes it);
 *    keep-fence  closes the DRM file but keeps a sync_file of a job,
 *                writes "closed" to FILE, waits for SIGUSR1 again, then
 *                reads the fence's status through the sync_file, prints
 *                it and closes it.
 *
 * Exit status: 0, 1 on a failed check, 2 on usage or set-up errors, 3 on
 * timeout, 77 without a device.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <linux/sync_file.h>
#include <drm/tempo_drm.h>

#define BO_SIZE		(64 * 1024)
#define GATE		0
#define MAX_JOBS	64

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret < 0 && (errno == EINTR || errno == EAGAIN));
	return ret < 0 ? -errno : 0;
}

static bool is_tempo(int fd)
{
	char name[32] = "";
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

	return !ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "tempo");
}

static int open_tempo(void)
{
	const char *env = getenv("TEMPO_RENDER_NODE");
	struct dirent *d;
	DIR *dir;
	int fd = -1;

	if (env && *env)
		return open(env, O_RDWR | O_CLOEXEC);
	dir = opendir("/dev/dri");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		char path[300];

		if (strncmp(d->d_name, "renderD", 7))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", d->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0 && is_tempo(fd))
			break;
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	closedir(dir);
	return fd;
}

static void state(const char *file, const char *what)
{
	char tmp[4096];
	FILE *f;

	if (!file) {
		printf("%s\n", what);
		fflush(stdout);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%s\n", what);
	fclose(f);
	rename(tmp, file);
}

/* Wait for SIGUSR1 until @deadline (seconds of CLOCK_MONOTONIC). */
static bool wait_go(double deadline)
{
	struct timespec ts;

	while (!go) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (ts.tv_sec + ts.tv_nsec / 1e9 > deadline)
			return false;
		usleep(10000);
	}
	go = 0;
	return true;
}

static int fence_status(int fence, int timeout_ms)
{
	struct pollfd p = { .fd = fence, .events = POLLIN };
	struct sync_file_info info;

	if (timeout_ms)
		while (poll(&p, 1, timeout_ms) < 0 && errno == EINTR)
			;
	memset(&info, 0, sizeof(info));
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		return -1000 - errno;
	return info.status;
}

static void usage(FILE *out)
{
	fputs("usage: tempo-hold [options]\n"
	      "Put jobs in flight on the tempo device, write \"submitted\" to the\n"
	      "state file, wait for SIGUSR1, then do what --then says.\n"
	      "  --gate N       jobs waiting on a gate in their own buffer (default 1)\n"
	      "  --spin MS      also a DISPATCH of SPIN for MS milliseconds (default 0)\n"
	      "  --queued N     jobs queued behind the first gated one (default 0)\n"
	      "  --contexts N   contexts the gated jobs go round (default 1)\n"
	      "  --state FILE   where to write \"submitted\" (and \"closed\")\n"
	      "  --then WHAT    after SIGUSR1: close (the file, jobs in flight; the\n"
	      "                 default), release (open the gate, wait, check every\n"
	      "                 job), exit (with everything open) or keep-fence\n"
	      "                 (close the file, keep a job's sync_file, wait for\n"
	      "                 a second SIGUSR1, print its status)\n"
	      "  --timeout S    give up waiting for SIGUSR1 after S seconds (default 60)\n"
	      "  -h, --help     this text\n"
	      "Exit status: 0, 1 on a failed check, 2 on usage or set-up errors,\n"
	      "3 on timeout, 77 without a device.\n", out);
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "gate", required_argument, NULL, 'g' },
		{ "spin", required_argument, NULL, 's' },
		{ "queued", required_argument, NULL, 'q' },
		{ "contexts", required_argument, NULL, 'c' },
		{ "state", required_argument, NULL, 'f' },
		{ "then", required_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct drm_tempo_bo_create bc = { .size = BO_SIZE };
	struct drm_tempo_bo_mmap_offset mo = { 0 };
	struct drm_tempo_vm_map vm = { .flags = DRM_TEMPO_VM_MAP_AUTO_VA,
				       .size = BO_SIZE };
	struct drm_tempo_ctx_create cc = { 0 };
	struct drm_syncobj_create sc = { 0 };
	struct drm_tempo_query q = { .query = DRM_TEMPO_QUERY_ENGINES };
	struct sigaction sa = { .sa_handler = on_usr1 };
	unsigned int gated = 1, queued = 0, spin_ms = 0, njobs = 0, nctx = 1;
	uint32_t ctxs[MAX_JOBS];
	const char *file = NULL, *then = "close";
	double timeout = 60, deadline;
	int fences[MAX_JOBS], fd, opt, ret, failed = 0;
	uint32_t *cs, spin_slot = 0;
	uint8_t qbuf[8 + 8 * 64];
	struct timespec ts;
	uint8_t *map;

	while ((opt = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			return 0;
		case 'g':
			gated = (unsigned int)atoi(optarg);
			break;
		case 's':
			spin_ms = (unsigned int)atoi(optarg);
			break;
		case 'q':
			queued = (unsigned int)atoi(optarg);
			break;
		case 'c':
			nctx = (unsigned int)atoi(optarg);
			break;
		case 'f':
			file = optarg;
			break;
		case 't':
			then = optarg;
			break;
		case 'T':
			timeout = atof(optarg);
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (gated + queued + 1 > MAX_JOBS || (queued && !gated) ||
	    !nctx || nctx > MAX_JOBS ||
	    (strcmp(then, "close") && strcmp(then, "release") &&
	     strcmp(then, "exit") && strcmp(then, "keep-fence"))) {
		fprintf(stderr, "tempo-hold: bad arguments\n");
		return 2;
	}
	sigaction(SIGUSR1, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	deadline = ts.tv_sec + ts.tv_nsec / 1e9 + timeout;

	fd = open_tempo();
	if (fd < 0) {
		fprintf(stderr, "tempo-hold: no tempo render node\n");
		return 77;
	}
	/* Size probe, then the answer. */
	ret = xioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q);
	if (!ret && q.size > sizeof(qbuf))
		ret = -E2BIG;
	q.data = (uint64_t)(uintptr_t)qbuf;
	if (!ret)
		ret = xioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q);
	if (!ret)
		ret = xioctl(fd, DRM_IOCTL_TEMPO_BO_CREATE, &bc);
	mo.handle = vm.handle = bc.handle;
	if (!ret)
		ret = xioctl(fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &mo);
	if (!ret)
		ret = xioctl(fd, DRM_IOCTL_TEMPO_VM_MAP, &vm);
	for (unsigned int i = 0; !ret && i < nctx; i++) {
		cc.ctx_id = 0;
		ret = xioctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &cc);
		ctxs[i] = cc.ctx_id;
	}
	if (!ret)
		ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc);
	if (ret) {
		fprintf(stderr, "tempo-hold: set-up: %s\n", strerror(-ret));
		return 2;
	}
	{
		struct drm_tempo_query_engines *e = (void *)qbuf;

		for (uint32_t i = 0; i < e->num_engines; i++)
			if (e->engines[i].engine_class ==
			    DRM_TEMPO_ENGINE_CLASS_COMPUTE) {
				spin_slot = i;
				break;
			}
	}
	map = mmap(NULL, BO_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)mo.offset);
	if (map == MAP_FAILED) {
		perror("tempo-hold: mmap");
		return 2;
	}
	memset(map, 0, BO_SIZE);
	cs = (uint32_t *)(map + 4096);

	/* batch 0: wait for the gate, then END; batch 1: SPIN; batch 2: END */
	{
		uint64_t gate = vm.va + GATE;
		uint32_t b0[] = {
			DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WAIT_MEM, 8),
			(uint32_t)gate, (uint32_t)(gate >> 32),
			DRM_TEMPO_COMPARE_GE, 1, 0, UINT32_MAX, UINT32_MAX,
			DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_END, 1),
		};
		uint32_t b1[] = {
			DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_DISPATCH, 6),
			DRM_TEMPO_KERNEL_SPIN, 1, 1, 1, spin_ms * 1000000u,
			DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_END, 1),
		};

		memcpy(cs, b0, sizeof(b0));
		memcpy(cs + 64, b1, sizeof(b1));
		cs[128] = DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_END, 1);
	}
	for (unsigned int i = 0; i < gated + queued + (spin_ms ? 1 : 0); i++) {
		bool spin = spin_ms && i == gated + queued;
		uint64_t batch = vm.va + 4096 + 4 * (spin ? 64 : i < gated ? 0 : 128);
		struct drm_tempo_sync sync = { .handle = sc.handle };
		struct drm_tempo_exec x = {
			.ctx_id = ctxs[i < gated ? i % nctx : 0],
			.slot = spin ? spin_slot : 0,
			.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE,
			.num_batches = 1,
			.batches = (uint64_t)(uintptr_t)&batch,
			.out_fence_fd = -1,
		};

		/* The first gated job signals the syncobj; queued ones wait. */
		if (i == 0 && queued) {
			x.num_out_syncs = 1;
			x.out_syncs = (uint64_t)(uintptr_t)&sync;
		} else if (i >= gated && !spin) {
			x.num_in_syncs = 1;
			x.in_syncs = (uint64_t)(uintptr_t)&sync;
			/* On another engine, so that only the syncobj orders them. */
			x.slot = spin_slot;
		}
		ret = xioctl(fd, DRM_IOCTL_TEMPO_EXEC, &x);
		if (ret) {
			fprintf(stderr, "tempo-hold: exec %u: %s\n", i,
				strerror(-ret));
			return 2;
		}
		fences[njobs++] = x.out_fence_fd;
	}
	state(file, "submitted");

	if (!wait_go(deadline)) {
		fprintf(stderr, "tempo-hold: no SIGUSR1 within %.0f s\n", timeout);
		return 3;
	}
	if (!strcmp(then, "exit"))
		_exit(0);
	if (!strcmp(then, "release")) {
		__atomic_store_n((uint64_t *)(map + GATE), 1, __ATOMIC_SEQ_CST);
		for (unsigned int i = 0; i < njobs; i++) {
			int status = fence_status(fences[i], 30000);

			if (status != 1) {
				fprintf(stderr, "tempo-hold: job %u: fence status %d\n",
					i, status);
				failed = 1;
			}
		}
	}
	/* The mapping holds the file (and the module) too. */
	munmap(map, BO_SIZE);
	close(fd);
	if (strcmp(then, "keep-fence"))
		return failed;

	/* Only the sync_file of the last job is kept. */
	for (unsigned int i = 0; i + 1 < njobs; i++)
		close(fences[i]);
	state(file, "closed");
	if (!wait_go(deadline)) {
		fprintf(stderr, "tempo-hold: no second SIGUSR1 within %.0f s\n",
			timeout);
		return 3;
	}
	printf("tempo-hold: kept fence status %d\n",
	       fence_status(fences[njobs - 1], 0));
	{
		struct sync_file_info info;
		struct sync_fence_info fi[4];

		memset(&info, 0, sizeof(info));
		memset(fi, 0, sizeof(fi));
		info.num_fences = 4;
		info.sync_fence_info = (uint64_t)(uintptr_t)fi;
		if (!ioctl(fences[njobs - 1], SYNC_IOC_FILE_INFO, &info))
			printf("tempo-hold: kept fence: driver %s, timeline %s, status %d\n",
			       fi[0].driver_name, fi[0].obj_name, fi[0].status);
	}
	close(fences[njobs - 1]);
	return failed;
}
