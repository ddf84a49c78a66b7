// SPDX-License-Identifier: GPL-2.0-only
/*
 * One fuzzing chunk, in a child process: open the device twice, set up
 * arenas, run random operations until the deadline or the iteration
 * budget, then leave in one of the ways a real process leaves (wait for
 * its jobs, close its files with jobs in flight, or just exit).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <xf86drm.h>

#include "fuzz.h"

static unsigned int errno_slot(int err)
{
	if (err < 0)
		err = -err;
	return err < FZ_ERRNO_SLOTS - 1 ? (unsigned int)err : FZ_ERRNO_SLOTS - 1;
}

static void hexdump(char *out, size_t outsz, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t used = 0;

	out[0] = 0;
	if (n > 96)
		n = 96;
	for (size_t i = 0; i < n && used + 4 < outsz; i++) {
		used += (size_t)snprintf(out + used, outsz - used, "%s%02x",
					 i && !(i % 8) ? " " : "", b[i]);
	}
}

void fz_violation(struct fz_child *c, enum fz_op op, int err,
		  const char *what, const void *arg, size_t argsz)
{
	char line[1024], dump[400] = "";
	const char *name = err ? strerrorname_np(err) : "success";

	if (arg && argsz)
		hexdump(dump, sizeof(dump), arg, argsz);
	snprintf(line, sizeof(line),
		 "%s: %s (%s, errno %d) [chunk %u, chunk seed %#llx, iteration %llu]%s%s",
		 fz_ops[op].name, what, name ? name : "?", err, c->chunk,
		 (unsigned long long)c->seed,
		 (unsigned long long)c->iterations, dump[0] ? "; arg: " : "",
		 dump);
	/* The first ones in full; a bug tends to repeat itself. */
	if (c->sh->violations < 20)
		fprintf(stderr, "tempo-fuzz: VIOLATION: %s\n", line);
	else if (c->sh->violations == 20)
		fprintf(stderr, "tempo-fuzz: more violations: counted, not shown\n");
	if (!c->sh->violations)
		snprintf(c->sh->first_violation, sizeof(c->sh->first_violation),
			 "%s", line);
	c->sh->violations++;
}

void fz_count(struct fz_child *c, enum fz_op op, int err)
{
	c->sh->counts[op][errno_slot(err)]++;
}

int fz_ioctl(struct fz_child *c, enum fz_op op, int fd, unsigned long req,
	     void *arg, size_t argsz, unsigned int flags)
{
	enum fz_op counted = op;
	int err;

	if (c->bad_arg)
		flags |= FZ_BAD_ARG;
	c->bad_arg = false;
	err = -tempo_ioctl_raw(fd, req, arg);
	c->sh->calls++;
	if (c->trace)
		fprintf(stderr, "trace: %llu fd %d nr %#x size %u dir %u bad %d: %#x %#x -> %d\n",
			(unsigned long long)c->iterations, fd,
			(unsigned int)_IOC_NR(req), (unsigned int)_IOC_SIZE(req),
			(unsigned int)_IOC_DIR(req), !!(flags & FZ_BAD_ARG),
			(flags & FZ_BAD_ARG) || _IOC_SIZE(req) < 4 ? 0 : *(uint32_t *)arg,
			(flags & FZ_BAD_ARG) || _IOC_SIZE(req) < 24 ? 0 : ((uint32_t *)arg)[5],
			err);
	if (flags & FZ_RAW)
		counted = op == FZ_RAW_UNKNOWN ? FZ_RAW_UNKNOWN : FZ_RAW_SIZE;
	fz_count(c, counted, err);

	if (!fz_errno_allowed(op, err, flags) &&
	    !(counted == FZ_RAW_SIZE && fz_errno_allowed(FZ_RAW_SIZE, err, flags))) {
		fz_violation(c, counted, err,
			     (flags & FZ_RAW) ? "raw ioctl returned an errno outside the set of its number"
					      : "errno outside the documented set",
			     (flags & FZ_BAD_ARG) ? NULL : arg, argsz);
	} else if (!err && (flags & FZ_MUST_FAIL) && !(flags & FZ_BAD_ARG)) {
		fz_violation(c, counted, err, "accepted a non-zero MBZ field",
			     (flags & FZ_BAD_ARG) ? NULL : arg, argsz);
	}
	return err;
}

/* ------------------------------------------------------------------------ */
/* Pointers */

/* A pointer the kernel cannot read (or not all of what it reads). */
uint64_t fz_ptr_bad(struct fz_child *c)
{
	struct fz_rng *r = &c->rng;

	switch (fz_below(r, 10)) {
	case 0:
		return 0;
	case 1:
		return (uint64_t)(uintptr_t)c->guard;
	case 2:	/* straddles: any read of 8 bytes or more crosses the guard */
		return (uint64_t)(uintptr_t)c->guard - 1 - fz_below(r, 7);
	case 3:
		return c->freed + 8 * fz_below(r, 512);
	case 4:
		return 0xffff888000000000ull + 4096 * fz_below(r, 1024);
	case 5:
		return 0xffffffff81000000ull;
	case 6:
		return UINT64_MAX - fz_below(r, 16);
	case 7:
		return 0x8000000000000000ull;
	case 8:
		return 1 + fz_below(r, 4096);
	default:
		return (uint64_t)(uintptr_t)c->guard + 4096 * fz_below(r, 4);
	}
}

/* A readable pointer to @len bytes of random junk, sometimes misaligned. */
uint64_t fz_ptr_junk(struct fz_child *c, size_t len)
{
	size_t room, off;

	if (len >= FZ_JUNK_SIZE)
		return (uint64_t)(uintptr_t)c->junk;
	room = FZ_JUNK_SIZE - len;
	off = fz_below(&c->rng, (uint32_t)room + 1);
	if (!fz_chance(&c->rng, 4))
		off &= ~(size_t)7;
	return (uint64_t)(uintptr_t)(c->junk + off);
}

/* ------------------------------------------------------------------------ */
/* Set-up */

/*
 * One of the child's two files: the command and data arenas, the data
 * arena again read-only, a hole, two contexts and four syncobjs.
 */
static int file_init(struct fz_child *c, struct fz_file *f)
{
	int ret;

	memset(f, 0, sizeof(*f));
	f->fd = open(c->node, O_RDWR | O_CLOEXEC);
	if (f->fd < 0)
		return -errno;
	ret = tempo_bo_new(f->fd, FZ_CMD_SIZE, 0, &f->cmd);
	if (!ret)
		ret = tempo_bo_new(f->fd, FZ_DATA_SIZE, 0, &f->data);
	if (!ret)
		ret = tempo_vm_map(f->fd, f->data.handle,
				   DRM_TEMPO_VM_MAP_AUTO_VA |
				   DRM_TEMPO_VM_MAP_READONLY, &f->ro_va, 0,
				   FZ_DATA_SIZE);
	/* Below the VA range: never mapped. */
	f->hole_va = c->dev.va_start - 4096;
	/* Contexts to start with: the default map, at normal priority. */
	for (f->nctxs = 0; !ret && f->nctxs < 2; f->nctxs++)
		ret = tempo_ctx_create(f->fd, DRM_TEMPO_PRIORITY_NORMAL, NULL,
				       0, &f->ctxs[f->nctxs]);
	for (f->nsyncs = 0; !ret && f->nsyncs < 4; f->nsyncs++)
		if (drmSyncobjCreate(f->fd, 0, &f->syncs[f->nsyncs]))
			ret = -errno;
	return ret;
}

static int memory_init(struct fz_child *c)
{
	long page = sysconf(_SC_PAGESIZE);
	uint8_t *p;

	/* junk, then four guard pages */
	p = mmap(NULL, FZ_JUNK_SIZE + 4 * (size_t)page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	fz_fill(&c->rng, p, FZ_JUNK_SIZE);
	if (mprotect(p + FZ_JUNK_SIZE, 4 * (size_t)page, PROT_NONE))
		return -errno;
	c->junk = p;
	c->guard = p + FZ_JUNK_SIZE;

	p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	fz_fill(&c->rng, p, (size_t)page);
	if (mprotect(p, (size_t)page, PROT_READ))
		return -errno;
	c->ro_page = p;

	/*
	 * A range that was mapped and is not any more, far from where mmap()
	 * places things, so that no later mapping reuses it.
	 */
	p = mmap((void *)(uintptr_t)0x5f0000000000ull, 4 * (size_t)page,
		 PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	munmap(p, 4 * (size_t)page);
	c->freed = (uint64_t)(uintptr_t)p;

	c->scratch = mmap(NULL, FZ_SCRATCH_SIZE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->scratch == MAP_FAILED)
		return -errno;
	return 0;
}

static int device_init(struct fz_child *c, int fd)
{
	struct drm_tempo_query_engines *e;
	int ret;

	ret = tempo_query_device(fd, &c->dev);
	if (ret)
		return ret;
	e = tempo_query_engines(fd);
	if (!e)
		return -errno;
	c->num_engines = e->num_engines < ARRAY_SIZE(c->engines) ?
			 e->num_engines : ARRAY_SIZE(c->engines);
	for (unsigned int i = 0; i < c->num_engines; i++) {
		c->engines[i].engine_class = e->engines[i].engine_class;
		c->engines[i].engine_instance = e->engines[i].engine_instance;
	}
	free(e);
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * How long the jobs of a chunk may take to end once its gates are open.
 * A risky job may hold its engine, or compute units other engines' jobs
 * wait for, for up to a job timeout, and the scheduler's timeout, re-armed
 * by other jobs, may see it up to one more timeout late; the chunk has at
 * most FZ_MAX_RISKY of them in flight, and the previous chunk may have
 * left as many running. A job queued behind all of them on one engine
 * ends within that, plus some slack for a loaded host.
 */
static int drain_ms(const struct fz_child *c)
{
	return (int)c->dev.job_timeout_ms * 2 * 2 * FZ_MAX_RISKY + 2000;
}

/* Open every gate and, as asked, wait for the jobs. */
static void leave(struct fz_child *c)
{
	unsigned int how = fz_below(&c->rng, 4);

	for (unsigned int i = 0; i < FZ_FILES; i++)
		if (c->files[i].data.map)
			__atomic_store_n((uint64_t *)c->files[i].data.map,
					 UINT64_MAX, __ATOMIC_SEQ_CST);
	switch (how) {
	case 0:	/* wait for every job, then close */
		fz_reap(c, true, drain_ms(c));
		break;
	case 1:	/* close the files with jobs in flight, then reap */
		for (unsigned int i = 0; i < FZ_FILES; i++)
			close(c->files[i].fd);
		fz_reap(c, true, drain_ms(c));
		break;
	default: /* exit with everything open: the exit path closes it all */
		fz_reap(c, false, 0);
		break;
	}
}

int fz_child_run(struct fz_child *c, uint64_t max_calls,
		 uint64_t deadline_ns)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int ret;

	c->trace = getenv("TEMPO_FUZZ_TRACE") != NULL;
	/* No SA_RESTART: a blocked wait returns EINTR when the timer fires. */
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	ret = memory_init(c);
	if (ret) {
		fprintf(stderr, "tempo-fuzz: memory set-up: %s\n", strerror(-ret));
		return 2;
	}
	c->other_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	for (unsigned int i = 0; i < FZ_FILES; i++) {
		c->files[i].fd = -1;
		ret = file_init(c, &c->files[i]);
		if (!ret && i == 0)
			ret = device_init(c, c->files[0].fd);
		if (ret) {
			fprintf(stderr, "tempo-fuzz: chunk %u: device set-up: %s\n",
				c->chunk, strerror(-ret));
			return 2;
		}
	}
	/* file_init needs va_start: fix up the first file's hole. */
	c->files[0].hole_va = c->dev.va_start - 4096;

	for (c->iterations = 0; c->sh->calls < max_calls; c->iterations++) {
		if (!(c->iterations & 15) && tempo_now_ns() >= deadline_ns)
			break;
		fz_fast(c, c->fast);
		fz_one(c);
	}
	leave(c);
	return 0;
}
