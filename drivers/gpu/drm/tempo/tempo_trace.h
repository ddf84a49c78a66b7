/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Tracepoints of the driver (TRACE_SYSTEM tempo): ioctls, jobs from exec
 * to the hardware fence, resets. The hardware model has its own
 * (hw/tempo_hw_trace.h). Both read along drm_sched's gpu_scheduler events:
 * the fence context and seqno of a job's finished fence are the ones
 * gpu_scheduler prints.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tempo

#if !defined(_TEMPO_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _TEMPO_TRACE_H_

#include <linux/string.h>
#include <linux/tracepoint.h>
#include <drm/gpu_scheduler.h>

/*
 * drm_sched's id of a job, which its own events print on the kernels
 * that have one (compat/); mainline names a job by its finished fence.
 */
#ifdef TEMPO_COMPAT_SCHED_JOB_ID
#define TEMPO_SCHED_JOB_ID(job)	TEMPO_COMPAT_SCHED_JOB_ID(job)
#else
#define TEMPO_SCHED_JOB_ID(job)	((void)(job), 0ULL)
#endif

/*
 * Names are copied into fixed arrays: __string()/__assign_str() changed
 * arity between the kernels tempo builds on. Long enough for every ioctl
 * and scheduler name of the driver.
 */
#define TEMPO_TRACE_NAME_LEN	24

TRACE_EVENT(tempo_ioctl,
	    TP_PROTO(u64 client, unsigned int nr, const char *name),
	    TP_ARGS(client, nr, name),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(unsigned int, nr)
			     __array(char, name, TEMPO_TRACE_NAME_LEN)),
	    TP_fast_assign(__entry->client = client;
			   __entry->nr = nr;
			   strscpy(__entry->name, name, TEMPO_TRACE_NAME_LEN);),
	    TP_printk("client=%llu nr=%u %s", __entry->client, __entry->nr,
		      __entry->name)
);

TRACE_EVENT(tempo_ioctl_done,
	    TP_PROTO(u64 client, unsigned int nr, int ret),
	    TP_ARGS(client, nr, ret),
	    TP_STRUCT__entry(__field(u64, client)
			     __field(unsigned int, nr)
			     __field(int, ret)),
	    TP_fast_assign(__entry->client = client;
			   __entry->nr = nr;
			   __entry->ret = ret;),
	    TP_printk("client=%llu nr=%u ret=%d", __entry->client,
		      __entry->nr, __entry->ret)
);

DECLARE_EVENT_CLASS(tempo_job,
		    TP_PROTO(struct drm_sched_job *job, u32 ctx, u32 slot,
			     int arg),
		    TP_ARGS(job, ctx, slot, arg),
		    TP_STRUCT__entry(__field(u64, fence_context)
				     __field(u64, seqno)
				     __field(u64, id)
				     __field(u32, ctx)
				     __field(u32, slot)
				     __field(int, arg)),
		    TP_fast_assign(__entry->fence_context =
					job->s_fence->finished.context;
				   __entry->seqno = job->s_fence->finished.seqno;
				   __entry->id = TEMPO_SCHED_JOB_ID(job);
				   __entry->ctx = ctx;
				   __entry->slot = slot;
				   __entry->arg = arg;),
		    TP_printk("fence=%llu:%llu id=%llu ctx=%u slot=%u %d",
			      __entry->fence_context, __entry->seqno, __entry->id,
			      __entry->ctx, __entry->slot, __entry->arg)
);

/* Pushed to the scheduler; arg: the priority it runs at. */
DEFINE_EVENT(tempo_job, tempo_job_queued,
	     TP_PROTO(struct drm_sched_job *job, u32 ctx, u32 slot, int arg),
	     TP_ARGS(job, ctx, slot, arg));

TRACE_EVENT(tempo_job_run,
	    TP_PROTO(struct drm_sched_job *job, u32 engine, u32 queue,
		     u32 width),
	    TP_ARGS(job, engine, queue, width),
	    TP_STRUCT__entry(__field(u64, fence_context)
			     __field(u64, seqno)
			     __field(u64, id)
			     __field(u32, engine)
			     __field(u32, queue)
			     __field(u32, width)),
	    TP_fast_assign(__entry->fence_context =
				job->s_fence->finished.context;
			   __entry->seqno = job->s_fence->finished.seqno;
			   __entry->id = TEMPO_SCHED_JOB_ID(job);
			   __entry->engine = engine;
			   __entry->queue = queue;
			   __entry->width = width;),
	    TP_printk("fence=%llu:%llu id=%llu engine=%u queue=%u width=%u",
		      __entry->fence_context, __entry->seqno, __entry->id,
		      __entry->engine,
		      __entry->queue, __entry->width)
);

TRACE_EVENT(tempo_job_done,
	    TP_PROTO(struct drm_sched_job *job, int error),
	    TP_ARGS(job, error),
	    TP_STRUCT__entry(__field(u64, fence_context)
			     __field(u64, seqno)
			     __field(u64, id)
			     __field(int, error)),
	    TP_fast_assign(__entry->fence_context =
				job->s_fence->finished.context;
			   __entry->seqno = job->s_fence->finished.seqno;
			   __entry->id = TEMPO_SCHED_JOB_ID(job);
			   __entry->error = error;),
	    TP_printk("fence=%llu:%llu id=%llu error=%d",
		      __entry->fence_context, __entry->seqno, __entry->id,
		      __entry->error)
);

TRACE_EVENT(tempo_reset,
	    TP_PROTO(struct drm_sched_job *job, u32 reset_count),
	    TP_ARGS(job, reset_count),
	    TP_STRUCT__entry(__field(u64, fence_context)
			     __field(u64, seqno)
			     __field(u64, id)
			     __array(char, sched, TEMPO_TRACE_NAME_LEN)
			     __field(u32, reset_count)),
	    TP_fast_assign(__entry->fence_context =
				job->s_fence->finished.context;
			   __entry->seqno = job->s_fence->finished.seqno;
			   __entry->id = TEMPO_SCHED_JOB_ID(job);
			   strscpy(__entry->sched, job->sched->name,
				   TEMPO_TRACE_NAME_LEN);
			   __entry->reset_count = reset_count;),
	    TP_printk("fence=%llu:%llu id=%llu sched=%s resets=%u",
		      __entry->fence_context, __entry->seqno, __entry->id,
		      __entry->sched, __entry->reset_count)
);

/*
 * A walk of a scheduler queue's HQD ring that sets the HQD's priority to
 * the highest of the @jobs in it: the priorities it has after the walk.
 */
TRACE_EVENT(tempo_queue_reprogram,
	    TP_PROTO(u32 engine, u32 queue, u32 jobs, u8 pipe, u8 queue_prio),
	    TP_ARGS(engine, queue, jobs, pipe, queue_prio),
	    TP_STRUCT__entry(__field(u32, engine)
			     __field(u32, queue)
			     __field(u32, jobs)
			     __field(u8, pipe)
			     __field(u8, queue_prio)),
	    TP_fast_assign(__entry->engine = engine;
			   __entry->queue = queue;
			   __entry->jobs = jobs;
			   __entry->pipe = pipe;
			   __entry->queue_prio = queue_prio;),
	    TP_printk("engine=%u queue=%u jobs=%u pipe=%u queue_prio=%u",
		      __entry->engine, __entry->queue, __entry->jobs,
		      __entry->pipe, __entry->queue_prio)
);

#endif /* _TEMPO_TRACE_H_ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tempo_trace
#include <trace/define_trace.h>
