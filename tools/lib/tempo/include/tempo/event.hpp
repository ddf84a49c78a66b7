// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include <tempo/sync.hpp>
#include <tempo/types.hpp>

namespace tempo {

class Submitter;

namespace detail {
struct EventState;
struct EventAccess;
} // namespace detail

/**
 * Event - a point on a timeline syncobj that commands signal and wait for
 *
 * An event owns a timeline syncobj. Every submission of a command that
 * signals it takes the next point of that timeline, and that point becomes
 * the event's point(); a command that waits on the event waits for the
 * point it has when the command is submitted. So a reusable command list
 * that signals an event signals a new point at each execution, and the
 * commands waiting on it wait for the latest one.
 *
 * A signal recorded in a BatchedQueue's batch is not submitted until the
 * batch is flushed; the event carries the batch's generation() and is
 * pending() until then. Waiting on it (a wait list, wait(), signaled())
 * flushes that batch first.
 *
 * Copies name the same event (the state is shared, like a shared_ptr), and
 * the commands that name an event keep it alive. A default-constructed
 * Event is "no event". Thread-safe.
 */
class Event {
public:
    /// No event.
    Event() noexcept = default;
    /// A new event on a new timeline of @submitter.
    explicit Event(std::shared_ptr<Submitter> submitter);

    [[nodiscard]] explicit operator bool() const noexcept { return state_ != nullptr; }

    /// The timeline syncobj.
    [[nodiscard]] SyncobjHandle timeline() const;
    /// The point of the latest submitted signal; 0 before the first.
    [[nodiscard]] std::uint64_t point() const;
    /// The syncobj at point().
    [[nodiscard]] SyncPoint sync_point() const { return {timeline(), point()}; }
    /// Generation of the batch that recorded its latest batched signal; 0 if none did.
    [[nodiscard]] std::uint64_t generation() const;
    /// Its latest batched signal is in a batch that was not flushed yet.
    [[nodiscard]] bool pending() const;

    /**
     * Waits for the latest signal, flushing the batch that holds it if need
     * be. Returns WaitResult::Timeout when @timeout passes. Throws
     * UsageError when nothing submitted or batched signals the event (the
     * wait could never end), JobError when the job that signalled it
     * failed.
     */
    WaitResult wait(std::chrono::nanoseconds timeout = wait_forever) const;
    /// Polls the latest signal (flushing its batch first); false when there is none.
    [[nodiscard]] bool signaled() const;
    /// Signals the next point from the CPU.
    void signal();

    friend bool operator==(const Event& a, const Event& b) noexcept { return a.state_ == b.state_; }

private:
    friend struct detail::EventAccess;

    std::shared_ptr<detail::EventState> state_;
};

} // namespace tempo
