/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tempo-fuzz: declarations shared by the fuzzer's files.
 *
 * One fuzzing "chunk" runs in a forked child with its own device files,
 * buffers, contexts and syncobjs; the parent only forks, watches and adds
 * up. Counters live in a shared anonymous mapping so that they survive a
 * child that dies.
 */
#ifndef TEMPO_FUZZ_H
#define TEMPO_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tempo_uapi.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------------ */
/* The ioctls and what each may return (table.c) */

enum fz_op {
	FZ_QUERY,
	FZ_BO_CREATE,
	FZ_BO_MMAP_OFFSET,
	FZ_VM_MAP,
	FZ_VM_UNMAP,
	FZ_CTX_CREATE,
	FZ_CTX_DESTROY,
	FZ_CTX_GET_PARAM,
	FZ_CTX_SET_PARAM,
	FZ_EXEC,
	FZ_SCHED,
	FZ_GEM_CLOSE,
	FZ_SYNCOBJ_CREATE,
	FZ_SYNCOBJ_DESTROY,
	FZ_SYNCOBJ_WAIT,
	FZ_SYNCOBJ_RESET,
	FZ_SYNCOBJ_SIGNAL,
	FZ_SYNCOBJ_TIMELINE_SIGNAL,
	/* Tempo ioctl numbers with random sizes and directions. */
	FZ_RAW_SIZE,
	/* Unused numbers of the driver range. */
	FZ_RAW_UNKNOWN,
	/* Not an ioctl: the error a completed job's fence carries. */
	FZ_FENCE,
	FZ_NUM_OPS
};

#define FZ_MAX_ALLOWED	12

struct fz_op_desc {
	const char *name;
	unsigned long request;		/* 0 for the pseudo entries */
	int allowed[FZ_MAX_ALLOWED];	/* documented errnos, 0-terminated */
};

extern const struct fz_op_desc fz_ops[FZ_NUM_OPS];
/* Errnos any ioctl may return: resource shortage and signals. */
extern const int fz_always_allowed[];

/* Flags of fz_check(). */
#define FZ_BAD_ARG	(1u << 0)	/* the argument pointer itself is bad */
#define FZ_MUST_FAIL	(1u << 1)	/* an MBZ field is set: 0 is wrong */
#define FZ_RAW		(1u << 2)	/* raw number: count as FZ_RAW_* */

bool fz_errno_allowed(enum fz_op op, int err, unsigned int flags);
enum fz_op fz_op_of_nr(unsigned int nr);

/* ------------------------------------------------------------------------ */
/* Counters shared with the parent (main.c) */

/* Slot 0 counts successes; errno e uses slot e; bigger ones the last. */
#define FZ_ERRNO_SLOTS	160

struct fz_shared {
	uint64_t counts[FZ_NUM_OPS][FZ_ERRNO_SLOTS];
	uint64_t calls;			/* ioctls, all chunks */
	uint64_t jobs_submitted;
	uint64_t jobs_reaped;
	uint64_t violations;
	uint64_t chunks_done;
	char first_violation[1024];
};

/* ------------------------------------------------------------------------ */
/* Random values (gen.c) */

struct fz_rng {
	uint64_t s;
};

uint64_t fz_rand(struct fz_rng *r);
uint32_t fz_below(struct fz_rng *r, uint32_t n);	/* [0, n) */
bool fz_chance(struct fz_rng *r, uint32_t one_in);
uint64_t fz_edge64(struct fz_rng *r);
uint32_t fz_edge32(struct fz_rng *r);
uint32_t fz_count32(struct fz_rng *r, uint32_t one_in, uint32_t usual);
void fz_fill(struct fz_rng *r, void *p, size_t n);
uint64_t fz_mix(uint64_t seed, uint64_t n);

/* ------------------------------------------------------------------------ */
/* A child's world (child.c) */

#define FZ_FILES	2
#define FZ_MAX_BOS	48
#define FZ_MAX_CTX	16
#define FZ_MAX_SYNCS	48
#define FZ_MAX_MAPS	48
#define FZ_STALE	16
#define FZ_MAX_JOBS	40
#define FZ_MAX_RISKY	4

#define FZ_CMD_SIZE	(256u * 1024u)
#define FZ_BATCH_SLOT	4096u
#define FZ_BATCH_SLOTS	(FZ_CMD_SIZE / FZ_BATCH_SLOT)
#define FZ_DATA_SIZE	(256u * 1024u)
#define FZ_GATE		0u		/* gate qword in the data arena */

struct fz_map {
	uint64_t va;
	uint64_t size;
};

struct fz_file {
	int fd;
	struct tempo_bo cmd;		/* batches */
	struct tempo_bo data;		/* what packets reach, the gate */
	uint64_t ro_va;			/* data arena again, READONLY */
	uint64_t hole_va;		/* a page with nothing mapped */

	uint32_t bos[FZ_MAX_BOS];
	uint64_t bo_sizes[FZ_MAX_BOS];
	unsigned int nbos;
	uint32_t ctxs[FZ_MAX_CTX];
	unsigned int nctxs;
	uint32_t syncs[FZ_MAX_SYNCS];
	unsigned int nsyncs;
	struct fz_map maps[FZ_MAX_MAPS];
	unsigned int nmaps;

	uint32_t stale_bos[FZ_STALE];
	uint32_t stale_ctxs[FZ_STALE];
	uint32_t stale_syncs[FZ_STALE];
	struct fz_map stale_maps[FZ_STALE];
	unsigned int nstale_bos, nstale_ctxs, nstale_syncs, nstale_maps;
};

struct fz_job {
	int fence;		/* sync_file */
	bool risky;		/* may run until the job timeout */
};

struct fz_child {
	struct fz_rng rng;
	struct fz_shared *sh;
	unsigned int chunk;
	uint64_t seed;
	bool verbose;
	bool huge_core_counts;
	bool no_exec;
	unsigned int fast;	/* cheap calls per operation */
	const char *node;

	struct drm_tempo_query_device dev;
	struct drm_tempo_engine engines[64];
	unsigned int num_engines;

	struct fz_file files[FZ_FILES];

	/* Memory for pointers: junk, a PROT_NONE page after it, a freed range */
	uint8_t *junk;		/* FZ_JUNK_SIZE random bytes */
	uint8_t *guard;		/* PROT_NONE page right after junk */
	uint8_t *ro_page;	/* PROT_READ page of random bytes */
	uint64_t freed;		/* address of a range that was unmapped */
	uint8_t *scratch;	/* arrays built for one call */

	struct fz_job jobs[FZ_MAX_JOBS];
	unsigned int njobs;
	unsigned int nrisky;
	unsigned int batch_next;

	uint64_t iterations;
	int other_fd;		/* a non-DRM file: /dev/null */
	bool bad_arg;		/* set by arg_ptr(), read by fz_ioctl() */
	bool trace;		/* $TEMPO_FUZZ_TRACE: log context ioctls */
};

#define FZ_JUNK_SIZE	(64u * 1024u)
#define FZ_SCRATCH_SIZE	(64u * 1024u)

int fz_child_run(struct fz_child *c, uint64_t max_calls,
		 uint64_t deadline_ns);

/* The call wrapper: counts, checks, returns 0 or the errno. */
int fz_ioctl(struct fz_child *c, enum fz_op op, int fd, unsigned long req,
	     void *arg, size_t argsz, unsigned int flags);
void fz_violation(struct fz_child *c, enum fz_op op, int err,
		  const char *what, const void *arg, size_t argsz);
void fz_count(struct fz_child *c, enum fz_op op, int err);

/* Pointers (child.c) */
uint64_t fz_ptr_bad(struct fz_child *c);
uint64_t fz_ptr_junk(struct fz_child *c, size_t len);

/* Operations (ops.c, fast.c) */
void fz_one(struct fz_child *c);
void fz_fast(struct fz_child *c, unsigned int n);
void fz_reap(struct fz_child *c, bool wait_all, int timeout_ms);

/* Batches (batch.c) */
uint64_t fz_batch(struct fz_child *c, struct fz_file *f, bool allow_risky,
		  bool *risky);

#endif /* TEMPO_FUZZ_H */
