// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <array>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

#include <tempo/error.hpp>
#include <tempo/queue.hpp>

#include "event_state.hpp"
#include "name_table.hpp"
#include "queue_core.hpp"
#include "recording.hpp"

namespace tempo {

namespace detail {

/**
 * The state of a BatchedQueue, shared with the events whose signal waits in
 * its batch (they hold it weakly and flush it when waited on).
 *
 * Locking: mutex guards everything but generation (atomic, read by events
 * without the lock). Under it the queue only takes event locks, which are
 * leaves; the batches of other queues are flushed (flush_pending()) before
 * it is taken, never under it, so two queues never wait for each other's
 * lock.
 */
struct BatchState final : PendingOwner, std::enable_shared_from_this<BatchState> {
    BatchState(std::shared_ptr<Submitter> submitter, Slot slot, BatchedQueueOptions queue_options)
        : queue(std::move(submitter), slot, queue_options.max_in_flight, this),
          options(queue_options)
    {}

    void flush_generation(std::uint64_t batch_generation, FlushReason reason) override
    {
        const std::lock_guard lock(mutex);
        if (generation.load() == batch_generation)
            flush_locked(reason);
    }

    [[nodiscard]] std::uint64_t current_generation() const noexcept override
    {
        return generation.load();
    }

    /// Closes and submits the current batch; the next one gets the next generation.
    void flush_locked(FlushReason reason)
    {
        if (!batch || batch->size() == 0)
            return;
        CommandList current = std::move(*batch);
        batch.reset();
        // From here the batch's events are no longer pending: waits on them
        // resolve to the points this flush submits.
        generation.fetch_add(1);
        flushes[static_cast<std::size_t>(reason)]++;
        current.close();
        queue.execute(current, "tempo::BatchedQueue::flush");
    }

    mutable std::mutex mutex;
    QueueCore queue;
    BatchedQueueOptions options;
    /// The current batch, created by its first command.
    std::optional<CommandList> batch;
    std::atomic<std::uint64_t> generation{1};
    std::uint32_t commands{0};
    std::array<std::uint64_t, 8> flushes{};
};

constexpr NameTable<FlushReason, 8> flush_reason_names{{
    {FlushReason::Explicit, "explicit"},
    {FlushReason::Size, "size"},
    {FlushReason::WaitList, "wait-list"},
    {FlushReason::HostWait, "host-wait"},
    {FlushReason::HostPoll, "host-poll"},
    {FlushReason::Execute, "execute"},
    {FlushReason::Finish, "finish"},
    {FlushReason::Destroy, "destroy"},
}};

} // namespace detail

std::string_view to_string(FlushReason reason) noexcept
{
    return detail::name_of(detail::flush_reason_names, reason).value_or("unknown");
}

BatchedQueue::BatchedQueue(std::shared_ptr<Submitter> submitter, Slot slot,
                           BatchedQueueOptions options)
{
    if (!submitter)
        throw std::invalid_argument("tempo::BatchedQueue: no submitter");
    if (options.batch_size == 0)
        throw std::invalid_argument("tempo::BatchedQueue: a batch size of 0");
    detail::require_single_batch_slot(*submitter, slot, "tempo::BatchedQueue");
    state_ = std::make_shared<detail::BatchState>(std::move(submitter), slot, options);
}

BatchedQueue::BatchedQueue(BatchedQueue&& other) noexcept = default;

BatchedQueue& BatchedQueue::operator=(BatchedQueue&& other) noexcept
{
    if (this != &other) {
        BatchedQueue old(std::move(*this));
        state_ = std::move(other.state_);
    }
    return *this;
}

BatchedQueue::~BatchedQueue()
{
    if (!state_)
        return;
    try {
        const std::lock_guard lock(state_->mutex);
        state_->flush_locked(FlushReason::Destroy);
        state_->queue.finish(wait_forever);
    } catch (...) {
        // Nothing to do in a destructor; the queue core waits once more.
    }
}

CommandId BatchedQueue::record(Command&& command, const Sync& sync)
{
    constexpr const char* function = "tempo::BatchedQueue::append";
    detail::BatchState& state = *state_;
    detail::validate(command, sync, state.queue.submitter()->limits(), function);
    // Waits name submitted points only: flush the batches (this queue's
    // included) that hold their signals, before taking this queue's lock.
    detail::flush_pending(sync.wait, FlushReason::WaitList);
    for (const Event& event : sync.wait)
        (void)detail::wait_point(event, function);

    const std::lock_guard lock(state.mutex);
    if (!state.batch)
        state.batch.emplace(state.queue.submitter(),
                            CommandListOptions{.usage = CommandListUsage::OneShot});
    state.batch->append(std::move(command), sync);
    if (sync.signal)
        detail::mark_pending(sync.signal, state.shared_from_this(), state.generation.load());
    const CommandId id{state.commands++};
    if (state.batch->size() >= state.options.batch_size)
        state.flush_locked(FlushReason::Size);
    return id;
}

void BatchedQueue::flush()
{
    const std::lock_guard lock(state_->mutex);
    state_->flush_locked(FlushReason::Explicit);
}

SyncPoint BatchedQueue::execute(CommandList& list)
{
    if (list.closed())
        detail::QueueCore::flush_waits(list);
    const std::lock_guard lock(state_->mutex);
    state_->flush_locked(FlushReason::Execute);
    return state_->queue.execute(list, "tempo::BatchedQueue::execute");
}

WaitResult BatchedQueue::finish(std::chrono::nanoseconds timeout)
{
    const std::lock_guard lock(state_->mutex);
    state_->flush_locked(FlushReason::Finish);
    return state_->queue.finish(timeout);
}

std::uint64_t BatchedQueue::generation() const noexcept
{
    return state_->generation.load();
}

std::size_t BatchedQueue::batch_commands() const
{
    const std::lock_guard lock(state_->mutex);
    return state_->batch ? state_->batch->size() : 0;
}

std::size_t BatchedQueue::in_flight() const
{
    const std::lock_guard lock(state_->mutex);
    return state_->queue.in_flight();
}

std::uint64_t BatchedQueue::flushes(FlushReason reason) const
{
    const std::lock_guard lock(state_->mutex);
    return state_->flushes[static_cast<std::size_t>(reason)];
}

SyncPoint BatchedQueue::last_submitted() const
{
    const std::lock_guard lock(state_->mutex);
    return state_->queue.last_submitted();
}

const std::shared_ptr<Submitter>& BatchedQueue::submitter() const noexcept
{
    return state_->queue.submitter();
}

} // namespace tempo
