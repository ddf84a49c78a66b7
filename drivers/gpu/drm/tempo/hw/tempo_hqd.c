// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Hardware queues
 *
 * Each engine owns a few hardware queue descriptors (HQDs). Software
 * programs an HQD through its memory queue descriptor (MQD): a ring of job
 * descriptors with read and write pointers, a pipe priority (0..2), a queue
 * priority (0..15) and an active bit. Submitting a job writes its
 * descriptor at the write pointer, advances it and rings the engine's
 * doorbell; nothing else (see "Submission and completion").
 *
 * Arbitration: the engine's command processor runs the active queue with
 * work whose (pipe priority, queue priority) is highest, with two
 * exceptions: a queue whose job software asked to abort goes first, and a
 * queue that has waited with work for longer than the starvation bound
 * (module parameter starve_ms) goes next and then runs for at least one
 * timeslice (%TEMPO_HW_TIMESLICE_NS) before anything may preempt it. These
 * times are the engine's GPU time (see "GPU time"): how long a queue
 * waited is what the engine ran meanwhile, a quantum and a timeslice what
 * the running queue's job did.
 * Queues of the same priority take turns, as CP_HQD_QUANTUM makes them on
 * AMD hardware: among them the one that has waited longest goes first, and
 * a queue that has run for a quantum (%TEMPO_HW_QUANTUM_NS) gives the
 * engine to a waiting one of its priority. The command processor asks
 * tempo_hqd_should_yield() at every packet boundary, every WAIT_MEM poll
 * and every wake-up during a DISPATCH, so a queue that outranks the
 * running one, or whose turn came, preempts it there: the doorbell wakes
 * it for new work, priority changes and aborts, and a command processor
 * that waits sleeps no longer than tempo_hqd_next_yield() says is left
 * before a quantum or a slice ends or a waiting queue reaches the
 * starvation bound: GPU time never runs faster than the host's clock.
 * At a job's END the command processor advances the read pointer and
 * signals the job's fence (see "Submission and completion").
 */

#include <linux/dma-fence.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include "tempo_hw_priv.h"
#include "tempo_hw_trace.h"

/**
 * tempo_hqd_init() - program an HQD's MQD at device init
 * @engine: its engine
 * @index: its index on the engine
 * @ring: storage of its ring
 * @ring_size: entries in @ring
 *
 * Every queue starts active at the middle pipe priority and a queue
 * priority of 7 (normal).
 *
 * Context: process, before the command processor starts.
 */
void tempo_hqd_init(struct tempo_engine *engine, u32 index,
		    struct tempo_hw_job **ring, u32 ring_size)
{
	struct tempo_hw_hqd *hqd = &engine->hqds[index];

	hqd->engine = engine;
	hqd->index = index;
	hqd->mqd.ring = ring;
	hqd->mqd.ring_size = ring_size;
	hqd->mqd.pipe_priority = TEMPO_HW_PIPE_PRIO_NORMAL;
	hqd->mqd.queue_priority = TEMPO_HW_QUEUE_PRIO_NORMAL;
	hqd->mqd.active = true;
	hqd->fence_context = dma_fence_context_alloc(1);
}

static bool has_work(const struct tempo_hw_hqd *hqd)
{
	return hqd->mqd.active && hqd->mqd.rptr != hqd->mqd.wptr;
}

static bool aborting(const struct tempo_hw_hqd *hqd)
{
	return hqd->abort_seqno != 0;
}

/**
 * tempo_hqd_clock() - an engine's clock
 * @engine: the engine, its lock held
 *
 * The GPU time of the runs the engine made, the run in progress as its
 * command processor last published it: what every decision on time of
 * the engine reads (see "GPU time").
 *
 * Context: any, with the engine's lock held.
 * Return: nanoseconds.
 */
u64 tempo_hqd_clock(const struct tempo_engine *engine)
{
	lockdep_assert_held(&engine->lock);
	return engine->gpu_ns + engine->run_gpu;
}

static bool starved(const struct tempo_hw_hqd *hqd, u64 now)
{
	u64 bound = hqd->engine->hw->config.starve_ns;

	return hqd->waiting && now - hqd->waiting_since > bound;
}

/* How long a queue has waited with work: the running one has not. */
static u64 waited(const struct tempo_hw_hqd *hqd, u64 now)
{
	return hqd->waiting ? now - hqd->waiting_since : 0;
}

/*
 * Whether @a must run before @b (which may be NULL): ties in priority go
 * to the queue that has waited longest, then to the lower index.
 */
static bool before(const struct tempo_hw_hqd *a, const struct tempo_hw_hqd *b,
		   u64 now)
{
	if (!b)
		return true;
	if (aborting(a) != aborting(b))
		return aborting(a);
	if (starved(a, now) != starved(b, now))
		return starved(a, now);
	if (!starved(a, now) && tempo_hqd_rank(a) != tempo_hqd_rank(b))
		return tempo_hqd_rank(a) > tempo_hqd_rank(b);
	return waited(a, now) > waited(b, now);
}

/*
 * Whether waiting @hqd preempts @running, which has run for
 * @engine->run_gpu: it comes before it, and when only because it waited
 * longer at the same priority, @running has had its quantum.
 */
static bool preempts(const struct tempo_engine *engine,
		     const struct tempo_hw_hqd *hqd,
		     const struct tempo_hw_hqd *running, u64 now)
{
	if (!before(hqd, running, now))
		return false;
	if (aborting(hqd) || starved(hqd, now) ||
	    tempo_hqd_rank(hqd) != tempo_hqd_rank(running))
		return true;
	return engine->run_gpu >= TEMPO_HW_QUANTUM_NS;
}

/* Note when queues with work start waiting; forget it for @running. */
static void note_waiting(struct tempo_engine *engine,
			 struct tempo_hw_hqd *running, u64 now)
{
	u32 i;

	for (i = 0; i < engine->num_hqds; i++) {
		struct tempo_hw_hqd *hqd = &engine->hqds[i];

		if (hqd == running || !has_work(hqd)) {
			hqd->waiting = false;
		} else if (!hqd->waiting) {
			hqd->waiting = true;
			hqd->waiting_since = now;
		}
	}
}

/*
 * The engine's running time on jobs of rank @rank and above, the runs that
 * ended: the jobs that a job of rank @rank waits for by right. Waiting
 * for a job it outranks is waiting for its preemption, which the
 * hardware owes it at once.
 */
static u64 ran_at_or_above(const struct tempo_engine *engine, u32 rank)
{
	u64 ns = 0;
	u32 r;

	lockdep_assert_held(&engine->lock);
	for (r = rank; r < TEMPO_HW_NUM_RANKS; r++)
		ns += engine->ran_ns[r];
	return ns;
}

/**
 * tempo_hqd_start_engine_wait() - a job starts waiting for its engine
 * @engine: the engine
 * @hqd: the job's queue
 * @job: the job, written into @hqd's ring or preempted
 * @now: the engine's clock (tempo_hqd_clock())
 *
 * Notes the job's rank and the engine's running time on jobs of that rank
 * and above, the run in progress included when its queue does not rank
 * below: what the engine runs of those from then on, until the job gets
 * it, is the job's engine wait.
 *
 * Context: any, with the engine's lock held.
 */
void tempo_hqd_start_engine_wait(struct tempo_engine *engine,
				 struct tempo_hw_hqd *hqd,
				 struct tempo_hw_job *job, u64 now)
{
	const struct tempo_hw_hqd *running = engine->current_hqd;

	job->engine_rank = tempo_hqd_rank(hqd);
	job->engine_mark = ran_at_or_above(engine, job->engine_rank);
	if (running && tempo_hqd_rank(running) >= job->engine_rank)
		job->engine_mark += now - engine->rank_start;
}

/*
 * @job gets its engine: no run is in progress but its own. A run counted
 * in the mark whose queue was lowered since is not counted at its end.
 */
static void end_engine_wait(struct tempo_engine *engine,
			    struct tempo_hw_job *job)
{
	u64 ran = ran_at_or_above(engine, job->engine_rank);

	if (ran > job->engine_mark)
		job->times.engine_wait_ns += ran - job->engine_mark;
}

/* The run in progress, as tempo_hw_job_run_ns() reads it: @job's, or none. */
static void set_run(struct tempo_engine *engine, struct tempo_hw_job *job)
{
	write_seqcount_begin(&engine->run_seq);
	engine->run_job = job;
	write_seqcount_end(&engine->run_seq);
}

/*
 * Publish the run's GPU time since last time: the command processor's
 * thread clock unless it is stalled, and what it added
 * (tempo_hqd_add_gpu()). Lock held, by the command processor.
 */
static void publish_run(struct tempo_engine *engine)
{
	u64 now = tempo_clock_thread();

	if (!engine->stalled && now > engine->work_mark)
		engine->gpu_pending += now - engine->work_mark;
	engine->work_mark = now;
	engine->publish_wall = ktime_get_ns();
	if (!engine->gpu_pending)
		return;
	write_seqcount_begin(&engine->run_seq);
	engine->run_gpu += engine->gpu_pending;
	write_seqcount_end(&engine->run_seq);
	engine->gpu_pending = 0;
}

/**
 * tempo_hqd_select() - arbitrate among an engine's queues
 * @engine: the engine
 * @slice_end: out: until when the chosen queue may not be preempted
 *
 * Clears the doorbell: a doorbell rung after this call is seen by the next.
 *
 * Context: the engine's command processor.
 * Return: the queue to run next, or NULL when none has work.
 */
struct tempo_hw_hqd *tempo_hqd_select(struct tempo_engine *engine,
				      u64 *slice_end)
{
	struct tempo_hw_hqd *best = NULL;
	u64 now;
	u32 i;

	spin_lock_irq(&engine->lock);
	now = tempo_hqd_clock(engine);
	engine->doorbell = false;
	for (i = 0; i < engine->num_hqds; i++) {
		struct tempo_hw_hqd *hqd = &engine->hqds[i];

		if (has_work(hqd) && before(hqd, best, now))
			best = hqd;
	}
	*slice_end = best && starved(best, now) ?
		     now + TEMPO_HW_TIMESLICE_NS : 0;
	if (best && best->save.job)
		end_engine_wait(engine, best->save.job);
	note_waiting(engine, best, now);
	engine->current_hqd = best;
	engine->rank_start = now;
	engine->work_mark = tempo_clock_thread();
	engine->stalled = false;
	engine->gpu_pending = 0;
	engine->publish_wall = ktime_get_ns();
	set_run(engine, best ? best->save.job : NULL);
	spin_unlock_irq(&engine->lock);
	return best;
}

/**
 * tempo_hqd_fetch() - take the job at a queue's read pointer
 * @hqd: the queue the command processor selected, with work and no job
 *	saved
 *
 * The job becomes the queue's saved job (&tempo_hw_hqd.save).
 *
 * Context: the engine's command processor.
 */
void tempo_hqd_fetch(struct tempo_hw_hqd *hqd)
{
	struct tempo_engine *engine = hqd->engine;
	struct tempo_mqd *mqd = &hqd->mqd;
	struct tempo_hw_job *job;

	spin_lock_irq(&engine->lock);
	job = mqd->ring[mqd->rptr & (mqd->ring_size - 1)];
	job->times.started = ktime_get_ns();
	end_engine_wait(engine, job);
	hqd->save.job = job;
	set_run(engine, job);
	spin_unlock_irq(&engine->lock);
}

/**
 * tempo_hqd_ran_locked() - tempo_hqd_ran(), the lock held
 * @hqd: the queue, preempted or with its job ended
 *
 * Adds the run's GPU time to the job's, the queue's and the engine's (the
 * latter by the queue's rank now, from its last priority change if there
 * was one), and a preempted job starts waiting again.
 *
 * Context: the engine's command processor, with the engine's lock held.
 */
void tempo_hqd_ran_locked(struct tempo_hw_hqd *hqd)
{
	struct tempo_engine *engine = hqd->engine;
	struct tempo_hw_job *job;
	u64 now, ns;

	lockdep_assert_held(&engine->lock);
	publish_run(engine);
	now = tempo_hqd_clock(engine);
	ns = engine->run_gpu;
	hqd->busy_ns += ns;
	engine->ran_ns[tempo_hqd_rank(hqd)] += now - engine->rank_start;
	engine->current_hqd = NULL;
	job = hqd->save.job;
	/* Preempted, it waits again; ended, it no longer matters. */
	if (job)
		tempo_hqd_start_engine_wait(engine, hqd, job, now);
	write_seqcount_begin(&engine->run_seq);
	if (job)
		job->run_ns += ns;
	engine->gpu_ns = now;
	engine->run_gpu = 0;
	engine->run_job = NULL;
	write_seqcount_end(&engine->run_seq);
}

/**
 * tempo_hqd_ran() - the command processor left the queue it selected
 * @hqd: the queue, preempted or with its job ended
 *
 * Context: the engine's command processor.
 */
void tempo_hqd_ran(struct tempo_hw_hqd *hqd)
{
	struct tempo_engine *engine = hqd->engine;

	spin_lock_irq(&engine->lock);
	tempo_hqd_ran_locked(hqd);
	spin_unlock_irq(&engine->lock);
}

/**
 * tempo_hqd_stall() - the command processor stops or starts running the job
 * @engine: the engine
 * @stalled: its command processor starts waiting for compute units or for
 *	the rest of a gang (true), or is done waiting (false)
 *
 * Its time in between is not the job's GPU time: while it waits for a
 * DISPATCH, the DISPATCH's own GPU time is (tempo_hqd_add_gpu()).
 *
 * Context: the engine's command processor.
 */
void tempo_hqd_stall(struct tempo_engine *engine, bool stalled)
{
	u64 now = tempo_clock_thread();

	if (stalled == engine->stalled)
		return;
	if (stalled && now > engine->work_mark)
		engine->gpu_pending += now - engine->work_mark;
	engine->work_mark = now;
	engine->stalled = stalled;
}

/**
 * tempo_hqd_add_gpu() - add GPU time to the run in progress
 * @engine: the engine
 * @ns: GPU time the run's job spent other than its command processor's
 *	own: its workgroups'
 *
 * Published with the next check for preemption, or at the run's end.
 *
 * Context: the engine's command processor.
 */
void tempo_hqd_add_gpu(struct tempo_engine *engine, u64 ns)
{
	engine->gpu_pending += ns;
}

/**
 * tempo_hqd_hung() - whether the hang watchdog stops a job
 * @hqd: the queue running the job
 * @job: the job
 *
 * Context: the engine's command processor, while it runs @job.
 * Return: true when the job's GPU time, as of the last check for
 * preemption, reached the watchdog's limit.
 */
bool tempo_hqd_hung(struct tempo_hw_hqd *hqd, const struct tempo_hw_job *job)
{
	u64 limit = hqd->engine->hw->config.hang_ns;

	/* The command processor is the only writer of what it reads. */
	return limit && job->run_ns + hqd->engine->run_gpu >= limit;
}

/**
 * tempo_hw_job_run_ns() - a job's running time so far
 * @job: a job submitted to an HQD, or a member of a submitted gang, or
 *	one not submitted yet (which has run for 0 ns)
 *
 * Its GPU time (see "GPU time"), the run in progress included as last
 * published: time spent preempted, waiting in its ring behind other jobs,
 * waiting for compute units or for the rest of its gang does not count,
 * nor any time its threads waited for a host CPU. Reads without the
 * engine's lock: a reader in a loop does not slow the command processor.
 *
 * Context: any.
 * Return: nanoseconds.
 */
u64 tempo_hw_job_run_ns(struct tempo_hw_job *job)
{
	struct tempo_hw_hqd *hqd = READ_ONCE(job->hqd);
	struct tempo_engine *engine;
	unsigned int seq;
	u64 ns;

	if (!hqd)
		return 0;
	engine = hqd->engine;
	do {
		seq = read_seqcount_begin(&engine->run_seq);
		ns = READ_ONCE(job->run_ns);
		if (READ_ONCE(engine->run_job) == job)
			ns += READ_ONCE(engine->run_gpu);
	} while (read_seqcount_retry(&engine->run_seq, seq));
	return ns;
}

/**
 * tempo_hqd_should_yield() - whether the running queue must be preempted
 * @engine: the engine
 * @running: the queue running now
 * @slice_end: the running queue may not be preempted before the engine's
 *	clock reaches this time, except for an abort
 *
 * Publishes the run's GPU time so far first.
 *
 * Context: the engine's command processor.
 * Return: true when another queue must run first.
 */
bool tempo_hqd_should_yield(struct tempo_engine *engine,
			    struct tempo_hw_hqd *running, u64 slice_end)
{
	bool yield = false;
	u64 now;
	u32 i;

	spin_lock_irq(&engine->lock);
	publish_run(engine);
	now = tempo_hqd_clock(engine);
	engine->doorbell = false;
	note_waiting(engine, running, now);
	for (i = 0; i < engine->num_hqds && !yield; i++) {
		struct tempo_hw_hqd *hqd = &engine->hqds[i];

		if (hqd == running || !has_work(hqd))
			continue;
		if (aborting(hqd))
			yield = true;
		else if (now >= slice_end)
			yield = preempts(engine, hqd, running, now);
	}
	spin_unlock_irq(&engine->lock);
	return yield;
}

/*
 * When waiting @hqd will preempt @running, as far as time alone decides:
 * if it outranks @running, once @running's slice (if any) ends; if it has
 * @running's rank, once @running's quantum ends; in any case once it has
 * waited past the starvation bound, but never before the slice ends.
 * Lock held; @hqd has work and waits.
 */
static u64 preempt_time(const struct tempo_engine *engine,
			const struct tempo_hw_hqd *hqd,
			const struct tempo_hw_hqd *running, u64 slice_end)
{
	u64 t = hqd->waiting_since + engine->hw->config.starve_ns + 1;

	if (tempo_hqd_rank(hqd) > tempo_hqd_rank(running))
		t = 0;
	else if (tempo_hqd_rank(hqd) == tempo_hqd_rank(running))
		t = min(t, engine->gpu_ns + TEMPO_HW_QUANTUM_NS);
	return max(t, slice_end);
}

/**
 * tempo_hqd_next_yield() - when the running queue will have to yield
 * @engine: the engine
 * @running: the queue running now
 * @slice_end: as for tempo_hqd_should_yield()
 *
 * The earliest time at which tempo_hqd_should_yield() may turn true with
 * nothing else happening: a quantum or a slice ending, a waiting queue
 * reaching the starvation bound. Whatever else makes it true (new work, a
 * priority change, an abort) rings the doorbell. Call it after
 * tempo_hqd_should_yield(), which notes when queues started waiting.
 *
 * Context: the engine's command processor.
 * Return: the GPU time left until then, 0 if it is past, or U64_MAX when
 * no queue waits. The engine's clock runs no faster than the host's.
 */
u64 tempo_hqd_next_yield(struct tempo_engine *engine,
			 struct tempo_hw_hqd *running, u64 slice_end)
{
	u64 next = U64_MAX, now;
	u32 i;

	spin_lock_irq(&engine->lock);
	now = tempo_hqd_clock(engine);
	for (i = 0; i < engine->num_hqds; i++) {
		struct tempo_hw_hqd *hqd = &engine->hqds[i];

		if (hqd != running && has_work(hqd) && hqd->waiting)
			next = min(next, preempt_time(engine, hqd, running,
						      slice_end));
	}
	spin_unlock_irq(&engine->lock);
	if (next == U64_MAX)
		return next;
	return next > now ? next - now : 0;
}

/**
 * tempo_hqd_high_busy() - a queue gained or lost its work
 * @hqd: the queue, its engine's lock held
 * @busy: gained
 *
 * The CU pool keeps CUs for the queues of the high pipe priority that
 * have work: when @hqd is one, this tells the pool.
 *
 * Context: any, with the engine's lock held.
 */
void tempo_hqd_high_busy(struct tempo_hw_hqd *hqd, bool busy)
{
	if (hqd->mqd.pipe_priority == TEMPO_HW_PIPE_PRIO_MAX)
		tempo_cu_high_queue(&hqd->engine->hw->cus, busy);
}

/*
 * The running queue changed rank: its run so far counts at the rank it
 * had, the rest at the new one. Lock held.
 */
static void rank_changed(struct tempo_hw_hqd *hqd, u32 old_rank)
{
	struct tempo_engine *engine = hqd->engine;
	u64 now;

	if (engine->current_hqd != hqd || tempo_hqd_rank(hqd) == old_rank)
		return;
	now = tempo_hqd_clock(engine);
	engine->ran_ns[old_rank] += now - engine->rank_start;
	engine->rank_start = now;
}

/**
 * tempo_hw_hqd_set_priority() - program an HQD's priorities
 * @hqd: the queue
 * @pipe_priority: 0..2
 * @queue_priority: 0..15
 *
 * Takes effect at once, for the job running on the queue and for every
 * job already in its ring: they all run at the new priority. Programming
 * an empty queue does not disturb the command processor.
 *
 * Context: any; takes the engine's lock.
 */
void tempo_hw_hqd_set_priority(struct tempo_hw_hqd *hqd, u8 pipe_priority,
			       u8 queue_priority)
{
	struct tempo_engine *engine = hqd->engine;
	unsigned long flags;
	u32 old_rank;
	bool busy;

	spin_lock_irqsave(&engine->lock, flags);
	old_rank = tempo_hqd_rank(hqd);
	trace_tempo_hw_hqd_priority(engine->index, hqd->index,
				    hqd->mqd.pipe_priority,
				    hqd->mqd.queue_priority, pipe_priority,
				    queue_priority);
	busy = hqd->mqd.rptr != hqd->mqd.wptr;
	if (busy)
		tempo_hqd_high_busy(hqd, false);
	hqd->mqd.pipe_priority = min_t(u8, pipe_priority,
				       TEMPO_HW_PIPE_PRIO_MAX);
	hqd->mqd.queue_priority = min_t(u8, queue_priority,
					TEMPO_HW_QUEUE_PRIO_MAX);
	rank_changed(hqd, old_rank);
	if (busy)
		tempo_hqd_high_busy(hqd, true);
	engine->doorbell |= busy;
	spin_unlock_irqrestore(&engine->lock, flags);
	if (busy)
		wake_up(&engine->wq);
}

/*
 * The engine's clock as a job starts waiting: what the running job's
 * command processor did since it last published (running packets, or
 * polling a WAIT_MEM) counts as done already, as the host's clock since
 * then at most (its thread clock runs no faster), so that a job never
 * reports a longer wait than it had. A command processor stalled on a
 * DISPATCH publishes the DISPATCH's GPU time at its next wake-up, within
 * TEMPO_CP_WATCH_NS: that much is counted as a wait. Lock held; the
 * stalled flag is read racily, which errs either way by one stall's edge.
 */
static u64 clock_for_mark(const struct tempo_engine *engine)
{
	u64 now = tempo_hqd_clock(engine), wall = ktime_get_ns();

	if (engine->current_hqd && !READ_ONCE(engine->stalled) &&
	    wall > engine->publish_wall)
		now += wall - engine->publish_wall;
	return now;
}

/**
 * tempo_hqd_queued() - a job written into a queue's ring starts waiting
 * @hqd: the queue, its engine's lock held
 * @job: the job
 *
 * The job's engine wait starts from the engine's clock as the running
 * job's command processor would publish it now.
 *
 * Context: any, with the engine's lock held.
 */
void tempo_hqd_queued(struct tempo_hw_hqd *hqd, struct tempo_hw_job *job)
{
	tempo_hqd_start_engine_wait(hqd->engine, hqd, job,
				    clock_for_mark(hqd->engine));
}
