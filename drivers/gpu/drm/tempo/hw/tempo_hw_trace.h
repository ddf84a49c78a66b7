/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Tracepoints of the emulated hardware (TRACE_SYSTEM tempo_hw): a queue
 * preempted and resumed by its command processor, an HQD's priorities
 * programmed. Engines are numbered as in DRM_TEMPO_QUERY_ENGINES.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tempo_hw

#if !defined(_TEMPO_HW_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _TEMPO_HW_TRACE_H_

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(tempo_hw_queue,
		    TP_PROTO(u32 engine, u32 queue, u64 seqno),
		    TP_ARGS(engine, queue, seqno),
		    TP_STRUCT__entry(__field(u32, engine)
				     __field(u32, queue)
				     __field(u64, seqno)),
		    TP_fast_assign(__entry->engine = engine;
				   __entry->queue = queue;
				   __entry->seqno = seqno;),
		    TP_printk("engine=%u queue=%u seqno=%llu", __entry->engine,
			      __entry->queue, __entry->seqno)
);

/* The queue's job stopped, its state saved; seqno: its hardware fence's. */
DEFINE_EVENT(tempo_hw_queue, tempo_hw_preempt,
	     TP_PROTO(u32 engine, u32 queue, u64 seqno),
	     TP_ARGS(engine, queue, seqno));

/* The saved job runs again from where it stopped. */
DEFINE_EVENT(tempo_hw_queue, tempo_hw_resume,
	     TP_PROTO(u32 engine, u32 queue, u64 seqno),
	     TP_ARGS(engine, queue, seqno));

TRACE_EVENT(tempo_hw_hqd_priority,
	    TP_PROTO(u32 engine, u32 queue, u8 old_pipe, u8 old_queue,
		     u8 pipe_priority, u8 queue_priority),
	    TP_ARGS(engine, queue, old_pipe, old_queue, pipe_priority,
		    queue_priority),
	    TP_STRUCT__entry(__field(u32, engine)
			     __field(u32, queue)
			     __field(u8, old_pipe)
			     __field(u8, old_queue)
			     __field(u8, pipe_priority)
			     __field(u8, queue_priority)),
	    TP_fast_assign(__entry->engine = engine;
			   __entry->queue = queue;
			   __entry->old_pipe = old_pipe;
			   __entry->old_queue = old_queue;
			   __entry->pipe_priority = pipe_priority;
			   __entry->queue_priority = queue_priority;),
	    TP_printk("engine=%u queue=%u pipe=%u->%u queue_prio=%u->%u",
		      __entry->engine, __entry->queue, __entry->old_pipe,
		      __entry->pipe_priority, __entry->old_queue,
		      __entry->queue_priority)
);

#endif /* _TEMPO_HW_TRACE_H_ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tempo_hw_trace
#include <trace/define_trace.h>
