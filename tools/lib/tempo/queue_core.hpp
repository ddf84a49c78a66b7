// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The in-order submission engine shared by Queue, ParallelQueue and BatchedQueue.
 */
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <vector>

#include <tempo/command.hpp>
#include <tempo/command_list.hpp>
#include <tempo/packet.hpp>
#include <tempo/submitter.hpp>
#include <tempo/sync.hpp>

namespace tempo::detail {

class PendingOwner;
struct Segment;

/// Throws std::invalid_argument (naming @queue) unless @slot takes one batch per exec.
void require_single_batch_slot(const Submitter& submitter, Slot slot, const char* queue);
/// Throws std::invalid_argument (naming @queue) unless @slot takes a gang of batches per exec.
void require_parallel_slot(const Submitter& submitter, Slot slot, const char* queue);

/**
 * QueueCore - an in-order stream of execs on one slot
 *
 * Exec n signals point n of the queue's timeline and waits for point n - 1.
 * Each exec's batch memory is kept until its point is known to have
 * signalled; at max_in_flight the queue polls its timeline once and, if
 * nothing completed, waits for the oldest exec only.
 *
 * Waits on events resolve to the events' points when each exec is
 * submitted; the callers flush the batches holding those signals first
 * (flush_pending()), with no queue lock held.
 */
class QueueCore {
public:
    /// @batch: the batched queue this core submits for, or null.
    QueueCore(std::shared_ptr<Submitter> submitter, Slot slot, std::size_t max_in_flight,
              const PendingOwner* batch = nullptr);
    QueueCore(const QueueCore&) = delete;
    QueueCore& operator=(const QueueCore&) = delete;
    /// Waits for everything submitted (errors are ignored).
    ~QueueCore();

    /// Submits every segment of @list; the list rules are checked first.
    SyncPoint execute(CommandList& list, const char* function);
    /**
     * Submits @lists, one per member, as one exec on the (parallel) slot;
     * the caller checked the number of lists and flushed the batches that
     * the waits name.
     */
    SyncPoint execute_gang(std::span<CommandList* const> lists, const Sync& sync,
                           const char* function);
    /// Submits @command alone (validated by the caller).
    SyncPoint submit_command(const Command& command, const Sync& sync, const char* function);
    WaitResult finish(std::chrono::nanoseconds timeout);

    [[nodiscard]] SyncPoint last_submitted() const noexcept { return timeline_->at(last_); }
    [[nodiscard]] std::size_t in_flight() const noexcept { return in_flight_.size(); }
    [[nodiscard]] Slot slot() const noexcept { return slot_; }
    [[nodiscard]] const std::shared_ptr<Submitter>& submitter() const noexcept
    {
        return submitter_;
    }

    /// Flushes the batches that hold the signals the waits of @list name.
    static void flush_waits(const CommandList& list);

private:
    struct InFlight {
        std::uint64_t point;
        std::shared_ptr<BatchMemory> memory;
        /// The batch memory of the other members of a gang.
        std::vector<std::shared_ptr<BatchMemory>> gang{};
    };

    /// The wait events of the first command of @segment of @list (none without).
    static std::span<const Event> segment_waits(const CommandList& list, const Segment& segment);
    /// The signal event of the last command of @segment (an empty Event without).
    static const Event& segment_signal(const CommandList& list, const Segment& segment);
    /// GPU address of the batch of @segment.
    static GpuAddress segment_batch(const CommandList& list, const Segment& segment);

    /// The rules of Queue::execute() that depend on the list and the queue.
    void check_executable(CommandList& list, const char* function) const;
    /// Whether a segment of @list before @segment signals @event.
    static bool signalled_before(const CommandList& list, std::size_t segment, const Event& event);
    /// Every wait of @list names a submitted point, or a signal of an earlier segment.
    static void check_waits(const CommandList& list, const char* function);
    /// The rules of gang member @index.
    void check_member(std::span<CommandList* const> lists, std::size_t index,
                      const char* function) const;
    /// Every rule of a gang, checked before anything is submitted.
    void check_gang(std::span<CommandList* const> lists, const Sync& sync,
                    const char* function) const;

    /// The events a gang signals: each list's and @sync's, once each, in the global lock order.
    static std::vector<const Event*> gang_signals(std::span<CommandList* const> lists,
                                                  const Sync& sync);
    /// Adds the batch and the waits of each member, then @sync's waits, to the next exec.
    void add_gang_members(std::span<CommandList* const> lists, const Sync& sync,
                          const char* function);
    /// Keeps the batch memory of the gang just submitted; its lists are executing.
    void track_gang(std::span<CommandList* const> lists);
    /// @list is executed, and executing until the last point submitted.
    void track_execution(CommandList& list);

    /// Makes room for one more submission under the max_in_flight cap.
    void make_room();
    void reclaim();
    /// Starts the waits and signals of the next exec: after the last, signalling the next point.
    void start_exec();
    /// One exec of @batch after the previous one and @waits, signalling @signal too.
    void submit_exec(GpuAddress batch, std::span<const Event> waits, const Event& signal,
                     const char* function);

    std::shared_ptr<Submitter> submitter_;
    Slot slot_;
    /// Shared with the executions of command lists, which poll it.
    std::shared_ptr<const SubmitterTimeline> timeline_;
    std::uint64_t last_{0};
    std::deque<InFlight> in_flight_;
    std::size_t max_in_flight_;
    const PendingOwner* batch_;
    PacketWriter writer_;
    std::vector<SyncPoint> waits_;
    std::vector<SyncPoint> signals_;
    std::vector<GpuAddress> batches_;
};

} // namespace tempo::detail
