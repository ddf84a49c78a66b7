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
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "fuzz.h"

struct options {
	uint64_t seed;
	double seconds;
	uint64_t iterations;
	double chunk_seconds;
	uint64_t only_chunk;	/* UINT64_MAX: every chunk */
	const char *node;
	bool verbose;
	bool no_exec;
	bool no_check;
	bool huge_core_counts;
	uint64_t fast;
};

/* What a run found out and counted, besides the children's counters. */
struct run {
	char node[256];
	unsigned int timeout_ms;	/* the job timeout */
	int max_priority;
	struct fz_shared *sh;
	unsigned int died, hung;
	bool setup_failed;
	uint64_t start_ns, end_ns;
};

static void usage(FILE *out)
{
	fputs("Usage: tempo-fuzz [options]\n"
	      "  --seed N             random seed (default: from the clock; always printed)\n"
	      "  --seconds S          how long to fuzz (default 20)\n"
	      "  --iterations N       stop after N calls (default: no limit)\n"
	      "  --chunk-seconds S    life of one child process (default 2)\n"
	      "  --chunk K            run chunk K of the seed only (to replay a report)\n"
	      "  --device PATH        DRM node (default: $TEMPO_DEVICE, else the first\n"
	      "                       render node of the tempo driver; --node is the\n"
	      "                       same option's former name)\n"
	      "  --no-exec            submit no valid-looking jobs\n"
	      "  --no-check           skip the device check at the end\n"
	      "  --huge-core-counts   pass multi-gigabyte counts to the syncobj ioctls\n"
	      "                       (6.12's DRM core warns on those: not a tempo issue)\n"
	      "  --fast N             cheap calls between two operations (default 64)\n"
	      "  -v, --verbose        more output\n"
	      "  -h, --help           this text\n"
	      "      --version        print the version and exit\n", out);
}

/* ------------------------------------------------------------------------ */
/* Options */

enum opt_kind { OPT_FLAG, OPT_STRING, OPT_DOUBLE, OPT_U64 };

/* A long option: what its value is and where in struct options it goes. */
struct opt_desc {
	const char *name;
	enum opt_kind kind;
	size_t offset;
};

#define OPT(name, kind, field) { name, kind, offsetof(struct options, field) }

static const struct opt_desc opt_descs[] = {
	OPT("seed", OPT_U64, seed),
	OPT("seconds", OPT_DOUBLE, seconds),
	OPT("iterations", OPT_U64, iterations),
	OPT("chunk-seconds", OPT_DOUBLE, chunk_seconds),
	OPT("chunk", OPT_U64, only_chunk),
	OPT("device", OPT_STRING, node),
	OPT("node", OPT_STRING, node),
	OPT("no-exec", OPT_FLAG, no_exec),
	OPT("no-check", OPT_FLAG, no_check),
	OPT("huge-core-counts", OPT_FLAG, huge_core_counts),
	OPT("fast", OPT_U64, fast),
	OPT("verbose", OPT_FLAG, verbose),
};

#define NUM_OPTS	ARRAY_SIZE(opt_descs)

/*
 * @arg as a number of @kind into @field: a u64 (decimal, 0x hexadecimal or
 * 0 octal) or a finite double, without sign or leading space. 0, or -1
 * when @arg is not one, whole.
 */
static int parse_number(enum opt_kind kind, const char *arg, void *field)
{
	char *end;

	if (strchr(" \t\n+-", *arg))	/* the terminator too: empty */
		return -1;
	errno = 0;
	if (kind == OPT_DOUBLE) {
		double v = strtod(arg, &end);

		if (errno || *end || !isfinite(v))
			return -1;
		*(double *)field = v;
	} else {
		unsigned long long v = strtoull(arg, &end, 0);

		if (errno || *end)
			return -1;
		*(uint64_t *)field = v;
	}
	return 0;
}

/* The option's value into @o: 0, or -1 when it is not a value of its kind. */
static int set_option(struct options *o, const struct opt_desc *d,
		      const char *arg)
{
	char *field = (char *)o + d->offset;

	if (d->kind == OPT_FLAG)
		*(bool *)field = true;
	else if (d->kind == OPT_STRING)
		*(const char **)field = arg;
	else
		return parse_number(d->kind, arg, field);
	return 0;
}

/* A usage error: what was wrong, then the usage, on standard error. */
static int usage_error(const char *what)
{
	fprintf(stderr, "tempo-fuzz: %s\n", what);
	usage(stderr);
	return -1;
}

/* A value its option does not take, then the usage, on standard error. */
static int value_error(const struct opt_desc *d, const char *arg)
{
	fprintf(stderr, "tempo-fuzz: --%s: '%s' is not a %s\n", d->name, arg,
		d->kind == OPT_DOUBLE ? "number of seconds" : "whole number");
	usage(stderr);
	return -1;
}

/* Options into @o: 0, or -1 after a usage message. */
static int parse(int argc, char **argv, struct options *o)
{
	struct option longs[NUM_OPTS + 3] = {
		[NUM_OPTS] = { "help", no_argument, NULL, 'h' },
		[NUM_OPTS + 1] = { "version", no_argument, NULL, 'V' },
	};
	int opt;

	opterr = 0;	/* usage_error() names the program, not argv[0] */
	for (unsigned int i = 0; i < NUM_OPTS; i++)
		longs[i] = (struct option){
			opt_descs[i].name,
			opt_descs[i].kind == OPT_FLAG ? no_argument :
							required_argument,
			NULL, 256 + (int)i };
	while ((opt = getopt_long(argc, argv, "vh", longs, NULL)) != -1) {
		if (opt >= 256) {
			if (set_option(o, &opt_descs[opt - 256], optarg)) {
				return value_error(&opt_descs[opt - 256],
						   optarg);
			}
		} else if (opt == 'v') {
			o->verbose = true;
		} else if (opt == 'h') {
			usage(stdout);
			exit(0);
		} else if (opt == 'V') {
			printf("tempo-fuzz %s\n", TEMPO_VERSION_STRING);
			exit(0);
		} else {
			return usage_error("unknown option or missing value");
		}
	}
	if (optind != argc)
		return usage_error("unexpected argument");
	if (o->seconds <= 0 || o->chunk_seconds <= 0)
		return usage_error("--seconds and --chunk-seconds must be positive");
	return 0;
}

/* ------------------------------------------------------------------------ */
/* The device */

/*
 * Find the device and read what the run needs of it: 0, 77 when there is
 * none, 2 when it does not answer.
 */
static int probe(const struct options *o, struct run *run)
{
	struct drm_tempo_query_device dev;
	int fd, ret;

	if (o->node) {
		snprintf(run->node, sizeof(run->node), "%s", o->node);
		fd = open(o->node, O_RDWR | O_CLOEXEC);
		fd = fd < 0 ? -errno : fd;
	} else {
		fd = tempo_device_open_path(run->node, sizeof(run->node));
	}
	if (fd < 0) {
		printf("tempo-fuzz: %s: %s: skipped\n",
		       run->node[0] ? run->node : "no tempo device",
		       strerror(-fd));
		return 77;
	}
	ret = tempo_query_device(fd, &dev);
	close(fd);
	if (ret) {
		fprintf(stderr, "tempo-fuzz: %s: query failed: %s\n",
			run->node, strerror(-ret));
		return 2;
	}
	run->timeout_ms = dev.job_timeout_ms;
	run->max_priority = dev.max_priority;
	return 0;
}

/* Slot @slot of @ctx's default map runs a WRITE_DATA that reads back. */
static int check_slot(int fd, uint32_t ctx, const struct tempo_bo *bo,
		      uint32_t slot, unsigned int timeout_ms)
{
	const volatile uint32_t *map = bo->map;
	uint32_t value = 0xc0ffee00u + slot;
	struct tempo_batch b;
	int fence, status, ret;

	tempo_batch_init(&b, bo, 16384 + 256 * slot, 64);
	tempo_pkt_write32(&b, bo->va + 8 * slot, value);
	tempo_pkt_end(&b);
	ret = tempo_exec(fd, ctx, slot, b.va, NULL, 0, NULL, 0, &fence);
	if (ret) {
		fprintf(stderr, "tempo-fuzz: device check: exec on slot %u: %s\n",
			slot, strerror(-ret));
		return -1;
	}
	status = tempo_fence_wait(fence, (int)timeout_ms);
	close(fence);
	if (status != 1 || map[2 * slot] != value) {
		fprintf(stderr, "tempo-fuzz: device check: slot %u: fence status %d, value %#x\n",
			slot, status, map[2 * slot]);
		return -1;
	}
	return 0;
}

/*
 * A fresh file must work: a buffer, a context, a WRITE_DATA job on every
 * slot of the default engine map, each read back; the new context must
 * not report itself guilty. @fd is closed.
 */
static unsigned int check_file(int fd, unsigned int timeout_ms,
			       unsigned int *engines)
{
	struct drm_tempo_query_engines *e = tempo_query_engines(fd);
	struct tempo_bo bo = { 0 };
	unsigned int bad = 0;
	int64_t status = 0;
	uint32_t ctx;
	int ret;

	ret = e ? tempo_bo_new(fd, 65536, 0, &bo) : -errno;
	if (!ret)
		ret = tempo_ctx_create(fd, DRM_TEMPO_PRIORITY_NORMAL, NULL, 0,
				       &ctx);
	if (ret) {
		fprintf(stderr, "tempo-fuzz: device check: set-up failed: %s\n",
			strerror(-ret));
		bad = 1;
		goto out;
	}
	*engines = e->num_engines;
	for (uint32_t slot = 0; slot < e->num_engines; slot++)
		bad += check_slot(fd, ctx, &bo, slot, timeout_ms) != 0;
	ret = tempo_ctx_get_param(fd, ctx, DRM_TEMPO_CTX_PARAM_RESET_STATUS,
				  &status);
	if (ret || (status & DRM_TEMPO_RESET_STATUS_GUILTY)) {
		fprintf(stderr, "tempo-fuzz: device check: reset status %lld (%s)\n",
			(long long)status, ret ? strerror(-ret) : "guilty");
		bad++;
	}
out:
	tempo_bo_del(fd, &bo);
	free(e);
	close(fd);
	return bad;
}

static int device_check(const char *node, unsigned int timeout_ms)
{
	unsigned int engines = 0;
	int fd = open(node, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "tempo-fuzz: device check: open %s: %s\n", node,
			strerror(errno));
		return -1;
	}
	if (check_file(fd, timeout_ms, &engines))
		return -1;
	printf("tempo-fuzz: device check: a fresh file ran a job on each of %u engines\n",
	       engines);
	return 0;
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

/*
 * Wait for the chunk's child until @limit, when it is killed (and waited
 * for a little longer): its status, or CHUNK_HUNG.
 */
static enum chunk_result wait_child(pid_t pid, unsigned int chunk,
				    uint64_t deadline, uint64_t limit,
				    int *status)
{
	while (waitpid(pid, status, WNOHANG) != pid) {
		if (tempo_now_ns() <= limit) {
			usleep(20000);
			continue;
		}
		fprintf(stderr, "tempo-fuzz: chunk %u: child %d still running %.0f s after its deadline\n",
			chunk, pid, (double)(tempo_now_ns() - deadline) / 1e9);
		show_stuck(pid);
		kill(pid, SIGKILL);
		for (int i = 0; i < 100; i++) {
			usleep(100000);
			if (waitpid(pid, status, WNOHANG) == pid)
				return CHUNK_HUNG;
		}
		fprintf(stderr, "tempo-fuzz: chunk %u: child %d does not die (stuck in the kernel)\n",
			chunk, pid);
		show_stuck(pid);
		return CHUNK_HUNG;
	}
	return CHUNK_OK;
}

static enum chunk_result run_chunk(const struct options *o,
				   const struct run *run, unsigned int chunk,
				   uint64_t deadline)
{
	/* The leave path may wait twice the job timeout; then some slack. */
	uint64_t limit = deadline + 4ull * run->timeout_ms * 1000000ull +
			 30000000000ull;
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return CHUNK_SETUP;
	if (!pid) {
		struct fz_child c = {
			.sh = run->sh,
			.chunk = chunk,
			.seed = fz_mix(o->seed, chunk),
			.verbose = o->verbose,
			.huge_core_counts = o->huge_core_counts,
			.no_exec = o->no_exec,
			.fast = (unsigned int)o->fast,
			.node = run->node,
		};

		c.rng.s = c.seed | 1;
		_exit(fz_child_run(&c, o->iterations, deadline));
	}
	if (wait_child(pid, chunk, deadline, limit, &status) == CHUNK_HUNG)
		return CHUNK_HUNG;
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

/* Chunk after chunk until the time or the calls are used up. */
static void run_chunks(const struct options *o, struct run *run)
{
	struct fz_shared *sh = run->sh;
	bool one = o->only_chunk != UINT64_MAX;
	uint64_t stop = run->start_ns + (uint64_t)(o->seconds * 1e9);
	unsigned int chunk = one ? (unsigned int)o->only_chunk : 0;

	for (;; chunk++) {
		uint64_t now = tempo_now_ns(), before = sh->calls, deadline;
		enum chunk_result r;

		if (now >= stop || sh->calls >= o->iterations)
			break;
		deadline = now + (uint64_t)(o->chunk_seconds * 1e9);
		r = run_chunk(o, run, chunk, deadline < stop ? deadline : stop);
		sh->chunks_done++;
		if (o->verbose)
			printf("tempo-fuzz: chunk %u: %llu calls\n", chunk,
			       (unsigned long long)(sh->calls - before));
		if (r == CHUNK_SETUP) {
			fprintf(stderr, "tempo-fuzz: chunk %u could not set up\n",
				chunk);
			run->setup_failed = true;
			break;
		}
		run->died += r == CHUNK_DIED;
		run->hung += r == CHUNK_HUNG;
		if (r == CHUNK_HUNG || one)
			break;
	}
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

/* The totals and the verdict: 0 clean, 1 failed. */
static int summary(const struct options *o, const struct run *run)
{
	const struct fz_shared *sh = run->sh;
	double seconds = (double)(run->end_ns - run->start_ns) / 1e9;
	int failed = run->setup_failed;

	printf("tempo-fuzz: %llu calls in %.1f s (%.0f calls/s) over %llu chunks; %llu jobs submitted, %llu seen completing\n",
	       (unsigned long long)sh->calls, seconds,
	       (double)sh->calls / seconds,
	       (unsigned long long)sh->chunks_done,
	       (unsigned long long)sh->jobs_submitted,
	       (unsigned long long)sh->jobs_reaped);
	if (sh->violations) {
		printf("tempo-fuzz: %llu VIOLATIONS; first: %s\n",
		       (unsigned long long)sh->violations, sh->first_violation);
		failed = 1;
	}
	if (run->died || run->hung) {
		printf("tempo-fuzz: %u children died, %u hung\n", run->died,
		       run->hung);
		failed = 1;
	}
	if (!run->hung && !o->no_check &&
	    device_check(run->node, 4 * run->timeout_ms + 10000))
		failed = 1;
	printf("tempo-fuzz: %s (seed %#llx)\n", failed ? "FAILED" : "passed",
	       (unsigned long long)o->seed);
	return failed;
}

int main(int argc, char **argv)
{
	struct options o = {
		.seed = fz_mix((uint64_t)time(NULL), (uint64_t)getpid()),
		.seconds = 20,
		.iterations = UINT64_MAX,
		.chunk_seconds = 2,
		.only_chunk = UINT64_MAX,
		.fast = 64,
	};
	struct run run = { .timeout_ms = 2000 };
	int ret;

	if (parse(argc, argv, &o))
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = probe(&o, &run);
	if (ret)
		return ret;
	/* Counters that outlive the children. */
	run.sh = mmap(NULL, sizeof(*run.sh), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run.sh == MAP_FAILED) {
		perror("tempo-fuzz: mmap");
		return 2;
	}
	printf("tempo-fuzz: seed %#llx, %.1f s, node %s, uid %u, max priority %d, job timeout %u ms%s\n",
	       (unsigned long long)o.seed, o.seconds, run.node, getuid(),
	       run.max_priority, run.timeout_ms,
	       o.only_chunk != UINT64_MAX ? " (one chunk)" : "");
	printf("tempo-fuzz: replay with: tempo-fuzz --seed %#llx --chunk-seconds %g [--chunk K]\n",
	       (unsigned long long)o.seed, o.chunk_seconds);

	run.start_ns = tempo_now_ns();
	run_chunks(&o, &run);
	run.end_ns = tempo_now_ns();
	report(run.sh);
	return summary(&o, &run);
}
