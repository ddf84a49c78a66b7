// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * In-order queues on a context slot: Queue submits at once (it is also the
 * immediate command list), BatchedQueue collects commands into batches,
 * ParallelQueue submits gangs of command lists to a parallel slot.
 */
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string_view>

#include <tempo/command.hpp>
#include <tempo/command_list.hpp>
#include <tempo/submitter.hpp>
#include <tempo/sync.hpp>
#include <tempo/types.hpp>

namespace tempo {

struct QueueOptions {
    /**
     * Submissions kept in flight before the queue waits for the oldest one.
     * The queue keeps the batch memory of each until it completes; it polls
     * its timeline for completed ones when the limit is reached.
     */
    std::size_t max_in_flight = 256;
};

namespace detail {
class QueueCore;
struct BatchState;

/// Throws std::invalid_argument (naming @queue) unless @slot suits the queue.
using SlotRule = void (*)(const Submitter& submitter, Slot slot, const char* queue);

/**
 * QueueBase - what Queue and ParallelQueue share
 *
 * Both submit through a QueueCore: an in-order stream of execs on one slot,
 * on a timeline the queue owns, where exec n signals point n and waits for
 * point n - 1 (a ParallelQueue's execs are its gangs). QueueBase owns the
 * core and gives both queues the members that only read or wait on it.
 *
 * Move-only; a moved-from queue may only be assigned or destroyed.
 */
class QueueBase {
public:
    /// Waits for everything submitted; Timeout after @timeout. Throws JobError when the last
    /// job failed (a failure cancels the context's later jobs, so the last one reports it).
    WaitResult finish(std::chrono::nanoseconds timeout = wait_forever);

    /// The queue point of the last submission, or gang (point 0 before the first).
    [[nodiscard]] SyncPoint last_submitted() const noexcept;
    /// Submissions, or gangs, whose completion the queue has not seen yet.
    [[nodiscard]] std::size_t in_flight() const noexcept;
    [[nodiscard]] Slot slot() const noexcept;
    [[nodiscard]] const std::shared_ptr<Submitter>& submitter() const noexcept;

protected:
    /**
     * The core of a queue on @slot of @submitter. Throws
     * std::invalid_argument (naming @queue) without a submitter, or when
     * @slot_rule refuses the slot; nothing is created then.
     */
    QueueBase(std::shared_ptr<Submitter> submitter, Slot slot, QueueOptions options,
              const char* queue, SlotRule slot_rule);
    QueueBase(QueueBase&& other) noexcept;
    QueueBase& operator=(QueueBase&& other) noexcept;
    /// Waits for what the queue submitted (errors are ignored).
    ~QueueBase();

    [[nodiscard]] QueueCore& core() noexcept { return *core_; }

private:
    std::unique_ptr<QueueCore> core_;
};

} // namespace detail

/**
 * Queue - an in-order queue on one slot of a context
 *
 * execute() submits a closed command list (one exec per segment);
 * append() and the append_*() functions of CommandSink submit one command
 * at once, each as its own exec: a Queue is the immediate command list of
 * libtempo (ImmediateCommandList names the same type). The queue owns a
 * timeline: submission n signals point n and waits for point n - 1, so
 * everything it submits runs in order, whatever the slot.
 *
 * The destructor waits for what the queue submitted (the GPU reads the
 * batches until then). Not thread-safe. Move-only.
 *
 * The slot takes one batch per exec: the constructor throws
 * std::invalid_argument for a parallel slot (see ParallelQueue).
 */
class Queue : public CommandSink, public detail::QueueBase {
public:
    Queue(std::shared_ptr<Submitter> submitter, Slot slot, QueueOptions options = {});

    /**
     * Submits @list, returning the queue point that signals when it is
     * complete. Throws UsageError when the list is open, of another
     * submitter, or one-shot and already executed, or waits on an event
     * nothing signals; Error EBUSY when it is not CommandListUsage::
     * Simultaneous and a previous execution is still running.
     */
    SyncPoint execute(CommandList& list);
    // finish(), last_submitted(), in_flight(), slot(), submitter(): detail::QueueBase.

private:
    CommandId record(Command&& command, const Sync& sync) override;

    std::uint32_t commands_ = 0;
};

/// The immediate command list: each appended command is submitted at once.
using ImmediateCommandList = Queue;

/**
 * ParallelQueue - an in-order queue of gangs on a parallel slot
 *
 * A parallel slot of width N (EngineMap::add_parallel()) runs every exec as
 * a gang of N batches, each on its own engine, all starting together.
 * execute() submits N closed command lists as one gang: one exec whose
 * batch i is list i, so list i runs on an engine of column i of the slot.
 * The gang completes when every member has ended.
 *
 * Events: each list of a gang must close into one segment (no events in the
 * middle: waits on its first command only, a signal on its last command
 * only, as CommandList::segment_count() == 1). The gang waits for the
 * waits of every list and of @sync.wait before any member starts, and
 * signals the signal of every list and @sync.signal when the whole gang
 * has ended. Like Queue, the queue owns a timeline: gang n signals point n
 * and waits for point n - 1.
 *
 * The destructor waits for what the queue submitted. Not thread-safe.
 * Move-only.
 */
class ParallelQueue : public detail::QueueBase {
public:
    /**
     * A queue on parallel slot @slot of @submitter. Throws
     * std::invalid_argument when the slot is not parallel (its width,
     * Submitter::slot_width(), is 1).
     */
    ParallelQueue(std::shared_ptr<Submitter> submitter, Slot slot, QueueOptions options = {});

    /**
     * Submits @lists as one gang (one exec with width() batches), returning
     * the queue point that signals when every member has ended.
     *
     * Checked before any ioctl, in this order: Error EINVAL (operation
     * "DRM_IOCTL_TEMPO_EXEC", the kernel's rule) unless @lists holds
     * exactly width() lists; UsageError for a null list, a list given twice
     * (unless CommandListUsage::Simultaneous), a list of more than one
     * segment, and for every rule of Queue::execute() (open, of another
     * submitter, one-shot already executed, a wait on an event nothing
     * signals); Error EBUSY for a list still executing that is not
     * CommandListUsage::Simultaneous. Nothing is submitted then.
     */
    SyncPoint execute(std::span<CommandList* const> lists, const Sync& sync = {});
    SyncPoint execute(std::initializer_list<CommandList*> lists, const Sync& sync = {})
    {
        return execute(std::span<CommandList* const>{lists.begin(), lists.size()}, sync);
    }
    // finish(), last_submitted(), in_flight(), slot(), submitter(): detail::QueueBase.

    /// Lists per gang: the slot's width.
    [[nodiscard]] std::uint32_t width() const noexcept { return width_; }

private:
    std::uint32_t width_ = 0;
};

/// Why a BatchedQueue flushed its batch.
enum class FlushReason {
    /// BatchedQueue::flush().
    Explicit,
    /// The batch reached BatchedQueueOptions::batch_size commands.
    Size,
    /// An event of the batch appeared in a wait list (of any queue or list execution).
    WaitList,
    /// Event::wait() on an event of the batch.
    HostWait,
    /// Event::signaled() on an event of the batch.
    HostPoll,
    /// BatchedQueue::execute(): the batch goes first.
    Execute,
    /// BatchedQueue::finish().
    Finish,
    /// The BatchedQueue was destroyed.
    Destroy,
};

/// "explicit", "size", "wait-list", "host-wait", "host-poll", "execute", "finish", "destroy".
[[nodiscard]] std::string_view to_string(FlushReason reason) noexcept;

struct BatchedQueueOptions {
    /// Commands in a batch that make it flush.
    std::size_t batch_size = 256;
    /// Submitted batches in flight before a flush waits for the oldest one.
    std::size_t max_in_flight = 10;
};

/**
 * BatchedQueue - an in-order queue that submits commands in batches
 *
 * Appended commands go to the current batch, a regular one-shot
 * CommandList, which a flush closes and submits (one exec per segment, one
 * when its commands have no events in the middle) and replaces with a new
 * batch of the next generation (generations count from 1). Every event
 * that a batch signals carries its generation (Event::generation()).
 *
 * The batch is flushed when: flush() is called; it reaches batch_size
 * commands; an event it signals appears in a wait list (of this queue or
 * any other queue, batched or not, or a list executed on one); the host
 * waits on or polls such an event; execute() or finish() is called; the
 * queue is destroyed. So every command is submitted by the time anything
 * can wait for it, and a wait never names a point that was not submitted.
 *
 * Submitted batches are capped at max_in_flight. At the cap, a flush first
 * reclaims the completed ones by polling the queue timeline, then, only if
 * none completed, waits for the oldest one; it never waits for the whole
 * queue.
 *
 * Thread-safe: an event waited on in another thread flushes the batch under
 * the queue's lock. Move-only.
 */
class BatchedQueue final : public CommandSink {
public:
    BatchedQueue(std::shared_ptr<Submitter> submitter, Slot slot, BatchedQueueOptions options = {});
    BatchedQueue(BatchedQueue&& other) noexcept;
    BatchedQueue& operator=(BatchedQueue&& other) noexcept;
    BatchedQueue(const BatchedQueue&) = delete;
    BatchedQueue& operator=(const BatchedQueue&) = delete;
    /// Flushes and waits for everything submitted.
    ~BatchedQueue() override;

    /// Submits the current batch, if it has commands.
    void flush();
    /// Flushes, then submits @list after it (see Queue::execute()).
    SyncPoint execute(CommandList& list);
    /// Flushes and waits for everything submitted.
    WaitResult finish(std::chrono::nanoseconds timeout = wait_forever);

    /// Generation of the current batch.
    [[nodiscard]] std::uint64_t generation() const noexcept;
    /// Commands in the current batch.
    [[nodiscard]] std::size_t batch_commands() const;
    /// Submitted batches (and lists) whose completion the queue has not seen yet.
    [[nodiscard]] std::size_t in_flight() const;
    /// Flushes of non-empty batches so far for @reason.
    [[nodiscard]] std::uint64_t flushes(FlushReason reason) const;
    /// The queue point of the last submission.
    [[nodiscard]] SyncPoint last_submitted() const;
    [[nodiscard]] const std::shared_ptr<Submitter>& submitter() const noexcept;

private:
    CommandId record(Command&& command, const Sync& sync) override;

    std::shared_ptr<detail::BatchState> state_;
};

} // namespace tempo
