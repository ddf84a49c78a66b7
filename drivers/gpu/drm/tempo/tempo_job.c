// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Jobs
 *
 * A job is what one exec asks of the hardware: one batch (or a gang of
 * batches for a parallel slot), its hardware fence, the address space it
 * runs in. The rest of the driver holds a job as an opaque pointer and
 * goes through this file: allocate it (counted against its file's jobs in
 * flight), make it a scheduler job of a slot, add dependencies, push it.
 *
 * The hardware walks a job's address space through the job's MMU, which
 * translates with tempo_vm_translate() under the VM's reader lock.
 *
 * Every job alive is counted device-wide: jobs dropped with their entity
 * are freed from a work item once their dependencies signal, possibly
 * after every file closed, and the module may not go before them.
 */

#include <linux/slab.h>

#include <drm/drm_file.h>

#include "tempo_sched.h"
#include "tempo_trace.h"

static struct tempo_vm *mmu_vm(struct tempo_hw_mmu *mmu)
{
	return container_of(mmu, struct tempo_job, mmu)->vm;
}

static void job_mmu_lock(struct tempo_hw_mmu *mmu)
	__acquires(mmu)
{
	tempo_vm_lock_translations(mmu_vm(mmu));
}

static void job_mmu_unlock(struct tempo_hw_mmu *mmu)
	__releases(mmu)
{
	tempo_vm_unlock_translations(mmu_vm(mmu));
}

static void *job_mmu_translate(struct tempo_hw_mmu *mmu, u64 va, u32 len,
			       bool write)
{
	return tempo_vm_translate(mmu_vm(mmu), va, len, write);
}

static const struct tempo_hw_mmu_ops tempo_job_mmu_ops = {
	.lock = job_mmu_lock,
	.unlock = job_mmu_unlock,
	.translate = job_mmu_translate,
};

static atomic_t jobs_alive = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(jobs_wq);

/* Count a job in, against its file's limit; false when the file is full. */
static bool job_count_in(struct tempo_usage *usage)
{
	if (atomic_inc_return(&usage->jobs) > READ_ONCE(tempo_params.max_jobs)) {
		atomic_dec(&usage->jobs);
		return false;
	}
	atomic_inc(&jobs_alive);
	return true;
}

/*
 * The last thing a job does, with what references its file's usage and
 * address space for it (its context's state, or the exec's file): teardown
 * may go on once it is counted out.
 */
static void job_count_out(struct tempo_usage *usage,
			  struct tempo_ctx_state *state)
{
	atomic_dec(&usage->jobs);
	tempo_ctx_state_put(state);
	if (atomic_dec_and_test(&jobs_alive))
		wake_up_all(&jobs_wq);
}

static int gang_alloc(struct tempo_job *job, const struct tempo_slot *slot,
		      const u64 *batches)
{
	struct tempo_gang_job *g = kzalloc(sizeof(*g), GFP_KERNEL_ACCOUNT);
	u32 i;

	if (!g)
		return -ENOMEM;
	g->hw.width = slot->width;
	g->hw.fence = job->hw.fence;
	g->num_siblings = slot->num_siblings;
	memcpy(g->siblings, slot->siblings,
	       slot->width * slot->num_siblings * sizeof(g->siblings[0]));
	for (i = 0; i < slot->width; i++) {
		g->hw.members[i].mmu = &job->mmu;
		g->hw.members[i].batch_va = batches[i];
	}
	job->gang = g;
	return 0;
}

/**
 * tempo_job_alloc() - allocate a job and its hardware fence
 * @usage: the submitting file's usage, which counts its jobs in flight
 * @vm: the submitting file's address space, the job's
 * @slot: the slot it is for
 * @batches: GPU addresses of its batches, @slot->width of them
 *
 * Everything is charged to the caller's memory cgroup. The job takes no
 * reference on @usage and @vm: the submitting file holds them until
 * tempo_job_init() references the context's state, which holds them.
 * The caller holds the one reference the job starts with.
 *
 * Context: process; may sleep.
 * Return: the job, ERR_PTR(-EAGAIN) when the file already has
 * &tempo_params.max_jobs jobs in flight, or ERR_PTR(-ENOMEM).
 */
struct tempo_job *tempo_job_alloc(struct tempo_usage *usage,
				  struct tempo_vm *vm,
				  const struct tempo_slot *slot,
				  const u64 *batches)
{
	struct tempo_job *job;

	BUILD_BUG_ON(TEMPO_MAX_BATCHES > TEMPO_HW_MAX_WIDTH);
	if (!job_count_in(usage))
		return ERR_PTR(-EAGAIN);
	job = kzalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job)
		goto err_count;
	/* run_job may not allocate it: it is the fence run_job returns. */
	job->hw.fence = kzalloc(sizeof(*job->hw.fence), GFP_KERNEL_ACCOUNT);
	if (!job->hw.fence)
		goto err_free;
	kref_init(&job->refcount);
	job->usage = usage;
	job->dequeued = true;	/* until pushed */
	INIT_LIST_HEAD(&job->ring_link);
	INIT_LIST_HEAD(&job->usage_link);
	job->vm = vm;
	job->mmu.ops = &tempo_job_mmu_ops;
	job->hw.mmu = &job->mmu;
	job->hw.batch_va = batches[0];
	if (slot->kind == TEMPO_SLOT_PARALLEL && gang_alloc(job, slot, batches))
		goto err_free_fence;
	return job;

err_free_fence:
	kfree(job->hw.fence);
err_free:
	kfree(job);
err_count:
	job_count_out(usage, NULL);
	return ERR_PTR(-ENOMEM);
}

/**
 * tempo_job_init() - make a job a scheduler job of a context slot
 * @job: the job
 * @ctx: the context; the job references its state
 * @entity: the entity of the slot of @ctx that takes the job
 * @file: the submitting file
 *
 * The job is its own drm_sched owner, so that its finished fence leads
 * back to it (see tempo_sched_promote()).
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int tempo_job_init(struct tempo_job *job, struct tempo_ctx *ctx,
		   struct drm_sched_entity *entity, struct drm_file *file)
{
	u32 i;

	job->state = tempo_ctx_state_get(ctx->state);
	job->hw.cancel = &job->state->guilty;
	for (i = 0; job->gang && i < job->gang->hw.width; i++)
		job->gang->hw.members[i].cancel = &job->state->guilty;
	job->ceiling = tempo_priority_ceiling(file);
	job->boost = S32_MIN;
	return drm_sched_job_init(&job->base, entity, 1, job,
				  to_tempo_file(file)->client_id);
}

/**
 * tempo_job_add_dependency() - the job runs after a fence signals
 * @job: the job, initialised
 * @fence: the fence; the reference is the job's, even on failure
 *
 * Context: process; may sleep.
 * Return: 0 or -ENOMEM.
 */
int tempo_job_add_dependency(struct tempo_job *job, struct dma_fence *fence)
{
	return drm_sched_job_add_dependency(&job->base, fence);
}

/*
 * Gangs of one parallel slot run one after the other: each waits for the
 * hardware fence of the slot's previous gang (members of consecutive gangs
 * are on different HQDs, so ring order alone does not order them, and
 * drm_sched ignores dependencies on the entity's own fences). The gang's
 * fence is initialised here, in the slot's own fence context, so the next
 * gang can depend on it.
 */
static int job_order_gang(struct tempo_job *job, struct tempo_slot *slot)
{
	struct tempo_hw_fence *fence = job->hw.fence;
	int ret;

	if (!job->gang)
		return 0;
	if (slot->last && !dma_fence_is_signaled(slot->last)) {
		ret = drm_sched_job_add_dependency(&job->base,
						   dma_fence_get(slot->last));
		if (ret)
			return ret;
	}
	tempo_hw_fence_init(fence, slot->fence_context, ++slot->seqno);
	dma_fence_put(slot->last);
	slot->last = dma_fence_get(&fence->base);
	return 0;
}

/* The jobs it waits for are lent its priority (tempo_sched_promote()). */
static void job_promote_deps(struct tempo_job *job, struct tempo_device *tdev,
			     s32 priority)
{
	struct dma_fence *fence;
	unsigned long i;

	if (xa_empty(&job->base.dependencies))
		return;
	xa_for_each(&job->base.dependencies, i, fence)
		tempo_sched_promote(tdev, fence, priority);
}

/**
 * tempo_job_push() - hand a job to its slot's entity
 * @job: the job, initialised, its dependencies added
 * @ctx: its context
 * @slot: the slot of @ctx it was initialised for
 * @ctx_id: the context's id, for the trace
 * @want_fence: whether the caller publishes the job's finished fence
 * @inherit: whether the job lends its priority to the jobs it waits for
 *	(%DRM_TEMPO_EXEC_INHERIT_PRIORITY)
 *
 * Under the context's lock: the job takes the context's priority of the
 * moment, which places it (a change of priority cannot come in between),
 * a gang is ordered after the slot's previous one, a balanced slot is
 * pointed at its least-loaded sibling, then the job is armed (the point
 * of no return), lends its priority to the jobs it waits for if
 * @inherit, and is pushed. On success the scheduler holds a reference
 * to the job of its own, which free_job drops; the caller keeps its own.
 *
 * Context: process; takes the context's lock.
 * Return: a reference to the job's finished fence (NULL unless
 * @want_fence), or an ERR_PTR() when nothing was pushed.
 */
struct dma_fence *tempo_job_push(struct tempo_job *job, struct tempo_ctx *ctx,
				 struct tempo_slot *slot, u32 ctx_id,
				 bool want_fence, bool inherit)
{
	struct dma_fence *fence = NULL;
	s32 priority;
	int ret;

	mutex_lock(&ctx->lock);
	priority = tempo_ctx_priority(ctx);
	job->prio = tempo_priority_map(ctx->tdev, priority);
	ret = job_order_gang(job, slot);
	if (ret) {
		mutex_unlock(&ctx->lock);
		return ERR_PTR(ret);
	}
	if (slot->kind == TEMPO_SLOT_BALANCED)
		tempo_map_balance(ctx->tdev, slot, job->prio.high);
	drm_sched_job_arm(&job->base);
	if (inherit)
		job_promote_deps(job, ctx->tdev, priority);
	if (want_fence)
		fence = dma_fence_get(&job->base.s_fence->finished);
	atomic_inc(&job->state->queued);
	job->dequeued = false;
	trace_tempo_job_queued(&job->base, ctx_id, slot - ctx->slots,
			       priority);
	kref_get(&job->refcount);
	drm_sched_entity_push_job(&job->base);
	mutex_unlock(&ctx->lock);
	return fence;
}

/**
 * tempo_job_dequeued() - the job left its entity
 * @job: the job: run_job took it, or it is freed without
 *
 * Context: any.
 */
void tempo_job_dequeued(struct tempo_job *job)
{
	struct tempo_ctx_state *state = job->state;

	if (job->dequeued || !state)
		return;
	job->dequeued = true;
	if (atomic_dec_and_test(&state->queued))
		wake_up_all(&state->idle_wq);
}

/**
 * tempo_job_cancel_gang() - signal the fence of a gang that never ran
 * @job: a parallel job whose fence was initialised at exec
 * @error: the error its fence carries
 *
 * The slot's next gang depends on the fence: it must signal even when the
 * gang never reaches the hardware.
 *
 * Context: any.
 */
void tempo_job_cancel_gang(struct tempo_job *job, int error)
{
	struct dma_fence *fence = &job->hw.fence->base;
	bool cookie;

	if (dma_fence_is_signaled(fence))
		return;
	cookie = dma_fence_begin_signalling();
	dma_fence_set_error(fence, error);
	dma_fence_signal(fence);
	dma_fence_end_signalling(cookie);
}

/* The parts of @job on the hardware: 1, or its gang's members. */
static u32 job_width(const struct tempo_job *job)
{
	return job->gang ? job->gang->hw.width : 1;
}

/*
 * Part @i of @job as the hardware runs it, and the class of the engines
 * it may run on (a gang's column has one class): no lock of the
 * hardware's is taken to tell.
 */
static struct tempo_hw_job *job_part(struct tempo_job *job, u32 i, u32 *class)
{
	struct tempo_gang_job *g = job->gang;

	if (!g) {
		*class = to_tempo_queue(job->base.sched)->engine_class;
		return &job->hw;
	}
	*class = g->siblings[i * g->num_siblings]->engine_class;
	return &g->hw.members[i];
}

/**
 * tempo_job_running() - a job goes to the hardware
 * @job: the job, about to be submitted
 *
 * Its file's fdinfo counts its running time from now on, until the
 * hardware reports its end (tempo_job_account()).
 *
 * Context: any.
 */
void tempo_job_running(struct tempo_job *job)
{
	struct tempo_usage *usage = job->usage;
	unsigned long flags;

	spin_lock_irqsave(&usage->lock, flags);
	list_add_tail(&job->usage_link, &usage->running);
	spin_unlock_irqrestore(&usage->lock, flags);
}

/**
 * tempo_job_account() - add an ended job's times to its file
 * @job: the job, whose end the hardware reports; it went through
 *	tempo_job_running()
 *
 * The GPU time and the host CPU time the hardware reports for the job,
 * on the class of each engine it ran on. The job leaves its file's
 * running jobs first: tempo_usage_busy_ns() may miss it for a moment,
 * but never counts it twice.
 *
 * Context: the hardware's completion interrupt.
 */
void tempo_job_account(struct tempo_job *job)
{
	struct tempo_usage *usage = job->usage;
	struct tempo_hw_job *hw;
	unsigned long flags;
	u32 i, c;

	spin_lock_irqsave(&usage->lock, flags);
	list_del_init(&job->usage_link);
	spin_unlock_irqrestore(&usage->lock, flags);
	for (i = 0; i < job_width(job); i++) {
		hw = job_part(job, i, &c);
		if (c >= TEMPO_NUM_CLASSES)
			continue;
		atomic64_add(tempo_hw_job_run_ns(hw), &usage->busy_ns[c]);
		tempo_usage_add_cpu(usage, c, hw->cpu_ns);
	}
}

/*
 * What the file's jobs on the hardware ran so far on one class: under the
 * file's lock, which the hardware takes only as one of them ends, and
 * none of the hardware's.
 */
static u64 usage_running_ns(struct tempo_usage *usage, u32 engine_class)
{
	struct tempo_hw_job *hw;
	struct tempo_job *job;
	unsigned long flags;
	u64 ns = 0;
	u32 i, c;

	spin_lock_irqsave(&usage->lock, flags);
	list_for_each_entry(job, &usage->running, usage_link) {
		for (i = 0; i < job_width(job); i++) {
			hw = job_part(job, i, &c);
			if (c == engine_class)
				ns += tempo_hw_job_run_ns(hw);
		}
	}
	spin_unlock_irqrestore(&usage->lock, flags);
	return ns;
}

/**
 * tempo_usage_busy_ns() - a file's engine time on one class
 * @usage: the file's counters
 * @engine_class: the class
 *
 * The jobs that ended and those on the hardware. The ended jobs' time is
 * read first: a job that ends in between is missed this time, never
 * counted twice, and what was shown before is shown again instead.
 *
 * Context: any.
 * Return: nanoseconds, never less than a previous call returned.
 */
u64 tempo_usage_busy_ns(struct tempo_usage *usage, u32 engine_class)
{
	atomic64_t *shown = &usage->busy_shown[engine_class];
	s64 ns, old;

	ns = atomic64_read(&usage->busy_ns[engine_class]);
	ns += usage_running_ns(usage, engine_class);
	old = atomic64_read(shown);
	do {
		if (ns <= old)
			return old;
	} while (!atomic64_try_cmpxchg(shown, &old, ns));
	return ns;
}

/* A fence is initialised once it is counted. */
static bool fence_inited(struct tempo_hw_fence *fence)
{
	return kref_read(&fence->base.refcount);
}

/*
 * The job's last reference: every state it can end in. A gang fence
 * initialised at exec signals even if the gang never reached the
 * hardware (the slot's next gang depends on it); the job's own reference
 * to its fence goes, or the fence is freed if it was never initialised.
 */
static void job_release(struct kref *ref)
{
	struct tempo_job *job = container_of(ref, struct tempo_job, refcount);
	struct tempo_hw_fence *fence = job->hw.fence;
	struct tempo_usage *usage = job->usage;
	struct tempo_ctx_state *state = job->state;

	tempo_job_dequeued(job);
	WARN_ON(!list_empty(&job->usage_link));
	if (job->base.s_fence)
		drm_sched_job_cleanup(&job->base);
	if (job->gang && fence_inited(fence) && !job->submitted)
		tempo_job_cancel_gang(job, -ECANCELED);
	if (fence_inited(fence))
		dma_fence_put(&fence->base);
	else
		kfree(fence);
	kfree(job->gang);
	kfree(job);
	job_count_out(usage, state);
}

/**
 * tempo_job_put() - drop a reference to a job
 * @job: the job, from tempo_job_alloc(), in any state
 *
 * The last reference frees it; its hardware fence lives on with its
 * other holders.
 *
 * Context: process.
 */
void tempo_job_put(struct tempo_job *job)
{
	kref_put(&job->refcount, job_release);
}

/**
 * tempo_job_wait_all_freed() - wait until every job was freed
 * @tdev: the device, its hardware stopped, so that every fence it was
 *	given has signalled and jobs dropped with their entity see their
 *	dependencies signal
 *
 * Waits as long as it takes: a job outliving the module would call into
 * freed code. Only a job that depends on a fence of another driver that
 * never signals can keep it waiting; it says so every 10 s.
 *
 * Context: process; may sleep.
 */
void tempo_job_wait_all_freed(struct tempo_device *tdev)
{
	while (!wait_event_timeout(jobs_wq, !atomic_read(&jobs_alive),
				   10 * HZ))
		drm_warn(&tdev->drm, "%d jobs still alive at teardown\n",
			 atomic_read(&jobs_alive));
}
