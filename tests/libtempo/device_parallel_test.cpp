// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Engine maps and parallel submission on the tempo device: gangs of
 * command lists on a parallel slot, a load-balanced slot, and the errors.
 * Every test skips when no tempo device is present; run them in the VM:
 *
 *   tools/vm/run -- build/cmake/tests/libtempo_device_test --gtest_filter='Parallel*'
 */
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <tempo/tempo.hpp>

#include "device_fixture.hpp"

namespace {

using namespace std::chrono_literals;
using tempo::Buffer;
using tempo::CommandList;
using tempo::Engine;
using tempo::EngineClass;
using tempo::EngineMap;
using tempo::Event;
using tempo::ParallelQueue;
using tempo::Queue;
using tempo::Slot;
using tempo::SlotKind;
using tempo::WaitResult;
using tempo_test::job_wait;

class ParallelDeviceTest : public tempo_test::DeviceFixture {
protected:
    void SetUpDevice() override
    {
        for (const tempo::EngineInfo& info : device_->engines())
            if (info.engine.engine_class == EngineClass::Compute)
                computes_.push_back(info.engine);
        if (!device_->info().supports_parallel(EngineClass::Compute) || computes_.size() < 2)
            GTEST_SKIP() << "needs 2 compute engines with parallel support";
    }

    // A submitter whose slot 0 is a parallel slot of @width over every
    // compute engine and slot 1 the first compute engine.
    [[nodiscard]] std::shared_ptr<tempo::DeviceSubmitter> parallel(std::uint16_t width) const
    {
        EngineMap map;
        map.add_parallel(width, computes_);
        map.add(computes_.front());
        return tempo::DeviceSubmitter::create(*device_, map);
    }

    // A closed list of @n ATOMIC INC packets on @counter.
    [[nodiscard]] static CommandList incrementer(const std::shared_ptr<tempo::Submitter>& submitter,
                                                 tempo::GpuAddress counter, int n)
    {
        CommandList list(submitter);
        for (int i = 0; i < n; i++)
            list.append_atomic_inc(counter);
        list.close();
        return list;
    }

    std::vector<Engine> computes_;
};

TEST_F(ParallelDeviceTest, TheQueryReportsParallelSupport)
{
    const tempo::DeviceInfo& info = device_->info();
    EXPECT_TRUE(info.supports_parallel(EngineClass::Compute));
    EXPECT_GE(info.max_siblings, 1U);
    EXPECT_GE(info.max_batches, 2U);
}

TEST_F(ParallelDeviceTest, EveryMemberOfAGangIncrementsTheSharedCounter)
{
    const auto widest = static_cast<std::uint16_t>(
        std::min<std::size_t>({device_->info().max_batches, computes_.size(), 4}));
    for (std::uint16_t width = 2; width <= widest; width++) {
        SCOPED_TRACE("width " + std::to_string(width));
        const auto submitter = parallel(width);
        const tempo::Context& context = submitter->context();
        ASSERT_EQ(context.slots().size(), 2U);
        EXPECT_EQ(context.slot_kind(Slot{0}), SlotKind::Parallel);
        EXPECT_EQ(context.slot_width(Slot{0}), width);
        EXPECT_EQ(context.slot_kind(Slot{1}), SlotKind::Engine);
        EXPECT_EQ(context.slot_width(Slot{1}), 1U);

        Buffer counter(*device_, 4096);
        std::vector<CommandList> lists;
        std::vector<CommandList*> gang;
        lists.reserve(width);
        for (std::uint16_t i = 0; i < width; i++)
            lists.push_back(incrementer(submitter, counter.gpu_address(), 512));
        for (CommandList& list : lists)
            gang.push_back(&list);

        ParallelQueue queue(submitter, Slot{0});
        EXPECT_EQ(queue.width(), width);
        const Event done(submitter);
        queue.execute(gang, {.signal = done});
        ASSERT_EQ(done.wait(job_wait), WaitResult::Signaled);
        EXPECT_EQ(counter.read<std::uint64_t>(0), width * 512U);

        // Again (reusable lists: one execution at a time).
        for (int again = 0; again < 2; again++) {
            queue.execute(gang);
            ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);
        }
        EXPECT_EQ(counter.read<std::uint64_t>(0), 3U * width * 512U);
    }
}

TEST_F(ParallelDeviceTest, AGangWaitsForItsEventsAndSignalsThem)
{
    const auto submitter = parallel(2);
    Buffer data(*device_, 4096);
    const auto counter = data.gpu_address(0);
    const auto flag = data.gpu_address(64);

    // Slot 1 writes the flag and signals ready; member 0 of the gang waits
    // for ready and copies the flag, so it must see it written.
    Queue plain(submitter, Slot{1});
    const Event ready(submitter);
    plain.append_dispatch_spin({.x = 1}, 2'000'000);
    plain.append_write(flag, 0x600dU, {.signal = ready});

    const Event ready_list[] = {ready};
    const Event a_done(submitter);
    CommandList a(submitter);
    a.append_copy(data.gpu_address(128), flag, 4, {.wait = ready_list});
    a.append_atomic_inc(counter, {.signal = a_done});
    a.close();
    CommandList b = incrementer(submitter, counter, 512);

    ParallelQueue queue(submitter, Slot{0});
    queue.execute({&a, &b});
    ASSERT_EQ(a_done.wait(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read<std::uint32_t>(128), 0x600dU);
    EXPECT_EQ(data.read<std::uint64_t>(0), 513U);
    EXPECT_EQ(queue.finish(job_wait), WaitResult::Signaled);
}

TEST_F(ParallelDeviceTest, TheWrongNumberOfListsIsRefusedBeforeTheIoctl)
{
    const auto submitter = parallel(2);
    Buffer counter(*device_, 4096);
    CommandList a = incrementer(submitter, counter.gpu_address(), 1);
    CommandList b = incrementer(submitter, counter.gpu_address(), 1);
    CommandList c = incrementer(submitter, counter.gpu_address(), 1);
    ParallelQueue queue(submitter, Slot{0});
    for (const std::vector<CommandList*>& gang :
         {std::vector<CommandList*>{&a}, std::vector<CommandList*>{&a, &b, &c}}) {
        try {
            queue.execute(gang);
            ADD_FAILURE() << "a gang of " << gang.size() << " lists on a slot of width 2";
        } catch (const tempo::Error& e) {
            EXPECT_EQ(e.code(), std::errc::invalid_argument);
            EXPECT_EQ(e.operation(), "DRM_IOCTL_TEMPO_EXEC");
            EXPECT_NE(e.reason().find("every exec on it takes exactly 2 batches, so a gang is "
                                      "exactly 2 command lists, one per member; " +
                                      std::to_string(gang.size()) + " given"),
                      std::string::npos)
                << e.what();
        }
    }
    EXPECT_EQ(queue.last_submitted().point, 0U);

    // The same rule on the context: one batch on the parallel slot.
    try {
        (void)submitter->context().submit({.slot = Slot{0}, .batch = a.gpu_address()});
        ADD_FAILURE() << "one batch on a parallel slot of width 2";
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.code(), std::errc::invalid_argument);
        EXPECT_NE(std::string{e.what()}.find("takes exactly 2 batches, 1 given"), std::string::npos)
            << e.what();
    }

    // Nothing ran: a right-sized gang is the first to touch the counter.
    queue.execute({&a, &b});
    ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);
    EXPECT_EQ(counter.read<std::uint64_t>(0), 2U);
}

TEST_F(ParallelDeviceTest, ALoadBalancedSlotRunsItsJobsInOrder)
{
    EngineMap map;
    const Slot balanced = map.add_load_balanced(computes_);
    const auto submitter = tempo::DeviceSubmitter::create(*device_, map);
    const tempo::Context& context = submitter->context();
    EXPECT_EQ(context.slot_kind(balanced), SlotKind::LoadBalanced);
    EXPECT_EQ(context.slot_width(balanced), 1U);
    EXPECT_EQ(context.slot(balanced).engines, computes_);
    EXPECT_FALSE(context.slot_of(computes_.front()));

    Buffer data(*device_, 4096);
    Queue queue(submitter, balanced);
    for (std::uint32_t i = 0; i < 16; i++) {
        CommandList list(submitter, {.usage = tempo::CommandListUsage::OneShot});
        list.append_atomic_inc(data.gpu_address(0));
        // Each job sees the previous one's increment: the slot keeps them in order.
        list.append_wait_mem(data.gpu_address(0), tempo::Compare::Eq, i + 1);
        list.append_write(data.gpu_address(64 + 4 * i), i + 1);
        list.close();
        queue.execute(list);
    }
    ASSERT_EQ(queue.finish(job_wait), WaitResult::Signaled);
    EXPECT_EQ(data.read<std::uint64_t>(0), 16U);
    for (std::uint32_t i = 0; i < 16; i++)
        EXPECT_EQ(data.read<std::uint32_t>(64 + 4 * i), i + 1);
    EXPECT_THROW(ParallelQueue(submitter, balanced), std::invalid_argument);
}

TEST_F(ParallelDeviceTest, TheKernelRefusesAParallelSlotOfAClassWithoutSupport)
{
    std::optional<Engine> unsupported;
    for (const tempo::EngineInfo& info : device_->engines())
        if (!device_->info().supports_parallel(info.engine.engine_class))
            unsupported = info.engine;
    if (!unsupported)
        GTEST_SKIP() << "every class supports parallel slots";
    EngineMap map;
    const Engine engines[] = {*unsupported, computes_.front()};
    map.add_parallel(2, 1, engines);
    try {
        const tempo::Context context(*device_, map);
        FAIL() << "a parallel slot on " << tempo::to_string(*unsupported);
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.code().value(), ENODEV) << e.what();
        EXPECT_EQ(e.operation(), "DRM_IOCTL_TEMPO_CTX_CREATE");
        EXPECT_NE(e.reason().find("parallel 2x1{" + tempo::to_string(*unsupported) + " | " +
                                  tempo::to_string(computes_.front()) + "}"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(e.reason().find("parallel slots need a class with parallel support"),
                  std::string::npos)
            << e.what();
    }
}

TEST_F(ParallelDeviceTest, DocumentationExampleRuns)
{
    tempo_test::expect_example_prints(TEMPO_PARALLEL_EXAMPLE_PATH,
                                      "gang: 1024, load-balanced: 7\n");
}

} // namespace
