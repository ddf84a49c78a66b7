// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * What every libtempo device test starts from: the device, or a skip
 * without one, and the examples of the documentation.
 */
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include <tempo/device.hpp>
#include <tempo/types.hpp>

#include "run_command.hpp"

namespace tempo_test {

/// How long a test waits for a job that must complete.
inline constexpr std::chrono::seconds job_wait{10};

/**
 * DeviceFixture - a test on the tempo device
 *
 * SetUp() opens the device ($TEMPO_DEVICE, else the first one) and skips
 * the test when there is none; with a device, it goes on with
 * SetUpDevice(), where a fixture that derives from it sets up the rest.
 */
class DeviceFixture : public ::testing::Test {
protected:
    void SetUp() final
    {
        device_ = tempo::Device::try_open();
        if (!device_)
            GTEST_SKIP() << "no tempo device (load tempo.ko, or run the tests in the VM: "
                            "tools/vm/run -- build/cmake/tests/libtempo_device_test)";
        SetUpDevice();
    }

    /// The fixture's own set-up, once the device is open (it may skip too).
    virtual void SetUpDevice() {}

    [[nodiscard]] const tempo::Device& device() const { return *device_; }

    /// compute:@instance, or the first engine of a device without it.
    [[nodiscard]] tempo::Engine compute_engine(std::uint16_t instance = 0) const
    {
        const tempo::Engine compute{tempo::EngineClass::Compute, instance};
        if (device().find_engine(compute))
            return compute;
        return device().engines().front().engine;
    }

    std::optional<tempo::Device> device_;
};

/**
 * Runs the documentation example built at @path and expects it to exit 0
 * and print @output; skips the test when the examples are not built
 * (@path is empty).
 */
inline void expect_example_prints(const std::string& path, const std::string& output)
{
    if (path.empty())
        GTEST_SKIP() << "the examples are not built";
    const auto [status, printed] = run_command(path);
    EXPECT_EQ(status, 0) << printed;
    EXPECT_EQ(printed, output);
}

} // namespace tempo_test
