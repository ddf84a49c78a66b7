// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Engine maps and parallel submission against the fake GPU: the shape of
 * load-balanced and parallel slots, ParallelQueue's gangs (one exec, every
 * batch, the events of the lists and of the gang) and the rules checked
 * before any exec.
 */
#include <cerrno>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <tempo/command_list.hpp>
#include <tempo/context.hpp>
#include <tempo/error.hpp>
#include <tempo/queue.hpp>

#include "fake_submitter.hpp"

namespace {

using tempo::BatchedQueue;
using tempo::CommandList;
using tempo::CommandListUsage;
using tempo::Engine;
using tempo::EngineClass;
using tempo::EngineMap;
using tempo::Event;
using tempo::GpuAddress;
using tempo::ParallelQueue;
using tempo::Queue;
using tempo::Slot;
using tempo::SlotKind;
using tempo::SyncPoint;
using tempo::UsageError;
using tempo::testing::FakeSubmitter;

constexpr GpuAddress counter_va{0x10000};
constexpr Engine c0{EngineClass::Compute, 0};
constexpr Engine c1{EngineClass::Compute, 1};
constexpr Engine c2{EngineClass::Compute, 2};
constexpr Engine y0{EngineClass::Copy, 0};
constexpr Engine y1{EngineClass::Copy, 1};

// Move-only, through the base shared with Queue.
static_assert(std::is_nothrow_move_constructible_v<ParallelQueue> &&
              std::is_nothrow_move_assignable_v<ParallelQueue>);
static_assert(!std::is_copy_constructible_v<ParallelQueue> &&
              !std::is_copy_assignable_v<ParallelQueue>);

// ---------------------------------------------------------------------------
// EngineMap

TEST(EngineMapTest, PlainLoadBalancedAndParallelSlots)
{
    EngineMap map;
    EXPECT_TRUE(map.empty());
    EXPECT_EQ(map.add(c0), Slot{0});
    const Engine siblings[] = {c1, c2};
    EXPECT_EQ(map.add_load_balanced(siblings), Slot{1});
    const Engine columns[] = {c0, c1, y0, y1};
    EXPECT_EQ(map.add_parallel(2, 2, columns), Slot{2});
    ASSERT_EQ(map.size(), 3U);

    const auto slots = map.slots();
    EXPECT_EQ(slots[0].kind, SlotKind::Engine);
    EXPECT_EQ(slots[0].width, 1U);
    EXPECT_EQ(slots[1].kind, SlotKind::LoadBalanced);
    EXPECT_EQ(slots[1].width, 1U);
    EXPECT_EQ(slots[1].num_siblings, 2U);
    EXPECT_EQ(slots[2].kind, SlotKind::Parallel);
    EXPECT_EQ(slots[2].width, 2U);
    EXPECT_EQ(slots[2].num_siblings, 2U);
    // The index formula: sibling j of batch i is engines[i * num_siblings + j].
    EXPECT_EQ(slots[2].siblings_of(0)[1], c1);
    EXPECT_EQ(slots[2].siblings_of(1)[0], y0);
    EXPECT_THROW((void)slots[2].siblings_of(2), std::out_of_range);

    EXPECT_EQ(tempo::to_string(slots[0]), "compute:0");
    EXPECT_EQ(tempo::to_string(slots[1]), "load-balanced{compute:1 compute:2}");
    EXPECT_EQ(tempo::to_string(slots[2]), "parallel 2x2{compute:0 compute:1 | copy:0 copy:1}");
    EXPECT_EQ(tempo::to_string(SlotKind::LoadBalanced), "load-balanced");
}

TEST(EngineMapTest, ARangeOfEnginesIsAMapOfPlainSlots)
{
    const std::vector<Engine> engines{c2, y1};
    const EngineMap map(engines);
    ASSERT_EQ(map.size(), 2U);
    EXPECT_EQ(map.slots()[1].kind, SlotKind::Engine);
    EXPECT_EQ(map.slots()[1].engines, std::vector<Engine>{y1});
}

TEST(EngineMapTest, ParallelOverOneSiblingListRepeatsIt)
{
    EngineMap map;
    const Engine siblings[] = {c0, c1, c2};
    map.add_parallel(2, siblings);
    const auto& slot = map.slots()[0];
    EXPECT_EQ(slot.width, 2U);
    EXPECT_EQ(slot.num_siblings, 3U);
    EXPECT_EQ(slot.engines, (std::vector<Engine>{c0, c1, c2, c0, c1, c2}));
}

TEST(EngineMapTest, MalformedSlotsAreRefused)
{
    EngineMap map;
    EXPECT_THROW(map.add_load_balanced({}), std::invalid_argument);
    const Engine one[] = {c0};
    EXPECT_THROW(map.add_parallel(1, 1, one), std::invalid_argument);
    const Engine three[] = {c0, c1, c2};
    EXPECT_THROW(map.add_parallel(2, 0, {}), std::invalid_argument);
    try {
        map.add_parallel(2, 2, three);
        FAIL() << "accepted 3 engines for width 2 x 2 siblings";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string{e.what()},
                  "tempo::EngineMap::add_parallel: engines holds width * num_siblings entries, "
                  "sibling j of batch i at engines[i * num_siblings + j]: 2 * 2 = 4 expected, 3 "
                  "given");
    }
    EXPECT_TRUE(map.empty());
}

// ---------------------------------------------------------------------------
// ParallelQueue

class ParallelTest : public ::testing::Test {
protected:
    void SetUp() override { fake_->slot_widths = {{1, 3}}; }
    void TearDown() override
    {
        for (const auto& problem : fake_->problems())
            ADD_FAILURE() << problem;
    }

    // A closed list that increments the counter @n times.
    [[nodiscard]] CommandList incrementer(int n, const tempo::Sync& first = {},
                                          const Event& last = {}) const
    {
        CommandList list(fake_);
        for (int i = 0; i < n; i++)
            list.append_atomic_inc(counter_va, i == 0 ? first : tempo::Sync{});
        if (last)
            list.append_signal_event(last);
        list.close();
        return list;
    }

    std::shared_ptr<FakeSubmitter> fake_ = std::make_shared<FakeSubmitter>();
};

TEST_F(ParallelTest, AGangIsOneExecWithEveryBatch)
{
    ParallelQueue queue(fake_, Slot{1});
    EXPECT_EQ(queue.width(), 3U);
    CommandList a = incrementer(512);
    CommandList b = incrementer(512);
    CommandList c = incrementer(512);
    const SyncPoint done = queue.execute({&a, &b, &c});
    ASSERT_EQ(fake_->jobs().size(), 1U);
    const auto& job = fake_->jobs()[0];
    EXPECT_EQ(job.slot, Slot{1});
    EXPECT_EQ(job.batches,
              (std::vector<GpuAddress>{a.gpu_address(), b.gpu_address(), c.gpu_address()}));
    EXPECT_EQ(job.signal, std::vector<SyncPoint>{done});
    EXPECT_EQ(queue.finish(), tempo::WaitResult::Signaled);
    EXPECT_EQ(fake_->read64(counter_va), 3U * 512U);
}

TEST_F(ParallelTest, GangsOfOneQueueRunInOrder)
{
    ParallelQueue queue(fake_, Slot{1});
    CommandList a = incrementer(1);
    CommandList b = incrementer(1);
    CommandList c = incrementer(1);
    const SyncPoint first = queue.execute({&a, &b, &c});
    queue.finish();
    const SyncPoint second = queue.execute({&c, &a, &b});
    EXPECT_EQ(second.point, first.point + 1);
    ASSERT_EQ(fake_->jobs().size(), 2U);
    EXPECT_EQ(fake_->jobs()[1].wait, std::vector<SyncPoint>{first});
    queue.finish();
    EXPECT_EQ(fake_->read64(counter_va), 6U);
    EXPECT_EQ(queue.in_flight(), 0U);
}

TEST_F(ParallelTest, TheWrongNumberOfListsIsRefusedBeforeAnyExec)
{
    ParallelQueue queue(fake_, Slot{1});
    CommandList a = incrementer(1);
    CommandList b = incrementer(1);
    try {
        queue.execute({&a, &b});
        FAIL() << "a gang of 2 lists on a slot of width 3";
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.code(), std::errc::invalid_argument);
        EXPECT_EQ(e.operation(), "DRM_IOCTL_TEMPO_EXEC");
        EXPECT_EQ(e.reason(),
                  "tempo::ParallelQueue::execute: slot 1 is a parallel slot of width 3, and every "
                  "exec on it takes exactly 3 batches, so a gang is exactly 3 command lists, one "
                  "per member; 2 given, nothing was submitted");
    }
    EXPECT_THROW(queue.execute(std::span<CommandList* const>{}), tempo::Error);
    EXPECT_TRUE(fake_->jobs().empty());
    EXPECT_FALSE(a.executing());
    EXPECT_EQ(queue.last_submitted().point, 0U);
}

TEST_F(ParallelTest, QueuesMatchTheirSlot)
{
    EXPECT_THROW(ParallelQueue(fake_, Slot{0}), std::invalid_argument);
    EXPECT_THROW(Queue(fake_, Slot{1}), std::invalid_argument);
    EXPECT_THROW(BatchedQueue(fake_, Slot{1}), std::invalid_argument);
    try {
        const ParallelQueue queue(fake_, Slot{2});
        FAIL() << "a parallel queue on a plain slot";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string{e.what()}, "tempo::ParallelQueue: slot 2 is not a parallel slot "
                                         "(its execs take 1 batch); use Queue or BatchedQueue");
    }
}

TEST_F(ParallelTest, ListRulesAreCheckedForEveryMember)
{
    ParallelQueue queue(fake_, Slot{1});
    CommandList a = incrementer(1);
    CommandList b = incrementer(1);
    CommandList open(fake_);
    open.append_atomic_inc(counter_va);
    EXPECT_THROW(queue.execute({&a, &b, &open}), UsageError);
    EXPECT_THROW(queue.execute({&a, &b, nullptr}), UsageError);
    try {
        queue.execute({&a, &b, &a});
        FAIL() << "a reusable list twice in one gang";
    } catch (const UsageError& e) {
        EXPECT_EQ(std::string{e.what()},
                  "tempo::ParallelQueue::execute: list 2 of the gang is given twice; only a "
                  "CommandListUsage::Simultaneous list may run twice at a time");
    }

    // Events in the middle make several segments: not one exec per member.
    const Event middle(fake_);
    CommandList split(fake_);
    split.append_atomic_inc(counter_va, {.signal = middle});
    split.append_atomic_inc(counter_va);
    split.close();
    ASSERT_EQ(split.segment_count(), 2U);
    EXPECT_THROW(queue.execute({&a, &b, &split}), UsageError);

    CommandList one_shot(fake_, {.usage = CommandListUsage::OneShot});
    one_shot.append_atomic_inc(counter_va);
    one_shot.close();
    queue.execute({&a, &b, &one_shot});
    EXPECT_THROW(queue.execute({&a, &b, &one_shot}), UsageError);
    ASSERT_EQ(fake_->jobs().size(), 1U);

    CommandList simultaneous(fake_, {.usage = CommandListUsage::Simultaneous});
    simultaneous.append_atomic_inc(counter_va);
    simultaneous.close();
    queue.execute({&simultaneous, &simultaneous, &simultaneous});
    queue.finish();
    EXPECT_EQ(fake_->read64(counter_va), 6U);
}

TEST_F(ParallelTest, TheGangWaitsForEveryWaitAndSignalsEverySignal)
{
    fake_->auto_run = false;
    ParallelQueue queue(fake_, Slot{1});
    Queue plain(fake_, Slot{0});
    const Event ready(fake_);
    const Event gate(fake_);
    plain.append_write(counter_va + 8, 1U, {.signal = ready});
    plain.append_write(counter_va + 12, 1U, {.signal = gate});

    const Event ready_list[] = {ready};
    const Event gate_list[] = {gate};
    const Event a_done(fake_);
    const Event gang_done(fake_);
    CommandList a = incrementer(2, {.wait = ready_list}, a_done);
    CommandList b = incrementer(2);
    CommandList c = incrementer(2);
    ASSERT_EQ(a.segment_count(), 1U);
    const SyncPoint done = queue.execute({&a, &b, &c}, {.wait = gate_list, .signal = gang_done});

    ASSERT_EQ(fake_->jobs().size(), 3U);
    const auto& job = fake_->jobs()[2];
    EXPECT_EQ(job.wait, (std::vector<SyncPoint>{ready.sync_point(), gate.sync_point()}));
    ASSERT_EQ(job.signal.size(), 3U);
    EXPECT_EQ(job.signal.front(), done);
    EXPECT_NE(std::find(job.signal.begin(), job.signal.end(), a_done.sync_point()),
              job.signal.end());
    EXPECT_NE(std::find(job.signal.begin(), job.signal.end(), gang_done.sync_point()),
              job.signal.end());

    EXPECT_FALSE(fake_->is_signaled(gang_done.sync_point()));
    EXPECT_EQ(gang_done.wait(), tempo::WaitResult::Signaled);
    EXPECT_TRUE(a_done.signaled());
    EXPECT_EQ(fake_->read64(counter_va), 6U);
}

TEST_F(ParallelTest, AGangWaitingOnAnEventNothingSignalsIsRefused)
{
    ParallelQueue queue(fake_, Slot{1});
    const Event never(fake_);
    const Event never_list[] = {never};
    CommandList a = incrementer(1);
    CommandList b = incrementer(1);
    CommandList c = incrementer(1, {.wait = never_list});
    EXPECT_THROW(queue.execute({&a, &b, &c}), UsageError);
    EXPECT_THROW(queue.execute({&a, &b, &b}, {.wait = never_list}), UsageError);
    EXPECT_TRUE(fake_->jobs().empty());
}

TEST_F(ParallelTest, BatchMemoryOfEveryMemberLivesUntilTheGangIsDone)
{
    fake_->auto_run = false;
    ParallelQueue queue(fake_, Slot{1});
    {
        CommandList a = incrementer(1);
        CommandList b = incrementer(1);
        CommandList c = incrementer(1);
        queue.execute({&a, &b, &c});
    }
    EXPECT_EQ(fake_->live_uploads(), 3U);
    EXPECT_EQ(queue.finish(), tempo::WaitResult::Signaled);
    EXPECT_EQ(fake_->read64(counter_va), 3U);
    // TearDown reports a member that ran released memory.
}

} // namespace
