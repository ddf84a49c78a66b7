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
#include <deque>
#include <nlohmann/json.hpp>
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

/// The JSON a shell command prints (null when it prints none).
nlohmann::json run_json(const std::string& cmd)
{
    auto json = nlohmann::json::parse(tempo_test::run_command(cmd).second, nullptr, false);
    return json.is_discarded() ? nlohmann::json{} : json;
}

/// The element of array @list whose @key is @value, or null.
nlohmann::json find_by(const nlohmann::json& list, const std::string& key,
                       const nlohmann::json& value)
{
    if (list.is_array())
        for (const auto& item : list)
            if (item.value(key, nlohmann::json{}) == value)
                return item;
    return nullptr;
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
    nlohmann::json snapshot_while_busy()
    {
        Spinner spin(*device_);
        std::this_thread::sleep_for(200ms); // the first jobs started
        auto json = run_json(std::string{TEMPO_TOP_PATH} + " --json --interval 500");
        EXPECT_GT(spin.completed(), 0U);
        EXPECT_EQ(spin.first_error(), 0);
        return json;
    }

    std::optional<tempo::Device> device_;
};

TEST_F(TopDevice, ClientShowsComputeBusy)
{
    auto json = snapshot_while_busy();
    ASSERT_TRUE(json.is_object()) << json;
    auto me = find_by(json["clients"], "pid", ::getpid());
    ASSERT_FALSE(me.is_null()) << "this process is no client in:\n" << json.dump(2);
    auto busy = me["engines"]["compute"]["busy_percent"];
    ASSERT_TRUE(busy.is_number()) << me.dump(2);
    EXPECT_GT(busy.get<double>(), 0.0) << me.dump(2);
    EXPECT_GT(me["total_memory"].get<double>(), 0.0) << me.dump(2);
}

TEST_F(TopDevice, EngineShowsBusy)
{
    if (!tempo::top::find_debugfs("/sys/kernel/debug"))
        GTEST_SKIP() << "no tempo debugfs directory (root? debugfs mounted?)";
    auto json = snapshot_while_busy();
    ASSERT_TRUE(json.is_object()) << json;
    auto engine = find_by(json["engines"], "name", "compute0");
    ASSERT_FALSE(engine.is_null()) << json.dump(2);
    if (engine["busy_percent"].is_number()) {
        EXPECT_GT(engine["busy_percent"].get<double>(), 0.0) << engine.dump(2);
    } else {
        // A kernel without busy_ns: activity from completed jobs.
        EXPECT_GT(engine["jobs_done"].get<double>(), 0.0) << engine.dump(2);
    }
    EXPECT_GT(json["cus"]["workgroups_done"].get<double>(), 0.0) << json["cus"].dump(2);
}

} // namespace
