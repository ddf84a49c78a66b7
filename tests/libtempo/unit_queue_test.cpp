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
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <tempo/command_list.hpp>
#include <tempo/error.hpp>
#include <tempo/queue.hpp>

#include "fake_submitter.hpp"

namespace {

using tempo::BatchedQueue;
using tempo::BatchedQueueOptions;
using tempo::CommandId;
using tempo::CommandList;
using tempo::Event;
using tempo::FlushReason;
using tempo::GpuAddress;
using tempo::Queue;
using tempo::Slot;
using tempo::SyncPoint;
using tempo::UsageError;
using tempo::testing::FakeSubmitter;

constexpr GpuAddress data_va{0x10000};

class QueueTest : public ::testing::Test {
protected:
    std::shared_ptr<FakeSubmitter> fake_ = std::make_shared<FakeSubmitter>();

    [[nodiscard]] Event event() const { return Event(fake_); }
    [[nodiscard]] BatchedQueue batched(Slot slot = Slot{0}, BatchedQueueOptions options = {}) const
    {
        return BatchedQueue(fake_, slot, options);
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
    BatchedQueue queue = batched();
    const Event e = event();
    queue.append_write(data_va, 1U, {.signal = e});
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
    BatchedQueue producer = batched(Slot{0});
    const Event e = event();
    producer.append_write(data_va, 42U, {.signal = e});
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
    BatchedQueue producer = batched(Slot{0});
    const Event e = event();
    producer.append_write(data_va, 1U, {.signal = e});
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
    BatchedQueue queue = batched();
    const Event e = event();
    queue.append_write(data_va, 1U, {.signal = e});
    EXPECT_EQ(e.wait(), tempo::WaitResult::Signaled);
    EXPECT_EQ(queue.flushes(FlushReason::HostWait), 1U);
    EXPECT_EQ(fake_->read32(data_va), 1U);
}

TEST_F(QueueTest, FlushWhenTheHostPolls)
{
    // A poll that did not flush would never see the event signalled.
    BatchedQueue queue = batched();
    const Event e = event();
    queue.append_write(data_va, 1U, {.signal = e});
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
    fake_->auto_run = false;
    BatchedQueue queue = batched(Slot{0}, {.batch_size = 100, .max_in_flight = 3});
    for (int i = 0; i < 3; i++) {
        queue.append_atomic_inc(data_va);
        queue.flush();
    }
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
    fake_->auto_run = false;
    BatchedQueue queue = batched(Slot{0}, {.batch_size = 100, .max_in_flight = 3});
    for (int i = 0; i < 3; i++) {
        queue.append_atomic_inc(data_va);
        queue.flush();
    }
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
class RandomSequenceTest : public QueueTest, public ::testing::WithParamInterface<unsigned> {};

TEST_P(RandomSequenceTest, NeverDeadlocksNorLosesACommand)
{
    std::mt19937 rng(GetParam());
    const auto chance = [&](unsigned percent) { return rng() % 100 < percent; };
    const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    fake_->auto_run = chance(50);

    std::vector<BatchedQueue> batched_queues;
    for (std::uint32_t i = 0; i < 2; i++)
        batched_queues.push_back(
            batched(Slot{i}, {.batch_size = 1 + pick(8), .max_in_flight = 1 + pick(4)}));
    Queue in_order(fake_, Slot{2}, {.max_in_flight = 1 + pick(4)});
    const auto sink = [&](std::size_t q) -> tempo::CommandSink& {
        return q < 2 ? static_cast<tempo::CommandSink&>(batched_queues[q]) : in_order;
    };

    std::vector<Event> events;
    for (int i = 0; i < 6; i++)
        events.push_back(event());
    std::vector<bool> signalled(events.size(), false);
    // The command (uid) that last signalled each event, and the queue of each uid.
    std::vector<std::optional<std::uint32_t>> last_signaller(events.size());
    std::vector<std::size_t> queue_of;

    // A reusable list, executed now and then; it counts its executions.
    const GpuAddress list_counter = data_va + 0x100000;
    CommandList list(fake_, {.usage = tempo::CommandListUsage::Simultaneous});
    list.append_atomic_inc(list_counter);
    list.close();
    std::uint64_t list_runs = 0;
    // Another, recorded once some event is signalled: it waits on that
    // event and signals another one.
    const GpuAddress evented_counter = data_va + 0x100008;
    std::optional<CommandList> evented;
    std::size_t evented_signal = 0;
    std::uint64_t evented_runs = 0;

    for (int step = 0; step < 400; step++) {
        const unsigned op = static_cast<unsigned>(pick(100));
        if (op < 55) {
            const std::size_t q = pick(3);
            std::vector<Event> waits;
            for (std::size_t i = 0; i < events.size(); i++)
                if (signalled[i] && chance(15))
                    waits.push_back(events[i]);
            tempo::Sync sync{.wait = waits};
            std::optional<std::size_t> signal;
            if (chance(30)) {
                signal = pick(events.size());
                sync.signal = events[*signal];
            }
            const auto uid = static_cast<std::uint32_t>(queue_of.size());
            queue_of.push_back(q);
            sink(q).append_write(data_va + std::uint64_t{uid} * 4, uid + 1, sync);
            if (signal) {
                signalled[*signal] = true;
                last_signaller[*signal] = uid;
            }
        } else if (op < 65) {
            batched_queues[pick(2)].flush();
        } else if (op < 72) {
            const std::size_t e = pick(events.size());
            if (!signalled[e])
                continue;
            ASSERT_EQ(events[e].wait(), tempo::WaitResult::Signaled);
            if (!last_signaller[e])
                continue;
            const std::uint32_t uid = *last_signaller[e];
            EXPECT_EQ(fake_->read32(data_va + std::uint64_t{uid} * 4), uid + 1)
                << "event " << e << " waited, but its signal (command " << uid << ") did not run";
        } else if (op < 79) {
            const std::size_t e = pick(events.size());
            (void)events[e].signaled();
        } else if (op < 84) {
            const bool use_evented = evented && chance(50);
            CommandList& l = use_evented ? *evented : list;
            const std::size_t q = pick(3);
            if (q < 2)
                batched_queues[q].execute(l);
            else
                in_order.execute(l);
            if (use_evented) {
                evented_runs++;
                signalled[evented_signal] = true;
                last_signaller[evented_signal].reset(); // not a write: not checked
            } else {
                list_runs++;
            }
        } else if (op < 88) {
            const std::size_t q = pick(3);
            if (q < 2)
                batched_queues[q].finish();
            else
                in_order.finish();
        } else {
            fake_->run();
        }
        if (!evented) {
            const auto waited = std::find(signalled.begin(), signalled.end(), true);
            if (waited != signalled.end()) {
                const Event waits[] = {
                    events[static_cast<std::size_t>(waited - signalled.begin())]};
                evented_signal = pick(events.size());
                evented.emplace(fake_, tempo::CommandListOptions{
                                           .usage = tempo::CommandListUsage::Simultaneous});
                evented->append_barrier({.wait = waits});
                evented->append_atomic_inc(evented_counter, {.signal = events[evented_signal]});
                evented->close();
            }
        }
    }
    for (auto& q : batched_queues)
        q.finish();
    in_order.finish();
    fake_->run();

    EXPECT_EQ(fake_->pending_jobs(), 0U);
    // Every command ran exactly once, in order within its queue.
    std::map<std::uint64_t, int> runs;
    std::vector<std::vector<std::uint32_t>> order(3);
    for (const auto& [address, value] : fake_->writes()) {
        runs[address]++;
        const std::uint32_t uid = value - 1;
        ASSERT_EQ(address, data_va.value() + std::uint64_t{uid} * 4);
        order[queue_of[uid]].push_back(uid);
    }
    for (std::uint32_t uid = 0; uid < queue_of.size(); uid++)
        EXPECT_EQ(runs[data_va.value() + std::uint64_t{uid} * 4], 1) << "command " << uid;
    for (const auto& uids : order)
        EXPECT_TRUE(std::is_sorted(uids.begin(), uids.end()));
    EXPECT_EQ(fake_->read64(list_counter), list_runs);
    EXPECT_EQ(fake_->read64(evented_counter), evented_runs);
}

INSTANTIATE_TEST_SUITE_P(Runs, RandomSequenceTest, ::testing::Range(1U, 41U));

} // namespace
