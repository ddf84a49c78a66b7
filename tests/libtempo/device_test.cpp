// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * libtempo against the tempo device. Every test skips when no tempo device
 * is present; run them in the VM:
 *
 *   tools/vm/run -- build/cmake/tests/libtempo_device_test
 *   tools/vm/run --user -- build/cmake/tests/libtempo_device_test   (unprivileged)
 *
 * Expected topology and limits come from the module parameters in
 * /sys/module/tempo/parameters (their defaults when absent).
 */
#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm/tempo_drm.h>
#include <xf86drm.h>

#include <tempo/tempo.hpp>

#include "device_fixture.hpp"

namespace {

using namespace std::chrono_literals;
using tempo::Buffer;
using tempo::Context;
using tempo::Engine;
using tempo::EngineClass;
using tempo::Fence;
using tempo::FileLimits;
using tempo::GpuAddress;
using tempo::PacketWriter;
using tempo::Priority;
using tempo::Slot;
using tempo::Syncobj;
using tempo::SyncPoint;
using tempo::WaitResult;
using tempo_test::job_wait;

// ---------------------------------------------------------------------------
// Helpers

/// Module parameters of tempo.ko, as the driver documents their defaults.
struct Params {
    unsigned gfx_engines = 1;
    unsigned compute_engines = 4;
    unsigned copy_engines = 2;
    unsigned compute_queues = 4;
    unsigned queues = 2;
    unsigned cus = 8;
    unsigned job_timeout_ms = 2000;

    bool operator==(const Params&) const = default;
};

void read_param(const char* name, unsigned& value)
{
    std::ifstream file(std::string{"/sys/module/tempo/parameters/"} + name);
    unsigned v = 0;
    if (file >> v)
        value = v;
}

/// Writes a module parameter root may change; false when it cannot.
bool write_param(const char* name, unsigned value)
{
    std::ofstream file(std::string{"/sys/module/tempo/parameters/"} + name);
    file << value;
    file.flush();
    return file.good();
}

Params module_params()
{
    Params p;
    read_param("gfx_engines", p.gfx_engines);
    read_param("compute_engines", p.compute_engines);
    read_param("copy_engines", p.copy_engines);
    read_param("compute_queues", p.compute_queues);
    read_param("queues", p.queues);
    read_param("cus", p.cus);
    read_param("job_timeout_ms", p.job_timeout_ms);
    return p;
}

constexpr std::uint32_t cap_bit(int cap)
{
    return 1U << (cap % 32);
}

bool has_cap_sys_nice()
{
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (::syscall(SYS_capget, &header, data) != 0)
        return false;
    return data[CAP_SYS_NICE / 32].effective & cap_bit(CAP_SYS_NICE);
}

bool drop_cap_sys_nice()
{
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (::syscall(SYS_capget, &header, data) != 0)
        return false;
    auto& d = data[CAP_SYS_NICE / 32];
    d.effective &= ~cap_bit(CAP_SYS_NICE);
    d.permitted &= ~cap_bit(CAP_SYS_NICE);
    d.inheritable &= ~cap_bit(CAP_SYS_NICE);
    return ::syscall(SYS_capset, &header, data) == 0;
}

/// Runs @fn in a child process; returns its exit status and what it wrote to the pipe.
template <typename Fn>
std::pair<int, std::string> run_in_child(Fn&& fn)
{
    int fds[2];
    if (::pipe(fds) != 0)
        return {-1, "pipe failed"};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        std::string message;
        int code = 1;
        try {
            code = fn(message);
        } catch (const std::exception& e) {
            message = std::string{"exception: "} + e.what();
        }
        (void)!::write(fds[1], message.data(), message.size());
        ::_exit(code);
    }
    ::close(fds[1]);
    std::string message;
    char buf[1024];
    ssize_t n;
    while ((n = ::read(fds[0], buf, sizeof(buf))) > 0)
        message.append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, message};
}

class DeviceTest : public tempo_test::DeviceFixture {
protected:
    /// Runs @packets on @engine in a one-slot context and waits for the job.
    Fence run(const PacketWriter& packets, std::optional<Engine> engine = std::nullopt)
    {
        const Engine e = engine.value_or(compute_engine());
        const Context context(device(), std::span{&e, 1});
        const Buffer batch = Buffer::with_contents(device(), packets.dwords());
        auto fence =
            context.submit({.slot = Slot{0}, .batch = batch.gpu_address(), .out_fence = true});
        EXPECT_TRUE(fence.has_value());
        EXPECT_EQ(fence->wait(job_wait), WaitResult::Signaled) << "job on " << to_string(e);
        return std::move(*fence);
    }
};

// ---------------------------------------------------------------------------
// Queries

TEST_F(DeviceTest, TopologyMatchesModuleParameters)
{
    const Params p = module_params();
    const auto& info = device().info();
    EXPECT_EQ(device().driver_version().name, "tempo");

    EXPECT_EQ(device().engine_count(EngineClass::Gfx), p.gfx_engines);
    EXPECT_EQ(device().engine_count(EngineClass::Compute), p.compute_engines);
    EXPECT_EQ(device().engine_count(EngineClass::Copy), p.copy_engines);
    EXPECT_EQ(info.num_engines, p.gfx_engines + p.compute_engines + p.copy_engines);
    ASSERT_EQ(device().engines().size(), info.num_engines);

    // By class, then instance; queues engine after engine.
    std::vector<Engine> expected;
    for (unsigned i = 0; i < p.gfx_engines; i++)
        expected.push_back({EngineClass::Gfx, static_cast<std::uint16_t>(i)});
    for (unsigned i = 0; i < p.compute_engines; i++)
        expected.push_back({EngineClass::Compute, static_cast<std::uint16_t>(i)});
    for (unsigned i = 0; i < p.copy_engines; i++)
        expected.push_back({EngineClass::Copy, static_cast<std::uint16_t>(i)});
    unsigned first_hqd = 0;
    for (std::size_t i = 0; i < expected.size(); i++) {
        const auto& engine = device().engines()[i];
        EXPECT_EQ(engine.engine, expected[i]) << "engine " << i;
        const unsigned queues =
            engine.engine.engine_class == EngineClass::Compute ? p.compute_queues : p.queues;
        EXPECT_EQ(engine.num_hqds, queues) << to_string(engine.engine);
        EXPECT_EQ(engine.first_hqd, first_hqd) << to_string(engine.engine);
        first_hqd += engine.num_hqds;
    }

    // The HQD count matches, and each engine's queues are its own.
    EXPECT_EQ(info.num_hqds, first_hqd);
    ASSERT_EQ(device().hqds().size(), info.num_hqds);
    for (const auto& engine : device().engines()) {
        const auto hqds = device().hqds(engine);
        ASSERT_EQ(hqds.size(), engine.num_hqds);
        for (std::size_t q = 0; q < hqds.size(); q++) {
            EXPECT_EQ(hqds[q].engine, engine.engine);
            EXPECT_EQ(hqds[q].queue, q);
            EXPECT_LE(hqds[q].pipe_priority, 2);
            EXPECT_LE(hqds[q].queue_priority, 15);
        }
    }
}

TEST_F(DeviceTest, DefaultTopology)
{
    if (module_params() != Params{})
        GTEST_SKIP() << "tempo.ko was loaded with non-default parameters";
    const auto& info = device().info();
    EXPECT_EQ(device().engine_count(EngineClass::Gfx), 1U);
    EXPECT_EQ(device().engine_count(EngineClass::Compute), 4U);
    EXPECT_EQ(device().engine_count(EngineClass::Copy), 2U);
    EXPECT_EQ(info.num_engines, 7U);
    EXPECT_EQ(info.num_hqds, 1U * 2 + 4U * 4 + 2U * 2);
    EXPECT_EQ(info.num_cus, 8U);
    EXPECT_EQ(info.job_timeout, 2000ms);
}

TEST_F(DeviceTest, Limits)
{
    const Params p = module_params();
    const auto& info = device().info();
    EXPECT_EQ(info.num_cus, p.cus);
    EXPECT_EQ(info.job_timeout, std::chrono::milliseconds{p.job_timeout_ms});
    EXPECT_GT(info.timestamp_frequency, 0U);
    EXPECT_GT(info.va_start.value(), 0U);
    EXPECT_LT(info.va_start, info.va_end);
    EXPECT_EQ(info.va_start.value() % device().page_size(), 0U);
    EXPECT_EQ(info.va_end.value() % device().page_size(), 0U);
    EXPECT_GE(info.max_batches, 1U);
    EXPECT_GE(info.max_syncs, 1U);
    EXPECT_GE(info.max_batch_depth, 1U);
    EXPECT_GE(info.max_slots, info.num_engines); // the default map fits
    EXPECT_GE(info.ring_size, 1U);
    EXPECT_GE(info.max_packet_dwords, 8U); // WAIT_MEM is 8 dwords
    EXPECT_GE(info.max_groups, 1U);
    EXPECT_EQ(info.max_priority, has_cap_sys_nice() ? Priority::VeryHigh : Priority::Normal);
    EXPECT_EQ(device().max_priority(), info.max_priority);
}

TEST_F(DeviceTest, FileLimitsAreTheModuleParameters)
{
    // The module's defaults where it does not show its parameters.
    unsigned max_contexts = 1024, max_mappings = 65536, max_jobs = 4096;
    read_param("max_contexts", max_contexts);
    read_param("max_mappings", max_mappings);
    read_param("max_jobs", max_jobs);
    const FileLimits& limits = device().info().limits;
    EXPECT_EQ(limits.max_contexts, max_contexts);
    EXPECT_EQ(limits.max_mappings, max_mappings);
    EXPECT_EQ(limits.max_jobs, max_jobs);
    EXPECT_GT(limits.close_wait.count(), 0);
}

/// A DRM_IOCTL_TEMPO_QUERY of @id that probes the size of the answer.
drm_tempo_query size_probe(std::uint32_t id)
{
    return {.extensions = 0, .query = id, .size = 0, .data = 0, .flags = 0, .pad = 0};
}

TEST_F(DeviceTest, QuerySizeProbe)
{
    drm_tempo_query q = size_probe(DRM_TEMPO_QUERY_DEVICE);
    ASSERT_EQ(::ioctl(device().fd(), DRM_IOCTL_TEMPO_QUERY, &q), 0);
    EXPECT_EQ(q.size, sizeof(drm_tempo_query_device));

    drm_tempo_query_device answer{};
    q.size = sizeof(answer) - 4; // any other non-zero size
    q.data = reinterpret_cast<std::uintptr_t>(&answer);
    EXPECT_EQ(::ioctl(device().fd(), DRM_IOCTL_TEMPO_QUERY, &q), -1);
    EXPECT_EQ(errno, EINVAL);

    q = size_probe(DRM_TEMPO_QUERY_ENGINES);
    ASSERT_EQ(::ioctl(device().fd(), DRM_IOCTL_TEMPO_QUERY, &q), 0);
    EXPECT_EQ(q.size, sizeof(drm_tempo_query_engines) +
                          device().info().num_engines * sizeof(drm_tempo_engine_info));

    q = size_probe(0xbad);
    EXPECT_EQ(::ioctl(device().fd(), DRM_IOCTL_TEMPO_QUERY, &q), -1);
    EXPECT_EQ(errno, EINVAL);
}

TEST_F(DeviceTest, OpenByPathAndEnumerate)
{
    const auto paths = tempo::Device::enumerate();
    EXPECT_NE(std::find(paths.begin(), paths.end(), device().path()), paths.end());

    const auto again = tempo::Device::open(device().path());
    EXPECT_EQ(again.info().num_hqds, device().info().num_hqds);
    EXPECT_NE(again.fd(), device().fd());

    try {
        (void)tempo::Device::open("/nonexistent/renderD128");
        FAIL() << "opened a missing node";
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.error_number(), ENOENT);
        EXPECT_EQ(e.operation(), "open");
    }
    try {
        (void)tempo::Device::open("/dev/null");
        FAIL() << "opened /dev/null as a tempo device";
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.operation(), "drmGetVersion");
        EXPECT_TRUE(
            std::string{e.what()}.starts_with("drmGetVersion: /dev/null is not a DRM device: "))
            << e.what();
    }
}

// ---------------------------------------------------------------------------
// Buffers

TEST_F(DeviceTest, BufferCreateMapWriteRead)
{
    const auto page = device().page_size();
    Buffer a(device(), 100);
    EXPECT_EQ(a.size(), page);
    EXPECT_NE(a.handle(), tempo::BoHandle{});
    EXPECT_TRUE(a.gpu_mapped());
    EXPECT_FALSE(a.gpu_read_only());
    EXPECT_GE(a.gpu_address(), device().info().va_start);
    EXPECT_LE(a.gpu_address() + a.size(), device().info().va_end);
    EXPECT_EQ(a.gpu_address().value() % page, 0U);
    EXPECT_EQ(a.gpu_address(16), a.gpu_address() + 16);
    ASSERT_EQ(a.bytes().size(), page);

    // A new buffer reads as zeroes.
    for (const std::byte b : a.bytes())
        ASSERT_EQ(b, std::byte{0});

    a.write<std::uint32_t>(0, 0xdeadbeef);
    a.write<std::uint64_t>(8, 0x0123456789abcdefULL);
    EXPECT_EQ(a.read<std::uint32_t>(0), 0xdeadbeefU);
    EXPECT_EQ(a.read<std::uint64_t>(8), 0x0123456789abcdefULL);
    const std::array<std::uint16_t, 3> values{1, 2, 3};
    a.write_array<std::uint16_t>(page - 6, values);
    EXPECT_EQ(a.read_array<std::uint16_t>(page - 6, 3), (std::vector<std::uint16_t>{1, 2, 3}));

    EXPECT_THROW(a.write<std::uint32_t>(page - 2, 0), std::out_of_range);
    EXPECT_THROW((void)a.read<std::uint64_t>(page), std::out_of_range);
    EXPECT_THROW((void)a.read_array<std::uint32_t>(0, page), std::out_of_range);
    EXPECT_THROW((void)a.gpu_address(page + 1), std::out_of_range);

    // Two buffers do not overlap, on the CPU or the GPU.
    const Buffer b(device(), 3 * page);
    EXPECT_EQ(b.size(), 3 * page);
    EXPECT_TRUE(b.gpu_address() >= a.gpu_address() + a.size() ||
                a.gpu_address() >= b.gpu_address() + b.size());
    EXPECT_EQ(b.read<std::uint32_t>(0), 0U);

    // Moving keeps the mapping.
    const GpuAddress va = a.gpu_address();
    Buffer moved = std::move(a);
    EXPECT_EQ(moved.gpu_address(), va);
    EXPECT_EQ(moved.read<std::uint32_t>(0), 0xdeadbeefU);
    EXPECT_EQ(a.size(), 0U); // NOLINT(bugprone-use-after-move): moved-from is empty
    EXPECT_TRUE(a.bytes().empty());
}

TEST_F(DeviceTest, BufferOptions)
{
    const Buffer cpu_only(device(), 4096, {.cpu_map = true, .gpu_map = false});
    EXPECT_FALSE(cpu_only.gpu_mapped());
    EXPECT_THROW((void)cpu_only.gpu_address(0), std::logic_error);

    const Buffer gpu_only(device(), 4096, {.cpu_map = false, .gpu_map = true});
    EXPECT_TRUE(gpu_only.bytes().empty());
    EXPECT_THROW((void)gpu_only.read<std::uint32_t>(0), std::logic_error);

    const Buffer read_only(device(), 4096, {.gpu_read_only = true});
    EXPECT_TRUE(read_only.gpu_read_only());
}

TEST_F(DeviceTest, BufferOfZeroBytesIsRefused)
{
    try {
        const Buffer b(device(), 0);
        FAIL() << "created a buffer of 0 bytes";
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.error_number(), EINVAL);
        EXPECT_STREQ(e.what(),
                     "DRM_IOCTL_TEMPO_BO_CREATE: creating a buffer of 0 bytes: Invalid argument");
    }
}

// ---------------------------------------------------------------------------
// Submission

TEST_F(DeviceTest, WriteDataOnEveryEngine)
{
    const Context context(device());
    ASSERT_EQ(context.engine_map().size(), device().engines().size());
    Buffer target(device(), 4096);
    std::vector<Buffer> batches;
    std::vector<Fence> fences;
    for (std::size_t i = 0; i < device().engines().size(); i++) {
        const Engine engine = device().engines()[i].engine;
        const auto slot = context.slot_of(engine);
        ASSERT_EQ(slot, Slot{static_cast<std::uint32_t>(i)});
        const std::uint32_t data[] = {static_cast<std::uint32_t>(0x1000 + i), 0xa5a5a5a5,
                                      static_cast<std::uint32_t>(i)};
        PacketWriter w;
        w.write_data(target.gpu_address(i * 16), data).end();
        batches.push_back(Buffer::with_contents(device(), w.dwords()));
        fences.push_back(std::move(*context.submit(
            {.slot = *slot, .batch = batches.back().gpu_address(), .out_fence = true})));
    }
    for (std::size_t i = 0; i < fences.size(); i++) {
        ASSERT_EQ(fences[i].wait(job_wait), WaitResult::Signaled);
        EXPECT_EQ(fences[i].status(), 1) << to_string(device().engines()[i].engine);
        EXPECT_EQ(target.read_array<std::uint32_t>(i * 16, 4),
                  (std::vector<std::uint32_t>{static_cast<std::uint32_t>(0x1000 + i), 0xa5a5a5a5,
                                              static_cast<std::uint32_t>(i), 0}));
    }
}

TEST_F(DeviceTest, WriteJobTimesReportsAnIdleJobThatWaitedForNothing)
{
    Buffer results(device(), 4096);
    PacketWriter w;
    w.write_job_times(results.gpu_address(0)).write_timestamp(results.gpu_address(64)).end();
    const auto before = std::chrono::steady_clock::now().time_since_epoch();
    const Fence fence = run(w);
    EXPECT_EQ(fence.status(), 1);
    const auto times = results.read<tempo::JobTimes>(0);
    const auto after = results.read<std::uint64_t>(64);
    EXPECT_LE(static_cast<std::uint64_t>(std::chrono::nanoseconds{before}.count()), times.queued);
    EXPECT_LE(times.queued, times.started);
    EXPECT_LE(times.started, after);
    EXPECT_EQ(times.engine_wait_ns, 0U);
    EXPECT_EQ(times.cu_wait_ns, 0U);
}

TEST_F(DeviceTest, PacketsComputeExpectedValues)
{
    Buffer data(device(), 3 * 4096);
    Buffer results(device(), 4096);
    const std::uint32_t marker[] = {0x11111111};
    PacketWriter sub;
    sub.write_data(results.gpu_address(48), marker).end();
    const Buffer second_level = Buffer::with_contents(device(), sub.dwords());

    PacketWriter w;
    w.nop(4)
        .fill(data.gpu_address(), 0x01020304, 4096)
        .copy(data.gpu_address(4096), data.gpu_address(), 4096)
        .atomic_add(results.gpu_address(0), 0x1'0000'0000)
        .atomic_inc(results.gpu_address(0))
        .write_timestamp(results.gpu_address(8))
        .wait_mem(results.gpu_address(0), tempo::Compare::Eq, 0x1'0000'0001)
        .batch_start(second_level.gpu_address())
        .dispatch_fill({.x = 4}, data.gpu_address(8192), 0xfeedf00d, 1024)
        .dispatch_atomic_inc({.x = 2, .y = 3}, results.gpu_address(16), 7)
        .dispatch_checksum({.x = 4}, data.gpu_address(), results.gpu_address(24), 1024)
        .dispatch_copy({.x = 1, .y = 1, .z = 2}, results.gpu_address(1024), data.gpu_address(8192),
                       64)
        .end();
    const Fence fence = run(w);
    EXPECT_EQ(fence.status(), 1);

    EXPECT_EQ(data.read_array<std::uint32_t>(0, 1024),
              std::vector<std::uint32_t>(1024, 0x01020304));
    EXPECT_EQ(data.read_array<std::uint32_t>(4096, 1024),
              std::vector<std::uint32_t>(1024, 0x01020304));
    EXPECT_EQ(data.read_array<std::uint32_t>(8192, 1024),
              std::vector<std::uint32_t>(1024, 0xfeedf00d));
    EXPECT_EQ(results.read<std::uint64_t>(0), 0x1'0000'0001U);
    EXPECT_GT(results.read<std::uint64_t>(8), 0U);
    EXPECT_EQ(results.read<std::uint64_t>(16), 6U * 7U);
    EXPECT_EQ(results.read<std::uint64_t>(24), std::uint64_t{1024} * 0x01020304U);
    EXPECT_EQ(results.read<std::uint32_t>(48), 0x11111111U);
    EXPECT_EQ(results.read_array<std::uint32_t>(1024, 32),
              std::vector<std::uint32_t>(32, 0xfeedf00d));
    EXPECT_EQ(results.read<std::uint32_t>(1024 + 128), 0U);
}

TEST_F(DeviceTest, TimelineSyncobj)
{
    const Engine engine = compute_engine();
    const Context context(device(), std::span{&engine, 1});
    Buffer target(device(), 4096);
    PacketWriter w;
    w.write_data(target.gpu_address(), 42U).end();
    const Buffer batch = Buffer::with_contents(device(), w.dwords());

    Syncobj timeline(device());
    const SyncPoint signal[] = {timeline.at(5)};
    EXPECT_EQ(signal[0], (SyncPoint{timeline.handle(), 5}));
    EXPECT_FALSE(context.submit({.slot = Slot{0}, .batch = batch.gpu_address(), .signal = signal})
                     .has_value());
    EXPECT_EQ(timeline.wait(5, job_wait), WaitResult::Signaled);
    EXPECT_EQ(timeline.last_signaled(), 5U);
    EXPECT_EQ(target.read<std::uint32_t>(0), 42U);
    EXPECT_EQ(timeline.wait(6, 10ms), WaitResult::Timeout);
    timeline.signal(6);
    EXPECT_EQ(timeline.wait(6, 0ns), WaitResult::Signaled);
    EXPECT_EQ(timeline.last_signaled(), 6U);
}

TEST_F(DeviceTest, TimelineEvents)
{
    const Engine engine = compute_engine();
    const Context context(device(), std::span{&engine, 1});
    Buffer counter(device(), 4096);
    PacketWriter w;
    w.atomic_inc(counter.gpu_address()).end();
    const Buffer batch = Buffer::with_contents(device(), w.dwords());

    tempo::Timeline timeline(device());
    EXPECT_EQ(timeline.last().point, 0U);
    for (int i = 0; i < 3; i++) {
        const SyncPoint signal[] = {timeline.next()};
        context.submit({.slot = Slot{0}, .batch = batch.gpu_address(), .signal = signal});
    }
    EXPECT_EQ(timeline.last(), (SyncPoint{timeline.syncobj().handle(), 3}));
    EXPECT_EQ(timeline.wait(job_wait), WaitResult::Signaled);
    EXPECT_EQ(timeline.syncobj().last_signaled(), 3U);
    EXPECT_EQ(counter.read<std::uint64_t>(0), 3U);
    EXPECT_EQ(timeline.wait(4, 1ms), WaitResult::Timeout);
}

TEST_F(DeviceTest, JobsWaitForEachOtherAcrossEngines)
{
    const auto copy = device().find_engine({EngineClass::Copy, 0});
    if (!copy)
        GTEST_SKIP() << "no copy engine";
    const Engine map[] = {compute_engine(), copy->engine};
    const Context context(device(), map);
    Buffer source(device(), 4096);
    Buffer flag(device(), 4096);
    Buffer destination(device(), 4096);

    // The first job waits for the CPU, so the second one must wait for it.
    PacketWriter first;
    first.wait_mem(flag.gpu_address(), tempo::Compare::Eq, 1)
        .fill(source.gpu_address(), 0x5eed5eed, 4096)
        .end();
    PacketWriter second;
    second.copy(destination.gpu_address(), source.gpu_address(), 4096).end();
    const Buffer b1 = Buffer::with_contents(device(), first.dwords());
    const Buffer b2 = Buffer::with_contents(device(), second.dwords());

    Syncobj binary(device());
    const SyncPoint sync[] = {binary.at()};
    context.submit({.slot = Slot{0}, .batch = b1.gpu_address(), .signal = sync});
    const auto fence = context.submit(
        {.slot = Slot{1}, .batch = b2.gpu_address(), .wait = sync, .out_fence = true});
    EXPECT_EQ(fence->wait(50ms), WaitResult::Timeout);
    flag.write<std::uint64_t>(0, 1);
    ASSERT_EQ(fence->wait(job_wait), WaitResult::Signaled);
    EXPECT_EQ(fence->status(), 1);
    EXPECT_EQ(destination.read_array<std::uint32_t>(0, 1024),
              std::vector<std::uint32_t>(1024, 0x5eed5eed));
}

TEST_F(DeviceTest, SubmitErrors)
{
    const Engine map[] = {{EngineClass::Copy, 0}, compute_engine()};
    if (!device().find_engine(map[0]))
        GTEST_SKIP() << "no copy engine";
    const Context context(device(), map);
    PacketWriter w;
    w.nop().end();
    const Buffer batch = Buffer::with_contents(device(), w.dwords());

    try {
        context.submit({.slot = Slot{2}, .batch = batch.gpu_address()});
        FAIL() << "submitted outside the engine map";
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.code(), std::errc::invalid_argument);
        EXPECT_EQ(std::string{e.what()},
                  "DRM_IOCTL_TEMPO_EXEC: context " + std::to_string(context.id().value()) +
                      ", slot 2 (outside the engine map of 2 slots), 1 batch, 0 waits, "
                      "0 signals: Invalid argument");
    }

    const SyncPoint unknown[] = {{tempo::SyncobjHandle{0xdead}, 0}};
    try {
        context.submit({.slot = Slot{1}, .batch = batch.gpu_address(), .wait = unknown});
        FAIL() << "waited on an unknown syncobj";
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.error_number(), ENOENT);
        EXPECT_EQ(e.operation(), "DRM_IOCTL_TEMPO_EXEC");
    }

    EXPECT_THROW(context.submit({.slot = Slot{0}}), std::invalid_argument);
}

// A file at its limit of jobs in flight: the next submit fails with EAGAIN
// at once, as Context::submit() documents, instead of retrying until a job
// ends. Should it retry, the jobs are released after a few seconds and the
// submit succeeds late: the test fails instead of hanging. Root lowers the
// limit (the default's 4096 submits outlast the job timeout on the debug
// kernel, and the waiting job would be stopped as hung).
TEST_F(DeviceTest, SubmitAtTheJobLimitFailsWithEagain)
{
    unsigned saved = 0;
    read_param("max_jobs", saved);
    const bool lowered = saved > 64 && write_param("max_jobs", 64);
    const std::uint32_t max_jobs = lowered ? 64U : device().info().limits.max_jobs;
    struct Restore {
        bool lowered;
        unsigned saved;
        ~Restore()
        {
            if (lowered)
                write_param("max_jobs", saved);
        }
    } restore{lowered, saved};

    Buffer flag(device(), 4096);
    PacketWriter w;
    w.wait_mem(flag.gpu_address(), tempo::Compare::Ne, 0).end();
    const Engine engine = compute_engine();
    const Context context(device(), std::span{&engine, 1});
    const Buffer batch = Buffer::with_contents(device(), w.dwords());
    for (std::uint32_t i = 0; i < max_jobs; i++)
        context.submit({.slot = Slot{0}, .batch = batch.gpu_address()});

    std::thread release([&flag] {
        std::this_thread::sleep_for(5s);
        flag.write<std::uint64_t>(0, 1);
    });
    const auto start = std::chrono::steady_clock::now();
    int error = 0;
    try {
        context.submit({.slot = Slot{0}, .batch = batch.gpu_address()});
    } catch (const tempo::Error& e) {
        error = e.error_number();
    }
    const auto took = std::chrono::steady_clock::now() - start;
    flag.write<std::uint64_t>(0, 1);
    release.join();
    EXPECT_EQ(error, EAGAIN);
    EXPECT_LT(took, 2s);
    const auto last =
        context.submit({.slot = Slot{0}, .batch = batch.gpu_address(), .out_fence = true});
    ASSERT_TRUE(last);
    EXPECT_EQ(last->wait(60s), WaitResult::Signaled);
}

// ---------------------------------------------------------------------------
// Fences and syncobjs

TEST_F(DeviceTest, FenceWaitAndStatus)
{
    Buffer flag(device(), 4096);
    Buffer target(device(), 4096);
    PacketWriter w;
    w.wait_mem(flag.gpu_address(), tempo::Compare::Ne, 0)
        .write_data(target.gpu_address(), 7U)
        .end();
    const Engine engine = compute_engine();
    const Context context(device(), std::span{&engine, 1});
    const Buffer batch = Buffer::with_contents(device(), w.dwords());
    const auto fence =
        context.submit({.slot = Slot{0}, .batch = batch.gpu_address(), .out_fence = true});
    ASSERT_TRUE(fence && fence->valid());

    EXPECT_EQ(fence->wait(0ns), WaitResult::Timeout);
    EXPECT_EQ(fence->wait(20ms), WaitResult::Timeout);
    EXPECT_EQ(fence->status(), 0);
    EXPECT_FALSE(fence->signaled());
    EXPECT_EQ(target.read<std::uint32_t>(0), 0U);

    flag.write<std::uint64_t>(0, 1);
    ASSERT_EQ(fence->wait(job_wait), WaitResult::Signaled);
    EXPECT_EQ(fence->status(), 1);
    EXPECT_TRUE(fence->signaled());
    EXPECT_EQ(fence->error(), 0);
    EXPECT_EQ(target.read<std::uint32_t>(0), 7U);
}

TEST_F(DeviceTest, GpuFaultIsEfaultOnTheFence)
{
    const auto& info = device().info();
    // Below va_start nothing can be mapped; va_end is past every mapping.
    const GpuAddress unmapped = info.va_start.value() >= 4096 ? GpuAddress{0} : info.va_end;
    PacketWriter w;
    w.write_data(unmapped, 1U).end();
    const Fence fence = run(w);
    EXPECT_EQ(fence.status(), -EFAULT);
    EXPECT_EQ(fence.error(), -EFAULT);
    EXPECT_TRUE(fence.signaled());
}

TEST_F(DeviceTest, WriteToReadOnlyMappingFaults)
{
    const Buffer read_only(device(), 4096, {.gpu_read_only = true});
    PacketWriter w;
    w.write_data(read_only.gpu_address(), 1U).end();
    EXPECT_EQ(run(w).status(), -EFAULT);
    EXPECT_EQ(read_only.read<std::uint32_t>(0), 0U);
}

TEST_F(DeviceTest, VmPrivateBufferIsWrittenAndNotExported)
{
    const Buffer target(device(), 4096, {.vm_private = true});
    PacketWriter w;
    w.write_data(target.gpu_address(8), 0x9a7eU).end();
    EXPECT_EQ(run(w).status(), 1);
    EXPECT_EQ(target.read<std::uint32_t>(8), 0x9a7eU);
    int dmabuf = -1;
    EXPECT_EQ(drmPrimeHandleToFD(device().fd(), target.handle().value(), DRM_CLOEXEC, &dmabuf), -1);
    EXPECT_EQ(errno, EINVAL);
}

TEST_F(DeviceTest, IllegalPacketsAreEilseq)
{
    PacketWriter w;
    const std::uint32_t illegal[] = {0x000100ff};
    w.raw(illegal).end();
    EXPECT_EQ(run(w).status(), -EILSEQ);

    const auto copy = device().find_engine({EngineClass::Copy, 0});
    if (!copy)
        return;
    Buffer target(device(), 4096);
    PacketWriter dispatch;
    dispatch.dispatch_fill({.x = 1}, target.gpu_address(), 1, 4096).end();
    EXPECT_EQ(run(dispatch, copy->engine).status(), -EILSEQ);
}

TEST_F(DeviceTest, BinarySyncobj)
{
    Syncobj s(device());
    EXPECT_NE(s.handle(), tempo::SyncobjHandle{});
    EXPECT_EQ(s.wait(0, 1ms), WaitResult::Timeout); // no fence yet
    s.signal();
    EXPECT_EQ(s.wait(0, 0ns), WaitResult::Signaled);
    s.reset();
    EXPECT_EQ(s.wait(0, 1ms), WaitResult::Timeout);

    const Syncobj signaled(device(), true);
    EXPECT_EQ(signaled.wait(), WaitResult::Signaled);
}

TEST_F(DeviceTest, SyncobjFenceExportImport)
{
    const Engine engine = compute_engine();
    const Context context(device(), std::span{&engine, 1});
    PacketWriter w;
    w.nop().end();
    const Buffer batch = Buffer::with_contents(device(), w.dwords());
    Syncobj out(device());
    const SyncPoint signal[] = {out.at()};
    context.submit({.slot = Slot{0}, .batch = batch.gpu_address(), .signal = signal});
    ASSERT_EQ(out.wait(0, job_wait), WaitResult::Signaled);

    const Fence fence = out.export_fence();
    ASSERT_TRUE(fence.valid());
    EXPECT_EQ(fence.wait(0ns), WaitResult::Signaled);
    EXPECT_EQ(fence.status(), 1);

    Syncobj imported(device());
    imported.import_fence(fence);
    EXPECT_EQ(imported.wait(0, 0ns), WaitResult::Signaled);
}

// ---------------------------------------------------------------------------
// Contexts

TEST_F(DeviceTest, ContextEngineMaps)
{
    const Context all(device());
    EXPECT_NE(all.id(), tempo::ContextId{});
    ASSERT_EQ(all.engine_map().size(), device().engines().size());
    for (std::size_t i = 0; i < device().engines().size(); i++)
        EXPECT_EQ(all.engine_map()[i], device().engines()[i].engine);

    const Engine map[] = {compute_engine(), compute_engine()};
    const Context twice(device(), map);
    EXPECT_NE(twice.id(), all.id());
    EXPECT_EQ(twice.slot_of(map[0]), Slot{0});
    EXPECT_EQ(twice.slot_of({EngineClass::Gfx, 200}), std::nullopt);

    const Engine unknown[] = {{EngineClass::Compute, 200}};
    try {
        const Context bad(device(), unknown);
        FAIL() << "created a context on compute:200";
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.error_number(), EINVAL);
        EXPECT_STREQ(e.what(), "DRM_IOCTL_TEMPO_CTX_CREATE: creating a context of priority "
                               "normal (0) with engine map [compute:200]: Invalid argument");
    }
}

TEST_F(DeviceTest, ContextPriority)
{
    Context context(device());
    EXPECT_EQ(context.priority(), Priority::Normal);
    context.set_priority(Priority::Low);
    EXPECT_EQ(context.priority(), Priority::Low);
    context.set_priority(Priority::VeryLow);
    EXPECT_EQ(context.priority(), Priority::VeryLow);
    context.set_priority(Priority{-100});
    EXPECT_EQ(context.priority(), Priority{-100});
    context.set_priority(Priority::Normal);
    EXPECT_EQ(context.priority(), Priority::Normal);

    const Context low(device(), Priority::Low);
    EXPECT_EQ(low.priority(), Priority::Low);

    Context moved = std::move(context);
    EXPECT_EQ(moved.priority(), Priority::Normal);
}

// The checks of an unprivileged caller; 0 when they pass, else a message.
int check_priority_not_permitted(const tempo::Device& device, std::string& message)
{
    if (device.max_priority() != Priority::Normal) {
        message = "ceiling is " + tempo::to_string(device.max_priority()) + ", not normal";
        return 1;
    }
    try {
        const Context c(device, Priority::High);
        message = "created a context of priority high";
        return 1;
    } catch (const tempo::Error& e) {
        const std::string expected = "DRM_IOCTL_TEMPO_CTX_CREATE: priority high (512) not "
                                     "permitted, the ceiling is normal (0): Permission denied";
        if (e.code() != std::errc::permission_denied || e.what() != expected) {
            message = std::string{"CTX_CREATE: "} + e.what();
            return 1;
        }
    }
    Context c(device);
    try {
        c.set_priority(Priority::VeryHigh);
        message = "raised a context to very-high";
        return 1;
    } catch (const tempo::Error& e) {
        const std::string expected = "DRM_IOCTL_TEMPO_CTX_SET_PARAM: priority very-high (1023) "
                                     "not permitted, the ceiling is normal (0): Permission denied";
        if (e.error_number() != EACCES || e.what() != expected) {
            message = std::string{"CTX_SET_PARAM: "} + e.what();
            return 1;
        }
    }
    if (c.priority() != Priority::Normal) {
        message = "a refused change changed the priority";
        return 1;
    }
    return 0;
}

TEST_F(DeviceTest, PriorityAboveCeilingIsNotPermitted)
{
    if (device().max_priority() < Priority::High) {
        std::string message;
        EXPECT_EQ(check_priority_not_permitted(device(), message), 0) << message;
        return;
    }
    // Privileged (root, CAP_SYS_NICE): check it in a child without CAP_SYS_NICE.
    const std::string path = device().path();
    const auto [status, message] = run_in_child([&](std::string& out) {
        if (!drop_cap_sys_nice()) {
            out = "cannot drop CAP_SYS_NICE";
            return 3;
        }
        const auto unprivileged = tempo::Device::open(path);
        if (unprivileged.max_priority() >= Priority::High) {
            out = "still privileged without CAP_SYS_NICE (DRM master?)";
            return 3;
        }
        return check_priority_not_permitted(unprivileged, out);
    });
    if (status == 3)
        GTEST_SKIP() << "running privileged: " << message;
    EXPECT_EQ(status, 0) << message;
}

TEST_F(DeviceTest, PrivilegedPriority)
{
    if (device().max_priority() < Priority::VeryHigh)
        GTEST_SKIP() << "needs CAP_SYS_NICE (the ceiling is "
                     << tempo::to_string(device().max_priority()) << ")";
    Context context(device(), Priority::VeryHigh);
    EXPECT_EQ(context.priority(), Priority::VeryHigh);
    context.set_priority(Priority::High);
    EXPECT_EQ(context.priority(), Priority::High);
}

// ---------------------------------------------------------------------------
// Tools and the documentation example

TEST_F(DeviceTest, TempoInfoRuns)
{
    const std::string tool = TEMPO_INFO_PATH;
    if (tool.empty())
        GTEST_SKIP() << "tempo-info is not built";
    const auto& info = device().info();

    const auto [status, text] = tempo_test::run_command(tool + " --device " + device().path());
    EXPECT_EQ(status, 0) << text;
    EXPECT_NE(text.find("tempo device " + device().path()), std::string::npos) << text;
    EXPECT_NE(text.find("hardware queues      " + std::to_string(info.num_hqds)), std::string::npos)
        << text;
    EXPECT_NE(text.find("compute units        " + std::to_string(info.num_cus)), std::string::npos)
        << text;
    for (const auto& engine : device().engines())
        EXPECT_NE(text.find("  " + to_string(engine.engine) + " "), std::string::npos)
            << to_string(engine.engine);

    const auto [json_status, json] =
        tempo_test::run_command(tool + " --json --device " + device().path());
    EXPECT_EQ(json_status, 0) << json;
    EXPECT_EQ(json.front(), '{');
    EXPECT_NE(json.find("\"num_hqds\": " + std::to_string(info.num_hqds) + ","), std::string::npos)
        << json;
    EXPECT_NE(json.find("\"num_cus\": " + std::to_string(info.num_cus) + ","), std::string::npos)
        << json;
    EXPECT_NE(json.find("\"value\": " + std::to_string(tempo::to_uapi(info.max_priority))),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("\"parallel_classes\": " + std::to_string(info.parallel_classes) + ","),
              std::string::npos)
        << json;
    EXPECT_NE(json.find("\"max_siblings\": " + std::to_string(info.max_siblings)),
              std::string::npos)
        << json;

    const auto [usage_status, usage] =
        tempo_test::run_command(tool + " --no-such-option 2>/dev/null");
    EXPECT_EQ(usage_status, 2);
}

TEST_F(DeviceTest, DocumentationExampleRuns)
{
    tempo_test::expect_example_prints(TEMPO_HELLO_PATH, "read back 0x600dcafe\n");
}

} // namespace
