// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Command lists, queues and batched queues on the tempo device. Every test
 * skips when no tempo device is present; run them in the VM:
 *
 *   tools/vm/run -- build/cmake/tests/libtempo_device_test --gtest_filter='CommandList*'
 */
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <tempo/tempo.hpp>

#include "blocking_list.hpp"
#include "device_fixture.hpp"

namespace {

using namespace std::chrono_literals;
using tempo::BatchedQueue;
using tempo::Buffer;
using tempo::CommandId;
using tempo::CommandList;
using tempo::CommandListUsage;
using tempo::Engine;
using tempo::EngineClass;
using tempo::Event;
using tempo::GpuAddress;
using tempo::JobError;
using tempo::Priority;
using tempo::Queue;
using tempo::Slot;
using tempo::WaitResult;
using tempo_test::job_wait;

class CommandListDeviceTest : public tempo_test::DeviceFixture {
protected:
    void SetUpDevice() override
    {
        // Two compute engines when there are: a blocked job on one does not hold the other.
        const Engine first = compute_engine(0);
        const Engine map[] = {first, device().find_engine({EngineClass::Compute, 1})
                                         ? Engine{EngineClass::Compute, 1}
                                         : first};
        submitter_ = tempo::DeviceSubmitter::create(device(), map);
    }

    [[nodiscard]] bool two_engines() const
    {
        return submitter_->context().engine_map()[0] != submitter_->context().engine_map()[1];
    }
    [[nodiscard]] Buffer buffer(std::uint64_t size = 4096) const { return Buffer(device(), size); }
    [[nodiscard]] CommandList list(tempo::CommandListOptions options = {}) const
    {
        return CommandList(submitter_, options);
    }

    std::shared_ptr<tempo::DeviceSubmitter> submitter_;
};

TEST_F(CommandListDeviceTest, EveryCommandKindProducesItsResult)
{
    Buffer data = buffer(4 * 4096);
    Buffer results = buffer();
    results.write<std::uint64_t>(512, 9); // WAIT_MEM passes at once
    CommandList l = list();
    const std::uint32_t words[] = {0xa, 0xb, 0xc};
    l.append_write(results.gpu_address(0), words);
    l.append_timestamp(results.gpu_address(16));
    l.append_fill(data.gpu_address(0), 0x01020304, 4096);
    l.append_copy(data.gpu_address(4096), data.gpu_address(0), 4096);
    l.append_atomic_add(results.gpu_address(24), 0x1'0000'0000);
    l.append_atomic_inc(results.gpu_address(24));
    l.append_wait_mem(results.gpu_address(512), tempo::Compare::Ge, 9);
    l.append_dispatch_fill({.x = 4}, data.gpu_address(8192), 0xfeedf00d, 1024);
    l.append_dispatch_copy({.x = 2}, data.gpu_address(12288), data.gpu_address(8192), 512);
    l.append_dispatch_atomic_inc({.x = 2, .y = 3}, results.gpu_address(32), 7);
    l.append_dispatch_checksum({.x = 4}, data.gpu_address(0), results.gpu_address(40), 1024);
    l.append_dispatch_spin({.x = 2}, 1000);
    l.append_barrier();
    l.close();
    ASSERT_EQ(l.segment_count(), 1U);

    Queue queue(submitter_, Slot{0});
    queue.execute(l);
    ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);

    EXPECT_EQ(results.read_array<std::uint32_t>(0, 3), (std::vector<std::uint32_t>{0xa, 0xb, 0xc}));
    EXPECT_GT(results.read<std::uint64_t>(16), 0U);
    EXPECT_EQ(data.read_array<std::uint32_t>(4096, 1024),
              std::vector<std::uint32_t>(1024, 0x01020304));
    EXPECT_EQ(results.read<std::uint64_t>(24), 0x1'0000'0001U);
    EXPECT_EQ(data.read_array<std::uint32_t>(8192, 1024),
              std::vector<std::uint32_t>(1024, 0xfeedf00d));
    EXPECT_EQ(data.read_array<std::uint32_t>(12288, 256),
              std::vector<std::uint32_t>(256, 0xfeedf00d));
    EXPECT_EQ(results.read<std::uint64_t>(32), 6U * 7U);
    EXPECT_EQ(results.read<std::uint64_t>(40), std::uint64_t{1024} * 0x01020304U);
}

TEST_F(CommandListDeviceTest, EventsInTheMiddleSplitTheList)
{
    if (!two_engines())
        GTEST_SKIP() << "needs two compute engines";
    // A: fill X, signal E; then block on a flag; then write Y.
    // B (other engine): wait E, copy X to Z. B completes while A is blocked,
    // which only works if E signals in the middle of A.
    Buffer data = buffer();
    Buffer flag = buffer();
    const Event e(submitter_);
    CommandList a = list();
    a.append_fill(data.gpu_address(0), 0x5eed, 64, {.signal = e});
    a.append_wait_mem(flag.gpu_address(), tempo::Compare::Eq, 1);
    a.append_write(data.gpu_address(256), 0x600dU);
    a.close();
    EXPECT_EQ(a.segment_count(), 2U);
    const Event waits[] = {e};
    CommandList b = list();
    b.append_copy(data.gpu_address(128), data.gpu_address(0), 64, {.wait = waits});
    b.close();

    Queue qa(submitter_, Slot{0});
    Queue qb(submitter_, Slot{1});
    qa.execute(a);
    qb.execute(b);
    ASSERT_EQ(qb.finish(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read_array<std::uint32_t>(128, 16), std::vector<std::uint32_t>(16, 0x5eed));
    EXPECT_EQ(qa.finish(20ms), WaitResult::Timeout) << "A is blocked on the flag";
    EXPECT_EQ(data.read<std::uint32_t>(256), 0U);
    flag.write<std::uint64_t>(0, 1);
    ASSERT_EQ(qa.finish(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read<std::uint32_t>(256), 0x600dU);
}

TEST_F(CommandListDeviceTest, ImmediateCommandListRunsEachCommandAtOnce)
{
    Buffer data = buffer();
    tempo::ImmediateCommandList immediate(submitter_, Slot{0});
    const Event done(submitter_);
    immediate.append_write(data.gpu_address(0), 7U);
    immediate.append_atomic_add(data.gpu_address(8), 5);
    immediate.append_dispatch_atomic_inc({.x = 3}, data.gpu_address(8), 2, {.signal = done});
    ASSERT_EQ(done.wait(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read<std::uint32_t>(0), 7U);
    EXPECT_EQ(data.read<std::uint64_t>(8), 11U);
    EXPECT_EQ(immediate.last_submitted().point, 3U);
}

TEST_F(CommandListDeviceTest, ReusableListIsRefusedWhileItExecutes)
{
    Buffer data = buffer();
    CommandList l = list({.usage = CommandListUsage::Reusable});
    l.append_wait_mem(data.gpu_address(0), tempo::Compare::Eq, 1);
    l.append_atomic_inc(data.gpu_address(8));
    l.close();
    Queue queue(submitter_, Slot{0});
    queue.execute(l);
    try {
        queue.execute(l);
        FAIL() << "executed a reusable list twice at once";
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.code(), std::errc::device_or_resource_busy);
    }
    data.write<std::uint64_t>(0, 1);
    ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);
    queue.execute(l);
    ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read<std::uint64_t>(8), 2U);
}

TEST_F(CommandListDeviceTest, CloneWhileTheSourceExecutes)
{
    if (!two_engines())
        GTEST_SKIP() << "needs two compute engines";
    // The source fills a scratch word, then blocks until the flag is 1. Its
    // clone, cloned while the source is blocked and updated to fill the flag
    // instead, runs on the other engine: it completes and releases the source.
    Buffer data = buffer();
    const GpuAddress scratch = data.gpu_address(0);
    const GpuAddress flag = data.gpu_address(64);
    const GpuAddress counter = data.gpu_address(128);
    CommandList source = list({.cloneable = true});
    const CommandId fill = tempo_test::record_blocking_list(source, scratch, flag, counter);
    Queue a(submitter_, Slot{0});
    Queue b(submitter_, Slot{1});
    a.execute(source);
    EXPECT_EQ(a.finish(20ms), WaitResult::Timeout);
    EXPECT_TRUE(source.executing());

    CommandList clone = source.clone();
    EXPECT_TRUE(clone.shares_recording_with(source));
    EXPECT_FALSE(clone.executing());
    const auto args = tempo_test::release_args(flag);
    clone.update({.id = fill, .args = args});
    b.execute(clone);
    ASSERT_EQ(b.finish(job_wait), WaitResult::Signaled);
    ASSERT_EQ(a.finish(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read<std::uint64_t>(128), 2U);
    EXPECT_EQ(data.read<std::uint32_t>(0), 1U);
}

TEST_F(CommandListDeviceTest, DestroyingTheSourceBeforeTheCloneExecutes)
{
    Buffer data = buffer();
    std::optional<CommandList> source = list({.cloneable = true});
    source->append_fill(data.gpu_address(0), 0xc10e, 256);
    source->append_dispatch_atomic_inc({.x = 4}, data.gpu_address(512), 1);
    source->close();
    CommandList clone = source->clone();
    CommandList clone_of_clone = clone.clone();
    source.reset();
    // Churn the batch memory pool: nothing may reuse the clone's memory.
    for (int i = 0; i < 20; i++) {
        CommandList other = list();
        other.append_fill(data.gpu_address(1024), 0xbad, 256);
        other.close();
    }
    Queue queue(submitter_, Slot{0});
    queue.execute(clone);
    queue.execute(clone_of_clone);
    ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read_array<std::uint32_t>(0, 64), std::vector<std::uint32_t>(64, 0xc10e));
    EXPECT_EQ(data.read<std::uint64_t>(512), 8U);
    EXPECT_EQ(data.read<std::uint32_t>(1024), 0U);
}

TEST_F(CommandListDeviceTest, VisitedAndReappendedListGivesTheSameResults)
{
    Buffer data = buffer(2 * 4096);
    const auto record = [&](tempo::CommandSink& sink, std::uint64_t base, const Event& e) {
        const std::uint32_t words[] = {1, 2, 3, 4};
        sink.append_write(data.gpu_address(base), words);
        sink.append_fill(data.gpu_address(base + 64), 0x77, 64, {.signal = e});
        const Event waits[] = {e};
        sink.append_copy(data.gpu_address(base + 128), data.gpu_address(base), 16, {.wait = waits});
        sink.append_dispatch_atomic_inc({.x = 3}, data.gpu_address(base + 256), 2);
        sink.append_dispatch_checksum({.x = 2}, data.gpu_address(base),
                                      data.gpu_address(base + 264), 64);
    };
    const Event e(submitter_);
    CommandList source = list();
    record(source, 0, e);
    source.close();
    // Re-append into a target, remapping the event to one of its own.
    const Event e2(submitter_);
    CommandList target = list();
    source.visit({.default_op = tempo::VisitDefault::Reappend,
                  .target = &target,
                  .before = [&](const tempo::VisitedCommand&, tempo::VisitSync& sync) {
                      for (Event& w : sync.wait)
                          w = w == e ? e2 : w;
                      if (sync.signal == e)
                          sync.signal = e2;
                  }});
    target.close();
    EXPECT_EQ(target.segment_count(), source.segment_count());
    EXPECT_EQ(target.signal_event(CommandId{1}), e2);

    Queue queue(submitter_, Slot{0});
    queue.execute(source);
    ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);
    const auto first = data.read_array<std::uint32_t>(0, 68);
    std::fill_n(data.bytes().begin(), 4096, std::byte{0});
    queue.execute(target);
    ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read_array<std::uint32_t>(0, 68), first);
    EXPECT_EQ(e2.point(), 1U);
}

TEST_F(CommandListDeviceTest, MutableDispatchUpdateThenReexecute)
{
    Buffer data = buffer();
    CommandList l = list();
    const CommandId inc = l.append_dispatch_atomic_inc({.x = 2}, data.gpu_address(0), 3);
    const CommandId fill = l.append_dispatch_fill({.x = 1}, data.gpu_address(256), 0x1111, 64);
    l.close();
    Queue queue(submitter_, Slot{0});
    queue.execute(l);
    ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read<std::uint64_t>(0), 6U);

    const GpuAddress counter = data.gpu_address(8);
    const std::uint32_t inc_args[] = {counter.low(), counter.high(), 5};
    const GpuAddress dst = data.gpu_address(512);
    const std::uint32_t fill_args[] = {dst.low(), dst.high(), 0x2222, 32};
    const tempo::CommandUpdate updates[] = {
        {.id = inc, .groups = tempo::Groups{2, 2, 1}, .args = inc_args},
        {.id = fill, .groups = tempo::Groups{4}, .args = fill_args},
    };
    l.update(updates);
    queue.execute(l);
    ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read<std::uint64_t>(0), 6U);
    EXPECT_EQ(data.read<std::uint64_t>(8), 20U);
    EXPECT_EQ(data.read_array<std::uint32_t>(512, 32), std::vector<std::uint32_t>(32, 0x2222));
}

TEST_F(CommandListDeviceTest, BatchedQueuesWaitingOnEachOther)
{
    Buffer data = buffer();
    BatchedQueue q1(submitter_, Slot{0});
    BatchedQueue q2(submitter_, Slot{1});
    const Event e1(submitter_);
    const Event e2(submitter_);
    q1.append_write(data.gpu_address(0), 1U, {.signal = e1});
    q2.append_write(data.gpu_address(4), 2U, {.signal = e2});
    const Event w1[] = {e1};
    const Event w2[] = {e2};
    q1.append_copy(data.gpu_address(8), data.gpu_address(4), 4, {.wait = w2});
    q2.append_copy(data.gpu_address(12), data.gpu_address(0), 4, {.wait = w1});
    q1.append_atomic_inc(data.gpu_address(16), {.signal = e1});
    q2.append_atomic_inc(data.gpu_address(16), {.wait = w1});
    ASSERT_EQ(q1.finish(job_wait), WaitResult::Signaled);
    ASSERT_EQ(q2.finish(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read<std::uint32_t>(8), 2U);
    EXPECT_EQ(data.read<std::uint32_t>(12), 1U);
    EXPECT_EQ(data.read<std::uint64_t>(16), 2U);
    EXPECT_GE(q1.flushes(tempo::FlushReason::WaitList), 1U);
    EXPECT_GE(q2.flushes(tempo::FlushReason::WaitList), 1U);
}

TEST_F(CommandListDeviceTest, HostWaitInAnotherThreadFlushesTheBatch)
{
    Buffer data = buffer();
    BatchedQueue queue(submitter_, Slot{0});
    const Event e(submitter_);
    queue.append_write(data.gpu_address(0), 0xabcU, {.signal = e});
    WaitResult result = WaitResult::Timeout;
    std::thread waiter([&] { result = e.wait(job_wait); });
    waiter.join();
    EXPECT_EQ(result, WaitResult::Signaled);
    EXPECT_EQ(data.read<std::uint32_t>(0), 0xabcU);
    EXPECT_EQ(queue.flushes(tempo::FlushReason::HostWait), 1U);
}

TEST_F(CommandListDeviceTest, BatchMemoryIsRecycled)
{
    Buffer data = buffer();
    Queue queue(submitter_, Slot{0});
    const auto cycle = [&] {
        for (int i = 0; i < 50; i++) {
            CommandList l = list();
            l.append_atomic_inc(data.gpu_address(0));
            l.close();
            queue.execute(l);
            queue.append_atomic_inc(data.gpu_address(0));
        }
        ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);
    };
    cycle();
    const std::uint64_t created = submitter_->buffers_created();
    cycle();
    EXPECT_EQ(submitter_->buffers_created(), created);
    EXPECT_EQ(data.read<std::uint64_t>(0), 200U);
}

/// An address no buffer can be mapped at: a write there is a GPU fault.
static GpuAddress unmapped(const tempo::Device& device)
{
    const auto& info = device.info();
    return info.va_start.value() >= 4096 ? GpuAddress{0} : info.va_end;
}

TEST_F(CommandListDeviceTest, AWaitOnAFaultingListThrowsJobErrorEfault)
{
    EXPECT_FALSE(submitter_->context().reset_status().guilty);
    CommandList l = list();
    l.append_write(unmapped(device()), 1U);
    l.close();
    Queue queue(submitter_, Slot{0});
    queue.execute(l);
    try {
        (void)queue.finish(job_wait);
        FAIL() << "finish() reported a faulting job signalled";
    } catch (const JobError& e) {
        EXPECT_EQ(e.error_number(), EFAULT) << e.what();
        EXPECT_EQ(e.operation(), "job");
    }
    EXPECT_TRUE(submitter_->context().reset_status().guilty);
}

TEST_F(CommandListDeviceTest, JobsCancelledByAFailureThrowJobErrorEcanceled)
{
    // The first list faults once released; the second, queued behind it
    // on the same slot, never starts: the failure bans the context.
    Buffer flag = buffer();
    CommandList faulting = list();
    faulting.append_wait_mem(flag.gpu_address(), tempo::Compare::Eq, 1);
    faulting.append_write(unmapped(device()), 1U);
    faulting.close();
    CommandList healthy = list();
    healthy.append_write(flag.gpu_address(8), 2U);
    healthy.close();
    Queue queue(submitter_, Slot{0});
    queue.execute(faulting);
    queue.execute(healthy);
    flag.write<std::uint32_t>(0, 1);
    try {
        (void)queue.finish(job_wait);
        FAIL() << "finish() reported a cancelled job signalled";
    } catch (const JobError& e) {
        EXPECT_EQ(e.error_number(), ECANCELED) << e.what();
    }
    EXPECT_EQ(flag.read<std::uint32_t>(8), 0U);
}

TEST_F(CommandListDeviceTest, AnEventOfAFaultingListThrowsOnWait)
{
    const Event e(submitter_);
    CommandList l = list();
    l.append_write(unmapped(device()), 1U, {.signal = e});
    l.close();
    Queue queue(submitter_, Slot{0});
    queue.execute(l);
    EXPECT_THROW((void)e.wait(job_wait), JobError);
    // A healthy context's waits are unaffected.
    auto other = tempo::DeviceSubmitter::create(device());
    const Event ok(other);
    CommandList fine(other);
    fine.append_barrier({.signal = ok});
    fine.close();
    Queue queue2(other, Slot{0});
    queue2.execute(fine);
    EXPECT_EQ(ok.wait(job_wait), WaitResult::Signaled);
    EXPECT_FALSE(other->context().reset_status().guilty);
}

TEST_F(CommandListDeviceTest, ACompositorOverridesAnotherClientsPriority)
{
    // The client: its own file and context, whose fd and id it hands over.
    const tempo::Device client = tempo::Device::open(device().path());
    const tempo::Context game(client, Priority::Low);
    if (device().max_priority() < Priority::High) {
        try {
            device().override_priority(client.fd(), game.id(), Priority::High);
            FAIL() << "an unprivileged caller overrode a priority";
        } catch (const tempo::Error& e) {
            EXPECT_EQ(e.error_number(), EACCES) << e.what();
        }
        return;
    }
    device().override_priority(client.fd(), game.id(), Priority::High);
    EXPECT_EQ(game.priority(), Priority::High);
    device().override_priority(client.fd(), Priority::VeryLow);
    EXPECT_EQ(game.priority(), Priority::High); // the context's override wins
    device().override_priority(client.fd(), game.id(), std::nullopt);
    EXPECT_EQ(game.priority(), Priority::VeryLow);
    device().override_priority(client.fd(), std::nullopt);
    EXPECT_EQ(game.priority(), Priority::Low);
    try {
        device().override_priority(client.fd(), tempo::ContextId{game.id().value() + 1000},
                                   Priority::High);
        FAIL() << "an unknown context was overridden";
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.error_number(), ENOENT) << e.what();
    }
}

TEST_F(CommandListDeviceTest, DocumentationExampleRuns)
{
    tempo_test::expect_example_prints(TEMPO_COMMAND_LISTS_EXAMPLE_PATH,
                                      "original: 18, clone: 36, batched: 10\n");
}

} // namespace
