// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Queues against the fake GPU: in-order submission, immediate commands,
 * batching (generations, every flush trigger, the in-flight cap) and
 * randomized sequences that must neither deadlock nor lose a command.
 */
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <tempo/command_list.hpp>
#include <tempo/error.hpp>
#include <tempo/queue.hpp>
#include <tempo/submitter.hpp>

#include "fake_submitter.hpp"

namespace {

using tempo::BatchedQueue;
using tempo::BatchedQueueOptions;
using tempo::CommandId;
using tempo::CommandList;
using tempo::CommandListUsage;
using tempo::Event;
using tempo::FlushReason;
using tempo::GpuAddress;
using tempo::Queue;
using tempo::Slot;
using tempo::SyncPoint;
using tempo::UsageError;
using tempo::testing::FakeSubmitter;

constexpr GpuAddress data_va{0x10000};

// Move-only, through the base shared with ParallelQueue.
static_assert(std::is_nothrow_move_constructible_v<Queue> &&
              std::is_nothrow_move_assignable_v<Queue>);
static_assert(!std::is_copy_constructible_v<Queue> && !std::is_copy_assignable_v<Queue>);

class QueueTest : public ::testing::Test {
protected:
    std::shared_ptr<FakeSubmitter> fake_ = std::make_shared<FakeSubmitter>();

    [[nodiscard]] Event event() const { return Event(fake_); }
    [[nodiscard]] BatchedQueue batched(Slot slot = Slot{0}, BatchedQueueOptions options = {}) const
    {
        return BatchedQueue(fake_, slot, options);
    }
    /// A batched queue on slot 0 whose current batch writes @value to data_va and signals @e.
    [[nodiscard]] BatchedQueue batch_signalling(const Event& e, std::uint32_t value = 1U) const
    {
        BatchedQueue queue = batched();
        queue.append_write(data_va, value, {.signal = e});
        return queue;
    }
    /**
     * A batched queue at its in-flight cap of 3: three flushed batches of
     * one atomic increment of data_va each, which the GPU does not run
     * until fake_->run().
     */
    [[nodiscard]] BatchedQueue batched_at_the_cap()
    {
        fake_->auto_run = false;
        BatchedQueue queue = batched(Slot{0}, {.batch_size = 100, .max_in_flight = 3});
        for (int i = 0; i < 3; i++) {
            queue.append_atomic_inc(data_va);
            queue.flush();
        }
        return queue;
    }
    void expect_no_problems() const
    {
        for (const auto& problem : fake_->problems())
            ADD_FAILURE() << problem;
    }
    void TearDown() override { expect_no_problems(); }
};

// ---------------------------------------------------------------------------
// In-order queue and immediate commands

TEST_F(QueueTest, ImmediateCommandsAreSubmittedAtOnceInOrder)
{
    tempo::ImmediateCommandList immediate(fake_, Slot{2});
    EXPECT_EQ(immediate.append_write(data_va, 1U), CommandId{0});
    EXPECT_EQ(fake_->jobs().size(), 1U);
    EXPECT_EQ(immediate.append_atomic_inc(data_va + 8), CommandId{1});
    EXPECT_EQ(immediate.append_dispatch_atomic_inc({.x = 2}, data_va + 8, 3), CommandId{2});
    ASSERT_EQ(fake_->jobs().size(), 3U);
    const SyncPoint last = immediate.last_submitted();
    EXPECT_EQ(last.point, 3U);
    // Each waits for the one before on the queue timeline.
    EXPECT_TRUE(fake_->jobs()[0].wait.empty());
    for (std::size_t i = 1; i < 3; i++) {
        EXPECT_EQ(fake_->jobs()[i].slot, Slot{2});
        EXPECT_EQ(fake_->jobs()[i].wait, fake_->jobs()[i - 1].signal);
    }
    EXPECT_EQ(fake_->jobs()[2].signal, std::vector<SyncPoint>{last});
    EXPECT_EQ(fake_->read32(data_va), 1U);
    EXPECT_EQ(fake_->read64(data_va + 8), 7U);
}

TEST_F(QueueTest, ImmediateSignalsAndWaitsOnEvents)
{
    Queue a(fake_, Slot{0});
    Queue b(fake_, Slot{1});
    const Event e = event();
    a.append_write(data_va, 5U, {.signal = e});
    EXPECT_EQ(e.point(), 1U);
    const Event waits[] = {e};
    b.append_copy(data_va + 4, data_va, 4, {.wait = waits});
    EXPECT_EQ(fake_->jobs()[1].wait, (std::vector<SyncPoint>{{e.timeline(), 1}}));
    EXPECT_EQ(fake_->read32(data_va + 4), 5U);
    const Event never = event();
    const Event bad[] = {never};
    try {
        b.append_barrier({.wait = bad});
        FAIL() << "waited on an event nothing signals";
    } catch (const UsageError& error) {
        EXPECT_EQ(std::string{error.what()},
                  "tempo::Queue::append: event (syncobj " +
                      std::to_string(never.timeline().value()) +
                      ") is waited on, but nothing submitted or batched signals it: the wait could "
                      "never end");
    }
}

TEST_F(QueueTest, InFlightSubmissionsAreCappedAndReclaimed)
{
    fake_->auto_run = false;
    Queue queue(fake_, Slot{0}, {.max_in_flight = 3});
    for (int i = 0; i < 3; i++)
        queue.append_atomic_inc(data_va);
    EXPECT_EQ(queue.in_flight(), 3U);
    EXPECT_TRUE(fake_->host_waits().empty());
    // At the cap, nothing complete: wait for the oldest only.
    queue.append_atomic_inc(data_va);
    EXPECT_EQ(fake_->host_waits(), (std::vector<SyncPoint>{{queue.last_submitted().handle, 1}}));
    EXPECT_EQ(queue.in_flight(), 3U);
    EXPECT_EQ(queue.finish(), tempo::WaitResult::Signaled);
    EXPECT_EQ(queue.in_flight(), 0U);
    EXPECT_EQ(fake_->read64(data_va), 4U);
}

TEST_F(QueueTest, ASubmitterTimelineIsDestroyedOnceByItsLastOwner)
{
    {
        tempo::SubmitterTimeline timeline(fake_);
        EXPECT_EQ(fake_->live_timelines(), 1U);
        EXPECT_EQ(timeline.submitter(), fake_);
        EXPECT_EQ(timeline.at(3), (SyncPoint{timeline.handle(), 3}));
        EXPECT_EQ(timeline.last_signaled(), 0U);
        fake_->signal(timeline.at(1));
        EXPECT_EQ(timeline.last_signaled(), 1U);

        tempo::SubmitterTimeline moved = std::move(timeline);
        EXPECT_EQ(timeline.handle(), tempo::SyncobjHandle{}); // NOLINT(bugprone-use-after-move)
        EXPECT_EQ(fake_->live_timelines(), 1U);
        tempo::SubmitterTimeline other(fake_);
        EXPECT_EQ(fake_->live_timelines(), 2U);
        other = std::move(moved);
        EXPECT_EQ(fake_->live_timelines(), 1U) << "the assignment destroyed the old timeline";
    }
    EXPECT_EQ(fake_->live_timelines(), 0U);
    EXPECT_THROW(tempo::SubmitterTimeline{nullptr}, std::invalid_argument);
}

TEST_F(QueueTest, QueueKeepsBatchMemoryUntilTheGpuIsDone)
{
    fake_->auto_run = false;
    {
        Queue queue(fake_, Slot{0});
        for (int i = 0; i < 5; i++)
            queue.append_atomic_inc(data_va);
        EXPECT_EQ(fake_->live_uploads(), 5U);
    } // the destructor waits
    EXPECT_EQ(fake_->pending_jobs(), 0U);
    EXPECT_EQ(fake_->live_uploads(), 0U);
    EXPECT_EQ(fake_->live_timelines(), 0U);
    EXPECT_EQ(fake_->read64(data_va), 5U);
}

// ---------------------------------------------------------------------------
// Batched queue: generations and flush triggers

TEST_F(QueueTest, BatchedCommandsWaitForAFlush)
{
    BatchedQueue queue = batched();
    EXPECT_EQ(queue.generation(), 1U);
    EXPECT_EQ(queue.append_write(data_va, 1U), CommandId{0});
    EXPECT_EQ(queue.append_write(data_va + 4, 2U), CommandId{1});
    EXPECT_EQ(queue.append_atomic_inc(data_va + 8), CommandId{2});
    EXPECT_TRUE(fake_->jobs().empty());
    EXPECT_EQ(queue.batch_commands(), 3U);

    queue.flush();
    EXPECT_EQ(fake_->jobs().size(), 1U) << "a batch without events is one exec";
    EXPECT_EQ(queue.generation(), 2U);
    EXPECT_EQ(queue.batch_commands(), 0U);
    EXPECT_EQ(queue.flushes(FlushReason::Explicit), 1U);
    EXPECT_EQ(fake_->read32(data_va + 4), 2U);

    queue.flush(); // empty: nothing
    EXPECT_EQ(queue.generation(), 2U);
    EXPECT_EQ(fake_->jobs().size(), 1U);
}

TEST_F(QueueTest, EventsCarryTheGenerationOfTheirBatch)
{
    BatchedQueue queue = batched();
    const Event a = event();
    const Event b = event();
    queue.append_write(data_va, 1U, {.signal = a});
    EXPECT_EQ(a.generation(), 1U);
    EXPECT_TRUE(a.pending());
    EXPECT_EQ(a.point(), 0U);
    queue.flush();
    EXPECT_FALSE(a.pending());
    EXPECT_EQ(a.point(), 1U);
    queue.append_write(data_va, 2U, {.signal = b});
    queue.append_write(data_va, 3U, {.signal = a});
    EXPECT_EQ(b.generation(), 2U);
    EXPECT_EQ(a.generation(), 2U);
    EXPECT_TRUE(a.pending());
}

TEST_F(QueueTest, ASignalSubmittedElsewhereIsTheLatest)
{
    BatchedQueue batch = batched(Slot{0});
    Queue immediate(fake_, Slot{1});
    const Event e = event();
    batch.append_write(data_va, 1U, {.signal = e});
    EXPECT_TRUE(e.pending());
    immediate.append_write(data_va + 4, 2U, {.signal = e});
    EXPECT_FALSE(e.pending());
    EXPECT_EQ(e.point(), 1U);
    EXPECT_EQ(e.wait(), tempo::WaitResult::Signaled);
    EXPECT_EQ(batch.flushes(FlushReason::HostWait), 0U) << "the batch is not flushed for it";
    EXPECT_EQ(batch.batch_commands(), 1U);
    batch.flush();
    EXPECT_EQ(e.point(), 2U);
}

TEST_F(QueueTest, FlushWhenTheBatchIsFull)
{
    BatchedQueue queue = batched(Slot{0}, {.batch_size = 4});
    for (std::uint32_t i = 0; i < 10; i++)
        queue.append_write(data_va + i * 4, i);
    EXPECT_EQ(queue.flushes(FlushReason::Size), 2U);
    EXPECT_EQ(queue.generation(), 3U);
    EXPECT_EQ(queue.batch_commands(), 2U);
    EXPECT_EQ(fake_->jobs().size(), 2U);
}

TEST_F(QueueTest, FlushWhenAnEventOfTheBatchIsInAWaitListOfThisQueue)
{
    const Event e = event();
    BatchedQueue queue = batch_signalling(e);
    const Event waits[] = {e};
    queue.append_copy(data_va + 4, data_va, 4, {.wait = waits});
    EXPECT_EQ(queue.flushes(FlushReason::WaitList), 1U);
    EXPECT_EQ(queue.generation(), 2U);
    EXPECT_EQ(queue.batch_commands(), 1U);
    queue.flush();
    EXPECT_EQ(fake_->read32(data_va + 4), 1U);
}

TEST_F(QueueTest, FlushWhenAnEventOfTheBatchIsInAWaitListOfAnotherQueue)
{
    const Event e = event();
    BatchedQueue producer = batch_signalling(e, 42U);
    const Event waits[] = {e};

    // Another batched queue.
    BatchedQueue other = batched(Slot{1});
    other.append_copy(data_va + 4, data_va, 4, {.wait = waits});
    EXPECT_EQ(producer.flushes(FlushReason::WaitList), 1U);
    EXPECT_EQ(producer.generation(), 2U);

    // An in-order queue.
    producer.append_write(data_va + 8, 43U, {.signal = e});
    Queue in_order(fake_, Slot{2});
    in_order.append_copy(data_va + 12, data_va + 8, 4, {.wait = waits});
    EXPECT_EQ(producer.flushes(FlushReason::WaitList), 2U);
    EXPECT_EQ(fake_->read32(data_va + 12), 43U);

    // A command list executed on an in-order queue.
    producer.append_write(data_va + 16, 44U, {.signal = e});
    CommandList list(fake_);
    list.append_copy(data_va + 20, data_va + 16, 4, {.wait = waits});
    list.close();
    in_order.execute(list);
    EXPECT_EQ(producer.flushes(FlushReason::WaitList), 3U);
    EXPECT_EQ(fake_->read32(data_va + 20), 44U);

    other.finish();
    EXPECT_EQ(fake_->read32(data_va + 4), 42U);
}

TEST_F(QueueTest, NoFlushForAnEventOfAnOlderGeneration)
{
    const Event e = event();
    BatchedQueue producer = batch_signalling(e);
    producer.flush();
    producer.append_write(data_va + 4, 2U); // unrelated
    const Event waits[] = {e};
    BatchedQueue consumer = batched(Slot{1});
    consumer.append_barrier({.wait = waits});
    EXPECT_EQ(producer.flushes(FlushReason::WaitList), 0U);
    EXPECT_EQ(producer.batch_commands(), 1U);
}

TEST_F(QueueTest, FlushWhenTheHostWaits)
{
    const Event e = event();
    BatchedQueue queue = batch_signalling(e);
    EXPECT_EQ(e.wait(), tempo::WaitResult::Signaled);
    EXPECT_EQ(queue.flushes(FlushReason::HostWait), 1U);
    EXPECT_EQ(fake_->read32(data_va), 1U);
}

TEST_F(QueueTest, FlushWhenTheHostPolls)
{
    // A poll that did not flush would never see the event signalled.
    const Event e = event();
    BatchedQueue queue = batch_signalling(e);
    EXPECT_TRUE(e.signaled());
    EXPECT_EQ(queue.flushes(FlushReason::HostPoll), 1U);
    EXPECT_TRUE(e.signaled());
    EXPECT_EQ(queue.flushes(FlushReason::HostPoll), 1U);
}

TEST_F(QueueTest, HostWaitOnAnEventNothingSignalsIsRefused)
{
    const Event e = event();
    EXPECT_FALSE(e.signaled());
    try {
        e.wait();
        FAIL() << "waited forever";
    } catch (const UsageError& error) {
        EXPECT_EQ(std::string{error.what()},
                  "tempo::Event::wait: event (syncobj " + std::to_string(e.timeline().value()) +
                      ") is waited on, but nothing submitted or batched signals it: the wait "
                      "could never end");
    }
}

TEST_F(QueueTest, FlushOnExecuteFinishAndDestroy)
{
    {
        BatchedQueue queue = batched();
        queue.append_write(data_va, 1U);
        CommandList list(fake_);
        list.append_write(data_va + 4, 2U);
        list.close();
        queue.execute(list);
        EXPECT_EQ(queue.flushes(FlushReason::Execute), 1U);
        ASSERT_EQ(fake_->jobs().size(), 2U);
        EXPECT_EQ(fake_->jobs()[1].wait, fake_->jobs()[0].signal) << "the batch goes first";

        queue.append_write(data_va + 8, 3U);
        EXPECT_EQ(queue.finish(), tempo::WaitResult::Signaled);
        EXPECT_EQ(queue.flushes(FlushReason::Finish), 1U);
        EXPECT_EQ(queue.in_flight(), 0U);
        queue.append_write(data_va + 12, 4U);
    }
    EXPECT_EQ(fake_->jobs().size(), 4U);
    EXPECT_EQ(fake_->read32(data_va + 12), 4U);
    EXPECT_EQ(fake_->live_uploads(), 0U);
    EXPECT_EQ(fake_->live_timelines(), 0U);
}

TEST_F(QueueTest, BatchWithEventsInTheMiddleIsSplitMinimally)
{
    BatchedQueue queue = batched();
    const Event e = event();
    queue.append_write(data_va, 1U);
    queue.append_write(data_va + 4, 2U, {.signal = e});
    queue.append_write(data_va + 8, 3U);
    queue.append_write(data_va + 12, 4U);
    queue.flush();
    EXPECT_EQ(fake_->jobs().size(), 2U);
    EXPECT_EQ(e.point(), 1U);
}

TEST_F(QueueTest, AnEventDroppedByTheUserStaysAliveInTheBatch)
{
    BatchedQueue queue = batched();
    {
        const Event e = event();
        queue.append_write(data_va, 1U, {.signal = e});
    }
    EXPECT_EQ(fake_->live_timelines(), 2U) << "the queue's and the event's";
    queue.flush();
    queue.finish();
    EXPECT_EQ(fake_->live_timelines(), 1U);
}

// ---------------------------------------------------------------------------
// Batched queue: the in-flight cap

TEST_F(QueueTest, AtTheCapAFlushWaitsForTheOldestBatchOnly)
{
    BatchedQueue queue = batched_at_the_cap();
    EXPECT_EQ(queue.in_flight(), 3U);
    EXPECT_TRUE(fake_->host_waits().empty());
    const std::size_t polls = fake_->polls();
    queue.append_atomic_inc(data_va);
    queue.flush();
    EXPECT_GT(fake_->polls(), polls) << "it polled for completed batches first";
    EXPECT_EQ(fake_->host_waits(), (std::vector<SyncPoint>{{queue.last_submitted().handle, 1}}))
        << "then waited for the oldest, not for the queue";
    EXPECT_EQ(queue.in_flight(), 3U);
    queue.finish();
    EXPECT_EQ(fake_->read64(data_va), 4U);
}

TEST_F(QueueTest, CompletedBatchesAreReclaimedByPolling)
{
    BatchedQueue queue = batched_at_the_cap();
    fake_->run(); // the GPU completes them
    EXPECT_EQ(fake_->live_uploads(), 3U);
    queue.append_atomic_inc(data_va);
    queue.flush();
    EXPECT_TRUE(fake_->host_waits().empty()) << "no blocking wait";
    EXPECT_EQ(queue.in_flight(), 1U);
    EXPECT_EQ(fake_->live_uploads(), 1U) << "completed batches returned their memory";
    queue.finish();
}

// ---------------------------------------------------------------------------
// No deadlock, no lost command

TEST_F(QueueTest, TwoQueuesWaitingOnEachOthersUnflushedEvents)
{
    fake_->auto_run = false;
    BatchedQueue q1 = batched(Slot{0});
    BatchedQueue q2 = batched(Slot{1});
    const Event e1 = event();
    const Event e2 = event();
    q1.append_write(data_va, 1U, {.signal = e1});
    q2.append_write(data_va + 4, 2U, {.signal = e2});
    const Event w2[] = {e2};
    const Event w1[] = {e1};
    q1.append_copy(data_va + 8, data_va + 4, 4, {.wait = w2}); // flushes q2
    q2.append_copy(data_va + 12, data_va, 4, {.wait = w1});    // flushes q1
    EXPECT_EQ(q1.flushes(FlushReason::WaitList), 1U);
    EXPECT_EQ(q2.flushes(FlushReason::WaitList), 1U);
    q1.append_write(data_va + 16, 5U, {.signal = e1});
    q2.append_barrier({.wait = w1}); // flushes q1 again
    EXPECT_EQ(q2.finish(), tempo::WaitResult::Signaled);
    EXPECT_EQ(q1.finish(), tempo::WaitResult::Signaled);
    EXPECT_EQ(fake_->read32(data_va + 8), 2U);
    EXPECT_EQ(fake_->read32(data_va + 12), 1U);
    EXPECT_EQ(fake_->read32(data_va + 16), 5U);
    EXPECT_EQ(fake_->pending_jobs(), 0U);
}

/**
 * Random sequences of appends (with random waits and signals), flushes,
 * host waits and polls, list executions, finishes and GPU progress on two
 * batched queues and an in-order queue. Every wait that would never end
 * throws in the fake; every exec that names an unsubmitted point throws
 * ENOENT. At the end every command ran exactly once, each queue's commands
 * in order, and every host wait saw the latest signal of its event done.
 */
class RandomSequenceTest : public QueueTest, public ::testing::WithParamInterface<unsigned> {
protected:
    // What the two command lists count: their executions.
    static constexpr GpuAddress list_counter = data_va + 0x100000;
    static constexpr GpuAddress evented_counter = data_va + 0x100008;

    void SetUp() override
    {
        rng_.seed(GetParam());
        fake_->auto_run = chance(50);
        for (std::uint32_t i = 0; i < 2; i++)
            batched_.push_back(
                batched(Slot{i}, {.batch_size = 1 + pick(8), .max_in_flight = 1 + pick(4)}));
        in_order_.emplace(fake_, Slot{2}, tempo::QueueOptions{.max_in_flight = 1 + pick(4)});
        for (int i = 0; i < 6; i++)
            events_.push_back(event());
        signalled_.assign(events_.size(), false);
        last_signaller_.resize(events_.size());
        // A reusable list, executed now and then.
        list_.emplace(fake_, tempo::CommandListOptions{.usage = CommandListUsage::Simultaneous});
        list_->append_atomic_inc(list_counter);
        list_->close();
    }

    void TearDown() override
    {
        // Everything goes before the fake's problems are read.
        evented_.reset();
        list_.reset();
        events_.clear();
        in_order_.reset();
        batched_.clear();
        QueueTest::TearDown();
    }

    bool chance(unsigned percent) { return rng_() % 100 < percent; }
    std::size_t pick(std::size_t n) { return static_cast<std::size_t>(rng_() % n); }

    tempo::CommandSink& sink(std::size_t q)
    {
        return q < 2 ? static_cast<tempo::CommandSink&>(batched_[q]) : *in_order_;
    }

    /// One random operation.
    void step()
    {
        const auto op = static_cast<unsigned>(pick(100));
        if (op < 55)
            append();
        else if (op < 65)
            batched_[pick(2)].flush();
        else if (op < 72)
            host_wait(pick(events_.size()));
        else if (op < 79)
            (void)events_[pick(events_.size())].signaled();
        else if (op < 84)
            execute_list();
        else if (op < 88)
            finish(pick(3));
        else
            fake_->run();
        if (!evented_)
            record_evented_list();
    }

    /// A write of its command number on a random queue, with random waits and signal.
    void append()
    {
        const std::size_t q = pick(3);
        std::vector<Event> waits;
        for (std::size_t i = 0; i < events_.size(); i++)
            if (signalled_[i] && chance(15))
                waits.push_back(events_[i]);
        tempo::Sync sync{.wait = waits};
        std::optional<std::size_t> signal;
        if (chance(30)) {
            signal = pick(events_.size());
            sync.signal = events_[*signal];
        }
        const auto uid = static_cast<std::uint32_t>(queue_of_.size());
        queue_of_.push_back(q);
        sink(q).append_write(data_va + std::uint64_t{uid} * 4, uid + 1, sync);
        if (signal) {
            signalled_[*signal] = true;
            last_signaller_[*signal] = uid;
        }
    }

    /// Waits on event @e; the command of its latest signal must have run.
    void host_wait(std::size_t e)
    {
        if (!signalled_[e])
            return;
        ASSERT_EQ(events_[e].wait(), tempo::WaitResult::Signaled);
        if (!last_signaller_[e])
            return;
        const std::uint32_t uid = *last_signaller_[e];
        EXPECT_EQ(fake_->read32(data_va + std::uint64_t{uid} * 4), uid + 1)
            << "event " << e << " waited, but its signal (command " << uid << ") did not run";
    }

    void execute_list()
    {
        const bool use_evented = evented_ && chance(50);
        CommandList& l = use_evented ? *evented_ : *list_;
        const std::size_t q = pick(3);
        if (q < 2)
            batched_[q].execute(l);
        else
            in_order_->execute(l);
        if (use_evented) {
            evented_runs_++;
            signalled_[evented_signal_] = true;
            last_signaller_[evented_signal_].reset(); // not a write: not checked
        } else {
            list_runs_++;
        }
    }

    void finish(std::size_t q)
    {
        if (q < 2)
            batched_[q].finish();
        else
            in_order_->finish();
    }

    /// Once some event is signalled: a list that waits on it and signals another one.
    void record_evented_list()
    {
        const auto waited = std::find(signalled_.begin(), signalled_.end(), true);
        if (waited == signalled_.end())
            return;
        const Event waits[] = {events_[static_cast<std::size_t>(waited - signalled_.begin())]};
        evented_signal_ = pick(events_.size());
        evented_.emplace(fake_, tempo::CommandListOptions{.usage = CommandListUsage::Simultaneous});
        evented_->append_barrier({.wait = waits});
        evented_->append_atomic_inc(evented_counter, {.signal = events_[evented_signal_]});
        evented_->close();
    }

    /// Every command ran exactly once, in order within its queue, and so did the lists.
    void expect_every_command_ran_once_in_order()
    {
        std::map<std::uint64_t, int> runs;
        std::vector<std::vector<std::uint32_t>> order(3);
        for (const auto& [address, value] : fake_->writes()) {
            runs[address]++;
            const std::uint32_t uid = value - 1;
            ASSERT_EQ(address, data_va.value() + std::uint64_t{uid} * 4);
            order[queue_of_[uid]].push_back(uid);
        }
        for (std::uint32_t uid = 0; uid < queue_of_.size(); uid++)
            EXPECT_EQ(runs[data_va.value() + std::uint64_t{uid} * 4], 1) << "command " << uid;
        for (const auto& uids : order)
            EXPECT_TRUE(std::is_sorted(uids.begin(), uids.end()));
        EXPECT_EQ(fake_->read64(list_counter), list_runs_);
        EXPECT_EQ(fake_->read64(evented_counter), evented_runs_);
    }

    std::mt19937 rng_;
    std::vector<BatchedQueue> batched_;
    std::optional<Queue> in_order_;
    std::vector<Event> events_;
    std::vector<bool> signalled_;
    // The command (uid) that last signalled each event, and the queue of each uid.
    std::vector<std::optional<std::uint32_t>> last_signaller_;
    std::vector<std::size_t> queue_of_;
    std::optional<CommandList> list_;
    std::uint64_t list_runs_ = 0;
    std::optional<CommandList> evented_;
    std::size_t evented_signal_ = 0;
    std::uint64_t evented_runs_ = 0;
};

TEST_P(RandomSequenceTest, NeverDeadlocksNorLosesACommand)
{
    for (int i = 0; i < 400; i++)
        ASSERT_NO_FATAL_FAILURE(step()) << "step " << i;
    for (auto& q : batched_)
        q.finish();
    in_order_->finish();
    fake_->run();
    EXPECT_EQ(fake_->pending_jobs(), 0U);
    expect_every_command_ran_once_in_order();
}

INSTANTIATE_TEST_SUITE_P(Runs, RandomSequenceTest, ::testing::Range(1U, 41U));

} // namespace
