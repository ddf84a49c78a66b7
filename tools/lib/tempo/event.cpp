// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include <tempo/error.hpp>
#include <tempo/event.hpp>
#include <tempo/submitter.hpp>

#include "event_state.hpp"

namespace tempo {

namespace detail {

void flush_pending(const Event& event, FlushReason reason)
{
    EventState& state = EventAccess::state(event);
    std::shared_ptr<PendingOwner> owner;
    std::uint64_t generation;
    {
        const std::lock_guard lock(state.mutex);
        owner = state.owner.lock();
        generation = state.generation;
    }
    // Outside the event's lock: the flush submits, and signals this event.
    if (owner && owner->current_generation() == generation)
        owner->flush_generation(generation, reason);
}

void flush_pending(std::span<const Event> events, FlushReason reason)
{
    for (const Event& event : events)
        flush_pending(event, reason);
}

SyncPoint wait_point(const Event& event, const char* function)
{
    EventState& state = EventAccess::state(event);
    const std::lock_guard lock(state.mutex);
    if (state.point == 0)
        throw UsageError(std::string{function} + ": event (syncobj " +
                         std::to_string(state.timeline.handle().value()) +
                         ") is waited on, but nothing submitted or batched signals it: the wait "
                         "could never end");
    return state.timeline.at(state.point);
}

void mark_pending(const Event& event, const std::shared_ptr<PendingOwner>& owner,
                  std::uint64_t generation)
{
    EventState& state = EventAccess::state(event);
    const std::lock_guard lock(state.mutex);
    state.owner = owner;
    state.owner_id = owner.get();
    state.generation = generation;
}

} // namespace detail

namespace {

detail::EventState& checked(const std::shared_ptr<detail::EventState>& state, const char* function)
{
    if (!state)
        throw UsageError(std::string{function} + ": empty event");
    return *state;
}

} // namespace

Event::Event(std::shared_ptr<Submitter> submitter)
{
    if (!submitter)
        throw std::invalid_argument("tempo::Event: no submitter");
    state_ = std::make_shared<detail::EventState>(std::move(submitter));
}

SyncobjHandle Event::timeline() const
{
    return checked(state_, "tempo::Event::timeline").timeline.handle();
}

std::uint64_t Event::point() const
{
    auto& state = checked(state_, "tempo::Event::point");
    const std::lock_guard lock(state.mutex);
    return state.point;
}

std::uint64_t Event::generation() const
{
    auto& state = checked(state_, "tempo::Event::generation");
    const std::lock_guard lock(state.mutex);
    return state.generation;
}

bool Event::pending() const
{
    auto& state = checked(state_, "tempo::Event::pending");
    std::shared_ptr<detail::PendingOwner> owner;
    std::uint64_t generation;
    {
        const std::lock_guard lock(state.mutex);
        owner = state.owner.lock();
        generation = state.generation;
    }
    return owner && owner->current_generation() == generation;
}

WaitResult Event::wait(std::chrono::nanoseconds timeout) const
{
    auto& state = checked(state_, "tempo::Event::wait");
    detail::flush_pending(*this, FlushReason::HostWait);
    const SyncPoint point = detail::wait_point(*this, "tempo::Event::wait");
    return state.timeline.submitter()->wait(point, timeout);
}

bool Event::signaled() const
{
    auto& state = checked(state_, "tempo::Event::signaled");
    detail::flush_pending(*this, FlushReason::HostPoll);
    std::uint64_t point;
    {
        const std::lock_guard lock(state.mutex);
        point = state.point;
    }
    return point != 0 &&
           state.timeline.submitter()->wait(state.timeline.at(point),
                                            std::chrono::nanoseconds{0}) == WaitResult::Signaled;
}

void Event::signal()
{
    auto& state = checked(state_, "tempo::Event::signal");
    detail::signal_next(*this, nullptr,
                        [&](SyncPoint next) { state.timeline.submitter()->signal(next); });
}

} // namespace tempo
