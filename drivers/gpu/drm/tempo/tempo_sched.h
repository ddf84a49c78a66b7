/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Private to the scheduler glue (tempo_sched.c and its KUnit suite): jobs
 * as the hardware sees them. The rest of the driver handles a job only as
 * an opaque &struct tempo_job, through the functions of tempo_drv.h.
 */
#ifndef _TEMPO_SCHED_H_
#define _TEMPO_SCHED_H_

#include "hw/tempo_hw.h"
#include "tempo_drv.h"

/**
 * struct tempo_gang_job - what a parallel job carries to run_job
 * @hw: the gang as written into the HQD rings
 * @num_siblings: siblings per batch
 * @siblings: the candidate engines, as &tempo_slot.siblings
 */
struct tempo_gang_job {
	struct tempo_hw_gang hw;
	u32 num_siblings;
	struct tempo_engine_desc *siblings[TEMPO_MAX_BATCHES * TEMPO_MAX_SIBLINGS];
};

/**
 * struct tempo_job - a job from exec to free
 * @refcount: the exec's reference, and the scheduler's from push to
 *	free_job; the last one frees the job (tempo_job_put())
 * @base: the scheduler job; initialised when @base.s_fence is set
 * @hw: what is written in the HQD ring; its fence, allocated with the
 *	job, is initialised when its reference count is (by run_job, or at
 *	exec for a gang, so that the slot's next gang can depend on it), and
 *	lives on with its holders after the job
 * @mmu: the job's address space as the hardware walks it (@vm's)
 * @usage: its file's usage, which counts it in flight; @state references
 *	it (the exec's file until @state is set)
 * @vm: the address space; @state references it (the exec's file until
 *	@state is set)
 * @state: its context's state, referenced
 * @prio: its priority as the context had it when pushed (read under the
 *	context's lock), which placed it; it runs at
 *	&tempo_ctx_state.priority
 * @ceiling: the highest priority its submitter could have set itself
 *	(tempo_priority_ceiling()): no loan raises it above
 * @boost: the priority lent to it by the jobs that wait for it with
 *	%DRM_TEMPO_EXEC_INHERIT_PRIORITY (tempo_sched_promote()), at most
 *	@ceiling, or %S32_MIN; it runs at no lower priority while the loan
 *	lasts. Under its queue's ring lock, as @loan_mark and @loan_spent
 * @loan_mark: its HQD's running time when the loan started counting
 *	(when lent in the ring, or when written into it)
 * @loan_spent: the loan ran out: the job is never lent a priority again
 * @gang: for a parallel slot, the gang; @hw is then unused but for its
 *	fence, which is the gang's
 * @ring_link: in &tempo_queue.ring from run_job until the hardware
 *	reports the job's end
 * @usage_link: in &tempo_usage.running, likewise, but for gangs too
 * @submitted: run_job wrote the job into the HQD rings
 * @dequeued: run_job took the job from its entity, or it was freed
 *	without; counted out of &tempo_ctx_state.queued
 *
 * Allocated with its fence, both charged to the submitting file's memory
 * cgroup (and one more allocation for a gang).
 */
struct tempo_job {
	struct kref refcount;
	struct drm_sched_job base;
	struct tempo_hw_job hw;
	struct tempo_hw_mmu mmu;
	struct tempo_usage *usage;
	struct tempo_vm *vm;
	struct tempo_ctx_state *state;
	struct tempo_prio prio;
	s32 ceiling;
	s32 boost;
	u64 loan_mark;
	struct tempo_gang_job *gang;
	struct list_head ring_link;
	struct list_head usage_link;
	bool submitted;
	bool dequeued;
	bool loan_spent;
};

static inline struct tempo_job *to_tempo_job(struct drm_sched_job *job)
{
	return container_of(job, struct tempo_job, base);
}

/* tempo_job.c */
void tempo_job_dequeued(struct tempo_job *job);
void tempo_job_cancel_gang(struct tempo_job *job, int error);
void tempo_job_running(struct tempo_job *job);
void tempo_job_account(struct tempo_job *job);

#endif /* _TEMPO_SCHED_H_ */
