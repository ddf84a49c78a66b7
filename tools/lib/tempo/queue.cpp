// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <algorithm>
#include <cerrno>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <tempo/error.hpp>
#include <tempo/queue.hpp>

#include "event_state.hpp"
#include "messages.hpp"
#include "queue_core.hpp"
#include "recording.hpp"

namespace tempo {

namespace detail {

namespace {

const Event no_event{};

[[noreturn]] void usage_error(const char* function, const std::string& rule)
{
    throw UsageError(std::string{function} + ": " + rule);
}

/*
 * Signals every event of @events, in order, with one exec: each event's
 * lock is held until @submit returns, so the points of each event are
 * still submitted in increasing order. The callers sort the events, which
 * gives every thread the same lock order.
 */
template <typename Submit>
void signal_all(std::span<const Event* const> events, const PendingOwner* batch,
                std::vector<SyncPoint>& signals, Submit&& submit)
{
    if (events.empty()) {
        submit();
        return;
    }
    signal_next(*events.front(), batch, [&](SyncPoint next) {
        signals.push_back(next);
        signal_all(events.subspan(1), batch, signals, submit);
    });
}

} // namespace

QueueCore::QueueCore(std::shared_ptr<Submitter> submitter, Slot slot, std::size_t max_in_flight,
                     const PendingOwner* batch)
    : submitter_(std::move(submitter)),
      slot_(slot),
      timeline_(std::make_shared<const SubmitterTimeline>(submitter_)),
      max_in_flight_(std::max<std::size_t>(max_in_flight, 1)),
      batch_(batch)
{}

QueueCore::~QueueCore()
{
    try {
        finish(wait_forever);
    } catch (...) {
        // Nothing to do in a destructor: the memory below is released anyway.
    }
}

// ---------------------------------------------------------------------------
// The segments of a list

std::span<const Event> QueueCore::segment_waits(const CommandList& list, const Segment& segment)
{
    if (segment.wait_entry < 0)
        return {};
    return list.sync_[static_cast<std::size_t>(segment.wait_entry)].wait;
}

const Event& QueueCore::segment_signal(const CommandList& list, const Segment& segment)
{
    if (segment.signal_entry < 0)
        return no_event;
    return list.sync_[static_cast<std::size_t>(segment.signal_entry)].signal;
}

GpuAddress QueueCore::segment_batch(const CommandList& list, const Segment& segment)
{
    return list.recording_->memory->gpu_address + std::uint64_t{segment.offset} * 4;
}

void QueueCore::flush_waits(const CommandList& list)
{
    for (const Segment& segment : list.recording_->segments)
        flush_pending(segment_waits(list, segment), FlushReason::WaitList);
}

// ---------------------------------------------------------------------------
// The rules, checked before anything is submitted

void QueueCore::check_executable(CommandList& list, const char* function) const
{
    if (!list.closed())
        usage_error(function, "the list is open; close() it first");
    if (list.submitter_ != submitter_)
        usage_error(function, "the list was created with another submitter; its batch memory "
                              "belongs to that one");
    if (list.options_.usage == CommandListUsage::OneShot && list.executed_)
        usage_error(function, "the one-shot list was already executed; reset() and record it "
                              "again, or create it CommandListUsage::Reusable");
    if (list.options_.usage != CommandListUsage::Simultaneous && list.executing())
        throw Error(EBUSY, function,
                    "the list is still executing and was not created "
                    "CommandListUsage::Simultaneous; wait for its previous execution first");
}

bool QueueCore::signalled_before(const CommandList& list, std::size_t segment, const Event& event)
{
    const auto earlier = std::span{list.recording_->segments}.first(segment);
    return std::any_of(earlier.begin(), earlier.end(),
                       [&](const Segment& s) { return segment_signal(list, s) == event; });
}

void QueueCore::check_waits(const CommandList& list, const char* function)
{
    // Every wait must name a submitted point, or a signal of an earlier
    // segment of this very execution.
    const auto& segments = list.recording_->segments;
    for (std::size_t s = 0; s < segments.size(); s++)
        for (const Event& event : segment_waits(list, segments[s]))
            if (event.point() == 0 && !signalled_before(list, s, event))
                (void)wait_point(event, function);
}

void QueueCore::check_member(std::span<CommandList* const> lists, std::size_t index,
                             const char* function) const
{
    const std::string which = "list " + std::to_string(index) + " of the gang";
    if (!lists[index])
        usage_error(function, which + " is null");
    CommandList& list = *lists[index];
    const auto earlier = lists.first(index);
    if (list.options_.usage != CommandListUsage::Simultaneous &&
        std::find(earlier.begin(), earlier.end(), &list) != earlier.end())
        usage_error(function, which + " is given twice; only a CommandListUsage::Simultaneous "
                                      "list may run twice at a time");
    check_executable(list, function);
    const std::size_t segments = list.recording_->segments.size();
    if (segments != 1)
        usage_error(function, which + " closes into " + std::to_string(segments) +
                                  " segments; a gang member is one exec, so its list may only "
                                  "wait on its first command and signal on its last");
}

void QueueCore::check_gang(std::span<CommandList* const> lists, const Sync& sync,
                           const char* function) const
{
    for (std::size_t i = 0; i < lists.size(); i++)
        check_member(lists, i, function);
    for (CommandList* list : lists)
        check_waits(*list, function);
    for (const Event& event : sync.wait) {
        if (!event)
            usage_error(function, "an empty Event in the wait list");
        (void)wait_point(event, function);
    }
}

// ---------------------------------------------------------------------------
// Submission

SyncPoint QueueCore::execute(CommandList& list, const char* function)
{
    check_executable(list, function);
    check_waits(list, function);
    const std::shared_ptr<Recording> recording = list.recording_;
    make_room();
    const std::uint64_t before = last_;
    // Once a segment is submitted the GPU may read the batch: whatever
    // happens next, the queue tracks it, and the list counts as executed.
    const auto track = [&] {
        in_flight_.push_back({last_, recording->memory});
        track_execution(list);
    };
    try {
        for (const Segment& segment : recording->segments)
            submit_exec(segment_batch(list, segment), segment_waits(list, segment),
                        segment_signal(list, segment), function);
    } catch (...) {
        if (last_ != before)
            track();
        throw;
    }
    track();
    return timeline_->at(last_);
}

SyncPoint QueueCore::execute_gang(std::span<CommandList* const> lists, const Sync& sync,
                                  const char* function)
{
    check_gang(lists, sync, function);
    const std::vector<const Event*> events = gang_signals(lists, sync);
    make_room();
    start_exec();
    add_gang_members(lists, sync, function);
    signal_all(events, batch_, signals_, [&] {
        submitter_->submit({.slot = slot_,
                            .batch = batches_.front(),
                            .wait = waits_,
                            .signal = signals_,
                            .batches = batches_});
    });
    last_++;
    track_gang(lists);
    return timeline_->at(last_);
}

std::vector<const Event*> QueueCore::gang_signals(std::span<CommandList* const> lists,
                                                  const Sync& sync)
{
    std::vector<const Event*> events;
    for (CommandList* list : lists)
        if (const Event& signal = segment_signal(*list, list->recording_->segments.front()))
            events.push_back(&signal);
    if (sync.signal)
        events.push_back(&sync.signal);
    const auto state_of = [](const Event* event) { return &EventAccess::state(*event); };
    std::sort(events.begin(), events.end(), [&](const Event* a, const Event* b) {
        return std::less<>{}(state_of(a), state_of(b));
    });
    events.erase(std::unique(events.begin(), events.end(),
                             [&](const Event* a, const Event* b) { return *a == *b; }),
                 events.end());
    return events;
}

void QueueCore::add_gang_members(std::span<CommandList* const> lists, const Sync& sync,
                                 const char* function)
{
    batches_.clear();
    for (CommandList* list : lists) {
        const Segment& segment = list->recording_->segments.front();
        batches_.push_back(segment_batch(*list, segment));
        for (const Event& event : segment_waits(*list, segment))
            waits_.push_back(wait_point(event, function));
    }
    for (const Event& event : sync.wait)
        waits_.push_back(wait_point(event, function));
}

void QueueCore::track_gang(std::span<CommandList* const> lists)
{
    InFlight entry{.point = last_, .memory = lists.front()->recording_->memory, .gang = {}};
    for (CommandList* list : lists.subspan(1))
        entry.gang.push_back(list->recording_->memory);
    in_flight_.push_back(std::move(entry));
    for (CommandList* list : lists)
        track_execution(*list);
}

void QueueCore::track_execution(CommandList& list)
{
    list.executed_ = true;
    if (list.options_.usage == CommandListUsage::Simultaneous && list.executions_.size() >= 16)
        (void)list.executing(); // drop the completed ones
    list.executions_.push_back({timeline_, last_});
}

SyncPoint QueueCore::submit_command(const Command& command, const Sync& sync, const char* function)
{
    writer_.clear();
    encode(command, writer_, submitter_->limits());
    writer_.end();
    auto memory = submitter_->upload(writer_.dwords());
    make_room();
    submit_exec(memory->gpu_address, sync.wait, sync.signal, function);
    in_flight_.push_back({last_, std::move(memory)});
    return timeline_->at(last_);
}

void QueueCore::start_exec()
{
    waits_.clear();
    if (last_ != 0)
        waits_.push_back(timeline_->at(last_));
    signals_.clear();
    signals_.push_back(timeline_->at(last_ + 1));
}

void QueueCore::submit_exec(GpuAddress batch, std::span<const Event> waits, const Event& signal,
                            const char* function)
{
    start_exec();
    for (const Event& event : waits)
        waits_.push_back(wait_point(event, function));
    const Event* const signals[] = {&signal};
    signal_all(
        signal ? std::span{signals} : std::span<const Event* const>{}, batch_, signals_, [&] {
            submitter_->submit({.slot = slot_, .batch = batch, .wait = waits_, .signal = signals_});
        });
    last_++;
}

void require_single_batch_slot(const Submitter& submitter, Slot slot, const char* queue)
{
    const std::uint32_t width = submitter.slot_width(slot);
    if (width != 1)
        throw std::invalid_argument(std::string{queue} + ": slot " + std::to_string(slot.value()) +
                                    " is a parallel slot whose execs take " +
                                    detail::count(width, "batch", "batches") +
                                    "; use ParallelQueue");
}

void require_parallel_slot(const Submitter& submitter, Slot slot, const char* queue)
{
    const std::uint32_t width = submitter.slot_width(slot);
    if (width < 2)
        throw std::invalid_argument(std::string{queue} + ": slot " + std::to_string(slot.value()) +
                                    " is not a parallel slot (its execs take " +
                                    detail::count(width, "batch", "batches") +
                                    "); use Queue or BatchedQueue");
}

// ---------------------------------------------------------------------------
// Completion

void QueueCore::reclaim()
{
    if (in_flight_.empty())
        return;
    const std::uint64_t done = timeline_->last_signaled();
    while (!in_flight_.empty() && in_flight_.front().point <= done)
        in_flight_.pop_front();
}

void QueueCore::make_room()
{
    if (in_flight_.size() < max_in_flight_)
        return;
    reclaim();
    if (in_flight_.size() < max_in_flight_)
        return;
    // Only the oldest: the queue never drains to make room.
    submitter_->wait(timeline_->at(in_flight_.front().point), wait_forever);
    in_flight_.pop_front();
}

WaitResult QueueCore::finish(std::chrono::nanoseconds timeout)
{
    if (last_ == 0)
        return WaitResult::Signaled;
    const WaitResult result = submitter_->wait(timeline_->at(last_), timeout);
    if (result == WaitResult::Signaled)
        in_flight_.clear();
    return result;
}

// ---------------------------------------------------------------------------
// What Queue and ParallelQueue share

QueueBase::QueueBase(std::shared_ptr<Submitter> submitter, Slot slot, QueueOptions options,
                     const char* queue, SlotRule slot_rule)
{
    if (!submitter)
        throw std::invalid_argument(std::string{queue} + ": no submitter");
    slot_rule(*submitter, slot, queue);
    core_ = std::make_unique<QueueCore>(std::move(submitter), slot, options.max_in_flight);
}

QueueBase::QueueBase(QueueBase&& other) noexcept = default;
QueueBase& QueueBase::operator=(QueueBase&& other) noexcept = default;
QueueBase::~QueueBase() = default;

WaitResult QueueBase::finish(std::chrono::nanoseconds timeout)
{
    return core_->finish(timeout);
}

SyncPoint QueueBase::last_submitted() const noexcept
{
    return core_->last_submitted();
}

std::size_t QueueBase::in_flight() const noexcept
{
    return core_->in_flight();
}

Slot QueueBase::slot() const noexcept
{
    return core_->slot();
}

const std::shared_ptr<Submitter>& QueueBase::submitter() const noexcept
{
    return core_->submitter();
}

} // namespace detail

// ---------------------------------------------------------------------------
// Queue

Queue::Queue(std::shared_ptr<Submitter> submitter, Slot slot, QueueOptions options)
    : QueueBase(std::move(submitter), slot, options, "tempo::Queue",
                detail::require_single_batch_slot)
{}

SyncPoint Queue::execute(CommandList& list)
{
    constexpr const char* function = "tempo::Queue::execute";
    if (list.closed())
        detail::QueueCore::flush_waits(list);
    return core().execute(list, function);
}

CommandId Queue::record(Command&& command, const Sync& sync)
{
    detail::validate(command, sync, submitter()->limits(), "tempo::Queue::append");
    detail::flush_pending(sync.wait, FlushReason::WaitList);
    core().submit_command(command, sync, "tempo::Queue::append");
    return CommandId{commands_++};
}

// ---------------------------------------------------------------------------
// ParallelQueue

ParallelQueue::ParallelQueue(std::shared_ptr<Submitter> submitter, Slot slot, QueueOptions options)
    : QueueBase(std::move(submitter), slot, options, "tempo::ParallelQueue",
                detail::require_parallel_slot),
      width_(QueueBase::submitter()->slot_width(slot))
{}

SyncPoint ParallelQueue::execute(std::span<CommandList* const> lists, const Sync& sync)
{
    constexpr const char* function = "tempo::ParallelQueue::execute";
    if (lists.size() != width_)
        throw Error(EINVAL, "DRM_IOCTL_TEMPO_EXEC",
                    std::string{function} + ": slot " + std::to_string(slot().value()) +
                        " is a parallel slot of width " + std::to_string(width_) +
                        ", and every exec on it takes exactly " +
                        detail::count(width_, "batch", "batches") + ", so a gang is exactly " +
                        std::to_string(width_) + " command lists, one per member; " +
                        std::to_string(lists.size()) + " given, nothing was submitted");
    for (CommandList* list : lists)
        if (list && list->closed())
            detail::QueueCore::flush_waits(*list);
    detail::flush_pending(sync.wait, FlushReason::WaitList);
    return core().execute_gang(lists, sync, function);
}

} // namespace tempo
