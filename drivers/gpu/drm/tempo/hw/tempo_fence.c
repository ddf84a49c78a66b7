// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Hardware fences
 *
 * The hardware signals one fence per job, or one per gang (&struct
 * tempo_hw_fence). The driver allocates it with the job; the hardware
 * initialises it as it writes the job into its HQD ring, in the HQD's
 * fence context at the job's position in the ring, and software
 * initialises a gang's (tempo_hw_fence_init()). When the job ends, the
 * hardware calls the driver's completion interrupt and then signals the
 * fence, inside a fence signalling section (tempo_fence_end()).
 *
 * Where dma_fence_signal() detaches a signalled fence from its ops, a
 * fence has no release and nothing of the module is called once it has
 * signalled: it may outlive the module. Elsewhere its last reference
 * frees it through the module, whose teardown waits until no fence is
 * left (tempo_hw_wait_fences_freed()).
 */

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/dma-fence.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include "tempo_hw_priv.h"

static const char *fence_driver_name(struct dma_fence *fence)
{
	return "tempo";
}

static const char *fence_timeline_name(struct dma_fence *fence)
{
	return "tempo-hqd";
}

/*
 * Hardware fences initialised and not yet freed, where a fence may not
 * outlive the module (TEMPO_HW_FENCE_PINS_MODULE): its teardown
 * waits for them (tempo_hw_wait_fences_freed()).
 */
static atomic_t fences_alive = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(fences_wq);

/*
 * The last thing a fence does: free the allocation it starts, as
 * dma_fence_free() would, and count itself out. From an RCU callback, so
 * that the teardown's rcu_barrier() knows when no CPU runs it any more.
 */
static void fence_free_rcu(struct rcu_head *rcu)
{
	kfree(container_of(rcu, struct dma_fence, rcu));
	if (atomic_dec_and_test(&fences_alive))
		wake_up_all(&fences_wq);
}

static void fence_release(struct dma_fence *fence)
{
	call_rcu(&fence->rcu, fence_free_rcu);
}

/* Without .release, a signalled fence is detached from these. */
static const struct dma_fence_ops tempo_hw_fence_ops = {
	.get_driver_name = fence_driver_name,
	.get_timeline_name = fence_timeline_name,
	.release = TEMPO_HW_FENCE_PINS_MODULE ? fence_release : NULL,
};

/**
 * tempo_fence_init() - initialise a hardware fence
 * @fence: allocated as &struct tempo_hw_fence says, its lock initialised
 * @context: its dma_fence context
 * @seqno: its seqno in @context
 *
 * Where a fence may not outlive the module, counts it until its release.
 *
 * Context: any.
 */
void tempo_fence_init(struct tempo_hw_fence *fence, u64 context, u64 seqno)
{
	if (TEMPO_HW_FENCE_PINS_MODULE)
		atomic_inc(&fences_alive);
	dma_fence_init(&fence->base, &tempo_hw_fence_ops, &fence->lock,
		       context, seqno);
}

/**
 * tempo_hw_wait_fences_freed() - wait until no hardware fence needs the module
 * @hw: the GPU, stopped: every fence it was given has signalled
 *
 * Where dma_fence_signal() detaches a signalled fence from its ops, a
 * fence may outlive the module and this returns at once. Elsewhere a
 * fence's last reference calls into the module, and a fence someone
 * keeps (a sync_file, a syncobj, through a scheduler fence) keeps the
 * module's teardown waiting here for as long as it is kept; it says so
 * every 10 s.
 *
 * Context: process; may sleep.
 */
void tempo_hw_wait_fences_freed(struct tempo_hw *hw)
{
	int n = atomic_read(&fences_alive);

	if (n)
		dev_info(hw->dev, "waiting for %d hardware fences to be released\n",
			 n);
	while (!wait_event_timeout(fences_wq, !atomic_read(&fences_alive),
				   10 * HZ))
		dev_warn(hw->dev, "%d hardware fences still held at teardown\n",
			 atomic_read(&fences_alive));
	/* The last fence_free_rcu() may still be returning. */
	rcu_barrier();
}

/**
 * tempo_hw_fence_init() - initialise a fence the hardware will signal
 * @fence: allocated as &struct tempo_hw_fence says
 * @context: its dma_fence context
 * @seqno: its seqno in @context
 *
 * For gang fences, which software initialises at submission so that it
 * can order gangs on them.
 *
 * Context: any.
 */
void tempo_hw_fence_init(struct tempo_hw_fence *fence, u64 context, u64 seqno)
{
	spin_lock_init(&fence->lock);
	tempo_fence_init(fence, context, seqno);
}

/**
 * tempo_fence_end() - a job's end: report it, then signal its fence
 * @hw_fence: the fence of the job, or of its gang
 * @error: 0, or the error the fence carries
 *
 * The completion interrupt (&tempo_hw_fence.ended) runs first, so that
 * whoever learns of the end from the fence comes after it; both run in
 * a fence signalling section.
 *
 * Context: the engine's command processor.
 */
void tempo_fence_end(struct tempo_hw_fence *hw_fence, int error)
{
	struct dma_fence *fence = &hw_fence->base;
	bool cookie = dma_fence_begin_signalling();

	if (hw_fence->ended)
		hw_fence->ended(hw_fence->data, error);
	if (error)
		dma_fence_set_error(fence, error);
	dma_fence_signal(fence);
	dma_fence_end_signalling(cookie);
}
