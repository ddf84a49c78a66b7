// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The in-order submission engine shared by Queue and BatchedQueue.
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

/// Throws std::invalid_argument (naming @queue) unless @slot takes one batch per exec.
void require_single_batch_slot(const Submitter& submitter, Slot slot, const char* queue);

/// A timeline syncobj of a submitter, destroyed with the last reference.
class OwnedTimeline {
public:
    explicit OwnedTimeline(std::shared_ptr<Submitter> submitter)
        : submitter_(std::move(submitter)), handle_(submitter_->create_timeline())
    {}
    OwnedTimeline(const OwnedTimeline&) = delete;
    OwnedTimeline& operator=(const OwnedTimeline&) = delete;
    ~OwnedTimeline() { submitter_->destroy_timeline(handle_); }

    [[nodiscard]] SyncobjHandle handle() const noexcept { return handle_; }
    [[nodiscard]] SyncPoint at(std::uint64_t point) const noexcept { return {handle_, point}; }
    /// Whether @point has signalled (polls).
    [[nodiscard]] bool reached(std::uint64_t point) const
    {
        return submitter_->last_signaled(handle_) >= point;
    }

private:
    std::shared_ptr<Submitter> submitter_;
    SyncobjHandle handle_;
};

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

    void check_executable(CommandList& list, const char* function) const;
    static void check_waits(const CommandList& list, const char* function);
    /// Makes room for one more submission under the max_in_flight cap.
    void make_room();
    void reclaim();
    /// One exec of @batch after the previous one and @waits, signalling @signal too.
    void submit_exec(GpuAddress batch, std::span<const Event> waits, const Event& signal,
                     const char* function);

    std::shared_ptr<Submitter> submitter_;
    Slot slot_;
    std::shared_ptr<OwnedTimeline> timeline_;
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
