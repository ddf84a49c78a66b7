// SPDX-License-Identifier: GPL-2.0-only
/*
 * tempo-hold: put work in flight on the tempo device and keep it there
 * until told otherwise, for shell scripts that unload the module or close
 * files around it (tests/guest/module-cycles.sh).
 *
 *   tempo-hold [--gate N] [--spin MS] [--spins N] [--queued N] [--contexts N]
 *              [--idle-kib N] [--state FILE]
 *              [--then close|release|exit|keep-fence] [--timeout S]
 *
 * 1. Opens the device ($TEMPO_DEVICE, else the render node of tempo),
 *    submits N jobs that wait on a gate in their own buffer (WAIT_MEM >=
 *    1), N DISPATCHes of SPIN for MS milliseconds each on one compute
 *    engine, one after the other, and N jobs queued behind
 *    the first gated one (an in-sync on its syncobj), then writes
 *    "submitted" to FILE. With --idle-kib, the file also holds a buffer
 *    of N KiB that nothing maps or touches: counted in fdinfo's
 *    drm-total-* keys, not in drm-resident-* (the jobs' buffer, 64 KiB,
 *    is in both). The gated jobs go round the contexts (one by
 *    default), the others use one more: a job that times out bans only
 *    its own context, so with several the gated jobs time out one by
 *    one.
 * 2. Waits for SIGUSR1 (or exits with status 3 after the timeout), then:
 *    close       closes the DRM file with the jobs in flight, exits;
 *    release     opens the gate, waits for every job, checks that none
 *                failed, closes, exits;
 *    exit        exits with everything open (the exit path closes it);
 *    keep-fence  closes the DRM file but keeps the last job's fence in
 *                its sync_file and in a syncobj exported as a file,
 *                writes "closed" to FILE, waits for SIGUSR1 again, then
 *                reads the fence's status and SYNC_IOC_FILE_INFO through
 *                the sync_file, prints them and closes both files.
 *
 * Exit status: 0, 1 on a failed check, 2 on usage or set-up errors, 3 on
 * timeout, 77 without a device.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "tempo_uapi.h"

#define BO_SIZE		(64 * 1024)
#define GATE		0
#define MAX_JOBS	64
/* The batches, after the gate's page: wait for the gate; SPIN; END. */
#define BATCH_GATED	4096
#define BATCH_SPIN	(4096 + 256)
#define BATCH_QUEUED	(4096 + 512)

struct hold {
	/* Options */
	unsigned int gated, queued, spin_ms, spins, nctx, idle_kib;
	const char *state;
	const char *then;
	double timeout_s;

	/* Set-up */
	int fd;
	struct tempo_bo bo;
	uint32_t ctxs[MAX_JOBS + 1];	/* the gated jobs', then the others' */
	uint32_t syncobj;
	uint32_t spin_slot;	/* a compute engine's slot, else 0 */

	/* Jobs */
	int fences[MAX_JOBS];
	unsigned int njobs;
	int syncobj_fd;	/* keep-fence: the last job's fence in a syncobj */
	uint64_t deadline_ns;
};

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

static void usage(FILE *out)
{
	fputs("usage: tempo-hold [options]\n"
	      "Put jobs in flight on the tempo device, write \"submitted\" to the\n"
	      "state file, wait for SIGUSR1, then do what --then says.\n"
	      "  --gate N       jobs waiting on a gate in their own buffer (default 1)\n"
	      "  --spin MS      also a DISPATCH of SPIN for MS milliseconds (default 0)\n"
	      "  --spins N      that many of them, one after the other (default 1)\n"
	      "  --queued N     jobs queued behind the first gated one (default 0)\n"
	      "  --contexts N   contexts the gated jobs go round (default 1)\n"
	      "  --idle-kib N   also a buffer of N KiB, never mapped (default 0)\n"
	      "  --state FILE   where to write \"submitted\" (and \"closed\")\n"
	      "  --then WHAT    after SIGUSR1: close (the file, jobs in flight; the\n"
	      "                 default), release (open the gate, wait, check every\n"
	      "                 job), exit (with everything open) or keep-fence\n"
	      "                 (close the file, keep a job's sync_file and a\n"
	      "                 syncobj file with its fence, wait for a second\n"
	      "                 SIGUSR1, print the fence's status, close them)\n"
	      "  --timeout S    give up waiting for SIGUSR1 after S seconds (default 60)\n"
	      "  -h, --help     this text\n"
	      "The device is $TEMPO_DEVICE, else the render node of tempo.\n"
	      "Exit status: 0, 1 on a failed check, 2 on usage or set-up errors,\n"
	      "3 on timeout, 77 without a device.\n", out);
}

static bool then_is(const struct hold *h, const char *what)
{
	return !strcmp(h->then, what);
}

/* Where the value of an option that takes a count goes, or NULL. */
static unsigned int *count_option(struct hold *h, int opt)
{
	static const char opts[] = "gsnqci";
	unsigned int *counts[] = { &h->gated, &h->spin_ms, &h->spins,
				   &h->queued, &h->nctx, &h->idle_kib };
	const char *p = opt ? strchr(opts, opt) : NULL;

	return p ? counts[p - opts] : NULL;
}

/* Where the value of an option that takes a string goes, or NULL. */
static const char **string_option(struct hold *h, int opt)
{
	if (opt == 'f')
		return &h->state;
	return opt == 't' ? &h->then : NULL;
}

/* Options into @h: 0, 1 for --help, -1 for bad ones. */
static int parse(int argc, char **argv, struct hold *h)
{
	static const struct option longs[] = {
		{ "gate", required_argument, NULL, 'g' },
		{ "spin", required_argument, NULL, 's' },
		{ "spins", required_argument, NULL, 'n' },
		{ "queued", required_argument, NULL, 'q' },
		{ "contexts", required_argument, NULL, 'c' },
		{ "idle-kib", required_argument, NULL, 'i' },
		{ "state", required_argument, NULL, 'f' },
		{ "then", required_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned int *count;
	const char **string;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
		count = count_option(h, opt);
		string = string_option(h, opt);
		if (count)
			*count = (unsigned int)atoi(optarg);
		else if (string)
			*string = optarg;
		else if (opt == 'T')
			h->timeout_s = atof(optarg);
		else
			return opt == 'h' ? 1 : -1;
	}
	if (h->gated + h->queued + h->spins > MAX_JOBS ||
	    (h->queued && !h->gated) ||
	    !h->nctx || h->nctx > MAX_JOBS ||
	    !(then_is(h, "close") || then_is(h, "release") ||
	      then_is(h, "exit") || then_is(h, "keep-fence")))
		return -1;
	return 0;
}

/* Write @what to the state file (or standard output), atomically. */
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

/* Wait for SIGUSR1 until the deadline. */
static bool wait_go(const struct hold *h)
{
	while (!go) {
		if (tempo_now_ns() > h->deadline_ns)
			return false;
		usleep(10000);
	}
	go = 0;
	return true;
}

/* The three batches of struct hold's layout. */
static void write_batches(struct hold *h)
{
	uint32_t spin[] = { h->spin_ms * 1000000u };
	struct tempo_batch b;

	memset(h->bo.map, 0, BO_SIZE);
	tempo_batch_init(&b, &h->bo, BATCH_GATED, 64);
	tempo_pkt_wait_mem(&b, h->bo.va + GATE, DRM_TEMPO_COMPARE_GE, 1,
			   UINT64_MAX);
	tempo_pkt_end(&b);
	tempo_batch_init(&b, &h->bo, BATCH_SPIN, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1, spin, 1);
	tempo_pkt_end(&b);
	tempo_batch_init(&b, &h->bo, BATCH_QUEUED, 64);
	tempo_pkt_end(&b);
}

/*
 * The device, a buffer (and the idle one), the contexts and a syncobj: 0
 * or -errno. The idle buffer lives as long as the file.
 */
static int setup(struct hold *h)
{
	struct drm_tempo_query_engines *engines;
	uint32_t idle;
	int slot, ret;

	engines = tempo_query_engines(h->fd);
	if (!engines)
		return -errno;
	slot = tempo_default_slot(engines, DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	h->spin_slot = slot < 0 ? 0 : (uint32_t)slot;
	free(engines);
	ret = tempo_bo_new(h->fd, BO_SIZE, 0, &h->bo);
	if (!ret && h->idle_kib)
		ret = tempo_bo_create(h->fd, (uint64_t)h->idle_kib * 1024,
				      &idle);
	for (unsigned int i = 0; !ret && i <= h->nctx; i++)
		ret = tempo_ctx_create(h->fd, DRM_TEMPO_PRIORITY_NORMAL, NULL,
				       0, &h->ctxs[i]);
	if (!ret && drmSyncobjCreate(h->fd, 0, &h->syncobj))
		ret = -errno;
	if (!ret)
		write_batches(h);
	return ret;
}

/*
 * Job @i: the gated ones first (the first signals the syncobj when jobs
 * are queued behind it), then the queued ones (waiting for it, on another
 * engine, so that only the syncobj orders them), then the SPIN. The
 * queued ones and the SPIN go to a context of their own: a gated job
 * that times out while they are submitted bans only the gated jobs'
 * context, and EXEC on it would fail with ECANCELED.
 */
static int submit_one(struct hold *h, unsigned int i)
{
	struct drm_tempo_sync sync = { .handle = h->syncobj };
	bool gated = i < h->gated, queued = !gated && i < h->gated + h->queued;
	int *fence = &h->fences[h->njobs];

	if (gated && !i && h->queued)
		return tempo_exec(h->fd, h->ctxs[0], 0, h->bo.va + BATCH_GATED,
				  NULL, 0, &sync, 1, fence);
	if (gated)
		return tempo_exec(h->fd, h->ctxs[i % h->nctx], 0,
				  h->bo.va + BATCH_GATED, NULL, 0, NULL, 0,
				  fence);
	if (queued)
		return tempo_exec(h->fd, h->ctxs[h->nctx], h->spin_slot,
				  h->bo.va + BATCH_QUEUED, &sync, 1, NULL, 0,
				  fence);
	return tempo_exec(h->fd, h->ctxs[h->nctx], h->spin_slot,
			  h->bo.va + BATCH_SPIN, NULL, 0, NULL, 0, fence);
}

static int submit(struct hold *h)
{
	unsigned int n = h->gated + h->queued + (h->spin_ms ? h->spins : 0);

	for (unsigned int i = 0; i < n; i++) {
		int ret = submit_one(h, i);

		if (ret) {
			fprintf(stderr, "tempo-hold: exec %u: %s\n", i,
				strerror(-ret));
			return ret;
		}
		h->njobs++;
	}
	return 0;
}

/* Open the gate and wait for every job: 1 if one did not succeed. */
static int release(struct hold *h)
{
	int failed = 0;

	__atomic_store_n((uint64_t *)((char *)h->bo.map + GATE), 1,
			 __ATOMIC_SEQ_CST);
	for (unsigned int i = 0; i < h->njobs; i++) {
		int status = tempo_fence_wait(h->fences[i], 30000);

		if (status != 1) {
			fprintf(stderr, "tempo-hold: job %u: fence status %d\n",
				i, status);
			failed = 1;
		}
	}
	return failed;
}

/* Print what the sync_file says of the fence it holds. */
static void print_fence(int fence)
{
	struct sync_fence_info fi[4];
	struct sync_file_info info;

	printf("tempo-hold: kept fence status %d\n", tempo_fence_status(fence));
	memset(&info, 0, sizeof(info));
	memset(fi, 0, sizeof(fi));
	info.num_fences = 4;
	info.sync_fence_info = (uint64_t)(uintptr_t)fi;
	if (!ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		printf("tempo-hold: kept fence: driver %s, timeline %s, status %d\n",
		       fi[0].driver_name, fi[0].obj_name, fi[0].status);
}

/*
 * The last job's fence in a syncobj of its own, exported as a file that
 * outlives the DRM file: 0 or -errno.
 */
static int keep_syncobj(struct hold *h)
{
	uint32_t handle;
	int ret;

	if (drmSyncobjCreate(h->fd, 0, &handle))
		return -errno;
	ret = drmSyncobjImportSyncFile(h->fd, handle,
				       h->fences[h->njobs - 1]);
	if (!ret)
		ret = drmSyncobjHandleToFD(h->fd, handle, &h->syncobj_fd);
	if (ret)
		ret = -errno;
	drmSyncobjDestroy(h->fd, handle);
	return ret;
}

/* With the file closed, keep the last job's fence until told. */
static int keep_fence(struct hold *h)
{
	int last = h->fences[h->njobs - 1];

	for (unsigned int i = 0; i + 1 < h->njobs; i++)
		close(h->fences[i]);
	state(h->state, "closed");
	if (!wait_go(h)) {
		fprintf(stderr, "tempo-hold: no second SIGUSR1 within %.0f s\n",
			h->timeout_s);
		return 3;
	}
	print_fence(last);
	close(last);
	close(h->syncobj_fd);
	printf("tempo-hold: kept sync_file and syncobj closed\n");
	return 0;
}

/* After SIGUSR1: what --then says. */
static int finish(struct hold *h)
{
	int failed = 0;

	if (then_is(h, "exit"))
		_exit(0);
	if (then_is(h, "release"))
		failed = release(h);
	if (then_is(h, "keep-fence"))
		failed = keep_syncobj(h);
	if (failed < 0) {
		fprintf(stderr, "tempo-hold: syncobj of the kept fence: %s\n",
			strerror(-failed));
		return 1;
	}
	/* The mapping holds the file (and the module) too. */
	munmap(h->bo.map, BO_SIZE);
	close(h->fd);
	if (then_is(h, "keep-fence") && keep_fence(h))
		return 3;
	return failed;
}

int main(int argc, char **argv)
{
	struct hold h = { .gated = 1, .spins = 1, .nctx = 1, .then = "close",
			  .timeout_s = 60 };
	struct sigaction sa = { .sa_handler = on_usr1 };
	int ret;

	ret = parse(argc, argv, &h);
	if (ret) {
		usage(ret > 0 ? stdout : stderr);
		return ret > 0 ? 0 : 2;
	}
	sigaction(SIGUSR1, &sa, NULL);
	h.deadline_ns = tempo_now_ns() + (uint64_t)(h.timeout_s * 1e9);

	h.fd = tempo_device_open();
	if (h.fd < 0) {
		fprintf(stderr, "tempo-hold: no tempo device: %s\n",
			strerror(-h.fd));
		return 77;
	}
	ret = setup(&h);
	if (ret) {
		fprintf(stderr, "tempo-hold: set-up: %s\n", strerror(-ret));
		return 2;
	}
	if (submit(&h))
		return 2;
	state(h.state, "submitted");

	if (!wait_go(&h)) {
		fprintf(stderr, "tempo-hold: no SIGUSR1 within %.0f s\n",
			h.timeout_s);
		return 3;
	}
	return finish(&h);
}
