// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-demo: runs a small workload on the tempo device and checks every
 * value it produced against the same computation on the CPU.
 *
 * On a compute engine, one batch:
 *   FILL packet        "filled" <- 0xc0ffee00
 *   WRITE_DATA         a few marker dwords into "results"
 *   WRITE_TIMESTAMP    start time
 *   DISPATCH CHECKSUM  sum of the dwords of "pattern" (CPU-written), per group
 *   DISPATCH COPY      "copied" <- "pattern", per group
 *   DISPATCH ATOMIC_INC every group adds its count to a counter
 *   ATOMIC INC packet  one more
 *   WRITE_TIMESTAMP    end time
 * then on a copy engine, after the first batch (timeline syncobj point 1):
 *   COPY packet        "copied_again" <- "copied"
 * The sync_files of both jobs say when they are done and whether they failed.
 */
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include <tempo/tempo.hpp>

#include "tooling/options.hpp"

namespace {

constexpr std::uint32_t groups = 16;
constexpr std::uint32_t bytes_per_group = 4096;
constexpr std::uint32_t size = groups * bytes_per_group;
constexpr std::uint32_t dwords = size / 4;
constexpr std::uint32_t fill_value = 0xc0ffee00;
constexpr std::uint32_t inc_groups = 8;
constexpr std::uint32_t inc_count = 1000;
constexpr std::uint32_t markers[] = {0x7e3b0001, 0x7e3b0002, 0x7e3b0003, 0x7e3b0004};

// Offsets in the results buffer.
constexpr std::size_t checksum_at = 0;
constexpr std::size_t counter_at = 8;
constexpr std::size_t start_at = 16;
constexpr std::size_t end_at = 24;
constexpr std::size_t markers_at = 32;

constexpr std::string_view usage_text = R"(Usage: tempo-demo [OPTIONS]

Run a verified sample workload on the tempo device: FILL, CHECKSUM, COPY and
ATOMIC_INC on a compute engine, then a COPY packet on a copy engine; every
result is compared with the CPU's.

Options:
  --device PATH    the DRM render node (default: $TEMPO_DEVICE, else the
                   first render node driven by tempo)
  -h, --help       this text

Exit status: 0 when the workload is verified, 1 otherwise.
)";

// A deterministic pseudo-random pattern (xorshift32).
std::vector<std::uint32_t> make_pattern()
{
    std::vector<std::uint32_t> pattern(dwords);
    std::uint32_t x = 0x2545f491;
    for (auto& word : pattern) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        word = x;
    }
    return pattern;
}

class Checker {
public:
    void expect(const char* what, std::uint64_t got, std::uint64_t expected)
    {
        if (got == expected)
            return;
        failures_++;
        std::printf("  %s: 0x%" PRIx64 ", expected 0x%" PRIx64 "\n", what, got, expected);
    }

    void expect_dwords(const char* what, const std::vector<std::uint32_t>& got,
                       const std::vector<std::uint32_t>& expected)
    {
        std::size_t differ = 0;
        for (std::size_t i = 0; i < expected.size(); i++) {
            if (got[i] == expected[i])
                continue;
            if (differ < 8)
                std::printf("  %s[%zu]: 0x%08x, expected 0x%08x\n", what, i, got[i], expected[i]);
            differ++;
        }
        if (differ) {
            std::printf("  %s: %zu of %zu dwords differ\n", what, differ, expected.size());
            failures_++;
        }
    }

    [[nodiscard]] int failures() const { return failures_; }

private:
    int failures_{0};
};

std::string class_counts(const tempo::Device& device)
{
    std::string text;
    for (auto c :
         {tempo::EngineClass::Gfx, tempo::EngineClass::Compute, tempo::EngineClass::Copy}) {
        if (!text.empty())
            text += ", ";
        text += std::to_string(device.engine_count(c)) + " " + tempo::to_string(c);
    }
    return text;
}

int run(const std::string& path)
{
    using tempo::Buffer;
    using tempo::EngineClass;

    const tempo::Device device = tempo::tooling::open_device(path);
    const auto& info = device.info();
    std::printf("tempo device %s: %u engines (%s), %u hardware queues, %u CUs\n",
                device.path().c_str(), info.num_engines, class_counts(device).c_str(),
                info.num_hqds, info.num_cus);

    // A compute engine for the dispatches (gfx runs them too), a copy engine for the copy.
    auto compute = device.find_engine({EngineClass::Compute, 0});
    if (!compute)
        compute = device.find_engine({EngineClass::Gfx, 0});
    if (!compute) {
        std::printf("workload failed: the device has no compute or gfx engine\n");
        return 1;
    }
    const auto copy = device.find_engine({EngineClass::Copy, 0}).value_or(*compute);
    const tempo::Engine map[] = {compute->engine, copy.engine};
    const tempo::Context context(device, map);
    std::printf("running on %s, then %s\n", tempo::to_string(map[0]).c_str(),
                tempo::to_string(map[1]).c_str());

    const auto pattern = make_pattern();
    Buffer source(device, size);
    Buffer filled(device, size);
    Buffer copied(device, size);
    Buffer copied_again(device, size);
    Buffer results(device, 4096);
    source.write_array<std::uint32_t>(0, pattern);
    results.write<std::uint64_t>(checksum_at, 0);
    results.write<std::uint64_t>(counter_at, 0);

    tempo::PacketWriter compute_batch;
    compute_batch.fill(filled.gpu_address(), fill_value, size)
        .write_data(results.gpu_address(markers_at), markers)
        .write_timestamp(results.gpu_address(start_at))
        .dispatch_checksum({.x = groups}, source.gpu_address(), results.gpu_address(checksum_at),
                           bytes_per_group)
        .dispatch_copy({.x = groups / 4, .y = 4}, copied.gpu_address(), source.gpu_address(),
                       bytes_per_group)
        .dispatch_atomic_inc({.x = inc_groups}, results.gpu_address(counter_at), inc_count)
        .atomic_inc(results.gpu_address(counter_at))
        .write_timestamp(results.gpu_address(end_at))
        .end();
    tempo::PacketWriter copy_batch;
    copy_batch.copy(copied_again.gpu_address(), copied.gpu_address(), size).end();
    const Buffer batch1 = Buffer::with_contents(device, compute_batch.dwords());
    const Buffer batch2 = Buffer::with_contents(device, copy_batch.dwords());

    tempo::Syncobj timeline(device);
    const tempo::SyncPoint first[] = {timeline.at(1)};
    const tempo::SyncPoint second[] = {timeline.at(2)};
    const auto compute_fence = context.submit({.slot = tempo::Slot{0},
                                               .batch = batch1.gpu_address(),
                                               .signal = first,
                                               .out_fence = true});
    const auto copy_fence = context.submit({.slot = tempo::Slot{1},
                                            .batch = batch2.gpu_address(),
                                            .wait = first,
                                            .signal = second,
                                            .out_fence = true});

    const auto timeout = 4 * std::max(info.job_timeout, std::chrono::milliseconds{1000});
    for (const auto* fence : {&*compute_fence, &*copy_fence}) {
        const char* job = fence == &*compute_fence ? "compute" : "copy";
        if (fence->wait(timeout) == tempo::WaitResult::Timeout) {
            std::printf("workload failed: the %s job did not complete within %lld ms\n", job,
                        static_cast<long long>(timeout.count()));
            return 1;
        }
        if (const int status = fence->status(); status != 1) {
            std::printf("workload failed: the fence of the %s job signalled %d (%s)\n", job, status,
                        std::strerror(-status));
            return 1;
        }
    }

    std::uint64_t sum = 0;
    for (const std::uint32_t word : pattern)
        sum += word;
    const std::uint64_t counter = std::uint64_t{inc_groups} * inc_count + 1;

    Checker check;
    check.expect_dwords("filled", filled.read_array<std::uint32_t>(0, dwords),
                        std::vector<std::uint32_t>(dwords, fill_value));
    check.expect_dwords("markers", results.read_array<std::uint32_t>(markers_at, 4),
                        {std::begin(markers), std::end(markers)});
    check.expect("checksum", results.read<std::uint64_t>(checksum_at), sum);
    check.expect_dwords("copied", copied.read_array<std::uint32_t>(0, dwords), pattern);
    check.expect("counter", results.read<std::uint64_t>(counter_at), counter);
    check.expect_dwords("copied_again", copied_again.read_array<std::uint32_t>(0, dwords), pattern);
    const auto start = results.read<std::uint64_t>(start_at);
    const auto end = results.read<std::uint64_t>(end_at);
    if (start == 0 || end < start) {
        std::printf("  timestamps: start %" PRIu64 ", end %" PRIu64 "\n", start, end);
        check.expect("timestamp order", 0, 1);
    }
    if (check.failures()) {
        std::printf("workload FAILED: %d check(s) differ from the CPU's results\n",
                    check.failures());
        return 1;
    }

    const double gpu_us =
        info.timestamp_frequency
            ? static_cast<double>(end - start) * 1e6 / static_cast<double>(info.timestamp_frequency)
            : 0.0;
    std::printf("workload verified: FILL %u KiB, CHECKSUM 0x%" PRIx64 " over %u groups, "
                "COPY kernel %u KiB, ATOMIC_INC %ux%u+1 = %" PRIu64 " on %s; "
                "COPY packet %u KiB on %s; %.1f us of GPU time\n",
                size / 1024, sum, groups, size / 1024, inc_groups, inc_count, counter,
                tempo::to_string(map[0]).c_str(), size / 1024, tempo::to_string(map[1]).c_str(),
                gpu_us);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::string path;
    for (int i = 1; i < argc; i++) {
        const std::string_view arg{argv[i]};
        try {
            if (arg == "-h" || arg == "--help") {
                std::cout << usage_text;
                return 0;
            } else if (auto d = tempo::tooling::option_value(argc, argv, i, "--device")) {
                path = std::string{*d};
            } else {
                throw tempo::tooling::UsageError("unknown argument: " + std::string{arg});
            }
        } catch (const tempo::tooling::UsageError& e) {
            std::cerr << "tempo-demo: " << e.what() << "\n\n" << usage_text;
            return 2;
        }
    }
    try {
        return run(path);
    } catch (const std::exception& e) {
        std::printf("workload failed: %s\n", e.what());
        return 1;
    }
}
