// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Command lists against the fake GPU: encoding, segments, usage rules,
 * clone, visit and mutable dispatches.
 */
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <tempo/command_list.hpp>
#include <tempo/error.hpp>
#include <tempo/packet.hpp>
#include <tempo/queue.hpp>

#include "blocking_list.hpp"
#include "fake_submitter.hpp"

namespace {

using tempo::CommandId;
using tempo::CommandList;
using tempo::CommandListOptions;
using tempo::CommandListUsage;
using tempo::CommandUpdate;
using tempo::Event;
using tempo::GpuAddress;
using tempo::Groups;
using tempo::PacketWriter;
using tempo::Queue;
using tempo::Slot;
using tempo::SyncPoint;
using tempo::UsageError;
using tempo::testing::FakeSubmitter;
namespace cmd = tempo::cmd;
using Dwords = std::vector<std::uint32_t>;

constexpr GpuAddress data_va{0x10000};

/// The message of the UsageError that @fn throws, or "" if it throws none.
template <typename Fn>
std::string usage_error(Fn&& fn)
{
    try {
        fn();
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

/// The tempo::Error that @fn throws (errno 0 if none).
template <typename Fn>
std::pair<int, std::string> error_of(Fn&& fn)
{
    try {
        fn();
    } catch (const tempo::Error& e) {
        return {e.error_number(), e.what()};
    }
    return {0, ""};
}

Dwords dwords(std::span<const std::uint32_t> span)
{
    return {span.begin(), span.end()};
}

class CommandListTest : public ::testing::Test {
protected:
    std::shared_ptr<FakeSubmitter> fake_ = std::make_shared<FakeSubmitter>();

    [[nodiscard]] CommandList list(CommandListOptions options = {}) const
    {
        return CommandList(fake_, options);
    }
    /// A closed list of one ATOMIC INC of the counter at data_va.
    [[nodiscard]] CommandList incrementer(CommandListOptions options = {}) const
    {
        CommandList l = list(options);
        l.append_atomic_inc(data_va);
        l.close();
        return l;
    }
    [[nodiscard]] Event event() const { return Event(fake_); }
    void expect_no_problems() const
    {
        for (const auto& problem : fake_->problems())
            ADD_FAILURE() << problem;
    }
};

// ---------------------------------------------------------------------------
// Encoding and segments

TEST_F(CommandListTest, EncodesEveryCommandKindAsPacketWriterDoes)
{
    CommandList l = list();
    const std::uint32_t data[] = {1, 2, 3};
    const std::uint32_t args[] = {7, 8};
    EXPECT_EQ(l.append_write(data_va, data), CommandId{0});
    l.append_timestamp(data_va + 16);
    l.append_copy(data_va + 32, data_va, 12);
    l.append_fill(data_va + 64, 0xabcd, 16);
    l.append_atomic_add(data_va + 128, 0x1'0000'0002);
    l.append_atomic_inc(data_va + 128);
    l.append_wait_mem(data_va + 128, tempo::Compare::Ge, 3, 0xff);
    l.append_dispatch(tempo::Kernel::Spin, {.x = 2, .y = 3, .z = 4}, args);
    EXPECT_EQ(l.append_barrier(), CommandId{8});
    l.close();

    PacketWriter w;
    w.write_data(data_va, data)
        .write_timestamp(data_va + 16)
        .copy(data_va + 32, data_va, 12)
        .fill(data_va + 64, 0xabcd, 16)
        .atomic_add(data_va + 128, 0x1'0000'0002)
        .atomic_inc(data_va + 128)
        .wait_mem(data_va + 128, tempo::Compare::Ge, 3, 0xff)
        .dispatch(tempo::Kernel::Spin, {.x = 2, .y = 3, .z = 4}, args)
        .nop()
        .end();
    EXPECT_EQ(dwords(l.encoded()), dwords(w.dwords()));
    EXPECT_EQ(l.size(), 9U);
    EXPECT_EQ(l.segment_count(), 1U);
    EXPECT_EQ(l.commands()[2], (tempo::Command{cmd::Copy{data_va + 32, data_va, 12}}));
    EXPECT_EQ(tempo::command_name(l.commands()[6]), "wait-mem");
}

TEST_F(CommandListTest, DispatchHelpersEncodeTheKernelArguments)
{
    CommandList l = list();
    l.append_dispatch_fill({.x = 4}, data_va, 0x55, 64);
    l.append_dispatch_copy({.x = 2}, data_va, data_va + 256, 32);
    l.append_dispatch_atomic_inc({.y = 3}, data_va + 512, 5);
    l.append_dispatch_checksum({.x = 1}, data_va, data_va + 520, 128);
    l.append_dispatch_spin({.z = 2}, 1000);
    l.close();
    PacketWriter w;
    w.dispatch_fill({.x = 4}, data_va, 0x55, 64)
        .dispatch_copy({.x = 2}, data_va, data_va + 256, 32)
        .dispatch_atomic_inc({.y = 3}, data_va + 512, 5)
        .dispatch_checksum({.x = 1}, data_va, data_va + 520, 128)
        .dispatch_spin({.z = 2}, 1000)
        .end();
    EXPECT_EQ(dwords(l.encoded()), dwords(w.dwords()));
}

TEST_F(CommandListTest, EmptyListIsOneSegmentOfEnd)
{
    CommandList l = list();
    l.close();
    EXPECT_EQ(l.segment_count(), 1U);
    EXPECT_EQ(dwords(l.encoded()), (Dwords{tempo::packet_header(tempo::Opcode::End, 1)}));
}

TEST_F(CommandListTest, LongWriteTakesSeveralPackets)
{
    auto small = std::make_shared<FakeSubmitter>(tempo::SubmitLimits{.max_packet_dwords = 8});
    CommandList l(small);
    Dwords data(12);
    for (std::uint32_t i = 0; i < 12; i++)
        data[i] = 100 + i;
    l.append_write(data_va, data);
    l.close();
    PacketWriter w;
    w.write_data(data_va, std::span{data}.subspan(0, 5))
        .write_data(data_va + 20, std::span{data}.subspan(5, 5))
        .write_data(data_va + 40, std::span{data}.subspan(10, 2))
        .end();
    EXPECT_EQ(dwords(l.encoded()), dwords(w.dwords()));
}

TEST_F(CommandListTest, MalformedCommandsAreRefused)
{
    auto small = std::make_shared<FakeSubmitter>(
        tempo::SubmitLimits{.max_packet_dwords = 8, .max_syncs = 3});
    CommandList l(small);
    const Dwords four(4);
    EXPECT_EQ(usage_error([&] { l.append_dispatch(tempo::Kernel::Fill, {}, four); }),
              "tempo::CommandList::append: a dispatch of 4 argument dwords; a packet of 8 dwords "
              "takes at most 3");
    EXPECT_EQ(usage_error([&] { l.append_write(data_va, std::span<const std::uint32_t>{}); }),
              "tempo::CommandList::append: a write without data");
    const Event empty[] = {Event{}};
    EXPECT_EQ(usage_error([&] { l.append_barrier({.wait = empty}); }),
              "tempo::CommandList::append: an empty Event in a wait list");
    const Event three[] = {Event(small), Event(small), Event(small)};
    EXPECT_EQ(usage_error([&] { l.append_barrier({.wait = three}); }),
              "tempo::CommandList::append: a command waiting on 3 events; an exec takes at most 2 "
              "besides the queue's own");
    EXPECT_EQ(l.size(), 0U);
}

struct SegmentCase {
    const char* name;
    // Per command: 'w' waits, 's' signals, 'b' both, '.' neither.
    const char* events;
    // [first, end) of each segment.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> segments;
};

class SegmentTest : public CommandListTest, public ::testing::WithParamInterface<SegmentCase> {};

TEST_P(SegmentTest, WaitsStartAndSignalsEndSegments)
{
    const SegmentCase& c = GetParam();
    // The waited event is signalled once, beforehand.
    Event before = event();
    before.signal();
    const Event waits[] = {before};
    const Event done = event();
    CommandList l = list();
    const std::string events = c.events;
    for (std::size_t i = 0; i < events.size(); i++) {
        tempo::Sync sync;
        if (events[i] == 'w' || events[i] == 'b')
            sync.wait = waits;
        if (events[i] == 's' || events[i] == 'b')
            sync.signal = done;
        l.append_write(data_va + i * 4, static_cast<std::uint32_t>(i + 1), sync);
    }
    l.close();
    ASSERT_EQ(l.segment_count(), c.segments.size());

    // Each segment is its own batch: its packets, then END.
    const auto end = tempo::packet_header(tempo::Opcode::End, 1);
    std::size_t ends =
        static_cast<std::size_t>(std::count(l.encoded().begin(), l.encoded().end(), end));
    EXPECT_EQ(ends, c.segments.size());

    // One exec per segment: waits on the first command, signal on the last.
    Queue queue(fake_, Slot{0});
    queue.execute(l);
    ASSERT_EQ(fake_->jobs().size(), c.segments.size());
    for (std::size_t s = 0; s < c.segments.size(); s++) {
        const auto& job = fake_->jobs()[s];
        const auto [first, last] = c.segments[s];
        const bool waits_first = events[first] == 'w' || events[first] == 'b';
        const bool signals_last = events[last - 1] == 's' || events[last - 1] == 'b';
        EXPECT_EQ(job.wait.size(), (s > 0 ? 1U : 0U) + (waits_first ? 1U : 0U)) << "segment " << s;
        EXPECT_EQ(job.signal.size(), 1U + (signals_last ? 1U : 0U)) << "segment " << s;
        const auto batch = fake_->batch_dwords(job.batch);
        EXPECT_EQ(batch[3], first + 1) << "segment " << s << " starts with command " << first;
    }
    expect_no_problems();
    for (std::size_t i = 0; i < events.size(); i++)
        EXPECT_EQ(fake_->read32(data_va + i * 4), i + 1);
}

INSTANTIATE_TEST_SUITE_P(
    Segments, SegmentTest,
    ::testing::Values(SegmentCase{"no_events", "....", {{0, 4}}},
                      SegmentCase{"wait_in_the_middle", "..w.", {{0, 2}, {2, 4}}},
                      SegmentCase{"signal_in_the_middle", ".s..", {{0, 2}, {2, 4}}},
                      SegmentCase{"both_in_the_middle", ".b..", {{0, 1}, {1, 2}, {2, 4}}},
                      SegmentCase{"signal_then_wait", ".sw.", {{0, 2}, {2, 4}}},
                      SegmentCase{"wait_first_signal_last", "w..s", {{0, 4}}},
                      SegmentCase{"every_command", "bbb", {{0, 1}, {1, 2}, {2, 3}}},
                      SegmentCase{"two_waits", ".w.w", {{0, 1}, {1, 3}, {3, 4}}}),
    [](const auto& param_info) { return std::string{param_info.param.name}; });

TEST_F(CommandListTest, AppendToAClosedListIsRefused)
{
    CommandList l = list();
    l.close();
    EXPECT_EQ(usage_error([&] { l.append_atomic_inc(data_va); }),
              "tempo::CommandList::append: the list is closed; reset() it to record again");
    EXPECT_EQ(usage_error([&] { l.close(); }),
              "tempo::CommandList::close: the list is already closed");
    l.reset();
    EXPECT_FALSE(l.closed());
    l.append_atomic_inc(data_va);
    l.close();
    EXPECT_EQ(l.size(), 1U);
}

// ---------------------------------------------------------------------------
// Execution

TEST_F(CommandListTest, SegmentsSignalAndWaitEventPoints)
{
    const Event e = event();
    CommandList l = list();
    l.append_write(data_va, 1U);
    l.append_write(data_va + 4, 2U, {.signal = e});
    const Event waits[] = {e};
    l.append_write(data_va + 8, 3U, {.wait = waits});
    l.close();
    Queue queue(fake_, Slot{3});
    const SyncPoint done = queue.execute(l);

    ASSERT_EQ(fake_->jobs().size(), 2U);
    const auto& first = fake_->jobs()[0];
    const auto& second = fake_->jobs()[1];
    EXPECT_EQ(first.slot, Slot{3});
    EXPECT_TRUE(first.wait.empty());
    ASSERT_EQ(first.signal.size(), 2U);
    EXPECT_EQ(first.signal[1], (SyncPoint{e.timeline(), 1}));
    // The second waits for the first (the queue's order) and for the event.
    EXPECT_EQ(second.wait, (std::vector<SyncPoint>{first.signal[0], {e.timeline(), 1}}));
    EXPECT_EQ(second.signal, std::vector<SyncPoint>{done});
    EXPECT_EQ(e.point(), 1U);
    EXPECT_TRUE(e.signaled());

    // Executing again signals the next point and waits for it.
    queue.execute(l);
    EXPECT_EQ(e.point(), 2U);
    EXPECT_EQ(fake_->jobs()[3].wait[1], (SyncPoint{e.timeline(), 2}));
    expect_no_problems();
}

TEST_F(CommandListTest, WaitOnAnEventNothingSignalsIsRefusedBeforeSubmitting)
{
    const Event never = event();
    const Event waits[] = {never};
    CommandList l = list();
    l.append_write(data_va, 1U);
    l.append_write(data_va + 4, 2U, {.wait = waits});
    l.close();
    Queue queue(fake_, Slot{0});
    const std::string message = usage_error([&] { queue.execute(l); });
    EXPECT_EQ(message, "tempo::Queue::execute: event (syncobj " +
                           std::to_string(never.timeline().value()) +
                           ") is waited on, but nothing submitted or batched signals it: the wait "
                           "could never end");
    EXPECT_TRUE(fake_->jobs().empty());
    EXPECT_FALSE(l.executing());
}

TEST_F(CommandListTest, ListMayWaitOnItsOwnEarlierSignal)
{
    const Event e = event();
    const Event waits[] = {e};
    CommandList l = list();
    l.append_write(data_va, 1U, {.signal = e});
    l.append_write(data_va + 4, 2U, {.wait = waits});
    l.close();
    Queue queue(fake_, Slot{0});
    queue.execute(l);
    EXPECT_EQ(fake_->jobs()[1].wait.back(), (SyncPoint{e.timeline(), 1}));
    EXPECT_EQ(fake_->read32(data_va + 4), 2U);
}

TEST_F(CommandListTest, ExecutingAnOpenListIsRefused)
{
    CommandList l = list();
    Queue queue(fake_, Slot{0});
    EXPECT_EQ(usage_error([&] { queue.execute(l); }),
              "tempo::Queue::execute: the list is open; close() it first");
}

TEST_F(CommandListTest, ExecutingOnAnotherSubmitterIsRefused)
{
    CommandList l = list();
    l.close();
    Queue queue(std::make_shared<FakeSubmitter>(), Slot{0});
    EXPECT_EQ(usage_error([&] { queue.execute(l); }),
              "tempo::Queue::execute: the list was created with another submitter; its batch "
              "memory belongs to that one");
}

TEST_F(CommandListTest, OneShotListExecutesOnce)
{
    CommandList l = incrementer({.usage = CommandListUsage::OneShot});
    Queue queue(fake_, Slot{0});
    queue.execute(l);
    EXPECT_EQ(usage_error([&] { queue.execute(l); }),
              "tempo::Queue::execute: the one-shot list was already executed; reset() and record "
              "it again, or create it CommandListUsage::Reusable");
    l.reset();
    l.append_atomic_inc(data_va);
    l.close();
    queue.execute(l);
    EXPECT_EQ(fake_->read64(data_va), 2U);
}

TEST_F(CommandListTest, ReusableListRefusesASecondExecutionWhileTheFirstRuns)
{
    fake_->auto_run = false;
    CommandList l = incrementer({.usage = CommandListUsage::Reusable});
    Queue queue(fake_, Slot{0});
    queue.execute(l);
    EXPECT_TRUE(l.executing());
    const auto [error, message] = error_of([&] { queue.execute(l); });
    EXPECT_EQ(error, EBUSY);
    EXPECT_EQ(message, "tempo::Queue::execute: the list is still executing and was not created "
                       "CommandListUsage::Simultaneous; wait for its previous execution first: "
                       "Device or resource busy");
    EXPECT_EQ(fake_->jobs().size(), 1U);

    fake_->run();
    EXPECT_FALSE(l.executing());
    queue.execute(l);
    fake_->run();
    EXPECT_EQ(fake_->read64(data_va), 2U);
}

TEST_F(CommandListTest, SimultaneousListRunsSeveralTimesAtOnce)
{
    fake_->auto_run = false;
    CommandList l = incrementer({.usage = CommandListUsage::Simultaneous});
    Queue a(fake_, Slot{0});
    Queue b(fake_, Slot{1});
    a.execute(l);
    b.execute(l);
    a.execute(l);
    EXPECT_EQ(fake_->pending_jobs(), 3U);
    fake_->run();
    EXPECT_EQ(fake_->read64(data_va), 3U);
    EXPECT_FALSE(l.executing());
}

TEST_F(CommandListTest, DestroyingAListWhileItExecutesIsSafe)
{
    fake_->auto_run = false;
    Queue queue(fake_, Slot{0});
    {
        CommandList l = incrementer();
        queue.execute(l);
    }
    fake_->run();
    expect_no_problems();
    EXPECT_EQ(fake_->read64(data_va), 1U);
    queue.finish();
    EXPECT_EQ(fake_->live_uploads(), 0U);
}

TEST_F(CommandListTest, AnExecutionRefusedHalfwayKeepsWhatWasSubmitted)
{
    // The kernel refuses the second segment: the first may run, so the
    // queue keeps the batch and the list counts as executing.
    fake_->auto_run = false;
    fake_->fail_job = 1;
    const Event e = event();
    auto l = std::make_unique<CommandList>(fake_);
    l->append_atomic_inc(data_va, {.signal = e});
    l->append_atomic_inc(data_va);
    l->close();
    Queue queue(fake_, Slot{0});
    const auto [error, message] = error_of([&] { queue.execute(*l); });
    EXPECT_EQ(error, EINVAL);
    EXPECT_EQ(fake_->jobs().size(), 1U);
    EXPECT_TRUE(l->executing());
    EXPECT_EQ(queue.in_flight(), 1U);
    l.reset();
    fake_->run();
    expect_no_problems();
    EXPECT_EQ(fake_->read64(data_va), 1U);
    EXPECT_EQ(e.point(), 1U);
}

// ---------------------------------------------------------------------------
// Clone

TEST_F(CommandListTest, CloneOfANonCloneableListIsRefused)
{
    CommandList l = list();
    l.close();
    EXPECT_EQ(usage_error([&] { (void)l.clone(); }),
              "tempo::CommandList::clone: the list was not created cloneable "
              "(CommandListOptions::cloneable)");
}

TEST_F(CommandListTest, CloneOfAnOpenListIsRefused)
{
    CommandList l = list({.cloneable = true});
    l.append_atomic_inc(data_va);
    EXPECT_EQ(usage_error([&] { (void)l.clone(); }),
              "tempo::CommandList::clone: the list is open; only a closed list can be cloned");
}

template <typename T>
concept Cloneable = requires(const T& t)
{
    t.clone();
};

TEST_F(CommandListTest, ImmediateListsCannotBeCloned)
{
    // The rule is a compile-time one: immediate lists (queues) have no clone().
    static_assert(Cloneable<CommandList>);
    static_assert(!Cloneable<tempo::ImmediateCommandList>);
    static_assert(!Cloneable<tempo::BatchedQueue>);
}

TEST_F(CommandListTest, CloneInheritsEveryPropertyAndSharesTheRecording)
{
    const Event e = event();
    const Event waits[] = {e};
    for (const auto usage :
         {CommandListUsage::OneShot, CommandListUsage::Reusable, CommandListUsage::Simultaneous}) {
        CommandList l = list({.cloneable = true, .usage = usage});
        l.append_write(data_va, 1U, {.signal = e});
        l.append_dispatch_atomic_inc({.x = 2}, data_va + 8, 3, {.wait = waits});
        l.close();
        const std::size_t uploads = fake_->uploads();

        const CommandList c = l.clone();
        EXPECT_TRUE(c.closed());
        EXPECT_TRUE(c.options().cloneable);
        EXPECT_EQ(c.options().usage, usage);
        EXPECT_EQ(c.submitter(), l.submitter());
        EXPECT_TRUE(c.shares_recording_with(l));
        EXPECT_EQ(c.gpu_address(), l.gpu_address());
        EXPECT_EQ(c.segment_count(), l.segment_count());
        EXPECT_TRUE(std::equal(c.commands().begin(), c.commands().end(), l.commands().begin(),
                               l.commands().end()));
        EXPECT_EQ(c.signal_event(CommandId{0}), e);
        EXPECT_EQ(c.wait_events(CommandId{1}).size(), 1U);
        EXPECT_EQ(fake_->uploads(), uploads) << "a clone copies no batch memory";

        // Cloneable is inherited: a clone of the clone.
        const CommandList cc = c.clone();
        EXPECT_TRUE(cc.shares_recording_with(l));
        EXPECT_EQ(cc.options().usage, usage);
    }
}

TEST_F(CommandListTest, CloneKeepsTheRecordingAliveWhenTheSourceIsDestroyed)
{
    auto source = std::make_unique<CommandList>(fake_, CommandListOptions{.cloneable = true});
    source->append_write(data_va, 0x1234U);
    source->append_atomic_inc(data_va + 8);
    source->close();
    CommandList clone = source->clone();
    const GpuAddress batch = source->gpu_address();
    source.reset();

    Queue queue(fake_, Slot{0});
    queue.execute(clone);
    queue.finish();
    expect_no_problems();
    EXPECT_EQ(fake_->jobs().back().batch, batch);
    EXPECT_EQ(fake_->read32(data_va), 0x1234U);
    EXPECT_EQ(fake_->read64(data_va + 8), 1U);
}

TEST_F(CommandListTest, CloneWhileTheSourceExecutes)
{
    // The source fills a scratch word, then waits until a flag is 1: it
    // blocks. The clone, updated to fill the flag instead, runs on another
    // slot, completes, and so releases the source.
    const GpuAddress scratch = data_va;
    const GpuAddress flag = data_va + 64;
    const GpuAddress counter = data_va + 128;
    CommandList source = list({.cloneable = true});
    const CommandId fill = tempo_test::record_blocking_list(source, scratch, flag, counter);
    Queue a(fake_, Slot{0});
    Queue b(fake_, Slot{1});
    a.execute(source);
    ASSERT_EQ(fake_->pending_jobs(), 1U) << "the source is blocked on WAIT_MEM";
    EXPECT_TRUE(source.executing());

    CommandList clone = source.clone();
    const auto args = tempo_test::release_args(flag);
    clone.update({.id = fill, .args = args});
    EXPECT_FALSE(clone.shares_recording_with(source)) << "copy-on-write";
    b.execute(clone);
    EXPECT_EQ(fake_->pending_jobs(), 0U);
    EXPECT_EQ(fake_->read64(counter), 2U);
    EXPECT_FALSE(source.executing());
    EXPECT_EQ(std::get<tempo::cmd::Dispatch>(source.commands()[0]).args[0], scratch.low());
    expect_no_problems();
}

TEST_F(CommandListTest, CloneCopiesTheEventsTable)
{
    const Event e = event();
    const Event other = event();
    CommandList l = list({.cloneable = true});
    const CommandId id = l.append_atomic_inc(data_va, {.signal = e});
    l.close();
    CommandList c = l.clone();
    c.update({.id = id, .signal = other});
    EXPECT_EQ(c.signal_event(id), other);
    EXPECT_EQ(l.signal_event(id), e);
    EXPECT_TRUE(c.shares_recording_with(l)) << "events are per list: no copy of the recording";
}

// ---------------------------------------------------------------------------
// Mutable dispatches

TEST_F(CommandListTest, UpdatePatchesGroupsAndArgumentsOfManyDispatches)
{
    CommandList l = list();
    const CommandId a = l.append_dispatch_atomic_inc({.x = 1}, data_va, 1);
    l.append_write(data_va + 64, 5U);
    const CommandId b = l.append_dispatch_atomic_inc({.x = 1}, data_va + 8, 1);
    l.close();
    Queue queue(fake_, Slot{0});
    queue.execute(l);
    queue.finish();
    const GpuAddress before = l.gpu_address();

    const std::uint32_t args_a[] = {(data_va + 16).low(), 0, 10};
    const std::uint32_t args_b[] = {(data_va + 24).low(), 0, 20};
    const CommandUpdate updates[] = {
        {.id = a, .groups = Groups{2, 3, 1}, .args = args_a},
        {.id = b, .args = args_b},
    };
    l.update(updates);
    EXPECT_EQ(l.gpu_address(), before) << "the only user: patched in place";
    PacketWriter w;
    w.dispatch(tempo::Kernel::AtomicInc, {2, 3, 1}, args_a)
        .write_data(data_va + 64, 5U)
        .dispatch(tempo::Kernel::AtomicInc, {}, args_b)
        .end();
    EXPECT_EQ(dwords(l.encoded()), dwords(w.dwords()));
    EXPECT_EQ(std::get<cmd::Dispatch>(l.commands()[0]).groups, (Groups{2, 3, 1}));

    queue.execute(l);
    queue.finish();
    EXPECT_EQ(fake_->read64(data_va), 1U);
    EXPECT_EQ(fake_->read64(data_va + 16), 60U);
    EXPECT_EQ(fake_->read64(data_va + 24), 20U);
}

TEST_F(CommandListTest, UpdateIsAllOrNothing)
{
    CommandList l = list();
    const CommandId a = l.append_dispatch_spin({.x = 1}, 100);
    const CommandId w = l.append_write(data_va, 1U);
    l.close();
    const Dwords before = dwords(l.encoded());
    const std::uint32_t ns[] = {200};
    const CommandUpdate updates[] = {{.id = a, .args = ns}, {.id = w, .groups = Groups{2}}};
    EXPECT_EQ(usage_error([&] { l.update(updates); }),
              "tempo::CommandList::update: update 1: command 1 is a write, not a dispatch: only "
              "dispatches take groups and arguments");
    EXPECT_EQ(dwords(l.encoded()), before);
}

TEST_F(CommandListTest, UpdateRules)
{
    const Event e = event();
    CommandList l = list();
    const CommandId d = l.append_dispatch_spin({.x = 1}, 100);
    const CommandId plain = l.append_atomic_inc(data_va);
    const Event waits[] = {e};
    const CommandId waiting = l.append_atomic_inc(data_va, {.wait = waits});
    EXPECT_EQ(usage_error([&] { l.update({.id = d, .groups = Groups{2}}); }),
              "tempo::CommandList::update: the list is open; close() it first");
    l.close();
    const std::uint32_t two[] = {1, 2};
    EXPECT_EQ(usage_error([&] { l.update({.id = d, .args = two}); }),
              "tempo::CommandList::update: update 0: the dispatch takes 1 argument dwords, the "
              "update gives 2");
    EXPECT_EQ(usage_error([&] { l.update({.id = CommandId{9}, .groups = Groups{}}); }),
              "tempo::CommandList::update: update 0: unknown command 9, the list has 3 commands");
    EXPECT_EQ(usage_error([&] { l.update({.id = plain, .signal = e}); }),
              "tempo::CommandList::update: update 0: command 1 was recorded without a signal "
              "event, and segments are fixed when the list is closed: it can only trade its "
              "signal event for another");
    EXPECT_EQ(usage_error([&] { l.update({.id = plain, .wait = waits}); }),
              "tempo::CommandList::update: update 0: command 1 was recorded without wait events, "
              "and segments are fixed when the list is closed: it can only trade wait events "
              "for others");
    EXPECT_EQ(usage_error([&] { l.update({.id = waiting, .wait = std::span<const Event>{}}); }),
              "tempo::CommandList::update: update 0: command 2 was recorded with wait events, "
              "and segments are fixed when the list is closed: it cannot lose them all");
    const Event other = event();
    const Event others[] = {other};
    l.update({.id = waiting, .wait = others});
    EXPECT_EQ(l.wait_events(waiting)[0], other);
}

TEST_F(CommandListTest, UpdateOfAnExecutingListIsRefused)
{
    fake_->auto_run = false;
    CommandList l = list({.usage = CommandListUsage::Simultaneous});
    const CommandId d = l.append_dispatch_spin({.x = 1}, 100);
    l.close();
    Queue queue(fake_, Slot{0});
    queue.execute(l);
    const auto [error, message] = error_of([&] { l.update({.id = d, .groups = Groups{4}}); });
    EXPECT_EQ(error, EBUSY);
    EXPECT_EQ(message, "tempo::CommandList::update: the list is still executing; wait for its "
                       "executions before updating it: Device or resource busy");
    fake_->run();
    l.update({.id = d, .groups = Groups{4}});
}

TEST_F(CommandListTest, UpdateOfAListSharedWithAnExecutionInFlightCopiesIt)
{
    // Completed, but not reclaimed by its queue yet: the memory is still
    // the queue's, so the update patches a copy.
    CommandList l = list();
    const CommandId d = l.append_dispatch_spin({.x = 1}, 100);
    l.close();
    Queue queue(fake_, Slot{0});
    queue.execute(l);
    const GpuAddress before = l.gpu_address();
    const Dwords old = dwords(l.encoded());
    l.update({.id = d, .groups = Groups{4}});
    EXPECT_NE(l.gpu_address(), before);
    EXPECT_EQ(dwords(fake_->batch_dwords(before).subspan(0, old.size())), old);
}

TEST_F(CommandListTest, UpdatesOfACloneAndItsSourceStayApart)
{
    CommandList source = list({.cloneable = true});
    const CommandId d = source.append_dispatch_spin({.x = 1}, 100);
    source.close();
    CommandList clone = source.clone();
    const GpuAddress shared = source.gpu_address();
    clone.update({.id = d, .groups = Groups{7}});
    EXPECT_NE(clone.gpu_address(), shared);
    EXPECT_EQ(std::get<cmd::Dispatch>(source.commands()[0]).groups, Groups{});
    EXPECT_EQ(source.encoded()[2], 1U);
    EXPECT_EQ(clone.encoded()[2], 7U);
    // The source is now the only user of its recording: patched in place.
    source.update({.id = d, .groups = Groups{3}});
    EXPECT_EQ(source.gpu_address(), shared);
    EXPECT_EQ(source.encoded()[2], 3U);
    EXPECT_EQ(clone.encoded()[2], 7U);
}

// ---------------------------------------------------------------------------
// Visit

/// A CommandSink that logs what is appended to it.
class SpySink final : public tempo::CommandSink {
public:
    explicit SpySink(std::vector<std::string>& log) : log_(log) {}
    std::vector<std::pair<tempo::Command, std::vector<Event>>> appended;
    std::vector<Event> signals;

    /// Options that re-append here; the callbacks log "before ID" (and the name) and "after ID".
    tempo::VisitOptions logged_reappend(bool names = false)
    {
        return {.default_op = tempo::VisitDefault::Reappend,
                .target = this,
                .before =
                    [this, names](const tempo::VisitedCommand& c, tempo::VisitSync&) {
                        std::string entry = "before " + std::to_string(c.id.value());
                        if (names)
                            entry += " " + std::string{tempo::command_name(c.command)};
                        log_.push_back(entry);
                    },
                .after =
                    [this](const tempo::VisitedCommand& c, tempo::VisitSync&) {
                        log_.push_back("after " + std::to_string(c.id.value()));
                    }};
    }

private:
    CommandId record(tempo::Command&& command, const tempo::Sync& sync) override
    {
        log_.push_back("append " + std::to_string(appended.size()));
        appended.emplace_back(std::move(command),
                              std::vector<Event>{sync.wait.begin(), sync.wait.end()});
        signals.push_back(sync.signal);
        return CommandId{static_cast<std::uint32_t>(appended.size() - 1)};
    }
    std::vector<std::string>& log_;
};

template <typename... Fns>
struct Overloaded : Fns... {
    using Fns::operator()...;
};
// Clang before 17 does not deduce the arguments of aggregates by itself.
template <typename... Fns>
Overloaded(Fns...) -> Overloaded<Fns...>;

TEST_F(CommandListTest, VisitOfAnOpenListIsRefused)
{
    CommandList l = list();
    EXPECT_EQ(usage_error([&] { l.visit({}); }),
              "tempo::CommandList::visit: the list is open; close() it first");
    l.close();
    EXPECT_EQ(usage_error([&] { l.visit({.default_op = tempo::VisitDefault::Reappend}); }),
              "tempo::CommandList::visit: VisitDefault::Reappend needs a VisitOptions::target");
}

TEST_F(CommandListTest, VisitRunsBeforeDefaultAfterInRecordingOrder)
{
    CommandList l = list();
    l.append_write(data_va, 1U);
    l.append_fill(data_va, 2, 4);
    l.append_barrier();
    l.close();
    std::vector<std::string> log;
    SpySink target(log);
    l.visit(target.logged_reappend(true));
    EXPECT_EQ(log, (std::vector<std::string>{"before 0 write", "append 0", "after 0",
                                             "before 1 fill", "append 1", "after 1",
                                             "before 2 barrier", "append 2", "after 2"}));
    ASSERT_EQ(target.appended.size(), 3U);
    EXPECT_EQ(target.appended[1].first, l.commands()[1]);
}

TEST_F(CommandListTest, IgnoreRunsOnlyTheCallbacks)
{
    CommandList l = list();
    l.append_write(data_va, 1U);
    l.append_write(data_va, 2U);
    l.close();
    int before = 0;
    int after = 0;
    l.visit({.default_op = tempo::VisitDefault::Ignore,
             .before = [&](const auto&, auto&) { before++; },
             .after = [&](const auto&, auto&) { after++; }});
    EXPECT_EQ(before, 2);
    EXPECT_EQ(after, 2);
}

TEST_F(CommandListTest, ConcreteVisitorReplacesEverythingForItsKind)
{
    CommandList l = list();
    l.append_write(data_va, 1U);
    l.append_dispatch_spin({.x = 3}, 10);
    l.append_atomic_inc(data_va);
    l.append_dispatch_spin({.x = 4}, 20);
    l.close();
    std::vector<std::string> log;
    SpySink target(log);
    l.visit(target.logged_reappend(),
            Overloaded{
                [&](const cmd::Dispatch& d, const tempo::VisitedCommand& c) {
                    log.push_back("dispatch " + std::to_string(c.id.value()) + " x" +
                                  std::to_string(d.groups.x));
                },
                [&](const cmd::Atomic&, const tempo::VisitedCommand& c) {
                    log.push_back("atomic " + std::to_string(c.id.value()));
                },
            });
    EXPECT_EQ(log, (std::vector<std::string>{"before 0", "append 0", "after 0", "dispatch 1 x3",
                                             "atomic 2", "dispatch 3 x4"}));
    EXPECT_EQ(target.appended.size(), 1U);
}

TEST_F(CommandListTest, CallbacksRewriteTheEventsOfTheDefaultOperation)
{
    // Remap the events of the source into events of the target list.
    const Event a = event();
    const Event b = event();
    const Event a2 = event();
    const Event b2 = event();
    const auto remap = [&](const Event& e) { return e == a ? a2 : e == b ? b2 : e; };
    const Event waits[] = {a};
    CommandList source = list();
    source.append_write(data_va, 1U, {.signal = a});
    source.append_write(data_va + 4, 2U, {.wait = waits, .signal = b});
    source.close();

    CommandList target = list();
    std::vector<Event> seen_after;
    source.visit({.default_op = tempo::VisitDefault::Reappend,
                  .target = &target,
                  .before =
                      [&](const tempo::VisitedCommand&, tempo::VisitSync& sync) {
                          for (Event& e : sync.wait)
                              e = remap(e);
                          sync.signal = remap(sync.signal);
                      },
                  .after = [&](const tempo::VisitedCommand&,
                               tempo::VisitSync& sync) { seen_after.push_back(sync.signal); }});
    target.close();
    EXPECT_EQ(target.signal_event(CommandId{0}), a2);
    EXPECT_EQ(target.signal_event(CommandId{1}), b2);
    ASSERT_EQ(target.wait_events(CommandId{1}).size(), 1U);
    EXPECT_EQ(target.wait_events(CommandId{1})[0], a2);
    EXPECT_EQ(seen_after, (std::vector<Event>{a2, b2}));
    // The source keeps its own.
    EXPECT_EQ(source.signal_event(CommandId{1}), b);
}

TEST_F(CommandListTest, AfterCallbackMayAppendMoreCommands)
{
    // Timestamps around every dispatch, as a profiler would inject them.
    CommandList source = list();
    source.append_dispatch_spin({.x = 1}, 10);
    source.append_write(data_va, 1U);
    source.append_dispatch_spin({.x = 1}, 20);
    source.close();
    CommandList target = list();
    std::uint64_t slot = 0;
    const auto stamp = [&](const tempo::VisitedCommand& c, tempo::VisitSync&) {
        if (std::holds_alternative<cmd::Dispatch>(c.command))
            target.append_timestamp(data_va + 256 + 8 * slot++);
    };
    source.visit({.default_op = tempo::VisitDefault::Reappend,
                  .target = &target,
                  .before = stamp,
                  .after = stamp});
    target.close();
    ASSERT_EQ(target.size(), 7U);
    EXPECT_EQ(tempo::command_name(target.commands()[0]), "timestamp");
    EXPECT_EQ(tempo::command_name(target.commands()[1]), "dispatch");
    EXPECT_EQ(tempo::command_name(target.commands()[2]), "timestamp");
    EXPECT_EQ(tempo::command_name(target.commands()[3]), "write");
    EXPECT_EQ(tempo::command_name(target.commands()[6]), "timestamp");
}

TEST_F(CommandListTest, ReappendedListExecutesWithTheSameResults)
{
    const GpuAddress a = data_va;
    const GpuAddress b = data_va + 1024;
    const auto record = [&](CommandList& l, GpuAddress base) {
        const std::uint32_t data[] = {1, 2, 3, 4};
        l.append_write(base, data);
        l.append_fill(base + 16, 0x77, 16);
        l.append_copy(base + 32, base, 16);
        l.append_atomic_add(base + 64, 40);
        l.append_atomic_inc(base + 64);
        l.append_dispatch_atomic_inc({.x = 3}, base + 72, 2);
        l.append_dispatch_checksum({.x = 1}, base, base + 80, 16);
    };
    CommandList source = list();
    record(source, a);
    source.close();
    CommandList target = list();
    source.visit({.default_op = tempo::VisitDefault::Reappend, .target = &target});
    target.close();
    EXPECT_EQ(dwords(target.encoded()), dwords(source.encoded()));

    // Both run; same memory after each (the second run adds to the atomics again).
    Queue queue(fake_, Slot{0});
    queue.execute(source);
    std::vector<std::uint32_t> first;
    for (std::uint64_t i = 0; i < 88; i += 4)
        first.push_back(fake_->read32(a + i));
    CommandList reference = list();
    record(reference, b);
    reference.close();
    queue.execute(reference);
    for (std::uint64_t i = 0; i < 88; i += 4)
        EXPECT_EQ(fake_->read32(b + i), first[i / 4]) << "offset " << i;
}

} // namespace
