// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-top against the device: this process keeps compute0 busy with
 * SPIN dispatches while "tempo-top --json --interval 500" measures, and
 * the snapshot must show the engine busy and this process as a client
 * with compute time. Skips without a tempo device; the engine checks skip
 * without the tempo debugfs directory (not root). Run it in the VM:
 *
 *   tools/vm/run -- build/cmake/tests/tempo_top_device_test
 */
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <optional>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <unistd.h>

#include <tempo/tempo.hpp>

#include "run_command.hpp"
#include "top.hpp"

namespace {

using namespace std::chrono_literals;

/// Output of a shell command (stdout only).
std::string run(const std::string& cmd)
{
    return tempo_test::run_command(cmd).second;
}

/// The number after the first "key": at or after @from, nullopt for null or none.
std::optional<double> number_after(const std::string& json, std::size_t from,
                                   const std::string& key)
{
    if (from == std::string::npos)
        return std::nullopt;
    const auto k = json.find("\"" + key + "\": ", from);
    if (k == std::string::npos)
        return std::nullopt;
    const char* start = json.c_str() + k + key.size() + 4;
    char* end = nullptr;
    const double v = std::strtod(start, &end);
    if (end == start)
        return std::nullopt;
    return v;
}

/// Keeps a few SPIN dispatches queued on compute0 until stopped.
class Spinner {
public:
    explicit Spinner(const tempo::Device& device)
        : context_(device),
          slot_(context_.slot_of({tempo::EngineClass::Compute, 0}).value_or(tempo::Slot{0}))
    {
        tempo::PacketWriter packets;
        packets.dispatch_spin({1, 1, 1}, 20'000'000).end(); // 20 ms
        batch_.emplace(tempo::Buffer::with_contents(device, packets.dwords()));
        thread_ = std::thread([this] { loop(); });
    }
    Spinner(const Spinner&) = delete;
    Spinner& operator=(const Spinner&) = delete;
    ~Spinner()
    {
        stop_ = true;
        thread_.join();
    }
    [[nodiscard]] std::uint64_t completed() const { return completed_; }
    [[nodiscard]] int first_error() const { return error_; }

private:
    void loop()
    {
        std::deque<tempo::Fence> fences;
        while (!stop_ || !fences.empty()) {
            while (!stop_ && fences.size() < 4)
                fences.push_back(*context_.submit(
                    {.slot = slot_, .batch = batch_->gpu_address(), .out_fence = true}));
            fences.front().wait(10s);
            if (fences.front().status() != 1 && !error_)
                error_ = fences.front().status();
            fences.pop_front();
            completed_++;
        }
    }

    tempo::Context context_;
    tempo::Slot slot_;
    std::optional<tempo::Buffer> batch_;
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> completed_{0};
    std::atomic<int> error_{0};
    std::thread thread_;
};

class TopDevice : public ::testing::Test {
protected:
    void SetUp() override
    {
        try {
            device_.emplace(tempo::Device::open());
        } catch (const tempo::Error& e) {
            GTEST_SKIP() << "no tempo device: " << e.what();
        }
    }

    /// tempo-top --json over 500 ms while compute0 spins.
    std::string snapshot_while_busy()
    {
        Spinner spin(*device_);
        std::this_thread::sleep_for(200ms); // the first jobs started
        auto json = run(std::string{TEMPO_TOP_PATH} + " --json --interval 500");
        EXPECT_GT(spin.completed(), 0U);
        EXPECT_EQ(spin.first_error(), 0);
        return json;
    }

    std::optional<tempo::Device> device_;
};

TEST_F(TopDevice, ClientShowsComputeBusy)
{
    const auto json = snapshot_while_busy();
    const auto me = json.find("\"pid\": " + std::to_string(::getpid()) + ",");
    ASSERT_NE(me, std::string::npos) << "this process is no client in:\n" << json;
    const auto compute = json.find("\"compute\": {", me);
    ASSERT_NE(compute, std::string::npos) << json;
    const auto busy = number_after(json, compute, "busy_percent");
    ASSERT_TRUE(busy.has_value()) << json;
    EXPECT_GT(*busy, 0.0) << json;
    EXPECT_GT(number_after(json, me, "total_memory").value_or(0), 0.0) << json;
}

TEST_F(TopDevice, EngineShowsBusy)
{
    if (!tempo::top::find_debugfs("/sys/kernel/debug"))
        GTEST_SKIP() << "no tempo debugfs directory (root? debugfs mounted?)";
    const auto json = snapshot_while_busy();
    const auto engine = json.find("\"name\": \"compute0\"");
    ASSERT_NE(engine, std::string::npos) << json;
    if (const auto busy = number_after(json, engine, "busy_percent")) {
        EXPECT_GT(*busy, 0.0) << json;
    } else {
        // A kernel without busy_ns: activity from completed jobs.
        EXPECT_GT(number_after(json, engine, "jobs_done").value_or(0), 0.0) << json;
    }
    EXPECT_GT(number_after(json, json.find("\"cus\": {"), "workgroups_done").value_or(0), 0.0)
        << json;
}

} // namespace
