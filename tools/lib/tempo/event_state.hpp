// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * What an Event is, for the queues: its timeline, the point of its latest
 * submitted signal, and the batch that holds a signal not submitted yet.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <utility>

#include <tempo/event.hpp>
#include <tempo/queue.hpp>
#include <tempo/submitter.hpp>

namespace tempo::detail {

/// A batched queue, as the events whose signal waits in its batch see it.
class PendingOwner {
public:
    /// Flushes the current batch if its generation is still @generation.
    virtual void flush_generation(std::uint64_t generation, FlushReason reason) = 0;
    [[nodiscard]] virtual std::uint64_t current_generation() const noexcept = 0;

protected:
    PendingOwner() = default;
    PendingOwner(const PendingOwner&) = default;
    PendingOwner& operator=(const PendingOwner&) = default;
    ~PendingOwner() = default;
};

struct EventState {
    explicit EventState(std::shared_ptr<Submitter> submitter) : timeline(std::move(submitter)) {}

    /// The event's own timeline, of the submitter it was created with.
    const SubmitterTimeline timeline;
    /// Guards the fields below; a leaf lock (nothing else is locked under it).
    std::mutex mutex;
    /// Point of the latest submitted signal, 0 before the first.
    std::uint64_t point{0};
    /// Generation of the batch that recorded the latest batched signal.
    std::uint64_t generation{0};
    /// The queue of that batch, while the batch may be unflushed.
    std::weak_ptr<PendingOwner> owner;
    /// The same queue, to compare (never dereferenced).
    const PendingOwner* owner_id{nullptr};
};

struct EventAccess {
    static EventState& state(const Event& event) noexcept { return *event.state_; }
};

/**
 * Flushes the batch that holds the latest signal of @event, if that batch
 * is still the current one of its queue. Call it with no queue lock held.
 */
void flush_pending(const Event& event, FlushReason reason);
/// flush_pending() for each event.
void flush_pending(std::span<const Event> events, FlushReason reason);

/**
 * The point that a wait on @event names now: its latest submitted signal.
 * Throws UsageError (naming @function) when there is none.
 */
SyncPoint wait_point(const Event& event, const char* function);

/// Records that the current batch, of generation @generation, of @owner signals @event.
void mark_pending(const Event& event, const std::shared_ptr<PendingOwner>& owner,
                  std::uint64_t generation);

/**
 * Runs @submit(point) with the next point of @event, under the event's
 * lock, and makes it the event's point once @submit returns (not if it
 * throws). So the points of an event are submitted in increasing order.
 *
 * @batch is the batched queue whose flush submits, or null. The event stops
 * being pending unless its latest batched signal is in another queue's
 * batch: a signal submitted from elsewhere, or by that batch's own flush,
 * is the latest one.
 */
template <typename Submit>
void signal_next(const Event& event, const PendingOwner* batch, Submit&& submit)
{
    EventState& state = EventAccess::state(event);
    const std::lock_guard lock(state.mutex);
    const SyncPoint next = state.timeline.at(state.point + 1);
    submit(next);
    state.point = next.point;
    if (!batch || batch == state.owner_id) {
        state.owner.reset();
        state.owner_id = nullptr;
    }
}

} // namespace tempo::detail
